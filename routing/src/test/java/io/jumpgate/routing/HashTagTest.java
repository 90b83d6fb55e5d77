package io.jumpgate.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The hash tag rule: which bytes of a key are hashed. */
class HashTagTest {

  @ParameterizedTest(name = "[{index}] ''{0}'' routes by ''{1}''")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "{user1000}.following | user1000",
        "{user1000}.followers | user1000",
        "foo{}{bar}           | foo{}{bar}",
        "foo{{bar}}zap        | {bar",
        "foo{bar}{zap}        | bar",
        "\"\"                 | \"\"",
        "{                    | {",
        "}                    | }",
        "{}                   | {}",
        "}{                   | }{",
        "}{a}                 | a",
        "{a                   | {a",
        "a}                   | a}",
        "x{y}                 | y",
        "{a}                  | a",
        "{{}}                 | {",
        "abc{def              | abc{def",
        "abcdefgh{ijklmnop}q  | ijklmnop",
        "abcdefghijklmnop{q}  | q",
        "abcdefghijklmnopq{}r | abcdefghijklmnopq{}r",
      })
  void should_route_by_the_first_non_empty_tag_or_the_whole_key(String key, String expected) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    assertThat(new String(Xxh64JumpRouter.routingKey(bytes), StandardCharsets.UTF_8))
        .isEqualTo(expected);
  }

  @Test
  void should_route_keys_with_the_same_tag_to_the_same_shard() {
    Xxh64JumpRouter router = Xxh64JumpRouter.withDefaultShards();
    int shard = router.shardOf(utf8("user1000"));
    assertThat(router.shardOf(utf8("{user1000}.following"))).isEqualTo(shard);
    assertThat(router.shardOf(utf8("{user1000}.followers"))).isEqualTo(shard);
    assertThat(router.shardOf(utf8("profile:{user1000}:avatar"))).isEqualTo(shard);
  }

  @Test
  void should_find_the_same_routing_key_as_a_byte_by_byte_reference_on_random_keys() {
    // The scanner reads eight bytes at a time; a plain loop is the reference. Random keys made
    // mostly of braces and a few other bytes, at random offsets, cover every word alignment.
    SplittableRandom random = new SplittableRandom(7);
    byte[] alphabet = {'{', '}', 'a', 0, (byte) 0xFB, (byte) 0x7B ^ (byte) 0x80, (byte) 0xFF};
    for (int round = 0; round < 200_000; round++) {
      int length = random.nextInt(40);
      int offset = random.nextInt(9);
      byte[] array = new byte[offset + length + random.nextInt(9)];
      for (int i = 0; i < array.length; i++) {
        array[i] = alphabet[random.nextInt(alphabet.length)];
      }
      byte[] key = Arrays.copyOfRange(array, offset, offset + length);
      byte[] expected = referenceRoutingKey(key);

      assertThat(Xxh64JumpRouter.routingKey(key)).isEqualTo(expected);
      long expectedHash = LongHashFunction.xx(0).hashBytes(expected);
      assertThat(Xxh64JumpRouter.routingHash(array, offset, length)).isEqualTo(expectedHash);
      ByteBuffer direct = ByteBuffer.allocateDirect(array.length).put(array);
      // Either byte order: the buffer's order must not change which bytes are hashed.
      direct.order(round % 2 == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
      direct.position(offset).limit(offset + length);
      assertThat(Xxh64JumpRouter.routingHash(direct)).isEqualTo(expectedHash);
    }
  }

  /** The contract's rule, written as plainly as possible. */
  private static byte[] referenceRoutingKey(byte[] key) {
    int open = -1;
    for (int i = 0; i < key.length; i++) {
      if (key[i] == '{') {
        open = i;
        break;
      }
    }
    if (open < 0) {
      return key;
    }
    for (int close = open + 1; close < key.length; close++) {
      if (key[close] == '}') {
        return close == open + 1 ? key : Arrays.copyOfRange(key, open + 1, close);
      }
    }
    return key;
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
