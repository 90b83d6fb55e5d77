package io.jumpgate.routing.internal;

/**
 * Encodes text keys to UTF-8 into a per-thread scratch array, so routing a {@code String} key
 * allocates nothing once the thread's array is large enough. The bytes are exactly what Java's
 * UTF-8 encoder (and so Lettuce's {@code StringCodec.UTF8}) writes on the wire, lone surrogates
 * included (written as {@code '?'}).
 *
 * <p>Thread-safe: each thread has its own array, valid until that thread's next call.
 */
public final class Utf8Keys {

  /** Arrays up to this size are kept per thread; longer keys get a fresh array each time. */
  private static final int KEEP_LIMIT = 64 * 1024;

  private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[256]);

  private Utf8Keys() {}

  /** This thread's scratch array, at least {@code 3 * text.length()} long. */
  public static byte[] scratchFor(CharSequence text) {
    int worstCase = text.length() * 3;
    byte[] buffer = SCRATCH.get();
    if (buffer.length < worstCase) {
      buffer = new byte[Math.max(worstCase, buffer.length * 2)];
      if (buffer.length <= KEEP_LIMIT) {
        SCRATCH.set(buffer);
      }
    }
    return buffer;
  }

  /**
   * Writes the UTF-8 encoding of {@code text} at the start of {@code into}, which must hold {@code
   * 3 * text.length()} bytes.
   *
   * @return the number of bytes written
   */
  public static int encode(CharSequence text, byte[] into) {
    int position = 0;
    for (int i = 0, length = text.length(); i < length; i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        into[position++] = (byte) c;
      } else if (c < 0x800) {
        into[position++] = (byte) (0xC0 | (c >> 6));
        into[position++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isHighSurrogate(c)
          && i + 1 < length
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        int codePoint = Character.toCodePoint(c, text.charAt(++i));
        into[position++] = (byte) (0xF0 | (codePoint >> 18));
        into[position++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
        into[position++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
        into[position++] = (byte) (0x80 | (codePoint & 0x3F));
      } else if (Character.isSurrogate(c)) {
        into[position++] = '?';
      } else {
        into[position++] = (byte) (0xE0 | (c >> 12));
        into[position++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        into[position++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return position;
  }
}
