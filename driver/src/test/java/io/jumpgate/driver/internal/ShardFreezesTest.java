package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.ClientClosedException;
import io.jumpgate.driver.CommandFailedException;
import io.jumpgate.driver.Outcome;
import io.jumpgate.driver.ShardFrozenException;
import io.lettuce.core.RedisException;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The client's part in a migration's cutover, over fake nodes and a virtual clock: requests to a
 * frozen shard are held in order and sent where the newer map says; bounds fail them unsent; the
 * freeze is acknowledged only once nothing routed with an older map can still reach the old leader.
 */
class ShardFreezesTest extends DispatcherHarness {

  private final List<Long> drained = new CopyOnWriteArrayList<>();

  private List<RedisCommand<?, ?, ?>> incrementsAt(FakeNodes.Connection connection) {
    List<RedisCommand<?, ?, ?>> increments = new ArrayList<>();
    synchronized (connection.dispatched) {
      for (RedisCommand<?, ?, ?> command : connection.dispatched) {
        if (command.getType() == CommandType.INCR) {
          increments.add(command);
        }
      }
    }
    return increments;
  }

  private List<RedisCommand<?, ?, ?>> pingsAt(FakeNodes.Connection connection) {
    List<RedisCommand<?, ?, ?>> pings = new ArrayList<>();
    synchronized (connection.dispatched) {
      for (RedisCommand<?, ?, ?> command : connection.dispatched) {
        if (command.getType() == CommandType.PING) {
          pings.add(command);
        }
      }
    }
    return pings;
  }

  /** Starts on a, with a's connection open (one answered GET). */
  private void startConnected() {
    start();
    dispatcher.drainListener((revision, urgent) -> drained.add(revision));
    RoutedCommand<String, String, String> warm = get();
    at(a).writeLast().complete();
    assertThat(warm).isCompleted();
  }

  // ---- holding ---------------------------------------------------------------------------------

  private List<RedisCommand<?, ?, ?>> msetsAt(FakeNodes.Connection connection) {
    List<RedisCommand<?, ?, ?>> msets = new ArrayList<>();
    synchronized (connection.dispatched) {
      for (RedisCommand<?, ?, ?> command : connection.dispatched) {
        if (command.getType() == CommandType.MSET) {
          msets.add(command);
        }
      }
    }
    return msets;
  }

  /** A fan-out part of shard 0, grouped onto the node the table in force names for it, sent. */
  private RoutedCommand<String, String, String> msetPart() {
    RoutingTable grouped = dispatcher.table();
    return msetPart(dispatcher.nodeFor(CommandFlags.WRITE, 0, grouped), grouped);
  }

  /** A fan-out part of shard 0, grouped onto {@code node} under {@code grouped}, sent. */
  private RoutedCommand<String, String, String> msetPart(NodeHandle node, RoutingTable grouped) {
    long now = scheduler.nanoTime();
    return dispatcher.send(
        executor.groupPart(
            CommandType.MSET,
            node,
            new int[] {0},
            new int[] {0},
            grouped.generation(),
            executor.args("k").addValue("v"),
            Outputs.status(),
            CommandFlags.WRITE,
            now,
            now + TIMEOUT.toNanos(),
            null));
  }

  @Test
  void should_send_a_held_fan_out_part_to_the_new_leader_when_the_freeze_ends() {
    // Given an MSET part grouped onto a while a's shard 0 is frozen: held
    startConnected();
    publish(a, true, true);
    RoutedCommand<String, String, String> part = msetPart();
    assertThat(dispatcher.heldRequests()).isEqualTo(1);

    // When the cutover gives shard 0 to b
    publish(b);

    // Then the part goes to b, never to a (the old leader that acknowledged the freeze)
    assertThat(msetsAt(at(a))).isEmpty();
    assertThat(msetsAt(at(b))).hasSize(1);
    msetsAt(at(b)).get(0).complete();
    assertThat(part).isCompleted();
  }

  @Test
  void should_send_a_fan_out_part_grouped_with_an_older_map_to_the_leader_now() {
    // Given an MSET part grouped onto a, and a cutover that gives shard 0 to b before it is sent
    startConnected();
    RoutingTable older = dispatcher.table();
    NodeHandle groupedOnto = dispatcher.nodeFor(CommandFlags.WRITE, 0, older);
    publish(b);

    // When the part is sent
    RoutedCommand<String, String, String> part = msetPart(groupedOnto, older);

    // Then it goes to b, the leader in the table in force, not to a
    assertThat(msetsAt(at(a))).isEmpty();
    assertThat(msetsAt(at(b))).hasSize(1);
    msetsAt(at(b)).get(0).complete();
    assertThat(part).isCompleted();
  }

  @Test
  void should_hold_writes_to_a_frozen_shard_and_send_them_in_order_to_the_new_leader() {
    startConnected();
    publish(a, true, true);
    List<RoutedCommand<String, String, Long>> held = List.of(incr(), incr(), incr());

    assertThat(incrementsAt(at(a))).isEmpty();
    assertThat(dispatcher.heldRequests()).isEqualTo(3);

    publish(b); // the cutover: b leads shard 0, active
    List<RedisCommand<?, ?, ?>> sent = incrementsAt(at(b));
    assertThat(sent).hasSize(3);
    for (int index = 0; index < 3; index++) {
      // each held command's own try, in the order the caller issued them
      sent.get(index).complete();
      assertThat(held.get(index)).isCompleted();
      for (int later = index + 1; later < 3; later++) {
        assertThat(held.get(later)).isNotDone();
      }
    }
    assertThat(incrementsAt(at(a))).isEmpty();
    assertThat(dispatcher.heldRequests()).isZero();
  }

  @Test
  void should_send_held_requests_to_the_old_leader_when_the_lock_goes_away() {
    startConnected();
    publish(a, true, true);
    RoutedCommand<String, String, Long> held = incr();
    assertThat(incrementsAt(at(a))).isEmpty();

    publish(a, true, false); // the mover died: its lease and lock expired, the freeze is void

    assertThat(incrementsAt(at(a))).hasSize(1);
    at(a).last().complete();
    assertThat(held).isCompleted();
  }

  @Test
  void should_not_hold_a_frozen_shard_whose_migration_has_no_live_lock() {
    startConnected();
    publish(a, true, false);

    incr();

    assertThat(incrementsAt(at(a))).hasSize(1);
    assertThat(dispatcher.heldRequests()).isZero();
  }

  @Test
  void should_fail_a_held_request_unsent_when_it_was_held_for_the_max_wait() {
    startConnected();
    publish(a, true, true);
    RoutedCommand<String, String, Long> held = incr();

    scheduler.advance(FREEZE_WAIT.toNanos());

    Throwable failure = failureOf(held);
    assertThat(failure).isInstanceOf(ShardFrozenException.class).hasMessageContaining("held");
    assertThat(((CommandFailedException) failure).outcome()).isEqualTo(Outcome.NOT_RUN);
    assertThat(((ShardFrozenException) failure).shard()).isZero();
    assertThat(incrementsAt(at(a))).isEmpty();
    assertThat(dispatcher.heldRequests()).isZero();
    assertThat(dispatcher.inFlight()).isZero();
  }

  @Test
  void should_fail_at_once_unsent_when_the_hold_is_full() {
    freezeMaxRequests = 2;
    startConnected();
    publish(a, true, true);
    RoutedCommand<String, String, Long> first = incr();
    RoutedCommand<String, String, Long> second = incr();
    RoutedCommand<String, String, Long> third = incr();

    assertThat(first).isNotDone();
    assertThat(second).isNotDone();
    assertThat(failureOf(third))
        .isInstanceOf(ShardFrozenException.class)
        .hasMessageContaining("freezeMaxRequests");
  }

  @Test
  void should_fail_held_requests_when_the_client_closes() {
    startConnected();
    publish(a, true, true);
    RoutedCommand<String, String, Long> held = incr();

    dispatcher.close();

    assertThat(failureOf(held)).isInstanceOf(ClientClosedException.class);
  }

  // ---- acknowledging ---------------------------------------------------------------------------

  @Test
  void should_acknowledge_a_freeze_only_after_the_old_leader_answered_a_ping() {
    startConnected();
    long before = revision;
    assertThat(drained).containsExactly(before);

    publish(a, true, true);

    assertThat(pingsAt(at(a))).hasSize(1);
    assertThat(drained).containsExactly(before);
    pingsAt(at(a)).get(0).complete();
    assertThat(drained).containsExactly(before, revision);
  }

  @Test
  void should_not_acknowledge_while_the_ping_failed_until_no_shard_is_held() {
    startConnected();
    publish(a, true, true);
    long frozenAt = revision;
    pingsAt(at(a)).get(0).completeExceptionally(new RedisException("Connection closed"));

    publish(a, true, true); // a later map, the shard still frozen
    assertThat(drained).doesNotContain(frozenAt, revision);

    publish(a); // the freeze lifted: nothing frozen, nothing to drain
    assertThat(drained).contains(revision);
  }

  @Test
  void should_acknowledge_only_after_a_try_routed_with_the_old_map_reached_its_connection()
      throws Exception {
    startConnected();
    // A writer routes its INCR with the map before the freeze and is descheduled inside
    // Lettuce's dispatch, before its command is queued for writing.
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    at(a).pauseNextDispatch(entered, release);
    AtomicReference<RoutedCommand<String, String, Long>> late = new AtomicReference<>();
    Thread writer = new Thread(() -> late.set(incr()), "late-writer");
    writer.start();
    assertThat(entered.await(10, TimeUnit.SECONDS)).as("the writer reached dispatch").isTrue();

    // The topology thread publishes the freeze meanwhile...
    long frozenAt = revision + 1;
    CompletableFuture<Void> published =
        CompletableFuture.runAsync(
            () -> publish(a, true, true), command -> new Thread(command, "topology").start());
    long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (dispatcher.table().revision() != frozenAt) {
      assertThat(System.nanoTime()).as("the frozen map was published").isLessThan(waitUntil);
      Thread.onSpinWait();
    }
    // ...and cannot acknowledge while the writer's try, routed with the older map, is on its way:
    // no PING goes out before that try is in its connection.
    assertThat(published)
        .as("the acknowledgement waits for the try routed with the older map")
        .failsWithin(Duration.ofMillis(200))
        .withThrowableOfType(java.util.concurrent.TimeoutException.class);
    assertThat(pingsAt(at(a))).as("PINGs before the late try was queued").isEmpty();
    // Then the writer's command goes out.
    release.countDown();
    writer.join(10_000);
    published.get(10, TimeUnit.SECONDS);

    // The PING that proves the drain was written after the late INCR, never before it.
    List<RedisCommand<?, ?, ?>> order = new ArrayList<>(at(a).dispatched);
    int incrAt = order.indexOf(incrementsAt(at(a)).get(0));
    int pingAt = order.indexOf(pingsAt(at(a)).get(0));
    assertThat(incrAt).as("the late INCR is on the old leader's connection").isNotNegative();
    assertThat(pingAt)
        .as("the drain's PING comes after the late INCR: %s", order)
        .isGreaterThan(incrAt);
    pingsAt(at(a)).get(0).complete();
    assertThat(drained).contains(revision);
  }
}
