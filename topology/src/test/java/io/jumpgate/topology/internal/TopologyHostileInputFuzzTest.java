package io.jumpgate.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spi.InvalidEntry;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyCodec;
import io.jumpgate.topology.TopologyEntryException;
import io.jumpgate.topology.TopologyKeys;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Hostile input for everything that turns etcd keys and values into a snapshot: {@link
 * TopologyCodec} and {@link TopologyState} (with its node table, shard table and meta rules).
 *
 * <p>It writes at least 100 000 entries, mutated from valid ones (byte flips, truncations, random
 * bytes and JSON tokens inserted, huge numbers, duplicate fields, wrong types, deep nesting,
 * invalid UTF-8, empty values, values of several MB, odd key paths), in small batches, one etcd
 * revision per batch, with a full re-listing now and then. After every batch it checks, with the
 * rules written a second time in {@link IndependentTopologyCheck}:
 *
 * <ul>
 *   <li>nothing is thrown: the decoders throw only {@link TopologyEntryException} with a message,
 *       and the state never throws;
 *   <li>the decoders and the independent rules agree on every value (valid or not, and on what a
 *       valid value says);
 *   <li>the snapshot lets nothing invalid through: every shard has a route; an available route
 *       comes from a value that was written to that shard at the route's revision and is valid; its
 *       leader and replicas are nodes of the table (or a deleted node, with the shard's entry then
 *       reported); the leader is not a replica; epochs never go back unless the shard key was
 *       deleted; the node table is exactly the last valid value of each node key; the meta never
 *       changes; every current value that breaks the rules is reported with a reason.
 * </ul>
 *
 * <p>Seeded: {@code -Djumpgate.fuzz.seed=N} replays a run, {@code -Djumpgate.fuzz.entries=N} makes
 * it longer. Every failure message starts with the seed and the step.
 */
class TopologyHostileInputFuzzTest {

  private static final long SEED = Long.getLong("jumpgate.fuzz.seed", 20261122L);
  private static final int ENTRIES = Integer.getInteger("jumpgate.fuzz.entries", 100_000);
  private static final Duration BUDGET = Duration.ofSeconds(30);

  private static final int SHARDS = 64;
  private static final int INITIAL_NODES = 8;
  private static final String[] NODE_IDS = {
    "n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7", "n8", "n9"
  };
  private static final TopologyKeys KEYS = TopologyKeys.forCluster("fuzz");
  private static final TopologyMetadata META = TopologyMetadata.of(SHARDS);

  private static final String[] JSON_TOKENS = {
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"",
    "\\",
    "null",
    "true",
    "false",
    "0",
    "-1",
    "1e400",
    "1.5",
    "99999999999999999999999999",
    "\"leader\":",
    "\"port\":",
    "\"epoch\":",
    "\"host\":",
    "\\u0000",
    "\\ud800",
    " ",
    "\n",
    "\u00e9",
    "\ufeff",
    "/*",
    "'"
  };

  private static final String[] ODD_KEYS = {
    "shards/",
    "shards/-1",
    "shards/0064",
    "shards/99999999999999999999",
    "shards/ 7",
    "shards/7 ",
    "shards/\u0967",
    "shards/7/x",
    "shards/0x07",
    "shards/+7",
    "shards/7.0",
    "shards/07",
    "shards/0000000000000000000000000012",
    "nodes/",
    "nodes/a b",
    "nodes/n1/x",
    "nodes/\u00f1",
    "nodes/" + "x".repeat(65),
    "nodes/\ufffd",
    "nodes/..",
    "meta/x",
    "metadata",
    "meta ",
    "clients/app-1",
    "unknown",
    "",
    "/",
    "//shards/0001",
    "nodes//n1",
    "SHARDS/0001"
  };

  private static final Object INVALID = new Object();
  private static final Map<Integer, byte[]> OVERSIZED = new HashMap<>();
  private static final String[] SHARD_KEYS = new String[SHARDS];

  static {
    for (int shard = 0; shard < SHARDS; shard++) {
      SHARD_KEYS[shard] = KEYS.shard(shard);
    }
  }

  private final Map<String, Integer> shardOfKey = new HashMap<>();

  private final SplittableRandom random = new SplittableRandom(SEED);
  private final TopologyState state =
      new TopologyState(KEYS, 0, Clock.fixed(java.time.Instant.EPOCH, java.time.ZoneOffset.UTC));

  // The store as etcd would hold it, and what the test knows independently.
  private final Map<String, byte[]> store = new LinkedHashMap<>();
  private final Map<String, Long> storeRevisions = new HashMap<>();
  private final Map<String, Node> nodesInForce = new TreeMap<>();
  private final Map<String, Node> nodesLastKnown = new HashMap<>();

  /** Per key in the store, what its current value decodes to by the independent rules. */
  private final Map<String, Object> decodedNow = new HashMap<>();

  /** Per (revision, shard), the assignments written then, null for an invalid value. */
  private final Map<Long, List<ShardAssignment>> shardWrites = new HashMap<>();

  private final long[] epochFloor = new long[SHARDS];
  private final boolean[] everDeleted = new boolean[SHARDS];
  private final long[] currentEpoch = new long[SHARDS];

  private long revision = 1;
  private int step;
  private int entries;
  private int decodedValid;
  private int oversized;
  private int resets;
  private TopologySnapshot previous;

  @Test
  void should_never_throw_and_never_let_an_invalid_map_through() {
    long start = System.nanoTime();
    previous = state.reset(revision, initialListing());
    check(previous, Set.of());
    while (entries < ENTRIES) {
      step++;
      if (step % 1000 == 0) {
        relist();
        continue;
      }
      revision++;
      int size = 1 + random.nextInt(4);
      Map<String, KeyChange> batch = new LinkedHashMap<>();
      for (int i = 0; i < size; i++) {
        KeyChange change = nextChange();
        batch.putIfAbsent(change.key(), change); // etcd: one event per key per revision
      }
      Set<Integer> deletedShards = new HashSet<>();
      for (KeyChange change : batch.values()) {
        record(change, deletedShards);
      }
      TopologySnapshot next;
      try {
        next = state.apply(revision, List.copyOf(batch.values()));
      } catch (RuntimeException | StackOverflowError e) {
        throw new AssertionError(where() + "apply threw " + e + " on " + batch.values(), e);
      }
      check(next, deletedShards);
      previous = next;
    }
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    long cpuMillis =
        java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime()
            / 1_000_000;
    System.out.printf(
        "topology fuzz: seed %d, %d entries in %d revisions (%d values decoded as valid, %d"
            + " oversized, %d re-listings) in %d ms (test thread CPU %d ms)%n",
        SEED, entries, revision, decodedValid, oversized, resets, took.toMillis(), cpuMillis);
    assertThat(entries).isGreaterThanOrEqualTo(ENTRIES);
    assertThat(decodedValid).as("valid values among the mutated ones").isPositive();
    assertThat(oversized).as("oversized values").isPositive();
    // The budget is on the test thread's CPU time: the wall clock also counts whatever else the
    // machine runs (other builds on a 2-core machine made it vary from 10 s to 50 s), the CPU time
    // is the work this test does. Alone on the machine the run takes about 10 s.
    assertThat(Duration.ofMillis(cpuMillis))
        .as(where() + "CPU time for " + entries + " entries")
        .isLessThan(BUDGET);
  }

  // ---- the store --------------------------------------------------------------------------------

  private List<KeyChange> initialListing() {
    List<KeyChange> listing = new ArrayList<>();
    listing.add(KeyChange.put(KEYS.meta(), TopologyCodec.encodeMetadata(META), revision));
    for (int i = 0; i < INITIAL_NODES; i++) {
      listing.add(KeyChange.put(KEYS.node(NODE_IDS[i]), validNode(NODE_IDS[i]), revision));
    }
    for (int shard = 0; shard < SHARDS; shard++) {
      currentEpoch[shard] = 5;
      ShardAssignment assignment =
          ShardAssignment.of(
              shard,
              NODE_IDS[shard % INITIAL_NODES],
              List.of(NODE_IDS[(shard + 1) % INITIAL_NODES]),
              5);
      listing.add(
          KeyChange.put(KEYS.shard(shard), TopologyCodec.encodeAssignment(assignment), revision));
    }
    for (KeyChange change : listing) {
      record(change, new HashSet<>());
    }
    entries = 0;
    return listing;
  }

  private void relist() {
    resets++;
    List<KeyChange> listing = new ArrayList<>();
    for (Map.Entry<String, byte[]> entry : store.entrySet()) {
      listing.add(
          KeyChange.put(entry.getKey(), entry.getValue(), storeRevisions.get(entry.getKey())));
    }
    TopologySnapshot next;
    try {
      next = state.reset(revision, listing);
    } catch (RuntimeException e) {
      throw new AssertionError(where() + "reset threw " + e, e);
    }
    check(next, Set.of());
    previous = next;
  }

  /** Applies a change to the test's own model of the store. */
  private void record(KeyChange change, Set<Integer> deletedShards) {
    entries++;
    String key = change.key();
    decodedNow.remove(key);
    if (change.isDelete()) {
      store.remove(key);
      storeRevisions.remove(key);
    } else {
      store.put(key, change.value());
      storeRevisions.put(key, change.modRevision());
    }
    String rest =
        key.startsWith(KEYS.rootPrefix()) ? key.substring(KEYS.rootPrefix().length()) : null;
    if (rest == null) {
      return;
    }
    if (rest.startsWith("nodes/") && rest.length() > "nodes/".length()) {
      String id = rest.substring("nodes/".length());
      if (change.isDelete()) {
        nodesInForce.remove(id);
      } else {
        Node node = decodeNode(id, change.value());
        decodedNow.put(key, node == null ? INVALID : node);
        if (node != null) {
          nodesInForce.put(id, node);
          nodesLastKnown.put(id, node);
        }
      }
    } else if (rest.startsWith("shards/") && rest.length() > "shards/".length()) {
      int shard = IndependentTopologyCheck.shardId(rest.substring("shards/".length()), SHARDS);
      if (change.isDelete()) {
        if (shard >= 0) {
          everDeleted[shard] = true;
          deletedShards.add(shard);
        }
      } else {
        ShardAssignment decoded = decodeAssignment(Math.max(shard, 0), change.value());
        decodedNow.put(key, shard < 0 || decoded == null ? INVALID : decoded);
        if (shard >= 0) {
          shardWrites
              .computeIfAbsent(change.modRevision() * SHARDS + shard, r -> new ArrayList<>())
              .add(decoded);
          if (decoded != null) {
            currentEpoch[shard] = Math.max(currentEpoch[shard], decoded.epoch());
          }
        }
      }
    } else if (rest.equals("meta") && !change.isDelete()) {
      TopologyMetadata meta = decodeMetadata(change.value());
      decodedNow.put(key, meta == null ? INVALID : meta);
    }
  }

  // ---- differential decoding --------------------------------------------------------------------

  private Node decodeNode(String id, byte[] value) {
    Node expected = IndependentTopologyCheck.node(id, value);
    Node actual = null;
    try {
      actual = TopologyCodec.decodeNode(id, value);
    } catch (TopologyEntryException e) {
      requireMessage(e, value);
    } catch (RuntimeException | StackOverflowError e) {
      throw new AssertionError(where() + "decodeNode threw " + e + " on " + show(value), e);
    }
    agree("node", value, expected, actual);
    return actual;
  }

  private ShardAssignment decodeAssignment(int shard, byte[] value) {
    ShardAssignment expected = IndependentTopologyCheck.assignment(shard, value);
    ShardAssignment actual = null;
    try {
      actual = TopologyCodec.decodeAssignment(shard, value);
    } catch (TopologyEntryException e) {
      requireMessage(e, value);
    } catch (RuntimeException | StackOverflowError e) {
      throw new AssertionError(where() + "decodeAssignment threw " + e + " on " + show(value), e);
    }
    agree("assignment", value, expected, actual);
    return actual;
  }

  private TopologyMetadata decodeMetadata(byte[] value) {
    TopologyMetadata expected = IndependentTopologyCheck.metadata(value);
    TopologyMetadata actual = null;
    try {
      actual = TopologyCodec.decodeMetadata(value);
    } catch (TopologyEntryException e) {
      requireMessage(e, value);
    } catch (RuntimeException | StackOverflowError e) {
      throw new AssertionError(where() + "decodeMetadata threw " + e + " on " + show(value), e);
    }
    agree("meta", value, expected, actual);
    return actual;
  }

  private void agree(String what, byte[] value, Object expected, Object actual) {
    if (!Objects.equals(expected, actual)) {
      throw new AssertionError(
          where()
              + what
              + " decoded as "
              + actual
              + " but the contract's rules say "
              + (expected == null ? "invalid" : expected)
              + ": "
              + show(value));
    }
    if (actual != null) {
      decodedValid++;
    }
  }

  private void requireMessage(TopologyEntryException e, byte[] value) {
    if (e.getMessage() == null || e.getMessage().isBlank() || e.getMessage().length() > 1000) {
      throw new AssertionError(
          where() + "no usable message (" + e.getMessage() + ") for " + show(value), e);
    }
  }

  // ---- the checks of each snapshot --------------------------------------------------------------

  private void check(TopologySnapshot snapshot, Set<Integer> deletedShards) {
    long low = previous == null ? 0 : previous.revision();
    require(
        snapshot.revision() >= low && snapshot.revision() <= revision,
        () -> "revision " + snapshot.revision() + " is not in [" + low + ", " + revision + "]");
    require(META.equals(snapshot.metadata()), () -> "meta changed to " + snapshot.metadata());
    require(
        nodesInForce.equals(snapshot.nodes()),
        () ->
            "node table "
                + snapshot.nodes()
                + " is not the last valid value of each node key "
                + nodesInForce);

    Map<String, InvalidEntry> invalid = new HashMap<>();
    Set<Integer> shardsReported = new HashSet<>();
    for (InvalidEntry entry : snapshot.invalidEntries()) {
      String key = entry.key();
      require(entry.reason() != null && !entry.reason().isBlank(), () -> "no reason for " + key);
      require(
          store.containsKey(key) || key.equals(KEYS.meta()),
          () -> "reported key " + key + " is not in the store");
      invalid.put(key, entry);
      int shard = shardOfKey(key);
      if (shard >= 0) {
        shardsReported.add(shard);
      }
    }
    checkCurrentValuesReported(invalid);

    require(snapshot.shardCount() == SHARDS, () -> "shard count " + snapshot.shardCount());
    for (int index = 0; index < SHARDS; index++) {
      int shard = index;
      ShardRoute route = snapshot.route(shard);
      require(
          route != null && route.shard() == shard, () -> "route of shard " + shard + ": " + route);
      if (deletedShards.contains(shard)) {
        epochFloor[shard] = -1;
      }
      if (!route.isAvailable()) {
        require(
            route.unavailableReason() != null && !route.unavailableReason().isBlank(),
            () -> "no reason why shard " + shard + " is unavailable");
        require(
            everDeleted[shard],
            () ->
                "shard "
                    + shard
                    + " unavailable ("
                    + route.unavailableReason()
                    + "), never deleted");
        epochFloor[shard] = -1;
        continue;
      }
      checkRoute(route, shardsReported.contains(shard));
      long floor = epochFloor[shard];
      require(
          route.epoch() >= floor,
          () -> "epoch of shard " + shard + " went back from " + floor + " to " + route.epoch());
      epochFloor[shard] = route.epoch();
    }
  }

  private void checkRoute(ShardRoute route, boolean reported) {
    int shard = route.shard();
    List<ShardAssignment> written =
        shardWrites.getOrDefault(route.modRevision() * SHARDS + shard, List.of());
    ShardAssignment found = null;
    for (ShardAssignment candidate : written) {
      if (candidate != null
          && candidate.leader().equals(route.leader().id())
          && candidate.epoch() == route.epoch()) {
        found = candidate;
      }
    }
    ShardAssignment source = found;
    require(
        source != null,
        () ->
            "shard "
                + shard
                + " routed by "
                + route
                + ": no valid value was written to it at revision "
                + route.modRevision()
                + ", only "
                + written);
    List<String> replicaIds = new ArrayList<>(route.replicas().size());
    for (Node replica : route.replicas()) {
      replicaIds.add(replica.id());
    }
    String migration =
        route.migration() == null
            ? null
            : route.migration().id() + " to " + route.migration().to().id();
    String sourceMigration =
        source.migration() == null
            ? null
            : source.migration().id() + " to " + source.migration().to();
    require(
        replicaIds.equals(source.replicas())
            && route.state() == source.state()
            && Objects.equals(migration, sourceMigration),
        () -> "shard " + shard + " routed by " + route + ", but its value says " + source);
    require(
        !replicaIds.contains(route.leader().id())
            && new HashSet<>(replicaIds).size() == replicaIds.size(),
        () -> "shard " + shard + ": the leader is a replica or a replica is twice in " + route);
    checkNode(route.leader(), shard, reported);
    for (Node replica : route.replicas()) {
      checkNode(replica, shard, reported);
    }
    if (route.migration() != null) {
      checkNode(route.migration().to(), shard, reported);
    }
  }

  private void checkNode(Node node, int shard, boolean reported) {
    require(
        node.port() >= 1 && node.port() <= 65535 && !node.host().isBlank(),
        () -> "shard " + shard + " names a node with a bad address: " + node);
    Node inTable = nodesInForce.get(node.id());
    if (inTable != null) {
      require(
          node.equals(inTable),
          () -> "shard " + shard + " names " + node + ", the table holds " + inTable);
    } else {
      require(
          reported,
          () ->
              "shard "
                  + shard
                  + " names node "
                  + node.id()
                  + " that is not in the table, unreported");
      require(
          node.equals(nodesLastKnown.get(node.id())),
          () ->
              "shard "
                  + shard
                  + " names "
                  + node
                  + ", last known "
                  + nodesLastKnown.get(node.id()));
    }
  }

  /** Every current value that breaks the rules on its own is reported. */
  private void checkCurrentValuesReported(Map<String, InvalidEntry> invalid) {
    for (Map.Entry<String, Object> entry : decodedNow.entrySet()) {
      Object decoded = entry.getValue();
      boolean broken =
          decoded == INVALID
              || (decoded instanceof TopologyMetadata meta && !META.equals(meta))
              || (decoded instanceof ShardAssignment assignment && !namesKnownNodes(assignment));
      require(
          !broken || invalid.containsKey(entry.getKey()),
          () ->
              "the invalid value of "
                  + entry.getKey()
                  + " is not reported: "
                  + show(store.get(entry.getKey())));
    }
  }

  private void require(boolean condition, Supplier<String> message) {
    if (!condition) {
      throw new AssertionError(where() + message.get());
    }
  }

  private boolean namesKnownNodes(ShardAssignment assignment) {
    if (!nodesInForce.containsKey(assignment.leader())) {
      return false;
    }
    for (String replica : assignment.replicas()) {
      if (!nodesInForce.containsKey(replica)) {
        return false;
      }
    }
    return true;
  }

  // ---- generating changes -----------------------------------------------------------------------

  private KeyChange nextChange() {
    int kind = random.nextInt(100);
    if (kind < 35) {
      int shard = random.nextInt(SHARDS);
      return put(shardKey(shard), mutate(validAssignment(shard)));
    }
    if (kind < 50) {
      int shard = random.nextInt(SHARDS);
      return put(shardKey(shard), validAssignment(shard));
    }
    if (kind < 62) {
      String id = NODE_IDS[random.nextInt(NODE_IDS.length)];
      return put(KEYS.node(id), mutate(validNode(id)));
    }
    if (kind < 70) {
      String id = NODE_IDS[random.nextInt(NODE_IDS.length)];
      return put(KEYS.node(id), validNode(id));
    }
    if (kind < 75) {
      List<String> existing = new ArrayList<>(store.keySet());
      existing.remove(KEYS.meta()); // a deleted meta is reported and ignored; keep the test simple
      return KeyChange.delete(existing.get(random.nextInt(existing.size())), revision);
    }
    if (kind < 79) {
      byte[] meta = TopologyCodec.encodeMetadata(META);
      return put(KEYS.meta(), random.nextBoolean() ? meta : mutate(meta));
    }
    if (kind < 87) {
      String key = KEYS.rootPrefix() + ODD_KEYS[random.nextInt(ODD_KEYS.length)];
      if (random.nextInt(10) == 0) {
        key = "/jumpgate/fuzzother/shards/0001";
      }
      byte[] value =
          key.contains("nodes") ? validNode("n1") : validAssignment(random.nextInt(SHARDS));
      return put(key, random.nextBoolean() ? value : mutate(value));
    }
    // Hand-made hostile values under real keys.
    boolean node = random.nextBoolean();
    String key =
        node
            ? KEYS.node(NODE_IDS[random.nextInt(NODE_IDS.length)])
            : shardKey(random.nextInt(SHARDS));
    return put(key, hostile(node));
  }

  private KeyChange put(String key, byte[] value) {
    return KeyChange.put(key, value, revision);
  }

  private String shardKey(int shard) {
    return random.nextInt(20) == 0 ? KEYS.shardsPrefix() + shard : SHARD_KEYS[shard];
  }

  /** The shard a key names by the independent rules, or -1; memoised (keys repeat a lot). */
  private int shardOfKey(String key) {
    return shardOfKey.computeIfAbsent(
        key,
        k -> {
          String rest = k.substring(KEYS.rootPrefix().length());
          return rest.startsWith("shards/")
              ? IndependentTopologyCheck.shardId(rest.substring("shards/".length()), SHARDS)
              : -1;
        });
  }

  private byte[] validNode(String id) {
    Map<String, String> tags =
        random.nextInt(4) == 0 ? Map.of("rack", "r" + random.nextInt(3)) : Map.of();
    Node node =
        new Node(
            id,
            "10.0.0." + random.nextInt(3),
            6379 + random.nextInt(3),
            random.nextBoolean() ? "az" + random.nextInt(3) : null,
            tags,
            random.nextInt(8) == 0);
    return decorate(TopologyCodec.encodeNode(node));
  }

  private byte[] validAssignment(int shard) {
    String leader =
        NODE_IDS[random.nextInt(random.nextInt(10) == 0 ? NODE_IDS.length : INITIAL_NODES)];
    List<String> replicas = new ArrayList<>();
    for (int i = random.nextInt(3); i > 0; i--) {
      String replica = NODE_IDS[random.nextInt(INITIAL_NODES)];
      if (!replica.equals(leader) && !replicas.contains(replica)) {
        replicas.add(replica);
      }
    }
    long epoch = Math.max(0, currentEpoch[shard] + random.nextInt(4) - 1);
    int draw = random.nextInt(20);
    ShardState state =
        draw == 0 ? ShardState.FROZEN : draw == 1 ? ShardState.MIGRATING : ShardState.ACTIVE;
    ShardAssignment.Migration migration = null;
    if (state != ShardState.ACTIVE) {
      String target = NODE_IDS[random.nextInt(NODE_IDS.length)];
      migration = target.equals(leader) ? null : new ShardAssignment.Migration("m" + draw, target);
      if (migration == null) {
        state = ShardState.ACTIVE;
      }
    }
    return decorate(
        TopologyCodec.encodeAssignment(
            new ShardAssignment(shard, leader, replicas, epoch, state, migration)));
  }

  /** Valid variations of a valid value: unknown fields, white space, a byte order mark. */
  private byte[] decorate(byte[] value) {
    String text = new String(value, StandardCharsets.UTF_8);
    switch (random.nextInt(6)) {
      case 0 ->
          text = text.substring(0, text.length() - 1) + ",\"future\":{\"a\":[1,{\"b\":null}]}}";
      case 1 -> text = "\ufeff" + text;
      case 2 -> text = " \n" + text.replace(",", " ,\t") + " \r\n";
      case 3 -> text = "{\"x\":\"\u00e9\u20ac\ud83d\ude00\"," + text.substring(1);
      default -> {}
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private byte[] mutate(byte[] seed) {
    byte[] value = seed;
    int mutations = 1 + random.nextInt(3);
    for (int m = 0; m < mutations; m++) {
      if (value.length == 0) {
        value = new byte[] {(byte) random.nextInt(256)};
      }
      int at = random.nextInt(value.length);
      switch (random.nextInt(6)) {
        case 0 -> {
          value = value.clone();
          value[at] ^= (byte) (1 << random.nextInt(8));
        }
        case 1 -> value = Arrays.copyOf(value, at); // truncated
        case 2 -> {
          byte[] noise = new byte[1 + random.nextInt(6)];
          for (int i = 0; i < noise.length; i++) {
            noise[i] = (byte) random.nextInt(256);
          }
          value = insert(value, at, noise);
        }
        case 3 ->
            value =
                insert(
                    value,
                    at,
                    JSON_TOKENS[random.nextInt(JSON_TOKENS.length)].getBytes(
                        StandardCharsets.UTF_8));
        case 4 -> value = replaceNumber(value);
        default -> {
          int end = Math.min(value.length, at + 1 + random.nextInt(8));
          byte[] shorter = new byte[value.length - (end - at)];
          System.arraycopy(value, 0, shorter, 0, at);
          System.arraycopy(value, end, shorter, at, value.length - end);
          value = shorter;
        }
      }
    }
    return value;
  }

  private static byte[] insert(byte[] value, int at, byte[] bytes) {
    byte[] longer = new byte[value.length + bytes.length];
    System.arraycopy(value, 0, longer, 0, at);
    System.arraycopy(bytes, 0, longer, at, bytes.length);
    System.arraycopy(value, at, longer, at + bytes.length, value.length - at);
    return longer;
  }

  /** Replaces the first number with an edge value. */
  private byte[] replaceNumber(byte[] value) {
    String text = new String(value, StandardCharsets.ISO_8859_1);
    String[] edges = {
      "0",
      "-0",
      "-1",
      "65535",
      "65536",
      "2147483647",
      "2147483648",
      "9223372036854775807",
      "9223372036854775808",
      "-9223372036854775809",
      "1" + "0".repeat(1200),
      "1.0",
      "1e2",
      "0x10",
      "007",
      "NaN",
      "Infinity",
      "\"7\"",
      "null",
      "true",
      "[]",
      "{}"
    };
    return text.replaceFirst("[0-9]+", edges[random.nextInt(edges.length)])
        .getBytes(StandardCharsets.ISO_8859_1);
  }

  private byte[] hostile(boolean node) {
    String valid = new String(node ? validNode("n1") : validAssignment(0), StandardCharsets.UTF_8);
    String body = valid.substring(1, valid.length() - 1);
    int pick = random.nextInt(400);
    int kind = pick < 4 ? 5 : pick < 6 ? 6 : pick % 12 == 5 || pick % 12 == 6 ? 2 : pick % 12;
    switch (kind) {
      case 0:
        return new byte[0];
      case 1: // duplicate field, at the top or nested inside an unknown field
        return random.nextBoolean()
            ? ("{" + body + "," + body + "}").getBytes(StandardCharsets.UTF_8)
            : ("{" + body + ",\"u\":{\"a\":1,\"a\":2}}").getBytes(StandardCharsets.UTF_8);
      case 2: // wrong types
        String[] fields =
            node
                ? new String[] {"host", "port", "zone", "tags", "tls"}
                : new String[] {"leader", "replicas", "epoch", "state"};
        String[] values = {
          "1", "\"x\"", "[]", "{}", "true", "null", "[\"n1\",\"n1\"]", "\"\"", "\" \"", "-5"
        };
        return ("{"
                + body
                + ",\""
                + fields[random.nextInt(fields.length)]
                + "\":"
                + values[random.nextInt(values.length)]
                + "}")
            .getBytes(StandardCharsets.UTF_8);
      case 3: // deep nesting, well below or well above the limit of 64
        int depth = random.nextBoolean() ? 1 + random.nextInt(40) : 100 + random.nextInt(5000);
        return ("{" + body + ",\"deep\":" + "[".repeat(depth) + "]".repeat(depth) + "}")
            .getBytes(StandardCharsets.UTF_8);
      case 4: // invalid UTF-8: a lone continuation byte, an overlong form, a surrogate, a cut
        // sequence
        byte[][] bad = {
          {(byte) 0x80},
          {(byte) 0xC0, (byte) 0xAF},
          {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
          {(byte) 0xE2, (byte) 0x82},
          {(byte) 0xFF}
        };
        byte[] base = valid.getBytes(StandardCharsets.UTF_8);
        return insert(base, 1 + random.nextInt(base.length - 1), bad[random.nextInt(bad.length)]);
      case 5: // several MB: over the limit (made once per size: building them is the slow part)
        oversized++;
        int megabytes = 2 + random.nextInt(5);
        byte[] big =
            OVERSIZED.computeIfAbsent(megabytes, TopologyHostileInputFuzzTest::oversizedValue);
        return random.nextBoolean() ? big : Arrays.copyOf(big, big.length - random.nextInt(100));
      case 6: // just under the limit: a valid, large value
        return ("{" + body + ",\"pad\":\"" + "y".repeat((1 << 20) - 200 - body.length()) + "\"}")
            .getBytes(StandardCharsets.UTF_8);
      case 7: // not an object
        String[] roots = {"[]", "null", "\"x\"", "1", "true", " ", "{}{}", "{} x", valid + valid};
        return roots[random.nextInt(roots.length)].getBytes(StandardCharsets.UTF_8);
      case 8: // huge numbers
        String field = node ? "port" : "epoch";
        return ("{" + body + ",\"" + field + "\":" + "9".repeat(1 + random.nextInt(2000)) + "}")
            .getBytes(StandardCharsets.UTF_8);
      case 9: // control characters and escapes
        return ("{" + body + ",\"c\":\"\u0001\\u0000\\ud800\"}").getBytes(StandardCharsets.UTF_8);
      case 10: // UTF-16
        return valid.getBytes(StandardCharsets.UTF_16);
      default: // many fields
        StringBuilder many = new StringBuilder("{").append(body);
        for (int i = 0; i < 1000; i++) {
          many.append(",\"f").append(i).append("\":").append(i);
        }
        return many.append('}').toString().getBytes(StandardCharsets.UTF_8);
    }
  }

  /** A valid assignment padded with an unknown field to {@code megabytes} MB. */
  private static byte[] oversizedValue(int megabytes) {
    byte[] value = new byte[megabytes << 20];
    Arrays.fill(value, (byte) 'x');
    byte[] head = "{\"leader\":\"n1\",\"pad\":\"".getBytes(StandardCharsets.UTF_8);
    System.arraycopy(head, 0, value, 0, head.length);
    value[value.length - 2] = '"';
    value[value.length - 1] = '}';
    return value;
  }

  // ---- messages ---------------------------------------------------------------------------------

  private String where() {
    return "[seed " + SEED + ", step " + step + ", revision " + revision + "] ";
  }

  private static String show(byte[] value) {
    if (value == null) {
      return "null";
    }
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < Math.min(value.length, 300); i++) {
      int b = value[i] & 0xff;
      text.append(b >= 0x20 && b < 0x7f ? String.valueOf((char) b) : String.format("\\x%02x", b));
    }
    return "'" + text + (value.length > 300 ? "...' (" + value.length + " bytes)" : "'");
  }
}
