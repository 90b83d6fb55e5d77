package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jumpgate.topology.TopologyKeys;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The registration's life against an in-memory etcd, in virtual time. */
class ClientRegistrationTest {

  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final Instant SINCE = Instant.parse("2026-11-21T10:00:00.123Z");

  private final ManualScheduler scheduler = new ManualScheduler();
  private final FakeRegistryStore store = new FakeRegistryStore(scheduler::nanoTime);

  private ClientRegistration start(long revision) {
    ClientRegistration registration =
        new ClientRegistration(
            store,
            scheduler,
            "prod",
            "app-3:4242:abc123",
            "etcd http://127.0.0.1:2379",
            new ClientRegistration.Identity("app-3", 4242, SINCE, "1.2.3", "prod"),
            revision,
            ClientRegistration.LEASE_TTL,
            ClientRegistration.MIN_UPDATE_INTERVAL,
            TIMEOUT,
            Duration.ofMillis(100),
            Duration.ofSeconds(2));
    registration.start();
    scheduler.runDue();
    return registration;
  }

  private static JsonNode json(FakeRegistryStore.Put put) throws Exception {
    return new ObjectMapper().readTree(put.value());
  }

  @Test
  void should_write_the_contract_value_under_a_kept_alive_lease() throws Exception {
    ClientRegistration registration = start(1234);

    assertThat(store.puts).hasSize(1);
    FakeRegistryStore.Put put = store.lastPut();
    assertThat(put.key()).isEqualTo("/jumpgate/prod/clients/app-3:4242:abc123");
    assertThat(registration.key()).isEqualTo(put.key());
    assertThat(store.liveLeases).containsExactly(put.lease());
    assertThat(store.keepAlives).containsOnlyKeys(put.lease());
    JsonNode value = json(put);
    assertThat(value.get("host").asText()).isEqualTo("app-3");
    assertThat(value.get("pid").asLong()).isEqualTo(4242);
    assertThat(value.get("revision").asLong()).isEqualTo(1234);
    assertThat(value.get("since").asText()).isEqualTo("2026-11-21T10:00:00Z");
    assertThat(value.get("version").asText()).isEqualTo("1.2.3");
    assertThat(value.get("cluster").asText()).isEqualTo("prod");
    assertThat(registration.registrations()).isEqualTo(1);
  }

  @Test
  void should_write_a_new_revision_at_once_after_a_quiet_second() throws Exception {
    ClientRegistration registration = start(10);
    scheduler.advance(5 * SECOND);
    long before = scheduler.nanoTime();
    registration.revisionApplied(11);
    scheduler.runDue();
    assertThat(store.puts).hasSize(2);
    assertThat(json(store.lastPut()).get("revision").asLong()).isEqualTo(11);
    assertThat(store.lastPut().nanoTime()).isEqualTo(before);
    // the same revision again: nothing to write
    registration.revisionApplied(11);
    scheduler.advance(5 * SECOND);
    assertThat(store.puts).hasSize(2);
  }

  @Test
  void should_write_an_urgent_drained_revision_at_once_even_right_after_a_write() throws Exception {
    ClientRegistration registration = start(10);
    scheduler.advance(5 * SECOND);
    registration.revisionApplied(11);
    scheduler.runDue();
    int before = store.puts.size();
    long at = scheduler.nanoTime();

    // a freeze at revision 12, acknowledged within the second after the last write
    registration.drained(12, true);
    scheduler.runDue();

    assertThat(store.puts).hasSize(before + 1);
    assertThat(store.lastPut().nanoTime()).isEqualTo(at);
    assertThat(json(store.lastPut()).get("drained").asLong()).isEqualTo(12);
    assertThat(json(store.lastPut()).get("revision").asLong()).isEqualTo(12);
  }

  @Test
  void should_carry_a_drained_revision_nobody_waits_for_with_the_next_update() throws Exception {
    ClientRegistration registration = start(10);
    scheduler.advance(5 * SECOND);
    registration.revisionApplied(11);
    scheduler.runDue();
    int before = store.puts.size();

    registration.drained(12, false);
    scheduler.runDue();
    assertThat(store.puts).hasSize(before);

    scheduler.advance(2 * SECOND);
    assertThat(store.puts).hasSize(before + 1);
    assertThat(json(store.lastPut()).get("drained").asLong()).isEqualTo(12);
  }

  @Test
  void should_coalesce_a_burst_of_100_revisions_in_a_second_into_two_writes() throws Exception {
    ClientRegistration registration = start(10);
    scheduler.advance(5 * SECOND);
    int before = store.puts.size();
    long burstStart = scheduler.nanoTime();
    for (long revision = 11; revision <= 110; revision++) {
      registration.revisionApplied(revision);
      scheduler.advance(10 * MS); // 100 revisions over one second
    }
    scheduler.advance(2 * SECOND);
    var written = store.puts.subList(before, store.puts.size());
    assertThat(written).hasSize(2);
    assertThat(json(written.get(0)).get("revision").asLong()).isEqualTo(11);
    assertThat(json(written.get(1)).get("revision").asLong()).isEqualTo(110);
    // at most one write per second
    assertThat(written.get(1).nanoTime() - written.get(0).nanoTime())
        .isGreaterThanOrEqualTo(SECOND);
    assertThat(written.get(1).nanoTime() - burstStart).isLessThanOrEqualTo(SECOND + 10 * MS);
  }

  @Test
  void should_never_write_an_older_revision() throws Exception {
    ClientRegistration registration = start(10);
    scheduler.advance(5 * SECOND);
    registration.revisionApplied(20);
    registration.revisionApplied(15);
    scheduler.advance(5 * SECOND);
    assertThat(json(store.lastPut()).get("revision").asLong()).isEqualTo(20);
  }

  @Test
  void should_register_again_under_a_new_lease_when_the_lease_is_lost() throws Exception {
    ClientRegistration registration = start(10);
    long first = store.lastPut().lease();
    registration.revisionApplied(12);
    scheduler.advance(2 * SECOND);

    store.loseLease(
        first, new RuntimeException("NOT_FOUND: etcdserver: requested lease not found"));
    scheduler.runDue();

    assertThat(store.puts).hasSize(3);
    FakeRegistryStore.Put again = store.lastPut();
    assertThat(again.lease()).isNotEqualTo(first);
    assertThat(store.keepAlives).containsOnlyKeys(again.lease());
    assertThat(json(again).get("revision").asLong()).isEqualTo(12);
    assertThat(registration.registrations()).isEqualTo(2);
  }

  @Test
  void should_register_again_when_the_keep_alive_ends_without_an_error() {
    ClientRegistration registration = start(10);
    long first = store.lastPut().lease();
    store.loseLease(first, null); // jetcd: onCompleted, no answer for a whole TTL
    scheduler.runDue();
    assertThat(registration.registrations()).isEqualTo(2);
    assertThat(store.lastPut().lease()).isNotEqualTo(first);
  }

  @Test
  void should_keep_the_lease_and_the_key_when_the_keep_alive_stream_breaks() throws Exception {
    // Given a registered client
    ClientRegistration registration = start(10);
    long lease = store.lastPut().lease();

    // When its keep-alive stream fails again and again while etcd restarts, and etcd does not
    // answer the first two checks either
    store.failingTimeToLives = 2;
    RuntimeException unavailable = new RuntimeException("UNAVAILABLE: io exception");
    for (int repeat = 0; repeat < 4; repeat++) {
      store.breakKeepAlive(lease, unavailable);
      scheduler.advance(10 * MS);
    }
    scheduler.advance(5 * SECOND);

    // Then the lease is neither revoked nor replaced, the key is not written again, and the same
    // lease is kept alive
    assertThat(store.revoked).as("leases revoked after a transient keep-alive error").isEmpty();
    assertThat(store.grants).as("leases granted").isEqualTo(1);
    assertThat(store.puts).as("writes of the registry key").hasSize(1);
    assertThat(store.keepAlives).containsOnlyKeys(lease);
    assertThat(store.timeToLives).as("time-to-live checks (two failed, one answered)").isEqualTo(3);
    assertThat(registration.registrations()).isEqualTo(1);
    assertThat(registration.keepAliveReopens()).isEqualTo(1);

    // and an update after it goes under the same lease
    registration.revisionApplied(11);
    scheduler.runDue();
    assertThat(store.lastPut().lease()).isEqualTo(lease);
    assertThat(json(store.lastPut()).get("revision").asLong()).isEqualTo(11);
  }

  @Test
  void should_keep_the_lease_when_the_keep_alive_gives_up_but_etcd_still_knows_it() {
    // jetcd's onCompleted after no answer for a TTL, while etcd renewed the lease on a restart
    ClientRegistration registration = start(10);
    long lease = store.lastPut().lease();
    store.keepAlives.remove(lease).keepAliveBroken(null);
    scheduler.runDue();
    assertThat(store.revoked).isEmpty();
    assertThat(store.grants).isEqualTo(1);
    assertThat(store.keepAlives).containsOnlyKeys(lease);
    assertThat(registration.registrations()).isEqualTo(1);
  }

  @Test
  void should_register_again_when_the_keep_alive_breaks_and_etcd_no_longer_knows_the_lease() {
    ClientRegistration registration = start(10);
    long lease = store.lastPut().lease();
    store.liveLeases.remove(lease); // expired while etcd was out of reach
    store.breakKeepAlive(lease, new RuntimeException("UNAVAILABLE: io exception"));
    scheduler.runDue();
    assertThat(store.timeToLives).isEqualTo(1);
    assertThat(registration.registrations()).isEqualTo(2);
    assertThat(store.lastPut().lease()).isNotEqualTo(lease);
    assertThat(store.keepAlives).containsOnlyKeys(store.lastPut().lease());
  }

  @Test
  void should_stop_checking_a_lease_when_the_client_closes() {
    ClientRegistration registration = start(10);
    long lease = store.lastPut().lease();
    store.failingTimeToLives = 1_000;
    store.breakKeepAlive(lease, new RuntimeException("UNAVAILABLE: io exception"));
    scheduler.advance(SECOND);
    int checks = store.timeToLives;
    CompletableFuture<Void> closed = registration.close();
    scheduler.advance(10 * SECOND);
    assertThat(closed).isCompleted();
    assertThat(store.revoked).containsExactly(lease);
    assertThat(store.timeToLives).isEqualTo(checks);
    assertThat(store.grants).isEqualTo(1);
  }

  @Test
  void should_register_again_when_an_update_finds_the_lease_gone() throws Exception {
    ClientRegistration registration = start(10);
    long first = store.lastPut().lease();
    store.liveLeases.remove(first); // revoked behind its back, keep-alive not told yet
    scheduler.advance(2 * SECOND);
    registration.revisionApplied(11);
    scheduler.runDue();
    assertThat(registration.registrations()).isEqualTo(2);
    assertThat(store.lastPut().lease()).isNotEqualTo(first);
    assertThat(json(store.lastPut()).get("revision").asLong()).isEqualTo(11);
  }

  @Test
  void should_retry_with_a_growing_backoff_while_etcd_fails() {
    store.failingGrants = 4;
    ClientRegistration registration = start(10);
    assertThat(store.puts).isEmpty();
    assertThat(store.grants).isEqualTo(2); // the first try and one at once
    scheduler.advance(100 * MS);
    assertThat(store.grants).isEqualTo(3); // after 50..100 ms
    scheduler.advance(200 * MS);
    assertThat(store.grants).isEqualTo(4); // after 100..200 ms more
    scheduler.advance(400 * MS);
    assertThat(store.grants).isEqualTo(5); // after 200..400 ms more: succeeds
    assertThat(store.puts).hasSize(1);
    assertThat(registration.registrations()).isEqualTo(1);
  }

  @Test
  void should_retry_a_failed_update_without_losing_the_revision() throws Exception {
    ClientRegistration registration = start(10);
    scheduler.advance(2 * SECOND);
    store.failingPuts = 1;
    registration.revisionApplied(11);
    scheduler.advance(5 * SECOND);
    assertThat(json(store.lastPut()).get("revision").asLong()).isEqualTo(11);
    assertThat(registration.registrations()).isEqualTo(1);
  }

  @Test
  void should_give_up_on_a_call_that_never_answers_after_the_timeout() {
    store.hangingGrants = 1;
    ClientRegistration registration = start(10);
    assertThat(store.puts).isEmpty();
    scheduler.advance(TIMEOUT.toNanos() - MS);
    assertThat(store.grants).isEqualTo(1);
    scheduler.advance(MS);
    assertThat(store.grants).isEqualTo(2);
    assertThat(store.puts).hasSize(1);
    assertThat(registration.registrations()).isEqualTo(1);
    // the lease the hung call grants late is revoked
    long late = store.newLease();
    store.pendingGrants.get(0).complete(late);
    scheduler.runDue();
    assertThat(store.revoked).contains(late);
  }

  @Test
  void should_revoke_the_lease_and_release_etcd_on_close() {
    ClientRegistration registration = start(10);
    long lease = store.lastPut().lease();
    CompletableFuture<Void> closed = registration.close();
    scheduler.runDue();
    assertThat(closed).isCompleted();
    assertThat(store.revoked).containsExactly(lease);
    assertThat(store.keepAlives).isEmpty();
    assertThat(store.closed).isTrue();
    assertThat(scheduler.isShutdown()).isTrue();
    registration.revisionApplied(11); // after close: ignored, no error
    assertThat(store.puts).hasSize(1);
    assertThat(registration.close()).isCompleted();
  }

  @Test
  void should_not_keep_the_closing_caller_waiting_when_etcd_does_not_answer() {
    ClientRegistration registration = start(10);
    store.hangingRevokes = true;
    CompletableFuture<Void> closed = registration.close();
    scheduler.advance(ClientRegistration.MAX_CLOSE_WAIT.toNanos() - MS);
    assertThat(closed).isNotCompleted();
    scheduler.advance(MS);
    assertThat(closed).isCompleted();
    assertThat(store.closed).isFalse(); // the revoke is still bounded by the request timeout
    scheduler.advance(TIMEOUT.toNanos());
    assertThat(store.closed).isTrue();
    assertThat(scheduler.isShutdown()).isTrue();
  }

  @Test
  void should_revoke_a_lease_granted_while_closing() {
    store.hangingGrants = 1;
    ClientRegistration registration = start(10);
    CompletableFuture<Void> closed = registration.close();
    scheduler.advance(ClientRegistration.MAX_CLOSE_WAIT.toNanos() / 2);
    assertThat(closed).isNotCompleted();
    long lease = store.newLease();
    store.pendingGrants.get(0).complete(lease);
    scheduler.runDue();
    assertThat(closed).isCompleted();
    assertThat(store.puts).isEmpty();
    assertThat(store.revoked).containsExactly(lease);
    assertThat(store.closed).isTrue();
  }

  @Test
  void should_make_a_valid_default_id_from_host_pid_and_random() {
    assertThat(ClientRegistration.defaultClientId("app-3.example.com", 4242, 0xabc123))
        .isEqualTo("app-3.example.com:4242:abc123");
    assertThat(ClientRegistration.defaultClientId("my host/ü", 7, 1))
        .isEqualTo("my-host--:7:000001");
    String longHost = "h".repeat(300);
    String id = ClientRegistration.defaultClientId(longHost, 123456, -1);
    assertThat(id).hasSizeLessThanOrEqualTo(128).endsWith(":123456:ffffff");
    assertThat(TopologyKeys.CLIENT_ID_PATTERN.matcher(id).matches()).isTrue();
    assertThat(
            TopologyKeys.CLIENT_ID_PATTERN.matcher(ClientRegistration.defaultClientId()).matches())
        .isTrue();
  }

  @Test
  void should_refuse_a_bad_client_id() {
    assertThatThrownBy(() -> ClientRegistration.requireClientId("a b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'a b'");
  }
}
