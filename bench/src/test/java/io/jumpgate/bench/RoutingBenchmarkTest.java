package io.jumpgate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.routing.Xxh64JumpRouter;
import java.nio.charset.StandardCharsets;
import java.util.function.ToLongFunction;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every {@link RoutingBenchmark} method computes what it claims: the shard of {@code
 * Xxh64JumpRouter} (of the whole key's hash for the bare-hash variants, which ignore hash tags), or
 * for Guava's {@code consistentHash} (same algorithm, different floating-point grouping) a shard in
 * range.
 */
class RoutingBenchmarkTest {

  private static final LongHashFunction XXH64 = LongHashFunction.xx(0);

  @ParameterizedTest
  @CsvSource({
    "8, false",
    "8, true",
    "16, false",
    "16, true",
    "64, false",
    "64, true",
    "256, false",
    "256, true"
  })
  void everyVariantComputesTheRoutersShard(int keyLength, boolean hashTag) {
    RoutingBenchmark bench = new RoutingBenchmark();
    bench.keyLength = keyLength;
    bench.hashTag = hashTag;
    bench.keyCount = 1024;
    bench.setUp();
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(RoutingBenchmark.SHARDS);

    for (byte[] key : bench.keys) {
      assertThat(key).hasSize(keyLength);
      boolean tagged = new String(key, StandardCharsets.US_ASCII).contains("{");
      assertThat(tagged).isEqualTo(hashTag);
    }
    // Whole-key hash and shard, as the bare-hash variants compute them.
    check(bench, b -> b.a_xxh64(), key -> XXH64.hashBytes(key));
    check(bench, b -> b.b_xxh64TextbookJump(), key -> router.shardOfHash(XXH64.hashBytes(key)));
    check(bench, b -> b.f_xxh64FastJump(), key -> router.shardOfHash(XXH64.hashBytes(key)));
    // The routers: the shard of the routing key.
    check(bench, b -> b.d_router(), router::shardOf);
    check(bench, b -> b.e_routingHash(), Xxh64JumpRouter::routingHash);
    check(bench, b -> b.g_prototypeRouter(), router::shardOf);
    check(bench, b -> b.h_prototypeRouterFma(), router::shardOf);
    check(bench, b -> b.i_prototypeRouterFastScan(), router::shardOf);
    if (!hashTag) {
      check(bench, b -> b.d_router(), key -> router.shardOfHash(XXH64.hashBytes(key)));
    }
    bench.index = 0;
    for (int i = 0; i < bench.keyCount; i++) {
      assertThat(bench.c_xxh64GuavaConsistentHash()).isBetween(0, RoutingBenchmark.SHARDS - 1);
    }
  }

  private static void check(
      RoutingBenchmark bench,
      ToLongFunction<RoutingBenchmark> method,
      ToLongFunction<byte[]> expected) {
    bench.index = 0;
    for (int i = 0; i < bench.keyCount; i++) {
      assertThat(method.applyAsLong(bench))
          .as("key %d", i)
          .isEqualTo(expected.applyAsLong(bench.keys[i]));
    }
  }
}
