/**
 * Internals of the shard copy: the pending-key bookkeeping, change capture, the two batch copiers,
 * the pipelined window. May change at any time; not for use outside this module.
 */
package io.jumpgate.migration.internal;
