package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.LeaseOption;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The client's registry key against a real etcd that restarts under it. */
class DriverRegistryIT {

  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  @Test
  void should_keep_the_same_key_and_lease_when_etcd_restarts_within_the_lease_ttl()
      throws Exception {
    // Given a registered client
    LocalCluster cluster = LocalCluster.start(fixture, "keepalive", 16, 1, 0);
    Client etcd = fixture.register(cluster.etcd().newClient());
    JumpgateClient client =
        fixture.register(
            JumpgateClient.create(
                JumpgateOptions.builder()
                    .clientId("keepalive-it")
                    .etcd(cluster.etcdOptions())
                    .build()));
    String key = cluster.root() + "clients/" + client.clientId().orElseThrow();
    AtomicReference<KeyValue> entry = new AtomicReference<>();
    Poll.until(Duration.ofSeconds(5), "the registration " + key, () -> read(etcd, key, entry));
    KeyValue before = entry.get();

    // When etcd restarts (stopped, started again on the same data), well within the lease's TTL:
    // the keep-alive stream breaks, and jetcd tells its observer onError
    long restartStart = System.nanoTime();
    cluster.etcd().member(0).restart();
    long restartMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartStart);
    System.out.println("etcd restarted in " + restartMillis + " ms");
    // and the map changes after it, so that the client writes its key again
    long changed =
        cluster.putValue(
            LocalCluster.shardKey(3), LocalCluster.assignmentJson("leader-0", List.of(), 1));
    Poll.until(
        Duration.ofSeconds(15),
        key + " at revision " + changed,
        () -> read(etcd, key, entry) && registeredRevision(entry.get()) >= changed);

    // Then the key was never deleted and created again, and it is bound to the same lease
    KeyValue after = entry.get();
    assertThat(after.getCreateRevision())
        .as(
            "create revision of %s after an etcd restart (before: %d, lease %x; after: lease %x)",
            key, before.getCreateRevision(), before.getLease(), after.getLease())
        .isEqualTo(before.getCreateRevision());
    assertThat(after.getLease())
        .as("lease of %s after an etcd restart", key)
        .isEqualTo(before.getLease());

    // and that lease is still kept alive by the client: its TTL goes up again after it fell
    AtomicLong lowest = new AtomicLong(Long.MAX_VALUE);
    Poll.until(
        Duration.ofSeconds(10),
        "a keep-alive of lease " + Long.toHexString(before.getLease()) + " after the restart",
        () -> {
          long ttl =
              etcd.getLeaseClient()
                  .timeToLive(before.getLease(), LeaseOption.DEFAULT)
                  .get(5, TimeUnit.SECONDS)
                  .getTTL();
          assertThat(ttl).as("seconds left on lease %x", before.getLease()).isPositive();
          return ttl > lowest.getAndAccumulate(ttl, Math::min);
        });
  }

  private static boolean read(Client etcd, String key, AtomicReference<KeyValue> entry)
      throws Exception {
    List<KeyValue> found =
        etcd.getKVClient()
            .get(ByteSequence.from(key, StandardCharsets.UTF_8))
            .get(5, TimeUnit.SECONDS)
            .getKvs();
    entry.set(found.isEmpty() ? null : found.get(0));
    return !found.isEmpty();
  }

  private static long registeredRevision(KeyValue entry) throws Exception {
    return JSON.readTree(entry.getValue().getBytes()).get("revision").asLong();
  }
}
