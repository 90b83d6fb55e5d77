package io.jumpgate.cli;

import java.nio.charset.Charset;

/**
 * Horizontal text bars, {@code ████████▌}, scaled so that the largest value fills the width. With a
 * charset that cannot encode block characters, bars are drawn with {@code #} instead.
 *
 * <p>Immutable and thread-safe.
 */
final class BarChart {

  /** Eighths of a block, from one eighth to a full block. */
  private static final String[] EIGHTHS = {
    "\u258F", "\u258E", "\u258D", "\u258C", "\u258B", "\u258A", "\u2589", "\u2588"
  };

  private final int width;
  private final boolean unicode;

  /**
   * @param width the length of the largest bar, in characters, at least 1
   * @param unicode whether to draw with block characters (else with {@code #})
   */
  BarChart(int width, boolean unicode) {
    if (width < 1) {
      throw new IllegalArgumentException("width must be at least 1, was " + width);
    }
    this.width = width;
    this.unicode = unicode;
  }

  /**
   * A chart of {@code width} that draws with block characters when the CLI's standard output can
   * show them: when the charset picocli writes stdout with ({@code sun.stdout.encoding}, else the
   * default charset) can encode them.
   */
  static BarChart forStandardOutput(int width) {
    Charset charset = Charset.defaultCharset();
    String stdout = System.getProperty("sun.stdout.encoding");
    if (stdout != null) {
      try {
        charset = Charset.forName(stdout);
      } catch (RuntimeException e) {
        // keep the default charset, as picocli does
      }
    }
    return new BarChart(width, charset.newEncoder().canEncode(EIGHTHS[7]));
  }

  /**
   * The bar of {@code value} on a scale where {@code max} fills the width: empty for 0, at least
   * one eighth (or one {@code #}) for any other value.
   */
  String bar(long value, long max) {
    if (value <= 0 || max <= 0) {
      return "";
    }
    long clamped = Math.min(value, max);
    if (!unicode) {
      long hashes = Math.max(1, Math.round((double) clamped * width / max));
      return "#".repeat((int) hashes);
    }
    long eighths = Math.max(1, Math.round((double) clamped * width * 8 / max));
    return EIGHTHS[7].repeat((int) (eighths / 8))
        + (eighths % 8 == 0 ? "" : EIGHTHS[(int) (eighths % 8) - 1]);
  }
}
