package io.jumpgate.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A plain-text table for humans: a header row, then one row per item, columns padded to line up in
 * a terminal and separated by two spaces. Lines have no trailing spaces.
 *
 * <p>Columns are left-aligned by default; {@link Alignment#RIGHT} suits numbers. Widths count
 * terminal columns, not chars: combining marks take none, East Asian wide characters and emoji two.
 * Cells should hold printable text only (no line breaks or control characters); {@link KeyText}
 * makes keys safe to show.
 *
 * <p>Not thread-safe: fill and print it from one thread.
 */
final class TextTable {

  /** Where a column's cells sit inside its width. */
  enum Alignment {
    LEFT,
    RIGHT
  }

  private static final String COLUMN_SEPARATOR = "  ";

  private final List<String> headers = new ArrayList<>();
  private final List<Alignment> alignments = new ArrayList<>();
  private final List<String[]> rows = new ArrayList<>();

  /** Adds a left-aligned column. */
  TextTable column(String header) {
    return column(header, Alignment.LEFT);
  }

  /** Adds a column; all columns must be added before the first row. */
  TextTable column(String header, Alignment alignment) {
    if (!rows.isEmpty()) {
      throw new IllegalStateException("add columns before rows");
    }
    headers.add(Objects.requireNonNull(header, "header"));
    alignments.add(Objects.requireNonNull(alignment, "alignment"));
    return this;
  }

  /** Adds a row: one cell per column, in column order. */
  TextTable row(String... cells) {
    if (cells.length != headers.size()) {
      throw new IllegalArgumentException(
          "a row needs " + headers.size() + " cells, got " + cells.length);
    }
    rows.add(cells.clone());
    return this;
  }

  /** Prints the header and the rows. */
  void printTo(PrintWriter out) {
    int[] widths = new int[headers.size()];
    String[] headerCells = headers.toArray(String[]::new);
    for (String[] row : allRows(headerCells)) {
      for (int column = 0; column < row.length; column++) {
        widths[column] = Math.max(widths[column], displayWidth(row[column]));
      }
    }
    for (String[] row : allRows(headerCells)) {
      out.println(formatRow(row, widths));
    }
    out.flush();
  }

  private List<String[]> allRows(String[] headerCells) {
    List<String[]> all = new ArrayList<>(rows.size() + 1);
    all.add(headerCells);
    all.addAll(rows);
    return all;
  }

  private String formatRow(String[] cells, int[] widths) {
    StringBuilder line = new StringBuilder();
    for (int column = 0; column < cells.length; column++) {
      if (column > 0) {
        line.append(COLUMN_SEPARATOR);
      }
      String padding = " ".repeat(widths[column] - displayWidth(cells[column]));
      if (alignments.get(column) == Alignment.RIGHT) {
        line.append(padding).append(cells[column]);
      } else {
        line.append(cells[column]).append(padding);
      }
    }
    return line.toString().stripTrailing();
  }

  /** Terminal columns that {@code text} takes: an approximation of POSIX {@code wcswidth}. */
  static int displayWidth(String text) {
    return text.codePoints().map(TextTable::codePointWidth).sum();
  }

  private static int codePointWidth(int codePoint) {
    int type = Character.getType(codePoint);
    if (type == Character.NON_SPACING_MARK
        || type == Character.ENCLOSING_MARK
        || type == Character.FORMAT
        || codePoint == 0x200B) {
      return 0;
    }
    return isWide(codePoint) ? 2 : 1;
  }

  /** East Asian Wide and Fullwidth ranges, and the emoji blocks (after Markus Kuhn's wcwidth). */
  private static boolean isWide(int codePoint) {
    return (codePoint >= 0x1100 && codePoint <= 0x115F)
        || (codePoint >= 0x2E80 && codePoint <= 0xA4CF && codePoint != 0x303F)
        || (codePoint >= 0xAC00 && codePoint <= 0xD7A3)
        || (codePoint >= 0xF900 && codePoint <= 0xFAFF)
        || (codePoint >= 0xFE30 && codePoint <= 0xFE4F)
        || (codePoint >= 0xFF00 && codePoint <= 0xFF60)
        || (codePoint >= 0xFFE0 && codePoint <= 0xFFE6)
        || (codePoint >= 0x1F300 && codePoint <= 0x1F64F)
        || (codePoint >= 0x1F900 && codePoint <= 0x1F9FF)
        || (codePoint >= 0x20000 && codePoint <= 0x3FFFD);
  }
}
