/**
 * Moving the data of virtual shards between plain RESP servers: {@link
 * io.jumpgate.migration.ShardCopier} copies the keys of a set of shards from their leader to a new
 * server while the leader keeps serving, captures the changes made meanwhile, and proves with a
 * barrier that the target holds every change made before a freeze. The etcd side of a migration
 * (lock, freeze, acknowledgements, cutover) is the orchestrator's, not this package's.
 *
 * <p>Public API: kept compatible across minor versions. Everything in {@code
 * io.jumpgate.migration.internal} may change at any time.
 */
package io.jumpgate.migration;
