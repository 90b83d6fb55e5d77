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
  MSET10("mset10");

  private final String label;

  Workload(String label) {
    this.label = label;
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
        "unknown workload '" + label + "' (known: get, set, mix, mget10, mget100, mset10)");
  }
}
