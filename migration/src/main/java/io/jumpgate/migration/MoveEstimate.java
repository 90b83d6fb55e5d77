package io.jumpgate.migration;

import io.jumpgate.migration.internal.Await;
import io.jumpgate.migration.internal.ServerConnections;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.Node;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * An estimate, made before a {@link MovePlan} runs, of how many keys and bytes it moves and how
 * long the copy takes: each source server is sampled ({@code DBSIZE}, then SCAN pages up to {@link
 * #DEFAULT_SAMPLE_KEYS} keys, {@code MEMORY USAGE} of the sampled keys), the sampled keys are
 * routed as clients route them ({@link Xxh64JumpRouter}), and the fraction whose shard leaves that
 * source is applied to its {@code DBSIZE}. The time is the keys at an assumed rate, {@value
 * #ASSUMED_KEYS_PER_SECOND} keys/s (what the copy measured on a 2-core machine, see
 * docs/migration.md): a statement, not a measurement of this cluster.
 *
 * <p>{@link #estimate} never throws for a server: one that cannot be reached, refuses a command or
 * does not answer within the time left is reported as unknown with the reason. {@code MEMORY USAGE}
 * unknown to a server (not Redis) leaves only its bytes unknown. Only database 0 is sampled, as
 * only it is copied.
 *
 * <p>Immutable and thread-safe. {@link #estimate} blocks the calling thread, at most about the
 * timeout it is given (plus the close of its connections).
 *
 * @param sources one estimate per source node of the plan, by node id
 * @param assumedKeysPerSecond the copy rate the duration is computed with
 */
public record MoveEstimate(List<SourceEstimate> sources, long assumedKeysPerSecond) {

  /** The rate the copy time is computed at: about what the copy measured on this project's box. */
  public static final long ASSUMED_KEYS_PER_SECOND = 100_000;

  /**
   * The rate an offline group's SCAN pass over its whole source is estimated at: below the 0.77 to
   * 0.98 million keys/s measured for SCAN COUNT 1000 on this project's loaded 2-core machine
   * (docs/migration.md, "Offline moves"), since the mover also routes every key it scans.
   */
  public static final long ASSUMED_SCAN_KEYS_PER_SECOND = 500_000;

  /** How many keys are sampled on each source at most. */
  public static final int DEFAULT_SAMPLE_KEYS = 1_000;

  /** SCAN pages read on a source at most, to stay bounded on a sparse keyspace. */
  private static final int MAX_SCAN_PAGES = 10;

  /**
   * The estimate for one source.
   *
   * @param nodeId the source's node id
   * @param address host:port as sampled (no credentials)
   * @param shardsLeaving shards of the plan that leave this source
   * @param keys its {@code DBSIZE}; -1 when unknown
   * @param sampledKeys keys sampled
   * @param sampledKeysMoving of those, keys whose shard leaves this source
   * @param keysMoving estimated keys that move; -1 when unknown
   * @param bytesMoving estimated bytes that move ({@code MEMORY USAGE}); -1 when unknown
   * @param unknownReason why keys are unknown (null when known), or why bytes are
   */
  public record SourceEstimate(
      String nodeId,
      String address,
      int shardsLeaving,
      long keys,
      int sampledKeys,
      int sampledKeysMoving,
      long keysMoving,
      long bytesMoving,
      String unknownReason) {

    public SourceEstimate {
      Objects.requireNonNull(nodeId, "nodeId");
      Objects.requireNonNull(address, "address");
    }

    /** Whether the keys that move are known. */
    public boolean known() {
      return keysMoving >= 0;
    }

    static SourceEstimate unknown(String nodeId, String address, int shards, String reason) {
      return new SourceEstimate(nodeId, address, shards, -1, 0, 0, -1, -1, reason);
    }
  }

  public MoveEstimate {
    sources = List.copyOf(sources);
    if (assumedKeysPerSecond < 1) {
      throw new IllegalArgumentException(
          "assumedKeysPerSecond must be positive, was " + assumedKeysPerSecond);
    }
  }

  /** Whether every source was sampled. */
  public boolean complete() {
    return sources.stream().allMatch(SourceEstimate::known);
  }

  /** The keys that move, over the sources sampled. */
  public long keysMoving() {
    return sources.stream()
        .filter(SourceEstimate::known)
        .mapToLong(SourceEstimate::keysMoving)
        .sum();
  }

  /** The bytes that move, over the sources whose bytes are known; -1 when none is. */
  public long bytesMoving() {
    long total = -1;
    for (SourceEstimate source : sources) {
      if (source.bytesMoving() >= 0) {
        total = Math.max(total, 0) + source.bytesMoving();
      }
    }
    return total;
  }

  /** {@link #keysMoving()} at {@link #assumedKeysPerSecond()}. */
  public Duration copyTime() {
    return Duration.ofMillis(keysMoving() * 1000 / assumedKeysPerSecond);
  }

  /**
   * For an offline move: the estimated freeze of one group of {@code groupSize} shards, per source
   * sampled (by node id, unknown sources left out). A group is frozen for a SCAN pass over the
   * whole source (its {@code DBSIZE} at {@link #ASSUMED_SCAN_KEYS_PER_SECOND}) plus the copy of the
   * group's share of the source's moving keys at {@link #assumedKeysPerSecond()}; the removal of
   * leftovers on the target, a SCAN pass over the target, comes on top when the target holds data.
   *
   * @param groupSize shards per group, at least 1
   */
  public Map<String, Duration> offlineFreezePerGroup(int groupSize) {
    if (groupSize < 1) {
      throw new IllegalArgumentException("groupSize must be at least 1, was " + groupSize);
    }
    Map<String, Duration> freezes = new TreeMap<>();
    for (SourceEstimate source : sources) {
      if (!source.known()) {
        continue;
      }
      int shards = Math.max(1, source.shardsLeaving());
      double groupKeys = (double) source.keysMoving() * Math.min(groupSize, shards) / shards;
      double seconds =
          (double) source.keys() / ASSUMED_SCAN_KEYS_PER_SECOND + groupKeys / assumedKeysPerSecond;
      freezes.put(source.nodeId(), Duration.ofNanos(Math.round(seconds * 1e9)));
    }
    return freezes;
  }

  /** The longest of {@link #offlineFreezePerGroup}; null when no source is known. */
  public Duration longestOfflineFreeze(int groupSize) {
    return offlineFreezePerGroup(groupSize).values().stream().max(Duration::compareTo).orElse(null);
  }

  /**
   * Samples the sources of {@code plan}.
   *
   * @param plan the shards that move, with their sources
   * @param nodes the map's node table (the sources' addresses)
   * @param serverAddresses a node's address and credentials as this process reaches it (for example
   *     {@link MoverOptions#serverAddresses()})
   * @param shardCount the cluster's shard count, to route the sampled keys
   * @param timeout the bound on the whole sampling; sources not sampled within it are unknown
   */
  public static MoveEstimate estimate(
      MovePlan plan,
      Map<String, Node> nodes,
      Function<Node, ServerAddress> serverAddresses,
      int shardCount,
      Duration timeout) {
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(nodes, "nodes");
    Objects.requireNonNull(serverAddresses, "serverAddresses");
    Objects.requireNonNull(timeout, "timeout");
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(shardCount);
    Map<String, BitSet> leaving = new TreeMap<>();
    plan.moves()
        .forEach(
            (shard, move) -> leaving.computeIfAbsent(move.from(), id -> new BitSet()).set(shard));
    long deadline = System.nanoTime() + timeout.toNanos();
    List<SourceEstimate> sources = new ArrayList<>();
    try (ServerConnections connections = new ServerConnections(timeout, timeout, 10_000)) {
      for (Map.Entry<String, BitSet> source : leaving.entrySet()) {
        String nodeId = source.getKey();
        BitSet shards = source.getValue();
        Node node = nodes.get(nodeId);
        if (node == null) {
          sources.add(
              SourceEstimate.unknown(nodeId, "?", shards.cardinality(), "not in the node table"));
          continue;
        }
        ServerAddress address;
        try {
          address = serverAddresses.apply(node);
        } catch (RuntimeException e) {
          sources.add(
              SourceEstimate.unknown(
                  nodeId, node.host() + ":" + node.port(), shards.cardinality(), e.getMessage()));
          continue;
        }
        String where = address.host() + ":" + address.port();
        Duration left = Duration.ofNanos(deadline - System.nanoTime());
        if (left.isNegative() || left.isZero()) {
          sources.add(
              SourceEstimate.unknown(
                  nodeId,
                  where,
                  shards.cardinality(),
                  "not sampled within " + timeout.toMillis() + " ms"));
          continue;
        }
        try {
          sources.add(sample(connections, nodeId, address, shards, router, deadline));
        } catch (RuntimeException e) {
          sources.add(
              SourceEstimate.unknown(nodeId, where, shards.cardinality(), reason(e, timeout)));
        }
      }
    }
    return new MoveEstimate(sources, ASSUMED_KEYS_PER_SECOND);
  }

  /**
   * This estimate with its copy time computed at {@code keysPerSecond} when that is slower than the
   * rate assumed (a copy-rate bound, {@link ShardCopierOptions#copyKeysPerSecond()}); itself when
   * {@code keysPerSecond} is 0 (no bound) or not slower.
   */
  public MoveEstimate boundedTo(long keysPerSecond) {
    if (keysPerSecond <= 0 || keysPerSecond >= assumedKeysPerSecond) {
      return this;
    }
    return new MoveEstimate(sources, keysPerSecond);
  }

  private static SourceEstimate sample(
      ServerConnections connections,
      String nodeId,
      ServerAddress address,
      BitSet shards,
      Xxh64JumpRouter router,
      long deadline) {
    String where = address.host() + ":" + address.port();
    StatefulRedisConnection<byte[], byte[]> connection = connections.connect(address, "estimate");
    RedisAsyncCommands<byte[], byte[]> commands = connection.async();
    long keys = Await.result(commands.dbsize(), left(deadline), "DBSIZE on " + where);
    List<byte[]> sampled = new ArrayList<>();
    ScanCursor cursor = ScanCursor.INITIAL;
    for (int page = 0;
        page < MAX_SCAN_PAGES && sampled.size() < DEFAULT_SAMPLE_KEYS && keys > 0;
        page++) {
      KeyScanCursor<byte[]> scanned =
          Await.result(
              commands.scan(cursor, ScanArgs.Builder.limit(DEFAULT_SAMPLE_KEYS)),
              left(deadline),
              "SCAN on " + where);
      for (byte[] key : scanned.getKeys()) {
        if (sampled.size() < DEFAULT_SAMPLE_KEYS) {
          sampled.add(key);
        }
      }
      if (scanned.isFinished()) {
        break;
      }
      cursor = scanned;
    }
    List<byte[]> moving = new ArrayList<>();
    for (byte[] key : sampled) {
      if (shards.get(router.shardOf(key))) {
        moving.add(key);
      }
    }
    if (sampled.isEmpty()) {
      return new SourceEstimate(nodeId, where, shards.cardinality(), keys, 0, 0, 0, 0, null);
    }
    long keysMoving = Math.round((double) keys * moving.size() / sampled.size());
    long bytesMoving;
    String bytesUnknown = null;
    try {
      List<RedisFuture<Long>> usages = new ArrayList<>();
      for (byte[] key : moving) {
        usages.add(commands.memoryUsage(key));
      }
      long sampledBytes = 0;
      for (RedisFuture<Long> usage : usages) {
        Long bytes = Await.result(usage, left(deadline), "MEMORY USAGE on " + where);
        sampledBytes += bytes == null ? 0 : bytes;
      }
      bytesMoving = Math.round((double) keys * sampledBytes / sampled.size());
    } catch (RuntimeException e) {
      bytesMoving = -1;
      bytesUnknown = "bytes unknown: " + e.getMessage();
    }
    return new SourceEstimate(
        nodeId,
        where,
        shards.cardinality(),
        keys,
        sampled.size(),
        moving.size(),
        keysMoving,
        bytesMoving,
        bytesUnknown);
  }

  private static Duration left(long deadline) {
    long nanos = deadline - System.nanoTime();
    if (nanos <= 0) {
      throw new MigrationException("out of time");
    }
    return Duration.ofNanos(nanos);
  }

  private static String reason(RuntimeException e, Duration timeout) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (message.equals("out of time")) {
      return "not sampled within " + timeout.toMillis() + " ms";
    }
    return message;
  }

  /**
   * The estimate as text: a line per source, then the total and the time at the assumed rate. For
   * example {@code estimate: about 5,012 key(s), 412 KB move; at about 100,000 keys/s the copy
   * takes about 0.1 s}.
   */
  public List<String> describe() {
    List<String> lines = new ArrayList<>();
    for (SourceEstimate source : sources) {
      StringBuilder line =
          new StringBuilder("  from ")
              .append(source.nodeId())
              .append(" (")
              .append(source.address())
              .append("), ")
              .append(source.shardsLeaving())
              .append(" shard(s): ");
      if (!source.known()) {
        line.append("unknown (").append(source.unknownReason()).append(')');
      } else {
        line.append(
            String.format(
                Locale.ROOT,
                "about %,d of %,d key(s), %s (%,d of %,d sampled keys move)",
                source.keysMoving(),
                source.keys(),
                bytes(source.bytesMoving()),
                source.sampledKeysMoving(),
                source.sampledKeys()));
      }
      lines.add(line.toString());
    }
    if (sources.stream().noneMatch(SourceEstimate::known)) {
      lines.add(0, "estimate: unknown, no source could be sampled");
      return lines;
    }
    String total =
        String.format(
            Locale.ROOT,
            "estimate%s: about %,d key(s), %s move; at about %,d keys/s the copy takes about %s",
            complete() ? "" : " (without the sources unknown)",
            keysMoving(),
            bytes(bytesMoving()),
            assumedKeysPerSecond,
            seconds(copyTime()));
    lines.add(0, total);
    return lines;
  }

  /** {@code 0 B}, {@code 412 KB}, {@code 1.3 MB}, {@code 2.0 GB}; {@code unknown bytes} if -1. */
  static String bytes(long bytes) {
    if (bytes < 0) {
      return "unknown bytes";
    }
    if (bytes < 1024) {
      return bytes + " B";
    }
    if (bytes < 1024 * 1024) {
      return Math.round(bytes / 1024.0) + " KB";
    }
    if (bytes < 1024L * 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024));
    }
    return String.format(Locale.ROOT, "%.1f GB", bytes / (1024.0 * 1024 * 1024));
  }

  /** {@code 0.1 s}, {@code 42.0 s}, {@code 3 min 5 s}. */
  public static String seconds(Duration duration) {
    long millis = duration.toMillis();
    if (millis < 60_000) {
      return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
    return String.format(Locale.ROOT, "%d min %d s", millis / 60_000, millis % 60_000 / 1000);
  }
}
