package io.jumpgate.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class Utf8RoutingTest {

  private final Xxh64JumpRouter router = Xxh64JumpRouter.withDefaultShards();

  @Test
  void should_route_text_exactly_as_its_utf8_bytes() {
    // Random strings over ASCII, 2- and 3-byte chars, surrogate pairs and lone surrogates
    SplittableRandom random = new SplittableRandom(11);
    char[] pool = {'a', '{', '}', 'é', 'ж', '€', '用', '\uD83D', '\uDE00', 'z'};
    for (int round = 0; round < 50_000; round++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(300);
      for (int i = 0; i < length; i++) {
        text.append(pool[random.nextInt(pool.length)]);
      }
      String key = text.toString();
      assertThat(router.shardOfUtf8(key))
          .as("key %s", key)
          .isEqualTo(router.shardOf(key.getBytes(StandardCharsets.UTF_8)));
    }
  }

  @Test
  void should_route_long_text_beyond_the_kept_scratch_size() {
    String key = "{tag}" + "x".repeat(100_000) + "é";
    assertThat(router.shardOfUtf8(key)).isEqualTo(router.shardOf("tag".getBytes()));
  }

  @Test
  void should_route_the_documented_example() {
    assertThat(router.shardOfUtf8("user:42")).isEqualTo(717);
  }
}
