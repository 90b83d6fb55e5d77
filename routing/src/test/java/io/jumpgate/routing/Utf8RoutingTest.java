package io.jumpgate.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.routing.internal.Utf8Keys;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
      byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
      // the hash, not only the shard: a wrong routing key would still share a shard 1 in 1024
      assertThat(Xxh64JumpRouter.routingHashUtf8(key))
          .as("key %s", key)
          .isEqualTo(Xxh64JumpRouter.routingHash(bytes));
      assertThat(router.shardOfUtf8(key)).as("key %s", key).isEqualTo(router.shardOf(bytes));
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "{",
        "}",
        "{}",
        "}{",
        "{a}",
        "{user1000}.following",
        "foo{}{bar}",
        "foo{{bar}}zap",
        "foo{bar}{zap}",
        "a}",
        "{a",
        "é{ж}",
        "{é}x",
        "ж{}{€}",
        "\uD83D\uDE00{\uD83D\uDE00}",
        "{\uD83D}",
        "\uDE00{x}",
        "x{\uD83D",
        "€}{€",
      })
  void should_hash_the_same_routing_key_as_the_utf8_bytes(String key) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    assertThat(Xxh64JumpRouter.routingHashUtf8(key)).isEqualTo(Xxh64JumpRouter.routingHash(bytes));
    byte[] scratch = new byte[3 * key.length()];
    int length = Utf8Keys.encode(key, scratch);
    assertThat(Arrays.copyOf(scratch, length)).isEqualTo(bytes);
  }

  @Test
  void should_route_a_string_builder_like_its_string() {
    StringBuilder key = new StringBuilder("{tag}é-").append(42);
    assertThat(Xxh64JumpRouter.routingHashUtf8(key))
        .isEqualTo(Xxh64JumpRouter.routingHash("tag".getBytes(StandardCharsets.UTF_8)));
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
