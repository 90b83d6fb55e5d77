package io.jumpgate.bench;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

/** Deterministic sets of distinct, printable benchmark keys. */
public final class Keys {

  /** Key bytes outside hash tags: printable, never a brace. */
  private static final byte[] ALPHABET =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:._-"
          .getBytes(StandardCharsets.US_ASCII);

  private Keys() {}

  /**
   * {@code count} distinct keys of {@code length} bytes. With {@code hashTag}, each holds one hash
   * tag at a random position: {@code {userNNNN}} (10 bytes) in keys of 16 bytes or more, {@code
   * {uNNN}} (6 bytes) in shorter ones, with a random number; the other bytes are random.
   *
   * @param length at least 8 with a hash tag, else at least 1
   */
  public static byte[][] generate(int count, int length, boolean hashTag, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    byte[][] keys = new byte[count][];
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < count; ) {
      byte[] key = new byte[length];
      for (int k = 0; k < length; k++) {
        key[k] = ALPHABET[random.nextInt(ALPHABET.length)];
      }
      if (hashTag) {
        byte[] tag = tag(random, length);
        System.arraycopy(tag, 0, key, random.nextInt(length - tag.length + 1), tag.length);
      }
      if (seen.add(new String(key, StandardCharsets.ISO_8859_1))) {
        keys[i++] = key;
      }
    }
    return keys;
  }

  private static byte[] tag(SplittableRandom random, int keyLength) {
    String tag =
        keyLength >= 16
            ? String.format("{user%04d}", random.nextInt(10_000))
            : String.format("{u%03d}", random.nextInt(1_000));
    if (tag.length() > keyLength) {
      throw new IllegalArgumentException("keys with a hash tag need at least 8 bytes");
    }
    return tag.getBytes(StandardCharsets.US_ASCII);
  }
}
