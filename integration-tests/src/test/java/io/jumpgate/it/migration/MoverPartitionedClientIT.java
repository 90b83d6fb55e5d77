package io.jumpgate.it.migration;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.TcpProxy;
import io.jumpgate.migration.GroupOutcome;
import io.jumpgate.migration.MoveListener;
import io.jumpgate.migration.MovePhase;
import io.jumpgate.migration.MovePlan;
import io.jumpgate.migration.MoveResult;
import io.jumpgate.migration.Mover;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.MigrationStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A driver client cut off from etcd (its etcd traffic goes through a {@link TcpProxy} that is cut,
 * its Redis traffic does not) while a migration of the shards it writes runs, against real etcd and
 * redis-server processes. It keeps its old map and keeps writing to the source, so the mover must
 * not cut over: first its registration blocks (its {@code drained} stays behind), then, once its
 * lease has expired and the registration is gone, its connections on the source (named {@code
 * jumpgate:<client-id>}) do. Every attempt meanwhile is given up; once the proxy is restored the
 * move completes: no INCR of that client lost or doubled, no write on the source after a cutover.
 */
class MoverPartitionedClientIT {

  private static final int SHARDS = 32;
  private static final int COUNTERS = 20;

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  private final ExecutorService writerThread = Executors.newSingleThreadExecutor();

  @AfterEach
  void stopWriter() {
    writerThread.shutdownNow();
  }

  @Test
  void should_not_cut_over_while_a_client_cut_off_from_etcd_writes_and_finish_once_it_is_back()
      throws Exception {
    MoveCluster setup = MoveCluster.start(fixture, "partition", SHARDS);
    MovePlan plan =
        MovePlan.builder("partition-1")
            .move(0, MoveCluster.SOURCE, MoveCluster.NEW_NODE)
            .move(2, MoveCluster.SOURCE, MoveCluster.NEW_NODE)
            .move(4, MoveCluster.SOURCE, MoveCluster.NEW_NODE)
            .move(6, MoveCluster.SOURCE, MoveCluster.NEW_NODE)
            .build();
    TcpProxy relay =
        fixture.register(TcpProxy.start("127.0.0.1", setup.cluster.etcd().member(0).clientPort()));
    EtcdTopologyOptions throughRelay = setup.etcd.mutate().endpoints(relay.httpEndpoint()).build();
    JumpgateClient cutOff = setup.client(throughRelay, Duration.ofSeconds(2));
    String cutOffId = cutOff.clientId().orElseThrow();
    JumpgateClient other = setup.client(Duration.ofSeconds(2));
    List<String> counters = new ArrayList<>();
    for (int index = 0; counters.size() < COUNTERS; index++) {
      String key = "cut-off:" + index;
      if (plan.moves().containsKey(setup.router.shardOfUtf8(key))) {
        counters.add(key);
      }
    }

    // Given a client, reaching etcd through a relay, that INCRs counters of the moved shards
    Map<String, AtomicLong> acknowledged = new ConcurrentHashMap<>();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicLong increments = new AtomicLong();
    JumpgateCommands<String, String> cutOffCommands = cutOff.connect().sync();
    Future<?> writer =
        writerThread.submit(
            () -> {
              for (long sequence = 0; running.get(); sequence++) {
                String key = counters.get((int) (sequence % COUNTERS));
                try {
                  cutOffCommands.incr(key);
                  acknowledged.computeIfAbsent(key, name -> new AtomicLong()).incrementAndGet();
                  increments.incrementAndGet();
                } catch (RuntimeException e) {
                  errors.add(e);
                }
              }
            });
    Poll.until(Duration.ofSeconds(20), "500 INCRs first", () -> increments.get() > 500);

    // When the relay is cut as the cutover phase starts, and restored only once an attempt was
    // blocked by the client's connections after its registration expired, the client having gone
    // on writing meanwhile
    List<GroupOutcome> whileCut = new CopyOnWriteArrayList<>();
    AtomicLong incrementsAtCut = new AtomicLong();
    AtomicLong incrementsAtRestore = new AtomicLong();
    AtomicBoolean registrationSeenGone = new AtomicBoolean();
    MoverOptions options =
        MoverOptions.builder()
            .groupSize(4)
            .acknowledgementTimeout(Duration.ofMillis(500))
            .retryBackoff(Duration.ofMillis(200))
            .groupAttempts(60)
            .cleanupGrace(Duration.ofMillis(2500))
            .build();
    MoveResult result;
    try (MoverLoad load = new MoverLoad(other.connect().sync(), 1, other.connect().async(), 20);
        MigrationStore store = MigrationStore.create(setup.etcd);
        Mover mover =
            Mover.create(
                setup.etcd,
                options,
                new MoveListener() {
                  @Override
                  public void phaseStarted(MovePhase phase) {
                    if (phase == MovePhase.CUTOVER) {
                      relay.cut();
                      incrementsAtCut.set(increments.get());
                    }
                  }

                  @Override
                  public void groupFinished(GroupOutcome outcome) {
                    if (incrementsAtRestore.get() != 0) {
                      return;
                    }
                    whileCut.add(outcome);
                    if (!store.readClients().clients().containsKey(cutOffId)) {
                      registrationSeenGone.set(true);
                    }
                    boolean blockedByConnection =
                        outcome.blockers().stream()
                            .anyMatch(line -> line.contains("belongs to no registered client"));
                    if (registrationSeenGone.get() && blockedByConnection) {
                      incrementsAtRestore.set(increments.get());
                      relay.restore();
                    }
                  }
                })) {
      result = mover.move(plan);
      long atEnd = increments.get();
      Poll.until(
          Duration.ofSeconds(20), "500 INCRs after the move", () -> increments.get() > atEnd + 500);
      running.set(false);
      writer.get(30, TimeUnit.SECONDS);
      load.stop(Duration.ofSeconds(30));
      assertThat(load.errors).as("errors of the other client").isEmpty();
      // every key on its owner, each counter of the cut-off client with every acknowledged INCR
      Map<String, String> counted = new TreeMap<>();
      Map<String, Boolean> withTtl = new TreeMap<>();
      for (String key : counters) {
        counted.put(key, Long.toString(acknowledged.get(key).get()));
        withTtl.put(key, false);
      }
      setup.assertEveryKeyOnItsOwner(load, new MoveCluster.Data(counted, withTtl));
    }

    // Then no attempt was cut over while the client was cut off: each was given up, first
    // because of its registration, then because of its connections on the source
    assertThat(incrementsAtRestore.get()).as("the relay was restored").isPositive();
    assertThat(incrementsAtRestore.get() - incrementsAtCut.get())
        .as("INCRs of the cut-off client while its relay was cut")
        .isGreaterThan(100);
    assertThat(whileCut).isNotEmpty().noneMatch(GroupOutcome::cutOver);
    assertThat(whileCut.get(0).blockers())
        .anyMatch(line -> line.contains("client '" + cutOffId + "'"));
    assertThat(whileCut.get(whileCut.size() - 1).blockers())
        .anyMatch(line -> line.contains("named 'jumpgate:" + cutOffId + "' belongs to no"));
    // and the move completed once it was back, with nothing written to the source after it
    assertThat(result.shardsCutOver()).containsExactlyElementsOf(plan.moves().keySet());
    assertThat(result.shardsNotMoved()).isEmpty();
    assertThat(result.writesAfterCutover()).isEmpty();
    setup.assertNoRecordAndNoLock();
    // and the cut-off client saw no error (its counters were checked on their owner above)
    assertThat(errors).as("errors of the cut-off client").isEmpty();
  }
}
