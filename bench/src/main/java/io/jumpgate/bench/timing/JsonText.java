package io.jumpgate.bench.timing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the runs' results as JSON: maps (in their iteration order), collections, strings, numbers,
 * booleans and null. Doubles are written with at most 3 decimals. Stateless; thread-safe.
 */
public final class JsonText {

  private JsonText() {}

  /**
   * The JSON text of a value, indented by two spaces per level.
   *
   * @throws IllegalArgumentException for a value of another type, or a non-finite double
   */
  public static String write(Object value) {
    StringBuilder out = new StringBuilder();
    write(value, out, 0);
    return out.append('\n').toString();
  }

  /** Writes the JSON text of {@code value} to {@code file}, creating its directory. */
  public static void writeFile(Path file, Object value) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(file, write(value), StandardCharsets.UTF_8);
  }

  private static void write(Object value, StringBuilder out, int depth) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String text) {
      string(text, out);
    } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long) {
      out.append(value);
    } else if (value instanceof Double || value instanceof Float) {
      double number = ((Number) value).doubleValue();
      if (!Double.isFinite(number)) {
        throw new IllegalArgumentException("JSON has no " + number);
      }
      String text = String.format(Locale.ROOT, "%.3f", number);
      text = text.contains(".") ? text.replaceAll("0+$", "").replaceAll("\\.$", "") : text;
      out.append(text.equals("-0") ? "0" : text);
    } else if (value instanceof Map<?, ?> map) {
      if (map.isEmpty()) {
        out.append("{}");
        return;
      }
      out.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        out.append(first ? "\n" : ",\n");
        first = false;
        indent(out, depth + 1);
        string(String.valueOf(entry.getKey()), out);
        out.append(": ");
        write(entry.getValue(), out, depth + 1);
      }
      out.append('\n');
      indent(out, depth);
      out.append('}');
    } else if (value instanceof Collection<?> list) {
      if (list.isEmpty()) {
        out.append("[]");
        return;
      }
      out.append('[');
      boolean first = true;
      for (Object item : list) {
        out.append(first ? "\n" : ",\n");
        first = false;
        indent(out, depth + 1);
        write(item, out, depth + 1);
      }
      out.append('\n');
      indent(out, depth);
      out.append(']');
    } else {
      throw new IllegalArgumentException(
          "cannot write a " + value.getClass().getName() + " as JSON");
    }
  }

  private static void indent(StringBuilder out, int depth) {
    out.append("  ".repeat(depth));
  }

  private static void string(String text, StringBuilder out) {
    out.append('"');
    for (int index = 0; index < text.length(); index++) {
      char c = text.charAt(index);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        default -> {
          if (c < 0x20) {
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
