package io.jumpgate.routing;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Finds a key's routing key: the bytes of its hash tag, or the whole key when it has none.
 *
 * <p>The rule is Redis Cluster's: take the first {@code '{'}; if a {@code '}'} follows it with at
 * least one byte between them, the routing key is what lies strictly between that {@code '{'} and
 * the first {@code '}'} after it. Otherwise it is the whole key.
 *
 * <p>The answer is packed into one {@code long} ({@link #start} in the high half, {@link #length}
 * in the low half) so that the hot path returns two numbers without allocating. Array scans read
 * eight bytes at a time (a SWAR search for the brace byte), which matters because keys are mostly
 * short and the scan runs once per command.
 *
 * <p>Stateless and thread-safe.
 */
public final class HashTagScanner {

  private static final byte OPEN = '{';
  private static final byte CLOSE = '}';
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long OPEN_PATTERN = ONES * OPEN;
  private static final long CLOSE_PATTERN = ONES * CLOSE;

  private static final VarHandle LONGS_LITTLE_ENDIAN =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private HashTagScanner() {}

  /** Start index of the routing key in the scanned array or buffer. */
  public static int start(long range) {
    return (int) (range >>> 32);
  }

  /** Length of the routing key. */
  public static int length(long range) {
    return (int) range;
  }

  private static long pack(int start, int length) {
    return ((long) start << 32) | (length & 0xFFFFFFFFL);
  }

  /**
   * The routing key of {@code key[offset, offset + length)}, packed; the caller has checked the
   * bounds.
   */
  public static long routingKey(byte[] key, int offset, int length) {
    int end = offset + length;
    int open = indexOf(key, offset, end, OPEN_PATTERN, OPEN);
    if (open >= 0) {
      int close = indexOf(key, open + 1, end, CLOSE_PATTERN, CLOSE);
      if (close > open + 1) {
        return pack(open + 1, close - open - 1);
      }
    }
    return pack(offset, length);
  }

  /**
   * The routing key of a buffer's bytes from {@code position} to {@code limit}, packed as absolute
   * buffer indices. Reads with absolute gets: the buffer is not changed.
   */
  public static long routingKey(ByteBuffer key) {
    int from = key.position();
    int end = key.limit();
    int open = -1;
    for (int i = from; i < end; i++) {
      if (key.get(i) == OPEN) {
        open = i;
        break;
      }
    }
    if (open >= 0) {
      for (int i = open + 1; i < end; i++) {
        if (key.get(i) == CLOSE) {
          if (i > open + 1) {
            return pack(open + 1, i - open - 1);
          }
          break;
        }
      }
    }
    return pack(from, end - from);
  }

  /** Index of the first {@code target} byte in {@code array[from, end)}, or -1. */
  private static int indexOf(byte[] array, int from, int end, long pattern, byte target) {
    int i = from;
    for (; i + Long.BYTES <= end; i += Long.BYTES) {
      long word = (long) LONGS_LITTLE_ENDIAN.get(array, i) ^ pattern;
      // A byte of `word` is zero where the target is. (x - 0x01..) & ~x & 0x80.. flags the lowest
      // zero byte exactly; higher flags may be false positives, and only the lowest is used.
      long zeroBytes = (word - ONES) & ~word & HIGHS;
      if (zeroBytes != 0) {
        return i + (Long.numberOfTrailingZeros(zeroBytes) >>> 3);
      }
    }
    for (; i < end; i++) {
      if (array[i] == target) {
        return i;
      }
    }
    return -1;
  }
}
