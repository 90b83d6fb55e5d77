package io.jumpgate.cli;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Formats a reply as redis-cli prints it on a terminal: {@code OK}, {@code (nil)}, {@code (integer)
 * 3}, {@code "a"}, {@code (error) WRONGTYPE ...}, arrays as {@code 1) "a"} with nested arrays
 * indented under their index, {@code (empty array)}, maps as {@code 1# "key" => value}.
 *
 * <p>What each Java value stands for:
 *
 * <ul>
 *   <li>{@code null}: a nil reply, {@code (nil)};
 *   <li>{@code byte[]}: a bulk string, quoted with redis-cli's escapes: {@code \" \\ \n \r \t \a
 *       \b}, and {@code \xHH} for any other byte outside printable ASCII (so UTF-8 text shows as
 *       its bytes, as redis-cli shows it);
 *   <li>{@link String}: a status reply, printed as it is ({@code OK}, {@code PONG});
 *   <li>{@link Long} or {@link Integer}: {@code (integer) N}; {@link Double}: {@code (double) N};
 *       {@link Boolean}: {@code (true)} or {@code (false)};
 *   <li>{@link List}: an array; {@link Map}: a map, in its iteration order;
 *   <li>{@link ErrorReply}: an error reply, {@code (error) <message>};
 *   <li>{@link Raw}: text printed as it is, line by line (redis-cli prints INFO this way).
 * </ul>
 *
 * <p>Stateless; thread-safe.
 */
final class ReplyPrinter {

  /** An error reply: {@code (error) <message>}, e.g. {@code WRONGTYPE Operation against ...}. */
  record ErrorReply(String message) {
    ErrorReply {
      Objects.requireNonNull(message, "message");
    }
  }

  /** Text printed without quotes or escapes, e.g. INFO's; line ends become line feeds. */
  record Raw(String text) {
    Raw {
      Objects.requireNonNull(text, "text");
    }
  }

  private ReplyPrinter() {}

  /** The reply's lines, as redis-cli prints them, each without its line end. */
  static List<String> lines(Object reply) {
    String text = format(reply, "");
    List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
    // format always ends with a line feed: drop the empty piece after it.
    lines.remove(lines.size() - 1);
    return lines;
  }

  /** The reply as redis-cli prints it, every line ended by {@code \n}. */
  static String format(Object reply) {
    return format(reply, "");
  }

  /**
   * redis-cli's {@code cliFormatReplyTTY}: {@code prefix} is the indentation of the elements of a
   * nested array after its first (the first follows its parent's index on the same line).
   */
  private static String format(Object reply, String prefix) {
    if (reply == null) {
      return "(nil)\n";
    }
    if (reply instanceof byte[] bytes) {
      return quoted(bytes) + "\n";
    }
    if (reply instanceof String status) {
      return status + "\n";
    }
    if (reply instanceof Long || reply instanceof Integer) {
      return "(integer) " + reply + "\n";
    }
    if (reply instanceof Double number) {
      return "(double) " + number + "\n";
    }
    if (reply instanceof Boolean value) {
      return "(" + value + ")\n";
    }
    if (reply instanceof ErrorReply error) {
      return "(error) " + error.message() + "\n";
    }
    if (reply instanceof Raw raw) {
      String text = raw.text().replace("\r\n", "\n");
      return text.endsWith("\n") ? text : text + "\n";
    }
    if (reply instanceof List<?> list) {
      return formatList(list, prefix);
    }
    if (reply instanceof Map<?, ?> map) {
      return formatMap(map, prefix);
    }
    throw new IllegalArgumentException("not a reply: " + reply.getClass().getName());
  }

  private static String formatList(List<?> list, String prefix) {
    if (list.isEmpty()) {
      return "(empty array)\n";
    }
    int width = Integer.toString(list.size()).length();
    String nested = prefix + " ".repeat(width + 2);
    StringBuilder out = new StringBuilder();
    for (int index = 0; index < list.size(); index++) {
      out.append(index == 0 ? "" : prefix)
          .append(pad(index + 1, width))
          .append(") ")
          .append(format(list.get(index), nested));
    }
    return out.toString();
  }

  private static String formatMap(Map<?, ?> map, String prefix) {
    if (map.isEmpty()) {
      return "(empty hash)\n";
    }
    int width = Integer.toString(map.size()).length();
    String nested = prefix + " ".repeat(width + 2);
    StringBuilder out = new StringBuilder();
    int index = 0;
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      String key = format(entry.getKey(), nested);
      out.append(index == 0 ? "" : prefix)
          .append(pad(index + 1, width))
          .append("# ")
          .append(key, 0, key.length() - 1)
          .append(" => ")
          .append(format(entry.getValue(), nested));
      index++;
    }
    return out.toString();
  }

  private static String pad(int number, int width) {
    String text = Integer.toString(number);
    return " ".repeat(width - text.length()) + text;
  }

  /** A bulk string as redis-cli quotes it ({@code sdscatrepr}). */
  static String quoted(byte[] bytes) {
    StringBuilder out = new StringBuilder(bytes.length + 2).append('"');
    for (byte b : bytes) {
      int c = b & 0xff;
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '"' -> out.append("\\\"");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case 7 -> out.append("\\a");
        case '\b' -> out.append("\\b");
        default -> {
          if (c >= 0x20 && c <= 0x7e) {
            out.append((char) c);
          } else {
            out.append(String.format("\\x%02x", c));
          }
        }
      }
    }
    return out.append('"').toString();
  }

  /** {@link #quoted(byte[])} of a string's UTF-8 bytes. */
  static String quoted(String text) {
    return quoted(text.getBytes(StandardCharsets.UTF_8));
  }
}
