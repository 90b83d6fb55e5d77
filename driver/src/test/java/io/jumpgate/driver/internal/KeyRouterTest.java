package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.routing.Xxh64JumpRouter;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Routing a request's keys at once ({@link KeyRouter#shardsOf}, which reads every key's length in a
 * pass of its own before hashing) gives each key the shard that routing it alone gives, and that
 * the routing function gives its encoded bytes: for byte-array keys, UTF-8 string keys (hash tags
 * and multi-byte characters included) and a codec that is neither.
 */
class KeyRouterTest {
  private static final Xxh64JumpRouter ROUTER = Xxh64JumpRouter.forShards(1024);

  @Test
  void should_route_byte_array_keys_at_once_as_one_by_one() {
    Random random = new Random(29);
    KeyRouter<byte[]> keys = KeyRouter.of(ByteArrayCodec.INSTANCE, ROUTER);
    for (int round = 0; round < 200; round++) {
      byte[][] batch = new byte[random.nextInt(120)][];
      for (int index = 0; index < batch.length; index++) {
        batch[index] = randomKey(random).getBytes(StandardCharsets.UTF_8);
      }
      int[] shards = new int[batch.length];
      keys.shardsOf(batch, shards);
      for (int index = 0; index < batch.length; index++) {
        assertThat(shards[index])
            .as("key %d of %d", index, batch.length)
            .isEqualTo(ROUTER.shardOf(batch[index]))
            .isEqualTo(keys.shardOf(batch[index]));
      }
    }
  }

  @Test
  void should_route_string_keys_at_once_as_one_by_one() {
    assertStringKeysRouteAtOnce(StringCodec.UTF8);
    // another instance of the same codec is routed through its encoder, not the UTF-8 fast path
    assertStringKeysRouteAtOnce(new StringCodec(StandardCharsets.UTF_8));
  }

  private static void assertStringKeysRouteAtOnce(RedisCodec<String, String> codec) {
    Random random = new Random(30);
    KeyRouter<String> keys = KeyRouter.of(codec, ROUTER);
    for (int round = 0; round < 200; round++) {
      String[] batch = new String[random.nextInt(120)];
      for (int index = 0; index < batch.length; index++) {
        batch[index] = randomKey(random);
      }
      int[] shards = new int[batch.length];
      keys.shardsOf(batch, shards);
      int[] fromGenericArray = shardsOfGenericArray(keys, batch);
      for (int index = 0; index < batch.length; index++) {
        assertThat(fromGenericArray[index]).isEqualTo(shards[index]);
        int expected = ROUTER.shardOf(batch[index].getBytes(StandardCharsets.UTF_8));
        assertThat(shards[index])
            .as("key %s", batch[index])
            .isEqualTo(expected)
            .isEqualTo(keys.shardOf(batch[index]));
      }
    }
  }

  /**
   * The keys copied into an array whose runtime type is {@code Object[]}, as generic code makes
   * them (a {@code K...} of a generic caller), then routed at once.
   */
  @SuppressWarnings("unchecked")
  private static <K> int[] shardsOfGenericArray(KeyRouter<K> keys, K[] batch) {
    K[] generic = (K[]) new Object[batch.length];
    System.arraycopy(batch, 0, generic, 0, batch.length);
    int[] shards = new int[batch.length];
    keys.shardsOf(generic, shards);
    return shards;
  }

  /** Keys of 0 to 80 chars, some with a hash tag, some with two- and three-byte characters. */
  private static String randomKey(Random random) {
    StringBuilder key = new StringBuilder();
    int length = random.nextInt(81);
    for (int index = 0; index < length; index++) {
      int pick = random.nextInt(20);
      if (pick == 0) {
        key.append('{');
      } else if (pick == 1) {
        key.append('}');
      } else if (pick == 2) {
        key.append('\u00e9');
      } else if (pick == 3) {
        key.append('\u20ac');
      } else {
        key.append((char) ('a' + random.nextInt(26)));
      }
    }
    return key.toString();
  }
}
