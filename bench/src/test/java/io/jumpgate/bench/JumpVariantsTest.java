package io.jumpgate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.hash.Hashing;
import io.jumpgate.routing.JumpHash;
import io.jumpgate.routing.Xxh64JumpRouter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongBinaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** Every jump variant of the benchmarks is bit-exact against the contract (Guava only in range). */
class JumpVariantsTest {

  /** The routing module's copy of the contract's vectors (this test runs in bench/). */
  private static final Path VECTORS = Path.of("../routing/src/test/resources/routing-vectors.tsv");

  private static final int[] SPECIAL_BUCKETS = {
    1,
    2,
    3,
    7,
    16,
    100,
    1000,
    1024,
    4096,
    65536,
    1 << 20,
    1 << 30,
    Integer.MAX_VALUE - 1,
    Integer.MAX_VALUE
  };

  private static final long[] SPECIAL_KEYS = {
    0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0xFFFFFFFF00000000L, 0x00000000FFFFFFFFL
  };

  /** Name and function of each exact variant, for messages. */
  private static final List<Variant> VARIANTS =
      List.of(
          new Variant("textbook", (k, n) -> JumpVariants.textbook(k, (int) n)),
          new Variant("JumpHash.bucket", (k, n) -> JumpHash.bucket(k, (int) n)),
          new Variant("textbookBits", (k, n) -> JumpVariants.textbookBits(k, (int) n)),
          new Variant("fmaFloor", (k, n) -> JumpVariants.fmaFloor(k, (int) n)),
          new Variant("fmaFloorBits", (k, n) -> JumpVariants.fmaFloorBits(k, (int) n)),
          new Variant("fmaFloorBitsLag1", (k, n) -> JumpVariants.fmaFloorBitsLag1(k, (int) n)),
          new Variant("fmaFloorBitsLag2", (k, n) -> JumpVariants.fmaFloorBitsLag2(k, (int) n)),
          new Variant("fmaFloorBitsLag3", (k, n) -> JumpVariants.fmaFloorBitsLag3(k, (int) n)),
          new Variant("fmaFloorBitsLag4", (k, n) -> JumpVariants.fmaFloorBitsLag4(k, (int) n)),
          new Variant("doubleFloorBits", (k, n) -> JumpVariants.doubleFloorBits(k, (int) n)),
          new Variant(
              "doubleFloorBitsLag3", (k, n) -> JumpVariants.doubleFloorBitsLag3(k, (int) n)));

  private record Variant(String name, LongBinaryOperator bucket) {}

  @Test
  void everyVariantMatchesAllRoutingVectors() throws IOException {
    List<String> lines = Files.readAllLines(VECTORS, StandardCharsets.UTF_8);
    int vectors = 0;
    for (String line : lines) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] field = line.split("\t", -1);
      byte[] key = HexFormat.of().parseHex(field[0]);
      int shards = Integer.parseInt(field[1]);
      long hash = Long.parseUnsignedLong(field[3]);
      int shard = Integer.parseInt(field[4]);
      assertThat(Xxh64JumpRouter.routingHash(key)).as(line).isEqualTo(hash);
      assertThat(Xxh64JumpRouter.forShards(shards).shardOf(key)).as(line).isEqualTo(shard);
      assertThat(new PrototypeRouter(shards).shardOf(key)).as(line).isEqualTo(shard);
      assertThat(new PrototypeRouter(shards).shardOfFma(key)).as(line).isEqualTo(shard);
      assertThat(new PrototypeRouter(shards).shardOfFastScan(key)).as(line).isEqualTo(shard);
      for (Variant variant : VARIANTS) {
        assertThat(variant.bucket().applyAsLong(hash, shards))
            .as("%s: %s", variant.name(), line)
            .isEqualTo(shard);
      }
      assertThat(Hashing.consistentHash(hash, shards)).isBetween(0, shards - 1);
      vectors++;
    }
    assertThat(vectors).isEqualTo(2000);
  }

  @Test
  void theDivisorFromBitsIsExact() {
    SplittableRandom random = new SplittableRandom(33);
    long[] states = {0, 1L << 33, -1, (1L << 33) - 1, Long.MIN_VALUE, Long.MAX_VALUE};
    for (long state : states) {
      assertThat(JumpVariants.divisor(state)).isEqualTo((double) ((state >>> 33) + 1));
    }
    for (int i = 0; i < 100_000; i++) {
      long state = random.nextLong();
      assertThat(JumpVariants.divisor(state)).isEqualTo((double) ((state >>> 33) + 1));
    }
  }

  @Test
  void everyVariantMatchesTheTextbookLoopOnRandomAndEdgeKeys() {
    SplittableRandom random = new SplittableRandom(2014);
    for (long key : SPECIAL_KEYS) {
      for (int buckets : SPECIAL_BUCKETS) {
        checkAll(key, buckets);
      }
    }
    for (int i = 0; i < 20_000; i++) {
      long key = random.nextLong();
      checkAll(key, SPECIAL_BUCKETS[i % SPECIAL_BUCKETS.length]);
      checkAll(key, 1 + random.nextInt(Integer.MAX_VALUE));
      checkAll(key, 1 + random.nextInt(1 << (1 + random.nextInt(30))));
    }
  }

  /**
   * A long search for a differing key (a few minutes): {@code mvn -pl bench test
   * -Djumpgate.bench.longCheck=200000000}.
   */
  @Test
  @EnabledIfSystemProperty(named = "jumpgate.bench.longCheck", matches = "\\d+")
  void longRandomCheck() {
    long count = Long.parseLong(System.getProperty("jumpgate.bench.longCheck"));
    SplittableRandom random = new SplittableRandom(System.nanoTime());
    for (long i = 0; i < count; i++) {
      long key = random.nextLong();
      int buckets =
          (i & 1) == 0
              ? 1 + random.nextInt(Integer.MAX_VALUE)
              : 1 + random.nextInt(1 << (1 + random.nextInt(30)));
      checkAll(key, buckets);
    }
  }

  private static void checkAll(long key, int buckets) {
    int expected = JumpVariants.textbook(key, buckets);
    assertThat(expected).isBetween(0, buckets - 1);
    for (Variant variant : VARIANTS) {
      long actual = variant.bucket().applyAsLong(key, buckets);
      if (actual != expected) {
        throw new AssertionError(
            variant.name()
                + ": key "
                + Long.toUnsignedString(key)
                + ", buckets "
                + buckets
                + ": expected "
                + expected
                + ", was "
                + actual);
      }
    }
    assertThat(Hashing.consistentHash(key, buckets)).isBetween(0, buckets - 1);
  }
}
