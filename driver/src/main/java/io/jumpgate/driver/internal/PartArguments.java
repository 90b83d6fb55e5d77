package io.jumpgate.driver.internal;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.codec.ToByteBufEncoder;
import io.lettuce.core.protocol.CommandArgs;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.ByteBuffer;

/**
 * The arguments of one fan-out part: some keys of the request (each followed by its value, for
 * MSET), named by their indices into the request's arrays and written straight from them when the
 * command is encoded.
 *
 * <p>Lettuce's {@link CommandArgs} keeps one argument object per key in a list that grows from ten,
 * and writes each bulk string's length through {@code Long.toString}; for a part of 33 keys that is
 * 33 argument objects, four array copies and 33 strings. Here a part holds three references (keys,
 * values, indices), and each length is written digit by digit. What goes on the wire is the same:
 * {@code $<length>\r\n<bytes>\r\n} per key and value, each encoded by the codec ({@code byte[]}
 * keys and values of {@link ByteArrayCodec} written as they are).
 *
 * <p>Immutable once built (the arrays are the request's own and are not written after the call
 * began), so every try of the part encodes the same bytes. Encoded on a Netty event loop; nothing
 * else of {@link CommandArgs} is used ({@code add*} must not be called).
 */
final class PartArguments<K, V> extends CommandArgs<K, V> {

  private static final byte[] CRLF = {'\r', '\n'};

  private final K[] keys;
  private final V[] values;
  private final int[] keyIndices;
  private final boolean plainBytes;
  private final boolean utf8Strings;

  /**
   * @param codec the connection's codec
   * @param keys the request's keys
   * @param values the request's values (index for index with the keys), or null for keys only
   * @param keyIndices the keys of this part, as indices into {@code keys}
   */
  PartArguments(RedisCodec<K, V> codec, K[] keys, V[] values, int[] keyIndices) {
    super(codec);
    this.keys = keys;
    this.values = values;
    this.keyIndices = keyIndices;
    this.plainBytes = codec.getClass() == ByteArrayCodec.class;
    this.utf8Strings = codec == StringCodec.UTF8;
  }

  @Override
  public int count() {
    return values == null ? keyIndices.length : 2 * keyIndices.length;
  }

  @Override
  public void encode(ByteBuf buffer) {
    if (plainBytes) {
      encodeBytes(buffer);
      return;
    }
    if (utf8Strings) {
      for (int index : keyIndices) {
        writeUtf8(buffer, (String) keys[index]);
        if (values != null) {
          writeUtf8(buffer, (String) values[index]);
        }
      }
      return;
    }
    for (int index : keyIndices) {
      writeKey(buffer, keys[index]);
      if (values != null) {
        writeValue(buffer, values[index]);
      }
    }
  }

  /** {@code byte[]} keys and values: the part's size known up front, one growth of the buffer. */
  private void encodeBytes(ByteBuf buffer) {
    int size = 0;
    for (int index : keyIndices) {
      size += bulkSize(((byte[]) keys[index]).length);
      if (values != null) {
        size += bulkSize(((byte[]) values[index]).length);
      }
    }
    buffer.ensureWritable(size);
    for (int index : keyIndices) {
      writeBulk(buffer, (byte[]) keys[index]);
      if (values != null) {
        writeBulk(buffer, (byte[]) values[index]);
      }
    }
  }

  /** A string as UTF-8, as {@link StringCodec#UTF8} writes it, with no buffer of its own. */
  private static void writeUtf8(ByteBuf buffer, String string) {
    int length = ByteBufUtil.utf8Bytes(string);
    writeLength(buffer, length);
    ByteBufUtil.reserveAndWriteUtf8(buffer, string, length);
    buffer.writeBytes(CRLF);
  }

  private void writeKey(ByteBuf buffer, K key) {
    writeEncoded(buffer, key, true);
  }

  private void writeValue(ByteBuf buffer, V value) {
    writeEncoded(buffer, value, false);
  }

  /**
   * A key ({@code isKey}) or a value through the codec: straight into the buffer when the codec
   * encodes to a {@code ByteBuf} of a size it knows exactly, through a buffer of its own when its
   * size is an estimate, else as the codec's {@code ByteBuffer}.
   */
  @SuppressWarnings("unchecked")
  private void writeEncoded(ByteBuf buffer, Object item, boolean isKey) {
    if (codec instanceof ToByteBufEncoder<?, ?> encoder) {
      ToByteBufEncoder<K, V> typed = (ToByteBufEncoder<K, V>) encoder;
      if (typed.isEstimateExact()) {
        writeLength(buffer, typed.estimateSize(item));
        encodeInto(typed, item, isKey, buffer);
        buffer.writeBytes(CRLF);
        return;
      }
      ByteBuf encoded = buffer.alloc().buffer(typed.estimateSize(item));
      try {
        encodeInto(typed, item, isKey, encoded);
        writeBulk(buffer, encoded);
      } finally {
        encoded.release();
      }
      return;
    }
    writeBulk(buffer, isKey ? codec.encodeKey((K) item) : codec.encodeValue((V) item));
  }

  @SuppressWarnings("unchecked")
  private static <K, V> void encodeInto(
      ToByteBufEncoder<K, V> encoder, Object item, boolean isKey, ByteBuf target) {
    if (isKey) {
      encoder.encodeKey((K) item, target);
    } else {
      encoder.encodeValue((V) item, target);
    }
  }

  /** The bytes of {@code $<length>\r\n<bytes>\r\n}. */
  static int bulkSize(int length) {
    return 1 + digits(length) + 2 + length + 2;
  }

  static void writeBulk(ByteBuf buffer, byte[] bytes) {
    writeLength(buffer, bytes.length);
    buffer.writeBytes(bytes);
    buffer.writeBytes(CRLF);
  }

  private static void writeBulk(ByteBuf buffer, ByteBuf bytes) {
    writeLength(buffer, bytes.readableBytes());
    buffer.writeBytes(bytes);
    buffer.writeBytes(CRLF);
  }

  private static void writeBulk(ByteBuf buffer, ByteBuffer bytes) {
    writeLength(buffer, bytes.remaining());
    buffer.writeBytes(bytes);
    buffer.writeBytes(CRLF);
  }

  /** Writes {@code $<length>\r\n}, the length in decimal, without making a string. */
  static void writeLength(ByteBuf buffer, int length) {
    buffer.writeByte('$');
    if (length < 10) {
      buffer.writeByte('0' + length);
    } else {
      int divisor = 1;
      for (int left = length; left >= 10; left /= 10) {
        divisor *= 10;
      }
      for (; divisor > 0; divisor /= 10) {
        buffer.writeByte('0' + (length / divisor) % 10);
      }
    }
    buffer.writeBytes(CRLF);
  }

  /** Decimal digits of a length (not negative). */
  static int digits(int length) {
    int digits = 1;
    for (int left = length; left >= 10; left /= 10) {
      digits++;
    }
    return digits;
  }

  @Override
  public ByteBuffer getFirstEncodedKey() {
    return keyIndices.length == 0 ? null : codec.encodeKey(keys[keyIndices[0]]);
  }

  @Override
  public String toCommandString() {
    return toString();
  }

  @Override
  public String toString() {
    return keyIndices.length + (values == null ? " keys" : " keys with values");
  }
}
