/**
 * The cluster's shard map as stored in etcd: the key layout and JSON codec of the topology
 * contract, the etcd and file topology sources, and the admin that changes the map.
 *
 * <p>Types here are public API. {@code io.jumpgate.topology.internal} is not.
 */
package io.jumpgate.topology;
