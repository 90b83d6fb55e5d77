package io.jumpgate.it.migration;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.migration.GroupOutcome;
import io.jumpgate.migration.MoveListener;
import io.jumpgate.migration.MovePhase;
import io.jumpgate.migration.MovePlan;
import io.jumpgate.migration.MoveResult;
import io.jumpgate.migration.Mover;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.spi.ShardState;
import io.jumpgate.topology.ShardAssignment;
import io.lettuce.core.KeyValue;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.KeyValueOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A blocking command (BLPOP, sent with the driver's {@code dispatch}: the driver has no BLPOP of
 * its own) in flight on a shard when the mover freezes it, against real etcd and redis-server
 * processes. The driver acknowledges a freeze only once a PING on its connection to the old leader
 * has come back, and that connection answers the PING only after the BLPOP: each attempt made while
 * the BLPOP blocks is given up after {@code acknowledgementTimeout}, naming the client; the group
 * is cut over at the first attempt after the BLPOP ended, or reported not moved once its attempts
 * are spent. Either way within the bound, with no element lost and no error for the other clients.
 */
class MoverBlockingCommandIT {

  private static final int SHARDS = 16;
  private static final int SHARD = 0;
  private static final Duration ACKNOWLEDGEMENT_TIMEOUT = Duration.ofMillis(800);
  private static final Duration RETRY_BACKOFF = Duration.ofMillis(200);

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  private static MoverOptions options(int attempts) {
    return MoverOptions.builder()
        .groupSize(1)
        .acknowledgementTimeout(ACKNOWLEDGEMENT_TIMEOUT)
        .retryBackoff(RETRY_BACKOFF)
        .groupAttempts(attempts)
        .cleanupGrace(Duration.ofMillis(500))
        .build();
  }

  /**
   * BLPOP {@code key} with the server-side timeout {@code seconds} (0: forever), through dispatch.
   */
  private static CompletableFuture<KeyValue<String, String>> blpop(
      JumpgateAsyncCommands<String, String> async, String key, long seconds) {
    return async
        .dispatch(
            key,
            CommandType.BLPOP,
            new KeyValueOutput<>(StringCodec.UTF8),
            new CommandArgs<>(StringCodec.UTF8).addKey(key).add(seconds))
        .toCompletableFuture();
  }

  private static void awaitBlocked(RedisProcess server, int clients) {
    Poll.until(
        Duration.ofSeconds(10),
        clients + " client(s) blocked on " + server.address(),
        () ->
            String.valueOf(server.call("INFO", "clients"))
                .contains("blocked_clients:" + clients + "\r\n"));
  }

  @Test
  void should_give_up_within_the_bound_and_lose_no_element_when_a_blpop_blocks_every_attempt()
      throws Exception {
    MoveCluster setup = MoveCluster.start(fixture, "blocking", SHARDS);
    String queue = setup.keyOfShard(SHARD, "queue:");
    JumpgateClient blocker = setup.client(Duration.ofSeconds(60));
    JumpgateClient writer = setup.client(Duration.ofSeconds(2));
    String blockerId = blocker.clientId().orElseThrow();
    // Given a client blocked in BLPOP on a key of the shard, with no timeout
    CompletableFuture<KeyValue<String, String>> popped = blpop(blocker.connect().async(), queue, 0);
    awaitBlocked(setup.source(), 1);

    MoveResult result;
    try (MoverLoad load = new MoverLoad(writer.connect().sync(), 1, writer.connect().async(), 20);
        Mover mover = Mover.create(setup.etcd, options(2))) {
      Poll.until(Duration.ofSeconds(20), "500 operations first", () -> load.operations.get() > 500);
      // When the mover tries to move the shard while the BLPOP blocks
      result =
          mover.move(
              MovePlan.builder("blocked-1")
                  .move(SHARD, MoveCluster.SOURCE, MoveCluster.NEW_NODE)
                  .build());
      load.stop(Duration.ofSeconds(30));
      assertThat(load.errors).as("errors of the other client").isEmpty();
      setup.assertEveryKeyOnItsOwner(load, new MoveCluster.Data(Map.of(), Map.of()));
    }

    // Then both attempts were given up after the bound, naming the blocked client
    assertThat(result.shardsCutOver()).isEmpty();
    assertThat(result.shardsNotMoved()).containsOnlyKeys(SHARD);
    assertThat(result.shardsNotMoved().get(SHARD)).contains(blockerId);
    assertThat(result.groups()).hasSize(2).noneMatch(GroupOutcome::cutOver);
    for (GroupOutcome attempt : result.groups()) {
      assertThat(attempt.blockers()).anyMatch(line -> line.contains(blockerId));
      assertThat(attempt.freezeDuration())
          .isGreaterThanOrEqualTo(ACKNOWLEDGEMENT_TIMEOUT)
          .isLessThan(ACKNOWLEDGEMENT_TIMEOUT.plusSeconds(2));
    }
    ShardAssignment assignment = setup.map().get(SHARD);
    assertThat(assignment.leader()).isEqualTo(MoveCluster.SOURCE);
    assertThat(assignment.state()).isEqualTo(ShardState.ACTIVE);
    setup.assertNoRecordAndNoLock();
    // and the BLPOP, still blocked, takes the next element pushed: nothing was lost
    assertThat(popped).isNotDone();
    writer.connect().sync().rpush(queue, "element-1", "element-2");
    assertThat(popped.get(10, TimeUnit.SECONDS).getValue()).isEqualTo("element-1");
    assertThat(writer.connect().sync().lrange(queue, 0, -1)).containsExactly("element-2");
    try (ServerData target = new ServerData(setup.newServer)) {
      assertThat(target.keys()).as("nothing left on the target").isEmpty();
    }
  }

  @Test
  void should_cut_over_at_the_first_attempt_after_the_blpop_ended_when_it_times_out()
      throws Exception {
    MoveCluster setup = MoveCluster.start(fixture, "blocking", SHARDS);
    String queue = setup.keyOfShard(SHARD, "queue:");
    JumpgateClient blocker = setup.client(Duration.ofSeconds(60));
    JumpgateClient writer = setup.client(Duration.ofSeconds(2));
    String blockerId = blocker.clientId().orElseThrow();
    JumpgateAsyncCommands<String, String> blockerAsync = blocker.connect().async();
    writer.connect().sync().rpush(queue, "kept-1", "kept-2");
    String other = setup.keyOfShard(SHARD, "blocking-other:");
    AtomicReference<CompletableFuture<KeyValue<String, String>>> popped = new AtomicReference<>();
    // Given a client that starts a BLPOP of 2 s on an empty list of the shard just before the
    // first freeze
    MoveListener blockBeforeTheFreeze =
        new MoveListener() {
          @Override
          public void phaseStarted(MovePhase phase) {
            if (phase == MovePhase.CUTOVER) {
              popped.set(blpop(blockerAsync, other, 2));
              awaitBlocked(setup.source(), 1);
            }
          }
        };

    MoveResult result;
    try (MoverLoad load = new MoverLoad(writer.connect().sync(), 1, writer.connect().async(), 20);
        Mover mover = Mover.create(setup.etcd, options(5), blockBeforeTheFreeze)) {
      Poll.until(Duration.ofSeconds(20), "500 operations first", () -> load.operations.get() > 500);
      // When the mover moves the shard
      result =
          mover.move(
              MovePlan.builder("blocked-2")
                  .move(SHARD, MoveCluster.SOURCE, MoveCluster.NEW_NODE)
                  .build());
      load.stop(Duration.ofSeconds(30));
      assertThat(load.errors).as("errors of the other client").isEmpty();
      // the list moved whole: the same client's next BLPOP, on the new leader, pops from it
      try (ServerData target = new ServerData(setup.newServer);
          ServerData source = new ServerData(setup.source())) {
        assertThat(target.sync().lrange(queue, 0, -1)).containsExactly("kept-1", "kept-2");
        assertThat(source.sync().exists(queue)).isZero();
      }
      assertThat(blpop(blockerAsync, queue, 5).get(10, TimeUnit.SECONDS).getValue())
          .isEqualTo("kept-1");
      assertThat(writer.connect().sync().lpop(queue)).isEqualTo("kept-2");
      setup.assertEveryKeyOnItsOwner(load, new MoveCluster.Data(Map.of(), Map.of()));
    }

    // Then the first attempt was given up because of the blocked client, a later one cut over
    assertThat(result.shardsCutOver()).containsExactly(SHARD);
    assertThat(result.shardsNotMoved()).isEmpty();
    assertThat(result.writesAfterCutover()).isEmpty();
    GroupOutcome first = result.groups().get(0);
    assertThat(first.cutOver()).isFalse();
    assertThat(first.blockers()).anyMatch(line -> line.contains(blockerId));
    assertThat(result.groups().get(result.groups().size() - 1).cutOver()).isTrue();
    assertThat(result.groups()).hasSizeBetween(2, 4);
    // and the BLPOP ended on its own timeout, with nothing popped
    assertThat(popped.get().get(10, TimeUnit.SECONDS)).isNull();
    assertThat(setup.map().get(SHARD).leader()).isEqualTo(MoveCluster.NEW_NODE);
    setup.assertNoRecordAndNoLock();
  }
}
