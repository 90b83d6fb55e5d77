package io.jumpgate.cli;

import io.jumpgate.routing.Xxh64JumpRouter;
import java.util.HexFormat;

/**
 * Where one key routes, with the steps in between: its routing key (hash tag or whole key), the
 * routing hash (XXH64, seed 0, of the routing key) and the shard.
 *
 * <p>The arrays are the record's own copies; nothing changes them, so a {@code KeyRoute} built by
 * {@link #of} is effectively immutable and safe to share between threads as long as readers do not
 * write to the arrays they get.
 *
 * @param key the key's bytes
 * @param routingKey the bytes the hash covers
 * @param hash the routing hash, to be read as unsigned
 * @param shard the shard, in {@code [0, shards)}
 */
record KeyRoute(byte[] key, byte[] routingKey, long hash, int shard) {

  /** Routes {@code key} with {@code router}. */
  static KeyRoute of(Xxh64JumpRouter router, byte[] key) {
    long hash = Xxh64JumpRouter.routingHash(key);
    return new KeyRoute(
        key.clone(), Xxh64JumpRouter.routingKey(key), hash, router.shardOfHash(hash));
  }

  /** The hash as an unsigned decimal, as the routing vectors write it. */
  String hashDecimal() {
    return Long.toUnsignedString(hash);
  }

  /** The hash as 16 lower-case hex digits, zero-padded. */
  String hashHex() {
    return HexFormat.of().toHexDigits(hash);
  }
}
