package io.jumpgate.it.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.Ports;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.TopologyConflictException;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.EtcdTopologySource;
import io.jumpgate.topology.PlacementPlanner;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyAdminConflictException;
import io.jumpgate.topology.TopologyAdminException;
import io.jumpgate.topology.TopologyAdminException.Reason;
import io.jumpgate.topology.TopologyAdminOptions;
import io.jumpgate.topology.TopologyAdminPlan;
import io.jumpgate.topology.TopologyAdminResult;
import io.jumpgate.topology.TopologyAdminState;
import io.jumpgate.topology.TopologyCodec;
import io.jumpgate.topology.TopologyKeys;
import io.jumpgate.topology.TopologyListing;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link TopologyAdmin} against a real etcd with its default limits (128 operations per
 * transaction), read back by {@link EtcdTopologySource} and by plain etcd reads and watches.
 */
class TopologyAdminIT {

  private static final String CLUSTER = "it";
  private static final TopologyKeys KEYS = TopologyKeys.forCluster(CLUSTER);
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final long TIMEOUT_SECONDS = 10;

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  private final List<TopologySnapshot> seen = new CopyOnWriteArrayList<>();

  // ---- fixtures ------------------------------------------------------------------------------

  private static EtcdTopologyOptions options(String endpoints) {
    return EtcdTopologyOptions.builder()
        .endpoints(endpoints)
        .cluster(CLUSTER)
        .startTimeout(Duration.ofSeconds(10))
        .requestTimeout(Duration.ofSeconds(5))
        .progressInterval(Duration.ofMillis(300))
        .silenceTimeout(Duration.ofSeconds(2))
        .retryBackoff(Duration.ofMillis(50), Duration.ofMillis(500))
        .build();
  }

  private TopologyAdmin admin(EtcdCluster etcd) {
    return fixture.register(TopologyAdmin.create(options(etcd.endpointList())));
  }

  private TopologyAdmin admin(EtcdCluster etcd, TopologyAdminOptions adminOptions) {
    return fixture.register(TopologyAdmin.create(options(etcd.endpointList()), adminOptions));
  }

  private Client raw(EtcdCluster etcd) {
    return fixture.register(etcd.newClient());
  }

  private EtcdTopologySource started(EtcdCluster etcd) throws Exception {
    EtcdTopologySource source =
        fixture.register(EtcdTopologySource.create(options(etcd.endpointList())));
    source.subscribe((previous, current) -> seen.add(current));
    source.start().toCompletableFuture().get(15, TimeUnit.SECONDS);
    return source;
  }

  private static void awaitRevision(EtcdTopologySource source, long revision) {
    Poll.until(
        WAIT,
        "the source to reach revision " + revision,
        () -> source.current().revision() >= revision);
  }

  private static Map<String, Node> nodes(String prefix, int count) {
    Map<String, Node> nodes = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      nodes.put(prefix + i, Node.of(prefix + i, "127.0.0.1", 7000 + i));
    }
    return nodes;
  }

  private static SortedMap<String, Integer> leadersPerNode(TopologySnapshot snapshot) {
    SortedMap<String, Integer> counts = new TreeMap<>();
    snapshot.nodes().keySet().forEach(id -> counts.put(id, 0));
    for (ShardRoute route : snapshot.routes()) {
      counts.merge(route.leader().id(), 1, Integer::sum);
    }
    return counts;
  }

  private static int spread(Map<String, Integer> counts) {
    return Collections.max(counts.values()) - Collections.min(counts.values());
  }

  private static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }

  private static long put(Client client, String key, String value) throws Exception {
    return client
        .getKVClient()
        .put(bytes(key), bytes(value))
        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
        .getHeader()
        .getRevision();
  }

  private static long headRevision(Client client) throws Exception {
    return client
        .getKVClient()
        .get(bytes(KEYS.meta()))
        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
        .getHeader()
        .getRevision();
  }

  private static List<KeyValue> list(Client client, String prefix) throws Exception {
    return client
        .getKVClient()
        .get(bytes(prefix), GetOption.builder().isPrefix(true).build())
        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
        .getKvs();
  }

  /** Every event under the cluster's root from a revision on, kept in arrival order. */
  private static final class History implements AutoCloseable {
    final ConcurrentLinkedQueue<WatchEvent> events = new ConcurrentLinkedQueue<>();
    private final Watch.Watcher watcher;

    History(Client client, long fromRevision) {
      watcher =
          client
              .getWatchClient()
              .watch(
                  bytes(KEYS.rootPrefix()),
                  WatchOption.builder().isPrefix(true).withRevision(fromRevision).build(),
                  response -> events.addAll(response.getEvents()));
    }

    boolean reached(long revision) {
      return events.stream().anyMatch(event -> event.getKeyValue().getModRevision() >= revision);
    }

    /** The root's keys after each revision of the history, replayed from an empty root. */
    SortedMap<Long, List<KeyValue>> listings() {
      SortedMap<Long, List<KeyValue>> listings = new TreeMap<>();
      TreeMap<String, KeyValue> store = new TreeMap<>();
      long revision = -1;
      for (WatchEvent event : events) {
        KeyValue keyValue = event.getKeyValue();
        if (keyValue.getModRevision() != revision && revision != -1) {
          listings.put(revision, List.copyOf(store.values()));
        }
        revision = keyValue.getModRevision();
        String key = keyValue.getKey().toString(StandardCharsets.UTF_8);
        if (event.getEventType() == WatchEvent.EventType.DELETE) {
          store.remove(key);
        } else {
          store.put(key, keyValue);
        }
      }
      if (revision != -1) {
        listings.put(revision, List.copyOf(store.values()));
      }
      return listings;
    }

    @Override
    public void close() {
      watcher.close();
    }
  }

  // ---- init ----------------------------------------------------------------------------------

  @Test
  void init_of_1024_shards_should_appear_whole_at_the_revision_of_meta_on_a_default_etcd()
      throws Exception {
    // Given: an empty etcd with its default --max-txn-ops of 128, and a watch of the root
    EtcdCluster etcd = fixture.etcd();
    Client client = raw(etcd);
    TopologyAdmin admin = admin(etcd);
    long start = headRevision(client);
    TopologyAdminResult result;
    try (History history = new History(client, start + 1)) {
      // When: 1024 shards with one replica on 3 nodes are initialised
      long began = System.nanoTime();
      result = admin.init(nodes("n", 3), 1024, 1);
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
      System.out.printf(
          "init of 1024 shards x 3 nodes: %d ms, %d transactions, revisions %s%n",
          millis, result.transactions(), result.transactionRevisions());

      // Then: 12 transactions (lock, 10 batches of 100, the last 27 with meta)
      assertThat(result.transactions()).isEqualTo(12);
      assertThat(result.keysWritten()).isEqualTo(1028);
      assertThat(result.leftoverKeysDeleted()).isZero();
      assertThat(result.revision()).isEqualTo(result.transactionRevisions().get(11));

      // And: a reader listing the root at any revision of the init saw either "not
      // initialised" or the whole map, which first appears at the revision of meta
      long metaRevision = result.revision();
      Poll.until(WAIT, "the watch to see the meta", () -> history.reached(metaRevision));
      SortedMap<Long, List<KeyValue>> listings = history.listings();
      assertThat(listings.keySet()).containsExactlyElementsOf(result.transactionRevisions());
      for (Map.Entry<Long, List<KeyValue>> listing : listings.entrySet()) {
        long revision = listing.getKey();
        if (revision < metaRevision) {
          assertThatThrownBy(() -> TopologyListing.snapshot(KEYS, revision, listing.getValue()))
              .as("a reader at revision %d", revision)
              .isInstanceOf(TopologyUnavailableException.class)
              .hasMessageContaining("is not initialised");
        } else {
          TopologySnapshot snapshot = TopologyListing.snapshot(KEYS, revision, listing.getValue());
          assertThat(snapshot.shardCount()).isEqualTo(1024);
          assertThat(snapshot.unavailableShardCount()).isZero();
          assertThat(snapshot.invalidEntries()).isEmpty();
        }
      }
      // And: the lock is gone
      assertThat(list(client, KEYS.root() + "/init-lock")).isEmpty();
    }

    // And: a source started now loads the map at the revision of meta, valid and balanced
    EtcdTopologySource source = started(etcd);
    TopologySnapshot snapshot = source.current();
    assertThat(snapshot.revision()).isEqualTo(result.revision());
    assertThat(snapshot.shardCount()).isEqualTo(1024);
    assertThat(snapshot.nodes()).containsOnlyKeys("n0", "n1", "n2");
    assertThat(snapshot.invalidEntries()).isEmpty();
    assertThat(snapshot.unavailableShardCount()).isZero();
    assertThat(spread(leadersPerNode(snapshot))).isLessThanOrEqualTo(1);
    assertThat(snapshot.routes()).allSatisfy(route -> assertThat(route.replicas()).hasSize(1));
    assertThat(snapshot.routes()).allSatisfy(route -> assertThat(route.epoch()).isZero());
  }

  @Test
  void a_second_init_should_fail_with_already_initialised() throws Exception {
    // Given
    EtcdCluster etcd = fixture.etcd();
    TopologyAdmin admin = admin(etcd);
    TopologyAdminPlan early = admin.planInit(nodes("n", 3), 64, 1);
    TopologyAdminResult first = admin.init(nodes("n", 3), 64, 1);
    long metaRevision = first.revision();

    // When / Then: planning again fails at once
    assertThatThrownBy(() -> admin.init(nodes("m", 2), 32, 1))
        .isInstanceOfSatisfying(
            TopologyAdminException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.ALREADY_INITIALISED);
              assertThat(e.revision()).isEqualTo(metaRevision);
            })
        .hasMessage("cluster 'it' is already initialised (revision " + metaRevision + ")");
    // And: a plan made before the first init is refused by the claim
    assertThatThrownBy(() -> admin.apply(early))
        .isInstanceOfSatisfying(
            TopologyAdminException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.ALREADY_INITIALISED))
        .hasMessage("cluster 'it' is already initialised (revision " + metaRevision + ")");
    // And: nothing changed
    assertThat(admin.read().revision()).isEqualTo(metaRevision);
  }

  @Test
  void of_two_concurrent_inits_exactly_one_should_win_and_the_map_is_the_winners()
      throws Exception {
    // Given: two operators with different node sets
    EtcdCluster etcd = fixture.etcd();
    TopologyAdmin first = admin(etcd);
    TopologyAdmin second = admin(etcd);
    Map<String, Node> firstNodes = nodes("a", 3);
    Map<String, Node> secondNodes = nodes("b", 4);
    CyclicBarrier barrier = new CyclicBarrier(2);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      // When: both init 1024 shards at once
      Callable<TopologyAdminResult> a =
          () -> {
            barrier.await(10, TimeUnit.SECONDS);
            return first.init(firstNodes, 1024, 1);
          };
      Callable<TopologyAdminResult> b =
          () -> {
            barrier.await(10, TimeUnit.SECONDS);
            return second.init(secondNodes, 1024, 2);
          };
      Future<TopologyAdminResult> futureA = threads.submit(a);
      Future<TopologyAdminResult> futureB = threads.submit(b);
      List<Object> outcomes = new ArrayList<>();
      for (Future<TopologyAdminResult> future : List.of(futureA, futureB)) {
        try {
          outcomes.add(future.get(60, TimeUnit.SECONDS));
        } catch (ExecutionException e) {
          outcomes.add(e.getCause());
        }
      }

      // Then: exactly one succeeded; the other failed before its meta
      assertThat(outcomes).filteredOn(TopologyAdminResult.class::isInstance).hasSize(1);
      assertThat(outcomes)
          .filteredOn(TopologyAdminException.class::isInstance)
          .singleElement()
          .satisfies(
              error ->
                  assertThat(((TopologyAdminException) error).reason())
                      .isIn(Reason.INIT_IN_PROGRESS, Reason.ALREADY_INITIALISED));
      boolean firstWon = outcomes.get(0) instanceof TopologyAdminResult;
      Map<String, Node> winner = firstWon ? firstNodes : secondNodes;
      int replicas = firstWon ? 1 : 2;

      // And: the map is the winner's, whole and nothing else
      TopologyAdminState state = (firstWon ? first : second).read();
      assertThat(state.nodes()).isEqualTo(winner);
      assertThat(state.assignments()).hasSize(1024);
      assertThat(state.invalidEntries()).isEmpty();
      assertThat(state.assignments().values())
          .allSatisfy(
              assignment -> {
                assertThat(winner).containsKey(assignment.leader());
                assertThat(assignment.replicas()).hasSize(replicas);
              });
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void an_init_claimed_by_another_should_fail_and_leave_the_first_to_finish() throws Exception {
    // Given: an init that is between its batches
    EtcdCluster etcd = fixture.etcd();
    TopologyAdmin first = admin(etcd);
    TopologyAdmin second = admin(etcd);
    AtomicReference<Throwable> seenBySecond = new AtomicReference<>();
    AtomicReference<String> seenByReader = new AtomicReference<>();
    TopologyAdminResult result =
        first.init(
            nodes("a", 3),
            1024,
            1,
            (transaction, transactions, revision) -> {
              if (transaction == 3) {
                // When: a second init and a reader come while the first is writing
                try {
                  second.init(nodes("b", 2), 16, 1);
                } catch (RuntimeException e) {
                  seenBySecond.set(e);
                }
                try {
                  second.read();
                } catch (TopologyUnavailableException e) {
                  seenByReader.set(e.getMessage());
                }
              }
            });

    // Then: the second was refused, the reader saw no cluster, and the first finished
    assertThat(seenBySecond.get())
        .isInstanceOfSatisfying(
            TopologyAdminException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.INIT_IN_PROGRESS))
        .hasMessageContaining("is being initialised by another init")
        .hasMessageContaining("/jumpgate/it/init-lock");
    assertThat(seenByReader.get())
        .startsWith("cluster 'it' is not initialised at /jumpgate/it — run `jumpgate init`")
        .contains("init-lock");
    TopologyAdminState state = first.read();
    assertThat(state.revision()).isEqualTo(result.revision());
    assertThat(state.nodes()).containsOnlyKeys("a0", "a1", "a2");
    assertThat(state.assignments()).hasSize(1024);
    assertThat(state.invalidEntries()).isEmpty();
  }

  @Test
  void an_init_that_died_halfway_should_be_replaced_by_the_next_one() throws Exception {
    // Given: an init of 2048 shards that stops after 3 of its transactions
    EtcdCluster etcd = fixture.etcd();
    TopologyAdmin admin = admin(etcd);
    assertThatThrownBy(
            () ->
                admin.init(
                    nodes("x", 4),
                    2048,
                    1,
                    (transaction, transactions, revision) -> {
                      if (transaction == 3) {
                        throw new IllegalStateException("operator pressed ^C");
                      }
                    }))
        .hasMessage("operator pressed ^C");
    Client client = raw(etcd);
    assertThat(list(client, KEYS.shardsPrefix())).hasSize(196);
    assertThat(list(client, KEYS.root() + "/init-lock")).as("the lock is released").isEmpty();
    // And: readers see no cluster
    assertThatThrownBy(admin::read)
        .isInstanceOf(TopologyUnavailableException.class)
        .hasMessage("cluster 'it' is not initialised at /jumpgate/it — run `jumpgate init`");

    // When: init runs again with other nodes and fewer shards
    TopologyAdminResult result = admin.init(nodes("n", 3), 512, 1);

    // Then: the leftovers are gone, and nothing of the first init is in the map
    assertThat(result.leftoverKeysDeleted()).isEqualTo(4 + 196);
    TopologyAdminState state = admin.read();
    assertThat(state.nodes()).containsOnlyKeys("n0", "n1", "n2");
    assertThat(state.assignments()).hasSize(512);
    assertThat(state.invalidEntries()).isEmpty();
    assertThat(list(client, KEYS.shardsPrefix())).hasSize(512);
  }

  @Test
  void a_lock_left_by_a_dead_init_should_block_until_its_lease_expires() throws Exception {
    // Given: a lock written by an init whose process died, on a 3 s lease
    EtcdCluster etcd = fixture.etcd();
    Client client = raw(etcd);
    long lease = client.getLeaseClient().grant(3).get(TIMEOUT_SECONDS, TimeUnit.SECONDS).getID();
    client
        .getKVClient()
        .put(
            bytes(KEYS.root() + "/init-lock"),
            bytes("{\"token\":\"dead\",\"host\":\"gone\"}"),
            PutOption.builder().withLeaseId(lease).build())
        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    put(client, KEYS.shard(7), "{\"leader\":\"ghost\"}");
    TopologyAdmin admin = admin(etcd);

    // When / Then: init is refused, naming the holder and the expiry
    assertThatThrownBy(() -> admin.init(nodes("n", 3), 16, 1))
        .isInstanceOfSatisfying(
            TopologyAdminException.class,
            e -> assertThat(e.reason()).isEqualTo(Reason.INIT_IN_PROGRESS))
        .hasMessageContaining("\"host\":\"gone\"")
        .hasMessageContaining("expires");

    // And: once the lease expired, init succeeds and replaces the leftover shard
    Poll.until(
        WAIT,
        "the dead init's lock to expire",
        () -> list(client, KEYS.root() + "/init-lock").isEmpty());
    TopologyAdminResult result = admin.init(nodes("n", 3), 16, 1);
    assertThat(result.leftoverKeysDeleted()).isEqualTo(1);
    assertThat(result.transactions()).isEqualTo(2);
    assertThat(admin.read().invalidEntries()).isEmpty();
  }

  // ---- changes -------------------------------------------------------------------------------

  @Test
  void add_node_should_move_a_quarter_of_the_leaderships_and_the_source_should_show_it()
      throws Exception {
    // Given: 1024 shards on 3 nodes and a source watching them
    EtcdCluster etcd = fixture.etcd();
    TopologyAdmin admin = admin(etcd);
    admin.init(nodes("n", 3), 1024, 1);
    EtcdTopologySource source = started(etcd);
    seen.clear();

    // When
    Node added = Node.of("n3", "127.0.0.1", 7003);
    TopologyAdminPlan plan = admin.planAddNode(added);
    assertThat(plan.plan().summary().leadershipsMoved()).isEqualTo(256);
    assertThat(plan.transactions()).isGreaterThan(1);
    List<Long> committed = new ArrayList<>();
    TopologyAdminResult result =
        admin.apply(plan, (transaction, transactions, revision) -> committed.add(revision));

    // Then: the source shows n3 leading 256 shards, all nodes within one
    awaitRevision(source, result.revision());
    TopologySnapshot snapshot = source.current();
    assertThat(leadersPerNode(snapshot)).containsEntry("n3", 256);
    assertThat(spread(leadersPerNode(snapshot))).isLessThanOrEqualTo(1);
    assertThat(snapshot.invalidEntries()).isEmpty();
    assertThat(snapshot.node("n3")).contains(added);
    assertThat(committed).isEqualTo(result.transactionRevisions());
    assertThat(result.transactions()).isEqualTo(plan.transactions());
    // And: every snapshot on the way was at a transaction's revision (revisions that queue up
    // behind a rebuild may share one snapshot, never a transaction split) and valid (the node
    // came first), the last one included
    assertThat(seen)
        .extracting(TopologySnapshot::revision)
        .filteredOn(revision -> revision > committed.get(0) - 1)
        .isSubsetOf(committed)
        .contains(result.revision());
    assertThat(seen)
        .allSatisfy(
            s -> {
              assertThat(s.invalidEntries()).isEmpty();
              assertThat(s.unavailableShardCount()).isZero();
            });
    // And: the epochs went up by one exactly where the leader changed
    for (var step : plan.plan().steps()) {
      ShardRoute route = snapshot.route(step.shard());
      assertThat(route.leader().id()).isEqualTo(step.after().leader());
      assertThat(route.epoch()).isEqualTo(step.before().epoch() + (step.leaderChanged() ? 1 : 0));
    }
  }

  @Test
  void a_change_between_plan_and_apply_should_lose_and_write_nothing() throws Exception {
    // Given: a plan to move shard 5's leadership
    EtcdCluster etcd = fixture.etcd();
    TopologyAdmin admin = admin(etcd);
    TopologyAdmin other = admin(etcd);
    admin.init(nodes("n", 3), 16, 1);
    TopologyAdminState before = admin.read();
    String target =
        before.nodes().keySet().stream()
            .filter(id -> !before.assignments().get(5).involves(id))
            .findFirst()
            .orElseThrow();
    TopologyAdminPlan plan = admin.planMoveShard(5, target);
    assertThat(plan.transactions()).isEqualTo(1);

    // When: another operator fails shard 5 over first
    TopologyAdminResult theirs = other.apply(other.planFailoverShard(5, null));

    // Then: applying the plan loses, naming the revision it read, and writes nothing
    assertThatThrownBy(() -> admin.apply(plan))
        .isInstanceOfSatisfying(
            TopologyConflictException.class,
            e -> assertThat(e.readRevision()).isEqualTo(plan.mapRevision()))
        .hasMessage(
            "the map changed since it was read (revision " + plan.mapRevision() + "); run again");
    TopologyAdminState after = admin.read();
    assertThat(after.revision()).isEqualTo(theirs.revision());
    assertThat(after.assignments().get(5).leader()).isNotEqualTo(target);
  }

  @Test
  void a_change_before_a_batched_plan_should_lose_before_its_first_batch() throws Exception {
    // Given: a plan of several transactions, and a change to a shard of its last one
    EtcdCluster etcd = fixture.etcd();
    TopologyAdmin admin = admin(etcd);
    Client client = raw(etcd);
    admin.init(nodes("n", 3), 1024, 1);
    TopologyAdminPlan plan = admin.planAddNode(Node.of("n3", "127.0.0.1", 7003));
    assertThat(plan.transactions()).isGreaterThan(2);
    var lastStep = plan.plan().steps().get(plan.plan().steps().size() - 1);
    ShardAssignment changed =
        ShardAssignment.of(
            lastStep.shard(),
            lastStep.before().replicas().get(0),
            List.of(lastStep.before().leader()),
            lastStep.before().epoch() + 1);
    long revision =
        put(
            client,
            KEYS.shard(lastStep.shard()),
            new String(TopologyCodec.encodeAssignment(changed), StandardCharsets.UTF_8));

    // When / Then: nothing at all is written
    assertThatThrownBy(() -> admin.apply(plan))
        .isInstanceOfSatisfying(
            TopologyAdminConflictException.class,
            e -> {
              assertThat(e.readRevision()).isEqualTo(plan.mapRevision());
              assertThat(e.appliedTransactions()).isZero();
            })
        .hasMessage(
            "the map changed since it was read (revision " + plan.mapRevision() + "); run again");
    assertThat(headRevision(client)).isEqualTo(revision);
    assertThat(list(client, KEYS.node("n3"))).isEmpty();
  }

  @Test
  void a_change_between_batches_should_leave_the_earlier_ones_and_running_again_converges()
      throws Exception {
    // Given: a batched add-node, and another operator who moves a shard of a later batch
    // while the first batch is committed
    EtcdCluster etcd = fixture.etcd();
    TopologyAdmin admin = admin(etcd);
    TopologyAdmin other = admin(etcd);
    admin.init(nodes("n", 3), 1024, 1);
    EtcdTopologySource source = started(etcd);
    TopologyAdminPlan plan = admin.planAddNode(Node.of("n3", "127.0.0.1", 7003));
    int victim = plan.plan().steps().get(plan.plan().steps().size() - 1).shard();

    // When
    assertThatThrownBy(
            () ->
                admin.apply(
                    plan,
                    (transaction, transactions, revision) -> {
                      if (transaction == 1) {
                        other.apply(other.planFailoverShard(victim, null));
                      }
                    }))
        // Then: the loss names the read revision and the transactions already applied
        .isInstanceOfSatisfying(
            TopologyAdminConflictException.class,
            e -> {
              assertThat(e.readRevision()).isEqualTo(plan.mapRevision());
              assertThat(e.appliedTransactions()).isPositive();
              assertThat(e.transactions()).isEqualTo(plan.transactions());
            })
        .hasMessageStartingWith(
            "the map changed since it was read (revision " + plan.mapRevision() + "); run again")
        .hasMessageContaining("transactions were applied");
    TopologyAdminState partial = admin.read();
    assertThat(partial.nodes()).containsKey("n3");
    assertThat(partial.invalidEntries()).isEmpty();

    // And: planning and applying the same add-node again finishes it
    TopologyAdminPlan again = admin.planAddNode(Node.of("n3", "127.0.0.1", 7003));
    assertThat(again.nodeChanges()).isEmpty();
    TopologyAdminResult result = admin.apply(again);
    awaitRevision(source, result.revision());
    SortedMap<String, Integer> leaders = leadersPerNode(source.current());
    assertThat(leaders.get("n3")).isGreaterThanOrEqualTo(Collections.max(leaders.values()) - 1);
    assertThat(source.current().invalidEntries()).isEmpty();
    assertThat(admin.planAddNode(Node.of("n3", "127.0.0.1", 7003)).changesNothing()).isTrue();
    // And: the other operator's failover skewed the others by one, which a rebalance evens out
    TopologyAdminResult rebalanced = admin.apply(admin.planRebalance());
    awaitRevision(source, rebalanced.revision());
    assertThat(spread(leadersPerNode(source.current()))).isLessThanOrEqualTo(1);
  }

  @Test
  void a_shard_should_never_be_given_to_a_node_removed_since_the_plan() throws Exception {
    // Given: a plan to move a shard's leadership to n3
    EtcdCluster etcd = fixture.etcd();
    TopologyAdmin admin = admin(etcd);
    TopologyAdmin other = admin(etcd);
    admin.init(nodes("n", 4), 16, 1);
    int shard =
        admin.read().assignments().values().stream()
            .filter(a -> !a.involves("n3"))
            .findFirst()
            .orElseThrow()
            .shard();
    TopologyAdminPlan plan = admin.planMoveShard(shard, "n3");
    assertThat(plan.writes()).hasSize(1);
    assertThat(plan.checks()).extracting(TopologyAdminPlan.KeyCheck::key).contains(KEYS.node("n3"));

    // When: another operator removes n3 first
    other.apply(other.planRemoveNode("n3"));

    // Then: the move loses although it rewrites no key the removal wrote
    assertThatThrownBy(() -> admin.apply(plan)).isInstanceOf(TopologyConflictException.class);
    TopologyAdminState state = admin.read();
    assertThat(state.assignments().values()).noneMatch(a -> a.involves("n3"));
    assertThat(state.invalidEntries()).isEmpty();
  }

  @Test
  void remove_node_should_not_delete_a_node_given_a_shard_since_the_plan() throws Exception {
    // Given: a plan to remove n3
    EtcdCluster etcd = fixture.etcd();
    TopologyAdmin admin = admin(etcd);
    TopologyAdmin other = admin(etcd);
    admin.init(nodes("n", 4), 16, 1);
    TopologyAdminPlan plan = admin.planRemoveNode("n3");
    int shard =
        admin.read().assignments().values().stream()
            .filter(a -> !a.involves("n3"))
            .findFirst()
            .orElseThrow()
            .shard();

    // When: another operator gives n3 a shard the plan does not touch
    other.apply(other.planMoveShard(shard, "n3"));

    // Then: the removal loses instead of leaving that shard naming a deleted node
    assertThatThrownBy(() -> admin.apply(plan)).isInstanceOf(TopologyConflictException.class);
    TopologyAdminState state = admin.read();
    assertThat(state.nodes()).containsKey("n3");
    assertThat(state.invalidEntries()).isEmpty();
    // And: planning again removes it cleanly
    admin.apply(admin.planRemoveNode("n3"));
    assertThat(admin.read().assignments().values()).noneMatch(a -> a.involves("n3"));
    assertThat(admin.read().invalidEntries()).isEmpty();
  }

  @Test
  void remove_node_should_leave_no_reference_to_it_and_delete_its_key() throws Exception {
    // Given
    EtcdCluster etcd = fixture.etcd();
    TopologyAdmin admin = admin(etcd);
    Client client = raw(etcd);
    admin.init(nodes("n", 4), 1024, 1);
    EtcdTopologySource source = started(etcd);
    seen.clear();

    // When
    TopologyAdminPlan plan = admin.planRemoveNode("n2");
    assertThat(plan.writes().get(plan.writes().size() - 1).deletes()).isTrue();
    TopologyAdminResult result = admin.apply(plan);

    // Then
    TopologyAdminState state = admin.read();
    assertThat(state.nodes()).containsOnlyKeys("n0", "n1", "n3");
    assertThat(state.assignments().values()).noneMatch(a -> a.involves("n2"));
    assertThat(list(client, KEYS.node("n2"))).isEmpty();
    awaitRevision(source, result.revision());
    assertThat(source.current().nodes()).doesNotContainKey("n2");
    assertThat(source.current().invalidEntries()).isEmpty();
    assertThat(seen)
        .allSatisfy(
            s -> {
              assertThat(s.invalidEntries()).isEmpty();
              assertThat(s.unavailableShardCount()).isZero();
            });
    // And: every shard kept its replica
    assertThat(state.assignments().values()).allSatisfy(a -> assertThat(a.replicas()).hasSize(1));
  }

  @Test
  void failover_of_a_shard_should_promote_its_replica_and_bump_the_epoch_by_exactly_one()
      throws Exception {
    // Given
    EtcdCluster etcd = fixture.etcd();
    TopologyAdmin admin = admin(etcd);
    admin.init(nodes("n", 3), 16, 1);
    EtcdTopologySource source = started(etcd);
    ShardRoute before = source.current().route(5);
    String replica = before.replicas().get(0).id();

    // When
    TopologyAdminResult result = admin.apply(admin.planFailoverShard(5, replica));

    // Then
    awaitRevision(source, result.revision());
    ShardRoute after = source.current().route(5);
    assertThat(after.leader().id()).isEqualTo(replica);
    assertThat(after.epoch()).isEqualTo(before.epoch() + 1);
    assertThat(after.replicas()).extracting(Node::id).doesNotContain(before.leader().id());
    assertThat(after.replicas()).hasSize(1);
    assertThat(result.transactions()).isEqualTo(1);
  }

  @Test
  void failover_of_a_node_should_move_every_shard_it_leads() throws Exception {
    // Given
    EtcdCluster etcd = fixture.etcd();
    TopologyAdmin admin = admin(etcd);
    admin.init(nodes("n", 3), 1024, 1);
    TopologyAdminState before = admin.read();
    int led = before.leaderCounts().get("n0");

    // When
    TopologyAdminPlan plan = admin.planFailoverNode("n0", null);
    admin.apply(plan);

    // Then: n0 leads nothing; each of its shards went to its replica with a new epoch
    TopologyAdminState after = admin.read();
    assertThat(after.leaderCounts()).containsEntry("n0", 0);
    assertThat(plan.plan().summary().leadershipsMoved()).isEqualTo(led);
    before.assignments().values().stream()
        .filter(a -> a.leader().equals("n0"))
        .forEach(
            a -> {
              ShardAssignment now = after.assignments().get(a.shard());
              assertThat(a.replicas()).contains(now.leader());
              assertThat(now.epoch()).isEqualTo(a.epoch() + 1);
            });
    assertThat(after.invalidEntries()).isEmpty();
  }

  @Test
  void failover_of_a_node_to_a_node_should_promote_that_node_everywhere() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    TopologyAdmin admin = admin(etcd);
    admin.init(nodes("n", 2), 64, 1);
    admin.apply(admin.planFailoverNode("n0", "n1"));
    assertThat(admin.read().leaderCounts()).containsEntry("n0", 0).containsEntry("n1", 64);
  }

  @Test
  void rebalance_should_even_out_the_leaderships_after_a_skew() throws Exception {
    // Given: n0 failed over, so n1 and n2 lead everything
    EtcdCluster etcd = fixture.etcd();
    TopologyAdmin admin = admin(etcd);
    admin.init(nodes("n", 3), 1024, 1);
    admin.apply(admin.planFailoverNode("n0", null));
    TopologyAdminState skewed = admin.read();
    assertThat(skewed.leaderCounts()).containsEntry("n0", 0);
    int minimum = PlacementPlanner.minimumLeadershipMoves(skewed.assignments(), skewed.nodes());

    // When
    TopologyAdminPlan plan = admin.planRebalance();
    admin.apply(plan);

    // Then
    TopologyAdminState balanced = admin.read();
    assertThat(spread(balanced.leaderCounts())).isLessThanOrEqualTo(1);
    assertThat(plan.plan().summary().leadershipsMoved()).isEqualTo(minimum);
    assertThat(balanced.invalidEntries()).isEmpty();
    assertThat(admin.planRebalance().plan().summary().leadershipsMoved()).isZero();
  }

  @Test
  void small_transactions_should_still_apply_a_plan_whole() throws Exception {
    // Given: an admin limited to 10 operations per transaction
    EtcdCluster etcd = fixture.etcd();
    TopologyAdmin admin =
        admin(etcd, TopologyAdminOptions.builder().maxOperationsPerTransaction(10).build());
    TopologyAdminResult init = admin.init(nodes("n", 3), 64, 1);
    assertThat(init.transactions()).isEqualTo(1 + 6 + 1);

    // When
    TopologyAdminPlan plan = admin.planAddNode(Node.of("n3", "127.0.0.1", 7003));
    TopologyAdminResult result = admin.apply(plan);

    // Then
    // (10 operations and 10 compares each: the writes and the node entries their shards name)
    assertThat(result.transactions())
        .isEqualTo(plan.transactions())
        .isGreaterThanOrEqualTo((plan.writes().size() + 9) / 10);
    assertThat(spread(admin.read().leaderCounts())).isLessThanOrEqualTo(1);
  }

  @Test
  void a_transaction_without_answer_should_have_an_unknown_outcome() throws Exception {
    // Given: a plan, and an admin that waits 1 s for etcd
    EtcdCluster etcd = fixture.etcd();
    admin(etcd).init(nodes("n", 3), 16, 1);
    TopologyAdmin admin =
        fixture.register(
            TopologyAdmin.create(
                EtcdTopologyOptions.builder()
                    .endpoints(etcd.endpointList())
                    .cluster(CLUSTER)
                    .requestTimeout(Duration.ofSeconds(1))
                    .build()));
    TopologyAdminState before = admin.read();
    String replica = before.assignments().get(3).replicas().get(0);
    TopologyAdminPlan plan = admin.planFailoverShard(3, replica);

    // When: etcd stops answering (SIGSTOP) while the plan is applied
    etcd.member(0).pause();
    long began = System.nanoTime();
    try {
      // Then: the admin gives up after its timeout and says the outcome is unknown
      assertThatThrownBy(() -> admin.apply(plan))
          .isInstanceOfSatisfying(
              TopologyAdminException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.OUTCOME_UNKNOWN);
                assertThat(e.revision()).isEqualTo(plan.readRevision());
              })
          .hasMessageContaining("within 1000 ms")
          .hasMessageContaining("it may or may not have been applied");
      assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(5));
    } finally {
      etcd.member(0).resume();
    }
    // And: once etcd answers, the shard is either as it was or as planned, never in between
    Poll.until(WAIT, "etcd to answer again", () -> admin.read() != null);
    ShardAssignment shard = admin.read().assignments().get(3);
    assertThat(shard).isIn(before.assignments().get(3), plan.plan().steps().get(0).after());
  }

  @Test
  void an_unreachable_etcd_should_fail_within_the_request_timeout() {
    EtcdTopologyOptions options =
        EtcdTopologyOptions.builder()
            .endpoints("http://127.0.0.1:" + Ports.free())
            .cluster(CLUSTER)
            .requestTimeout(Duration.ofSeconds(1))
            .build();
    TopologyAdmin admin = fixture.register(TopologyAdmin.create(options));
    long began = System.nanoTime();
    assertThatThrownBy(admin::read)
        .isInstanceOf(TopologyUnavailableException.class)
        .hasMessageContaining("reading /jumpgate/it/");
    assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(5));
  }
}
