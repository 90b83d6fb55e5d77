/**
 * Internals of Jumpgate's Spring Data Redis connection: the command families, the one-shard rule,
 * the exception translation and the cluster-wide scan cursor. Not API: may change in any release.
 */
package io.jumpgate.spring.data.internal;
