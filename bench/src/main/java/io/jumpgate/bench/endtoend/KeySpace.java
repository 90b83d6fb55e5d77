package io.jumpgate.bench.endtoend;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The keys, the value and every random choice of the benchmark, drawn once before anything is timed
 * and shared by all systems, so that each system gets exactly the same requests: key indexes
 * (uniform and Zipf), the GET/SET choice of the mix, and the key batches of MGET and MSET.
 *
 * <p>Immutable after construction; safe to read from any thread.
 */
final class KeySpace {
  /** Length of the precomputed index sequences (a power of two); each slot starts elsewhere. */
  static final int SEQUENCE_LENGTH = 1 << 20;

  static final int SEQUENCE_MASK = SEQUENCE_LENGTH - 1;

  /** Number of precomputed batches per batch size (a power of two). */
  static final int BATCHES = 2048;

  static final int BATCH_MASK = BATCHES - 1;

  static final int VALUE_SIZE = 100;

  /** Fields of a hash record (each holding a {@link #VALUE_SIZE}-byte value). */
  static final int HASH_FIELDS = 10;

  /** Hash records of the sync-hset and sync-hgetall workloads, at most (1 KB of values each). */
  static final int MAX_HASH_KEYS = 10_000;

  private final byte[][] keys;
  private final byte[] value;
  private final int[] uniform;
  private final int[] zipf;
  private final boolean[] mixWrites;
  private final int[][] batches10;
  private final int[][] batches100;
  private final byte[][] hashKeys;
  private final java.util.Map<byte[], byte[]> hashFields;

  KeySpace(int keyCount, long seed) {
    keys = new byte[keyCount][];
    for (int index = 0; index < keyCount; index++) {
      keys[index] = String.format("bench:%07d", index).getBytes(StandardCharsets.US_ASCII);
    }
    value = new byte[VALUE_SIZE];
    for (int index = 0; index < VALUE_SIZE; index++) {
      value[index] = (byte) ('a' + index % 26);
    }
    SplittableRandom random = new SplittableRandom(seed);
    uniform = new int[SEQUENCE_LENGTH];
    zipf = new int[SEQUENCE_LENGTH];
    mixWrites = new boolean[SEQUENCE_LENGTH];
    ZipfGenerator generator = new ZipfGenerator(keyCount, ZipfGenerator.DEFAULT_EXPONENT, seed);
    for (int index = 0; index < SEQUENCE_LENGTH; index++) {
      uniform[index] = random.nextInt(keyCount);
      zipf[index] = generator.next(random);
      mixWrites[index] = random.nextBoolean();
    }
    batches10 = batches(10, keyCount, random);
    batches100 = batches(100, keyCount, random);
    hashKeys = new byte[Math.min(keyCount, MAX_HASH_KEYS)][];
    for (int index = 0; index < hashKeys.length; index++) {
      hashKeys[index] = String.format("benchhash:%07d", index).getBytes(StandardCharsets.US_ASCII);
    }
    java.util.Map<byte[], byte[]> fields = new java.util.LinkedHashMap<>();
    for (int field = 0; field < HASH_FIELDS; field++) {
      fields.put(("field" + field).getBytes(StandardCharsets.US_ASCII), value);
    }
    hashFields = java.util.Collections.unmodifiableMap(fields);
  }

  private static int[][] batches(int size, int keyCount, SplittableRandom random) {
    int[][] batches = new int[BATCHES][];
    for (int batch = 0; batch < BATCHES; batch++) {
      batches[batch] = distinct(size, keyCount, random);
    }
    return batches;
  }

  /** {@code size} distinct random indexes below {@code bound}. */
  static int[] distinct(int size, int bound, SplittableRandom random) {
    if (size > bound) {
      throw new IllegalArgumentException(size + " distinct values asked below " + bound);
    }
    int[] chosen = new int[size];
    int count = 0;
    while (count < size) {
      int candidate = random.nextInt(bound);
      boolean seen = false;
      for (int index = 0; index < count && !seen; index++) {
        seen = chosen[index] == candidate;
      }
      if (!seen) {
        chosen[count++] = candidate;
      }
    }
    return chosen;
  }

  int keyCount() {
    return keys.length;
  }

  byte[] key(int index) {
    return keys[index];
  }

  byte[][] keys() {
    return keys;
  }

  /** The 100-byte value every SET and MSET writes. */
  byte[] value() {
    return value;
  }

  int hashKeyCount() {
    return hashKeys.length;
  }

  byte[] hashKey(int index) {
    return hashKeys[index];
  }

  /** The 10 fields of every hash record, 100-byte values, in a fixed order; unmodifiable. */
  java.util.Map<byte[], byte[]> hashFields() {
    return hashFields;
  }

  /** A uniformly random hash record for request {@code sequence}. */
  int uniformHash(long sequence) {
    return uniform[(int) (sequence & SEQUENCE_MASK)] % hashKeys.length;
  }

  int uniform(long sequence) {
    return uniform[(int) (sequence & SEQUENCE_MASK)];
  }

  int zipf(long sequence) {
    return zipf[(int) (sequence & SEQUENCE_MASK)];
  }

  boolean mixWrite(long sequence) {
    return mixWrites[(int) (sequence & SEQUENCE_MASK)];
  }

  /** The precomputed batches of {@code size} (10 or 100) key indexes. */
  int[][] batches(int size) {
    return switch (size) {
      case 10 -> batches10;
      case 100 -> batches100;
      default -> throw new IllegalArgumentException("no batches of " + size + " keys");
    };
  }

  /**
   * What a system that takes plain key lists sends for a batch, made before anything is timed: the
   * keys for MGET ({@code byte[][]}), or key -> value in request order for MSET ({@code Map}).
   */
  Object batch(int[] keyIndexes, boolean write) {
    if (!write) {
      return keysOf(keyIndexes);
    }
    java.util.Map<byte[], byte[]> entries = new java.util.LinkedHashMap<>();
    for (int index : keyIndexes) {
      entries.put(keys[index], value());
    }
    return entries;
  }

  /** The keys of a batch of indexes. */
  byte[][] keysOf(int[] batch) {
    byte[][] result = new byte[batch.length][];
    for (int index = 0; index < batch.length; index++) {
      result[index] = keys[batch[index]];
    }
    return result;
  }

  @Override
  public String toString() {
    return "KeySpace[" + keys.length + " keys, " + VALUE_SIZE + "-byte values]";
  }
}
