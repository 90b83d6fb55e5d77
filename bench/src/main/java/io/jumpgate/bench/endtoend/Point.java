package io.jumpgate.bench.endtoend;

/**
 * One measurement: a system running a workload at an in-flight limit in one round; {@code position}
 * is its place in that round's order ({@link RoundOrder}), 0 for the first.
 */
record Point(
    int round,
    Workload workload,
    int inflight,
    String system,
    int position,
    ClosedLoop.Result result) {

  /** {@code <workload>@<inflight>}, the key of summary.json's ratios. */
  String caseName() {
    return workload.label() + "@" + inflight;
  }
}
