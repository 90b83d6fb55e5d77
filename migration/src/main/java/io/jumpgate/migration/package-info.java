/**
 * Moving the data of virtual shards between plain RESP servers: {@link
 * io.jumpgate.migration.ShardCopier} copies the keys of a set of shards from their leader to a new
 * server while the leader keeps serving, captures the changes made meanwhile, and proves with a
 * barrier that the target holds every change made before a freeze. {@link
 * io.jumpgate.migration.Mover} runs a whole migration: the lock, the record, the copiers, the
 * freezes, the clients' acknowledgements, the cutovers and the cleanup, through the topology
 * module's {@code MigrationStore}.
 *
 * <p>Public API: kept compatible across minor versions. Everything in {@code
 * io.jumpgate.migration.internal} may change at any time.
 */
package io.jumpgate.migration;
