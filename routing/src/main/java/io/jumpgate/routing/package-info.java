/**
 * Key to shard routing: the {@code xxh64-jump} scheme (hash tag, XXH64 with seed 0, jump consistent
 * hash) and the grouping of many keys by shard or node for fan-out commands.
 *
 * <p>Everything here is immutable or confined to the calling thread, takes no lock, and the per-key
 * paths allocate nothing. The scheme is specified to the bit in {@code docs/routing.md}; {@code
 * routing-vectors.tsv} in this module's test resources is its conformance test.
 */
package io.jumpgate.routing;
