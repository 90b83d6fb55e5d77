package io.jumpgate.it.migration;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The mover when its change capture drops (the source closes its pub/sub connection, here by {@code
 * CLIENT KILL TYPE pubsub}), against real etcd and redis-server processes, while two driver clients
 * write: the shards not cut over yet are copied again from scratch by a new copier (a new
 * subscription on the source), and the move ends with every key on its owner, the values written
 * while nothing watched the source included, and no client error.
 */
class MoverRecopyIT {

  private static final int SHARDS = 64;
  private static final int DATA_KEYS = 4_000;

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  /** Ids of the pub/sub connections this test killed on the source. */
  private final Set<String> killedIds = new ConcurrentSkipListSet<>();

  /** The ids of the source's pub/sub connections, listed after each group. */
  private final List<Set<String>> afterEachGroup = new CopyOnWriteArrayList<>();

  @Test
  void should_copy_again_from_scratch_when_the_subscription_drops_as_the_copy_starts()
      throws Exception {
    MoveCluster setup = MoveCluster.start(fixture, "recopy", SHARDS);
    MoveListener listener =
        new MoveListener() {
          @Override
          public void phaseStarted(MovePhase phase) {
            if (phase == MovePhase.COPY) {
              killSubscription(setup.source());
            }
          }

          @Override
          public void groupFinished(GroupOutcome outcome) {
            afterEachGroup.add(subscriptionsOn(setup.source()));
          }
        };

    // When the source drops the copier's subscription as the copy starts, under load
    MoveResult result = moveUnderLoad(setup, setup.halfOfSource("recopy-1"), listener);

    // Then a new copier subscribed again and every group was cut over with it
    assertThat(result.shardsCutOver()).hasSize(16);
    assertThat(result.cutOverGroups()).hasSize(4);
    assertThat(afterEachGroup).hasSize(result.groups().size());
    for (Set<String> subscribed : afterEachGroup) {
      assertThat(subscribed).hasSize(1).doesNotContainAnyElementsOf(killedIds);
    }
  }

  @Test
  void should_copy_the_shards_left_again_when_the_subscription_drops_after_a_cutover()
      throws Exception {
    MoveCluster setup = MoveCluster.start(fixture, "recopy", SHARDS);
    MoveListener listener =
        new MoveListener() {
          @Override
          public void groupFinished(GroupOutcome outcome) {
            afterEachGroup.add(subscriptionsOn(setup.source()));
            if (outcome.cutOver() && killedIds.isEmpty()) {
              killSubscription(setup.source());
            }
          }
        };

    // When the source drops the copier's subscription after the first group was cut over
    MoveResult result = moveUnderLoad(setup, setup.halfOfSource("recopy-2"), listener);

    // Then the 12 shards left were copied again by a new copier, and the first group's keys were
    // still removed from the source (the old copier's cleanup, checked by the owner check)
    assertThat(result.shardsCutOver()).hasSize(16);
    assertThat(result.cutOverGroups()).hasSize(4);
    assertThat(afterEachGroup.get(0)).isEqualTo(killedIds);
    for (Set<String> subscribed : afterEachGroup.subList(1, afterEachGroup.size())) {
      assertThat(subscribed).hasSize(1).doesNotContainAnyElementsOf(killedIds);
    }
  }

  /** Kills the source's one pub/sub connection (the copier's change capture) and remembers it. */
  private void killSubscription(RedisProcess source) {
    Set<String> before = subscriptionsOn(source);
    assertThat(before).as("pub/sub connections on the source").hasSize(1);
    killedIds.addAll(before);
    try {
      assertThat(source.call("CLIENT", "KILL", "TYPE", "pubsub")).isEqualTo(1L);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Set<String> subscriptionsOn(RedisProcess source) {
    try {
      String list = String.valueOf(source.call("CLIENT", "LIST", "TYPE", "pubsub"));
      Set<String> ids = new TreeSet<>();
      for (String line : list.split("\r?\n")) {
        for (String field : line.split(" ")) {
          if (field.startsWith("id=")) {
            ids.add(field.substring(3));
          }
        }
      }
      return ids;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private MoveResult moveUnderLoad(MoveCluster setup, MovePlan plan, MoveListener listener)
      throws Exception {
    JumpgateClient syncClient = setup.client(Duration.ofSeconds(5));
    JumpgateClient asyncClient = setup.client(Duration.ofSeconds(5));
    MoveCluster.Data data = MoveCluster.writeData(asyncClient.connect().async(), DATA_KEYS);
    MoverOptions options =
        MoverOptions.builder().groupSize(4).cleanupGrace(Duration.ofMillis(2500)).build();
    MoveResult result;
    try (MoverLoad load =
            new MoverLoad(syncClient.connect().sync(), 3, asyncClient.connect().async(), 200);
        Mover mover = Mover.create(setup.etcd, options, listener)) {
      Poll.until(
          Duration.ofSeconds(20),
          "1,000 operations before the move",
          () -> load.operations.get() > 1_000);
      // When the mover moves the shards while the clients write
      result = mover.move(plan);
      long atEnd = load.operations.get();
      Poll.until(
          Duration.ofSeconds(20),
          "1,000 operations after the move",
          () -> load.operations.get() > atEnd + 1_000);
      load.stop(Duration.ofSeconds(30));
      // Then no client saw an error, nothing was left behind, every key is on its owner
      assertThat(load.errors).isEmpty();
      assertThat(result.shardsNotMoved()).isEmpty();
      assertThat(result.writesAfterCutover()).isEmpty();
      setup.assertEveryKeyOnItsOwner(load, data);
    }
    setup.assertNoRecordAndNoLock();
    return result;
  }
}
