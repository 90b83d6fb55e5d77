package io.jumpgate.cli;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits one line of {@code jumpgate exec}'s input into a command's arguments, as redis-cli does
 * (its {@code sdssplitargs}): arguments are separated by blanks; {@code "double quotes"} take
 * {@code \n \r \t \b \a}, {@code \xHH} (a byte) and {@code \<any>} (that character) escapes; {@code
 * 'single quotes'} take only {@code \'}; a quote may start in the middle of an argument ({@code a"b
 * c"} is {@code ab c}), and a closing quote must be followed by a blank or the end of the line.
 * Outside quotes a backslash is an ordinary character.
 *
 * <p>The line is bytes, not text: every byte stands for itself (a UTF-8 line gives UTF-8
 * arguments), so binary values can be written with {@code \xHH} and survive unchanged.
 *
 * <p>Stateless; thread-safe.
 */
final class CommandLineTokens {

  private CommandLineTokens() {}

  /** A line that cannot be split: unbalanced quotes, or a closing quote not followed by a blank. */
  static final class SyntaxException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    SyntaxException(String message) {
      super(message);
    }
  }

  /**
   * The arguments of one line; empty for a blank line.
   *
   * @throws SyntaxException if a quote is not closed, or a closing quote is followed by something
   *     other than a blank
   */
  static List<byte[]> split(byte[] line) {
    List<byte[]> arguments = new ArrayList<>();
    int position = 0;
    int length = line.length;
    while (true) {
      while (position < length && isBlank(line[position])) {
        position++;
      }
      if (position >= length) {
        return arguments;
      }
      ByteArrayOutputStream current = new ByteArrayOutputStream();
      boolean inDouble = false;
      boolean inSingle = false;
      boolean done = false;
      while (!done) {
        int c = position < length ? line[position] & 0xff : -1;
        if (inDouble) {
          if (c == '\\'
              && position + 3 < length
              && line[position + 1] == 'x'
              && isHexDigit(line[position + 2])
              && isHexDigit(line[position + 3])) {
            current.write(hexValue(line[position + 2]) * 16 + hexValue(line[position + 3]));
            position += 3;
          } else if (c == '\\' && position + 1 < length) {
            position++;
            current.write(unescape(line[position] & 0xff));
          } else if (c == '"') {
            if (position + 1 < length && !isBlank(line[position + 1])) {
              throw new SyntaxException("closing quote must be followed by a space");
            }
            done = true;
          } else if (c == -1) {
            throw new SyntaxException("unbalanced quotes");
          } else {
            current.write(c);
          }
        } else if (inSingle) {
          if (c == '\\' && position + 1 < length && line[position + 1] == '\'') {
            position++;
            current.write('\'');
          } else if (c == '\'') {
            if (position + 1 < length && !isBlank(line[position + 1])) {
              throw new SyntaxException("closing quote must be followed by a space");
            }
            done = true;
          } else if (c == -1) {
            throw new SyntaxException("unbalanced quotes");
          } else {
            current.write(c);
          }
        } else if (c == -1 || isBlank((byte) c)) {
          done = true;
        } else if (c == '"') {
          inDouble = true;
        } else if (c == '\'') {
          inSingle = true;
        } else {
          current.write(c);
        }
        if (position < length) {
          position++;
        }
      }
      arguments.add(current.toByteArray());
    }
  }

  private static int unescape(int c) {
    return switch (c) {
      case 'n' -> '\n';
      case 'r' -> '\r';
      case 't' -> '\t';
      case 'b' -> '\b';
      case 'a' -> 7;
      default -> c;
    };
  }

  /** The blanks of C's {@code isspace}: space, \t, \n, \v, \f, \r. */
  private static boolean isBlank(byte b) {
    return b == ' ' || (b >= '\t' && b <= '\r');
  }

  private static boolean isHexDigit(byte b) {
    return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F');
  }

  private static int hexValue(byte b) {
    return Character.digit(b, 16);
  }
}
