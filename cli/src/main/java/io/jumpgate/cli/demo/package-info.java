/**
 * {@code jumpgate demo}: a local cluster and a live workload through the driver.
 *
 * <p>{@link io.jumpgate.cli.demo.DemoCommand} is the verb. {@code Playground} is the cluster:
 * jumpgate-testkit's {@code LocalCluster} starts etcd and the redis-servers on free loopback ports
 * in a temp dir, writes the first map and stops them (three leaders, each with a replica, and a
 * fourth server that joins mid-run); the playground writes the demo's own map changes in etcd (the
 * replica slots, the map side of a failover) following the topology contract, and reads and steers
 * each server (ROLE, DBSIZE, FAILOVER, the key check's KEYS and MGET) over a Lettuce connection of
 * its own; the data moves (a shard, then the fourth node) go through the migration module's {@code
 * MapChangeMover}; {@code Workload} is the load, {@code WriteLedger} what it wrote, {@code
 * KeyPlacementCheck} the check of every key on its owner at the end, {@code LatencyHistogram} the
 * latencies, {@code ProgressLine} the live output and {@code MetricsSummary} the driver's
 * Micrometer meters at the end.
 *
 * <p>Threading: the main thread drives the demo; a ticker thread prints the progress line; a mover
 * thread runs the data moves; the driver's threads count answers; a shutdown hook stops the
 * processes on Ctrl-C.
 */
package io.jumpgate.cli.demo;
