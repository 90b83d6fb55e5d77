package io.jumpgate.migration.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A key's bytes and its shard. Equal when the bytes are equal (the shard follows from the bytes).
 *
 * <p>Immutable as long as nobody writes into {@link #bytes()}, which the engine never does; safe to
 * share between threads.
 */
public final class RoutedKey {

  private final byte[] bytes;
  private final int shard;
  private final int hash;

  public RoutedKey(byte[] bytes, int shard) {
    this.bytes = bytes;
    this.shard = shard;
    this.hash = Arrays.hashCode(bytes);
  }

  /** The key as sent on the wire; not copied: do not modify. */
  public byte[] bytes() {
    return bytes;
  }

  public int shard() {
    return shard;
  }

  /** The key for a log line: UTF-8, invalid bytes replaced. */
  public String printable() {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RoutedKey
        && ((RoutedKey) other).hash == hash
        && Arrays.equals(((RoutedKey) other).bytes, bytes);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return "RoutedKey{" + printable() + ", shard=" + shard + "}";
  }
}
