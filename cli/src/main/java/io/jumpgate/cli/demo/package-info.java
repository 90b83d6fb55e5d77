/**
 * {@code jumpgate demo}: a local cluster and a live workload through the driver.
 *
 * <p>{@link io.jumpgate.cli.demo.DemoCommand} is the verb. {@code LocalServers} finds etcd and
 * redis-server, starts them on free loopback ports in a temp dir and stops them; {@code Playground}
 * is the cluster they make (three leaders, each with a replica) and writes its shard map in etcd
 * (init, a shard move, the map side of a failover) following the topology contract; {@code Resp}
 * sends the few raw Redis commands the demo needs (PING, INFO, ROLE, DBSIZE, FAILOVER); {@code
 * Workload} is the load, {@code LatencyHistogram} its latencies, {@code ProgressLine} the live
 * output and {@code MetricsSummary} the driver's Micrometer meters at the end.
 *
 * <p>Threading: the main thread drives the demo; a ticker thread prints the progress line; the
 * driver's threads count answers; a shutdown hook stops the processes on Ctrl-C.
 */
package io.jumpgate.cli.demo;
