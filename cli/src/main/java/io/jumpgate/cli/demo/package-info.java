/**
 * {@code jumpgate demo}: a local cluster and a live workload through the driver.
 *
 * <p>{@link io.jumpgate.cli.demo.DemoCommand} is the verb. {@code LocalServers} finds etcd and
 * redis-server, starts them on free loopback ports in a temp dir and stops them; {@code Playground}
 * is the cluster they make (three leaders, each with a replica, and a fourth server that joins
 * mid-run) and writes its shard map in etcd (init, the map side of a failover, the replica slots
 * after a data move) following the topology contract; the data moves (a shard, then the fourth
 * node) go through the migration module's {@code MapChangeMover}; {@code Resp} sends the few raw
 * Redis commands the demo needs (PING, INFO, ROLE, DBSIZE, FAILOVER, KEYS, MGET); {@code Workload}
 * is the load, {@code WriteLedger} what it wrote, {@code KeyPlacementCheck} the check of every key
 * on its owner at the end, {@code LatencyHistogram} the latencies, {@code ProgressLine} the live
 * output and {@code MetricsSummary} the driver's Micrometer meters at the end.
 *
 * <p>Threading: the main thread drives the demo; a ticker thread prints the progress line; a mover
 * thread runs the data moves; the driver's threads count answers; a shutdown hook stops the
 * processes on Ctrl-C.
 */
package io.jumpgate.cli.demo;
