package io.jumpgate.cli;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * How the CLI shows key bytes: as UTF-8 text when they are, as lower-case hex otherwise; and how it
 * shows other text read from a cluster ({@link #printable}).
 *
 * <p>Stateless and thread-safe (each call makes its own decoder).
 */
final class KeyText {

  /** Marks a key shown in hex in a table: {@code hex:ff00}. */
  static final String HEX_MARKER = "hex:";

  /** How a table shows the empty key. */
  static final String EMPTY_KEY = "(empty)";

  private static final HexFormat HEX = HexFormat.of();

  private KeyText() {}

  /** The bytes in lower-case hex, two digits a byte; empty for no bytes. */
  static String hex(byte[] bytes) {
    return HEX.formatHex(bytes);
  }

  /**
   * The bytes decoded as UTF-8, strictly: {@code null} if they are not valid UTF-8 (malformed or
   * truncated sequences, overlong forms, encoded surrogates) rather than a text with replacement
   * characters.
   */
  static String utf8OrNull(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /**
   * The key for a table cell: its text when it is valid UTF-8 that reads unambiguously in a
   * terminal, else {@link #HEX_MARKER} and its hex; {@link #EMPTY_KEY} for the empty key. A text
   * key that itself starts with {@code hex:} or reads {@code (empty)} is shown in hex, so the
   * markers never mislead.
   */
  static String forTable(byte[] key) {
    if (key.length == 0) {
      return EMPTY_KEY;
    }
    String text = utf8OrNull(key);
    boolean readsAsText =
        text != null
            && isPlainlyPrintable(text)
            && !text.startsWith(HEX_MARKER)
            && !text.equals(EMPTY_KEY);
    return readsAsText ? text : HEX_MARKER + hex(key);
  }

  /**
   * Whether every character shows as itself: no control, format, unassigned, private-use or
   * surrogate code point, no separator other than the ASCII space, and no space at either end
   * (which a table would hide).
   */
  static boolean isPlainlyPrintable(String text) {
    if (text.startsWith(" ") || text.endsWith(" ")) {
      return false;
    }
    return text.codePoints().allMatch(KeyText::isPlainlyPrintable);
  }

  /**
   * The text with every character that would not show as itself in a terminal (controls, format
   * characters, line separators...) written as {@code \}{@code uXXXX}: for text read from a cluster
   * (keys, reasons, names) that is printed as is.
   */
  static String printable(String text) {
    StringBuilder out = new StringBuilder(text.length());
    text.codePoints()
        .forEach(
            codePoint -> {
              if (isPlainlyPrintable(codePoint)) {
                out.appendCodePoint(codePoint);
              } else {
                for (char unit : Character.toChars(codePoint)) {
                  out.append(String.format("\\u%04X", (int) unit));
                }
              }
            });
    return out.toString();
  }

  private static boolean isPlainlyPrintable(int codePoint) {
    if (codePoint == ' ') {
      return true;
    }
    switch (Character.getType(codePoint)) {
      case Character.CONTROL:
      case Character.FORMAT:
      case Character.UNASSIGNED:
      case Character.PRIVATE_USE:
      case Character.SURROGATE:
      case Character.SPACE_SEPARATOR:
      case Character.LINE_SEPARATOR:
      case Character.PARAGRAPH_SEPARATOR:
        return false;
      default:
        return true;
    }
  }
}
