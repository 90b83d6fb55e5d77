package io.jumpgate.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A prototype of {@code io.jumpgate.routing.HashTagScanner.routingKey(byte[], int, int)} with the
 * same result (the same packed {@code start << 32 | length}) and a faster search: the SWAR brace
 * search tests 32 bytes per branch instead of 8. The shipped scan costs about 0.9 ns per 8 bytes of
 * a key without a tag (about 28 ns for 256 bytes, close to XXH64's own cost), most of it the
 * per-word loop branch.
 */
public final class FastHashTagScanner {

  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;
  private static final long OPEN_PATTERN = ONES * '{';
  private static final long CLOSE_PATTERN = ONES * '}';

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private FastHashTagScanner() {}

  /** Same contract as {@code HashTagScanner.routingKey(byte[], int, int)}. */
  public static long routingKey(byte[] key, int offset, int length) {
    int end = offset + length;
    int open = indexOf(key, offset, end, OPEN_PATTERN, (byte) '{');
    if (open >= 0) {
      int close = indexOf(key, open + 1, end, CLOSE_PATTERN, (byte) '}');
      if (close > open + 1) {
        return ((long) (open + 1) << 32) | (close - open - 1);
      }
    }
    return ((long) offset << 32) | (length & 0xFFFFFFFFL);
  }

  /** Flags the lowest byte of {@code word} equal to the pattern's byte exactly (higher may lie). */
  private static long matches(long word, long pattern) {
    long x = word ^ pattern;
    return (x - ONES) & ~x & HIGHS;
  }

  private static int indexOf(byte[] array, int from, int end, long pattern, byte target) {
    int i = from;
    for (; i + 4 * Long.BYTES <= end; i += 4 * Long.BYTES) {
      long m0 = matches((long) LONGS.get(array, i), pattern);
      long m1 = matches((long) LONGS.get(array, i + 8), pattern);
      long m2 = matches((long) LONGS.get(array, i + 16), pattern);
      long m3 = matches((long) LONGS.get(array, i + 24), pattern);
      if ((m0 | m1 | m2 | m3) != 0) {
        if (m0 != 0) {
          return i + (Long.numberOfTrailingZeros(m0) >>> 3);
        }
        if (m1 != 0) {
          return i + 8 + (Long.numberOfTrailingZeros(m1) >>> 3);
        }
        if (m2 != 0) {
          return i + 16 + (Long.numberOfTrailingZeros(m2) >>> 3);
        }
        return i + 24 + (Long.numberOfTrailingZeros(m3) >>> 3);
      }
    }
    for (; i + Long.BYTES <= end; i += Long.BYTES) {
      long m = matches((long) LONGS.get(array, i), pattern);
      if (m != 0) {
        return i + (Long.numberOfTrailingZeros(m) >>> 3);
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
