package io.jumpgate.bench.endtoend;

/** The workloads of the comparison, with the names summary.json uses. */
enum Workload {
  /** GET of one uniformly random key of the preloaded key space. */
  GET("get"),
  /** SET of one uniformly random key to a 100-byte value. */
  SET("set"),
  /** 50 % GET, 50 % SET, Zipf-distributed keys. */
  MIX("mix"),
  /** MGET of 10 distinct random keys. */
  MGET10("mget10"),
  /** MGET of 100 distinct random keys. */
  MGET100("mget100"),
  /** MSET of 10 distinct random keys to 100-byte values. */
  MSET10("mset10"),
  /** Blocking GET of one uniformly random key: the in-flight limit is the number of threads. */
  SYNC_GET("sync-get", true),
  /** Blocking SET of one uniformly random key to a 100-byte value, one call per thread at once. */
  SYNC_SET("sync-set", true),
  /** Blocking HSET of a hash record: 10 fields of 100 bytes, one uniformly random hash key. */
  SYNC_HSET("sync-hset", true),
  /** Blocking HGETALL of a preloaded hash record of 10 fields of 100 bytes. */
  SYNC_HGETALL("sync-hgetall", true);

  private final String label;
  private final boolean blocking;

  Workload(String label) {
    this(label, false);
  }

  Workload(String label, boolean blocking) {
    this.label = label;
    this.blocking = blocking;
  }

  /**
   * Whether the workload is run by threads making blocking calls through each system's sync API
   * (the in-flight limit is then the number of threads), rather than by the asynchronous closed
   * loop.
   */
  boolean blocking() {
    return blocking;
  }

  /** The name used in results: {@code get}, {@code mget10}, ... */
  String label() {
    return label;
  }

  /**
   * @throws IllegalArgumentException naming the known workloads when {@code label} is not one
   */
  static Workload ofLabel(String label) {
    for (Workload workload : values()) {
      if (workload.label.equals(label)) {
        return workload;
      }
    }
    throw new IllegalArgumentException(
        "unknown workload '"
            + label
            + "' (known: get, set, mix, mget10, mget100, mset10, sync-get, sync-set,"
            + " sync-hset, sync-hgetall)");
  }
}
