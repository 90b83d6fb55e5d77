package io.jumpgate.bench;

import io.jumpgate.routing.HashTagScanner;
import java.util.Objects;
import net.openhft.hashing.LongHashFunction;

/**
 * {@code Xxh64JumpRouter.shardOf(byte[])} with a faster exact jump: the same bounds check, hash-tag
 * scan and XXH64, then {@link JumpVariants#doubleFloorBitsLag3} ({@link #shardOf}) or {@link
 * JumpVariants#fmaFloorBitsLag3} ({@link #shardOfFma}), so that {@link RoutingBenchmark} can show
 * what the full routing would cost with them. A prototype for the routing module; not for use.
 */
public final class PrototypeRouter {

  private static final LongHashFunction XXH64 = LongHashFunction.xx(0);

  private final int shardCount;

  public PrototypeRouter(int shardCount) {
    if (shardCount < 1) {
      throw new IllegalArgumentException("shard count must be at least 1, was " + shardCount);
    }
    this.shardCount = shardCount;
  }

  /** The shard, with the portable jump ({@link JumpVariants#doubleFloorBitsLag3}). */
  public int shardOf(byte[] key) {
    return JumpVariants.doubleFloorBitsLag3(routingHash(key, 0, key.length), shardCount);
  }

  /** The shard, with the FMA jump ({@link JumpVariants#fmaFloorBitsLag3}). */
  public int shardOfFma(byte[] key) {
    return JumpVariants.fmaFloorBitsLag3(routingHash(key, 0, key.length), shardCount);
  }

  /** The shard, with {@link FastHashTagScanner} and the portable jump. */
  public int shardOfFastScan(byte[] key) {
    long range = FastHashTagScanner.routingKey(key, 0, key.length);
    long hash = XXH64.hashBytes(key, HashTagScanner.start(range), HashTagScanner.length(range));
    return JumpVariants.doubleFloorBitsLag3(hash, shardCount);
  }

  static long routingHash(byte[] key, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, key.length);
    long range = HashTagScanner.routingKey(key, offset, length);
    return XXH64.hashBytes(key, HashTagScanner.start(range), HashTagScanner.length(range));
  }

  private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[256]);

  /**
   * {@code Xxh64JumpRouter.shardOfUtf8} with the hash tag found while encoding (one pass over the
   * chars) instead of by a scan of the encoded bytes, and the portable jump. Measured slower than
   * the shipped encode-then-scan (the tight encoding loop and the 8-bytes-a-step scan beat one loop
   * that tests for braces per char). For keys whose UTF-8 encoding fits in 256 bytes.
   */
  public int shardOfUtf8OnePass(String key) {
    byte[] scratch = SCRATCH.get();
    long range = encodeRoutingKey(key, scratch);
    long hash = XXH64.hashBytes(scratch, HashTagScanner.start(range), HashTagScanner.length(range));
    return JumpVariants.doubleFloorBitsLag3(hash, shardCount);
  }

  /**
   * Writes the UTF-8 encoding of {@code text} at the start of {@code into}, which must hold {@code
   * 3 * text.length()} bytes, and finds its routing key in the same pass: the bytes strictly
   * between the first {@code '{'} and the first {@code '}'} after it when at least one byte lies
   * between them, else the whole encoding (the rule of {@code HashTagScanner}). The braces are
   * ASCII, and UTF-8 never uses their bytes inside a multi-byte sequence, so looking at the chars
   * finds exactly the bytes that a scan of the encoding would.
   *
   * @return the routing key's start and length in {@code into}, packed as {@code start << 32 |
   *     length} (read with {@code HashTagScanner.start} and {@code HashTagScanner.length})
   */
  static long encodeRoutingKey(CharSequence text, byte[] into) {
    int open = -1;
    int close = -1;
    int position = 0;
    int length = text.length();
    int i = 0;
    // ASCII: the common case, where the position is the index; the braces test is one branch
    for (; i < length; i++) {
      char c = text.charAt(i);
      if (c >= 0x80) {
        break;
      }
      into[i] = (byte) c;
      if ((c == '{') | (c == '}')) {
        if (c == '{') {
          if (open < 0) {
            open = i;
          }
        } else if (open >= 0 && close < 0) {
          close = i;
        }
      }
    }
    position = i;
    for (; i < length; i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        if (c == '{') {
          if (open < 0) {
            open = position;
          }
        } else if (c == '}' && open >= 0 && close < 0) {
          close = position;
        }
        into[position++] = (byte) c;
      } else {
        position = encodeNonAscii(text, i, c, into, position);
        if (Character.isHighSurrogate(c)
            && i + 1 < length
            && Character.isLowSurrogate(text.charAt(i + 1))) {
          i++;
        }
      }
    }
    if (close > open + 1) {
      return ((long) (open + 1) << 32) | (close - open - 1);
    }
    return position;
  }

  /**
   * Writes the char {@code c} at {@code text[i]} (with the low surrogate after it, for a pair),
   * which is not ASCII; returns the position after it.
   */
  private static int encodeNonAscii(CharSequence text, int i, char c, byte[] into, int position) {
    if (c < 0x800) {
      into[position++] = (byte) (0xC0 | (c >> 6));
      into[position++] = (byte) (0x80 | (c & 0x3F));
    } else if (Character.isHighSurrogate(c)
        && i + 1 < text.length()
        && Character.isLowSurrogate(text.charAt(i + 1))) {
      int codePoint = Character.toCodePoint(c, text.charAt(i + 1));
      into[position++] = (byte) (0xF0 | (codePoint >> 18));
      into[position++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
      into[position++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
      into[position++] = (byte) (0x80 | (codePoint & 0x3F));
    } else if (Character.isSurrogate(c)) {
      into[position++] = '?';
    } else {
      into[position++] = (byte) (0xE0 | (c >> 12));
      into[position++] = (byte) (0x80 | ((c >> 6) & 0x3F));
      into[position++] = (byte) (0x80 | (c & 0x3F));
    }
    return position;
  }
}
