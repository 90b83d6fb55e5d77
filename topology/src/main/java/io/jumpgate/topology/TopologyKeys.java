package io.jumpgate.topology;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The etcd key layout of one cluster: everything lives under {@code /jumpgate/<cluster>}.
 *
 * <pre>
 * /jumpgate/&lt;cluster&gt;/meta
 * /jumpgate/&lt;cluster&gt;/nodes/&lt;node-id&gt;
 * /jumpgate/&lt;cluster&gt;/shards/&lt;shard-id&gt;     written zero-padded to 4 digits, read with any padding
 * /jumpgate/&lt;cluster&gt;/clients/&lt;client-id&gt;
 * /jumpgate/&lt;cluster&gt;/migration-lock
 * /jumpgate/&lt;cluster&gt;/migrations/&lt;migration-id&gt;
 * </pre>
 *
 * <p>The map is the key range from {@link #mapRangeStart()} ({@code <root>/meta}, inclusive) to
 * {@link #mapRangeEnd()} ({@code <root>/shards0}, exclusive): {@code meta}, {@code migration-lock},
 * {@code migrations/}, {@code nodes/} and {@code shards/}, but neither {@code clients/} nor {@code
 * init-lock}. Readers list and watch that range only: every client rewrites its {@code clients/}
 * key after each map change, and a watch of the whole root would deliver each of those writes to
 * every other client.
 *
 * <p>Immutable and thread-safe.
 */
public final class TopologyKeys {

  /** The prefix above every cluster. */
  public static final String PREFIX = "/jumpgate/";

  /** The cluster a client uses when none is configured. */
  public static final String DEFAULT_CLUSTER = "default";

  /** Cluster name syntax. */
  public static final Pattern CLUSTER_PATTERN = Pattern.compile("[a-z0-9][a-z0-9_-]{0,62}");

  /** Client id syntax. */
  public static final Pattern CLIENT_ID_PATTERN = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  /** Digits of {@link Integer#MAX_VALUE}: a longer number, leading zeros aside, is out of range. */
  private static final int MAX_SHARD_DIGITS = 10;

  /** What a key under the root is. */
  public enum Kind {
    META,
    NODE,
    SHARD,
    CLIENT,
    /** {@code <root>/migration-lock}: readers watch it, it decides whether a freeze holds. */
    MIGRATION_LOCK,
    /** {@code <root>/migrations/<id>}: a mover's persistent record, ignored by readers. */
    MIGRATION,
    /** Under the root but not part of the schema: ignored by readers. */
    OTHER
  }

  /**
   * A key of the cluster, parsed.
   *
   * @param kind what the key is
   * @param name node id, client id or migration id (as written in the key), or null
   * @param shard shard id for {@link Kind#SHARD}, else -1; -1 also when the shard part is not a
   *     decimal number or is above {@link Integer#MAX_VALUE} (the entry is then invalid); any
   *     number of leading zeros is accepted
   */
  public record ParsedKey(Kind kind, String name, int shard) {}

  private final String cluster;
  private final String root;
  private final String rootPrefix;

  private TopologyKeys(String cluster) {
    this.cluster = cluster;
    this.root = PREFIX + cluster;
    this.rootPrefix = root + "/";
  }

  /**
   * The keys of one cluster.
   *
   * @throws IllegalArgumentException if the name does not match {@link #CLUSTER_PATTERN}
   */
  public static TopologyKeys forCluster(String cluster) {
    Objects.requireNonNull(cluster, "cluster");
    if (!CLUSTER_PATTERN.matcher(cluster).matches()) {
      throw new IllegalArgumentException(
          "cluster name must match " + CLUSTER_PATTERN.pattern() + ", was '" + cluster + "'");
    }
    return new TopologyKeys(cluster);
  }

  /** The cluster name. */
  public String cluster() {
    return cluster;
  }

  /** {@code /jumpgate/<cluster>}, without a trailing slash. */
  public String root() {
    return root;
  }

  /** {@code /jumpgate/<cluster>/}: the prefix to list and watch. */
  public String rootPrefix() {
    return rootPrefix;
  }

  public String meta() {
    return root + "/meta";
  }

  /** {@code <root>/meta}: the first key of the map's range, inclusive. */
  public String mapRangeStart() {
    return meta();
  }

  /**
   * {@code <root>/shards0}: the end of the map's range, exclusive. {@code '0'} is the character
   * after {@code '/'}, so every key under {@code shards/} sorts before it.
   */
  public String mapRangeEnd() {
    return root + "/shards0";
  }

  /** Whether a key lies in the map's range, the keys a reader lists and watches. */
  public boolean inMapRange(String key) {
    return key.compareTo(mapRangeStart()) >= 0 && key.compareTo(mapRangeEnd()) < 0;
  }

  public String nodesPrefix() {
    return root + "/nodes/";
  }

  public String shardsPrefix() {
    return root + "/shards/";
  }

  public String clientsPrefix() {
    return root + "/clients/";
  }

  public String node(String nodeId) {
    return nodesPrefix() + nodeId;
  }

  /** The key writers use for a shard: zero-padded to at least 4 digits. */
  public String shard(int shard) {
    if (shard < 0) {
      throw new IllegalArgumentException("shard must be at least 0, was " + shard);
    }
    return shardsPrefix() + String.format("%04d", shard);
  }

  public String client(String clientId) {
    return clientsPrefix() + clientId;
  }

  /** {@code <root>/migration-lock}: the lock a mover holds with its lease. */
  public String migrationLock() {
    return root + "/migration-lock";
  }

  /** {@code <root>/migrations/}: the movers' persistent records. */
  public String migrationsPrefix() {
    return root + "/migrations/";
  }

  /** {@code <root>/migrations/<migration-id>}. */
  public String migration(String migrationId) {
    return migrationsPrefix() + migrationId;
  }

  /**
   * What a key under this cluster's root is.
   *
   * @throws IllegalArgumentException if the key is not under {@link #rootPrefix()}
   */
  public ParsedKey parse(String key) {
    if (!key.startsWith(rootPrefix)) {
      throw new IllegalArgumentException("key '" + key + "' is not under " + rootPrefix);
    }
    String rest = key.substring(rootPrefix.length());
    if (rest.equals("meta")) {
      return new ParsedKey(Kind.META, null, -1);
    }
    if (rest.startsWith("nodes/") && rest.length() > "nodes/".length()) {
      return new ParsedKey(Kind.NODE, rest.substring("nodes/".length()), -1);
    }
    if (rest.startsWith("shards/") && rest.length() > "shards/".length()) {
      String id = rest.substring("shards/".length());
      int shard = -1;
      if (isDecimal(id)) {
        // Readers accept any number of leading zeros (the contract), however long the key.
        int first = 0;
        while (first < id.length() - 1 && id.charAt(first) == '0') {
          first++;
        }
        String digits = id.substring(first);
        if (digits.length() <= MAX_SHARD_DIGITS) {
          long value = Long.parseLong(digits);
          shard = value <= Integer.MAX_VALUE ? (int) value : -1;
        }
      }
      return new ParsedKey(Kind.SHARD, id, shard);
    }
    if (rest.startsWith("clients/") && rest.length() > "clients/".length()) {
      return new ParsedKey(Kind.CLIENT, rest.substring("clients/".length()), -1);
    }
    if (rest.equals("migration-lock")) {
      return new ParsedKey(Kind.MIGRATION_LOCK, null, -1);
    }
    if (rest.startsWith("migrations/") && rest.length() > "migrations/".length()) {
      return new ParsedKey(Kind.MIGRATION, rest.substring("migrations/".length()), -1);
    }
    return new ParsedKey(Kind.OTHER, null, -1);
  }

  /** Whether the text is one or more ASCII digits (what {@code [0-9]+} matches), without regex. */
  private static boolean isDecimal(String text) {
    for (int index = 0; index < text.length(); index++) {
      char c = text.charAt(index);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return !text.isEmpty();
  }

  @Override
  public String toString() {
    return root;
  }
}
