package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A fan-out part's arguments put the same bytes on the wire as Lettuce's {@link CommandArgs} with
 * the same keys (and values) added one by one: for {@code byte[]} keys of every length class (0, 1
 * to 9, 10 to 99, 100 and more bytes, so each count of length digits), for a codec whose size
 * estimate is not exact (UTF-8 strings with multi-byte characters and lone surrogates, through
 * {@link StringCodec#UTF8}, written without a buffer of their own, and through another instance)
 * and for a codec that only encodes to {@link ByteBuffer}s.
 */
class PartArgumentsTest {

  @Test
  void should_encode_byte_array_keys_as_lettuce_does() {
    Random random = new Random(28);
    for (int round = 0; round < 500; round++) {
      byte[][] keys = new byte[1 + random.nextInt(60)][];
      for (int index = 0; index < keys.length; index++) {
        keys[index] = randomBytes(random, lengthOf(random));
      }
      int[] part = somePositions(random, keys.length);
      assertSameEncoding(ByteArrayCodec.INSTANCE, keys, null, part);
    }
  }

  @Test
  void should_encode_byte_array_keys_and_values_as_lettuce_does() {
    Random random = new Random(11);
    for (int round = 0; round < 500; round++) {
      byte[][] keys = new byte[1 + random.nextInt(30)][];
      byte[][] values = new byte[keys.length][];
      for (int index = 0; index < keys.length; index++) {
        keys[index] = randomBytes(random, lengthOf(random));
        values[index] = randomBytes(random, lengthOf(random) * (random.nextBoolean() ? 1 : 120));
      }
      assertSameEncoding(ByteArrayCodec.INSTANCE, keys, values, somePositions(random, keys.length));
    }
  }

  @Test
  void should_encode_strings_whose_size_estimate_is_not_exact_as_lettuce_does() {
    String[] keys = {
      "plain",
      "{user:1}:name",
      "é",
      "日本語のキー",
      "",
      "emoji 😀 key",
      "k".repeat(150),
      "lone \uD800 surrogate",
      "\uDC00"
    };
    String[] values = {"v", "ü", "", "值", "x".repeat(12), "😀😀", "a", "\uD83D", "b\uDE00"};
    int[] part = {6, 0, 2, 3, 5, 7, 8};
    assertSameEncoding(StringCodec.UTF8, keys, null, part);
    assertSameEncoding(StringCodec.UTF8, keys, values, part);
    assertSameEncoding(new StringCodec(StandardCharsets.UTF_8), keys, values, part);
    assertSameEncoding(
        StringCodec.ASCII, new String[] {"a", "bb", "c".repeat(10)}, null, new int[] {2, 0, 1});
    // an exact-size codec with values: keys and values each written straight into the buffer
    assertSameEncoding(
        StringCodec.ASCII,
        new String[] {"a", "bb", "c".repeat(10)},
        new String[] {"x".repeat(12), "", "yz"},
        new int[] {2, 0, 1});
  }

  @Test
  void should_encode_with_a_codec_that_only_makes_byte_buffers_as_lettuce_does() {
    RedisCodec<String, String> bufferOnly = new BufferOnlyCodec();
    String[] keys = {"one", "two", "three".repeat(5), "ü"};
    String[] values = {"1", "2".repeat(20), "", "3"};
    assertSameEncoding(bufferOnly, keys, null, new int[] {3, 1, 2});
    assertSameEncoding(bufferOnly, keys, values, new int[] {0, 1, 2, 3});
  }

  @Test
  void should_count_one_argument_per_key_or_two_with_values() {
    byte[][] keys = {{1}, {2}, {3}};
    assertThat(new PartArguments<>(ByteArrayCodec.INSTANCE, keys, null, new int[] {0, 2}).count())
        .isEqualTo(2);
    assertThat(new PartArguments<>(ByteArrayCodec.INSTANCE, keys, keys, new int[] {0, 2}).count())
        .isEqualTo(4);
  }

  @Test
  void should_write_every_length_in_decimal() {
    for (int length :
        new int[] {
          0,
          1,
          9,
          10,
          11,
          99,
          100,
          101,
          999,
          1000,
          65535,
          1_000_000,
          999_999_999,
          1_000_000_000,
          Integer.MAX_VALUE
        }) {
      ByteBuf buffer = Unpooled.buffer();
      PartArguments.writeLength(buffer, length);
      assertThat(buffer.toString(StandardCharsets.US_ASCII)).isEqualTo("$" + length + "\r\n");
      assertThat(PartArguments.digits(length)).isEqualTo(Integer.toString(length).length());
    }
  }

  @SuppressWarnings("unchecked")
  private static <K, V> void assertSameEncoding(
      RedisCodec<K, V> codec, K[] keys, V[] values, int[] part) {
    CommandArgs<K, V> lettuce = new CommandArgs<>(codec);
    for (int index : part) {
      lettuce.addKey(keys[index]);
      if (values != null) {
        lettuce.addValue(values[index]);
      }
    }
    CommandArgs<K, V> ours = new PartArguments<>(codec, keys, values, part);
    assertThat(ours.count()).isEqualTo(lettuce.count());
    CommandType type = values == null ? CommandType.MGET : CommandType.MSET;
    // twice: every try of a part encodes the same bytes
    String expected = encode(new Command<>(type, new StatusOutput<>(codec), lettuce));
    assertThat(encode(new Command<>(type, new StatusOutput<>(codec), ours))).isEqualTo(expected);
    assertThat(encode(new Command<>(type, new StatusOutput<>(codec), ours))).isEqualTo(expected);
  }

  private static String encode(Command<?, ?, ?> command) {
    ByteBuf buffer = Unpooled.buffer(8);
    command.encode(buffer);
    return buffer.toString(StandardCharsets.ISO_8859_1);
  }

  private static int lengthOf(Random random) {
    return switch (random.nextInt(4)) {
      case 0 -> random.nextInt(2) == 0 ? 0 : random.nextInt(10);
      case 1 -> 10 + random.nextInt(90);
      case 2 -> 100 + random.nextInt(900);
      default -> 16;
    };
  }

  private static byte[] randomBytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  /** A random non-empty selection of positions, in a random order. */
  private static int[] somePositions(Random random, int count) {
    int[] positions = random.ints(0, count).distinct().limit(1 + random.nextInt(count)).toArray();
    return positions;
  }

  /** UTF-8 strings through {@link ByteBuffer}s only (not a {@code ToByteBufEncoder}). */
  private static final class BufferOnlyCodec implements RedisCodec<String, String> {
    @Override
    public String decodeKey(ByteBuffer bytes) {
      return StandardCharsets.UTF_8.decode(bytes).toString();
    }

    @Override
    public String decodeValue(ByteBuffer bytes) {
      return StandardCharsets.UTF_8.decode(bytes).toString();
    }

    @Override
    public ByteBuffer encodeKey(String key) {
      return StandardCharsets.UTF_8.encode(key);
    }

    @Override
    public ByteBuffer encodeValue(String value) {
      return StandardCharsets.UTF_8.encode(value);
    }
  }
}
