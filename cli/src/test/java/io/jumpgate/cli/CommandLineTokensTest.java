package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** redis-cli's line splitting ({@code sdssplitargs}), byte for byte. */
class CommandLineTokensTest {

  private static List<String> split(String line) {
    return CommandLineTokens.split(line.getBytes(StandardCharsets.ISO_8859_1)).stream()
        .map(bytes -> new String(bytes, StandardCharsets.ISO_8859_1))
        .toList();
  }

  @Test
  void blanks_separate_arguments_and_a_blank_line_has_none() {
    assertThat(split("SET  user:42\tAda ")).containsExactly("SET", "user:42", "Ada");
    assertThat(split("")).isEmpty();
    assertThat(split(" \t \r")).isEmpty();
  }

  @Test
  void double_quotes_keep_blanks_and_take_escapes() {
    assertThat(split("SET k \"hello world\"")).containsExactly("SET", "k", "hello world");
    assertThat(split("\"a\\nb\\r\\t\\b\\a\\\"\\\\\\q\"")).containsExactly("a\nb\r\t\b\u0007\"\\q");
    assertThat(split("\"\"")).containsExactly("");
  }

  @Test
  void hex_escapes_make_any_byte() {
    List<byte[]> arguments =
        CommandLineTokens.split(
            "SET k \"\\x41\\x00\\xff\\xC3\\xa9\"".getBytes(StandardCharsets.US_ASCII));

    assertThat(arguments.get(2)).containsExactly(0x41, 0x00, 0xff, 0xc3, 0xa9);
  }

  @Test
  void an_incomplete_hex_escape_is_the_escaped_character() {
    assertThat(split("\"\\xZZ\\x4\"")).containsExactly("xZZx4");
  }

  @Test
  void single_quotes_take_only_an_escaped_single_quote() {
    assertThat(split("'it\\'s \\n raw'")).containsExactly("it's \\n raw");
  }

  @Test
  void a_quote_may_start_inside_an_argument() {
    assertThat(split("a\"b c\" d")).containsExactly("ab c", "d");
  }

  @Test
  void a_backslash_outside_quotes_is_ordinary() {
    assertThat(split("a\\nb")).containsExactly("a\\nb");
  }

  @Test
  void the_line_is_bytes_so_utf8_passes_through() {
    byte[] line = "SET k \"café\" é".getBytes(StandardCharsets.UTF_8);

    List<byte[]> arguments = CommandLineTokens.split(line);

    assertThat(new String(arguments.get(2), StandardCharsets.UTF_8)).isEqualTo("café");
    assertThat(new String(arguments.get(3), StandardCharsets.UTF_8)).isEqualTo("é");
  }

  @Test
  void an_unbalanced_quote_is_an_error() {
    assertThatThrownBy(() -> split("SET k \"abc"))
        .isInstanceOf(CommandLineTokens.SyntaxException.class)
        .hasMessage("unbalanced quotes");
    assertThatThrownBy(() -> split("SET k 'abc"))
        .isInstanceOf(CommandLineTokens.SyntaxException.class)
        .hasMessage("unbalanced quotes");
    assertThatThrownBy(() -> split("SET k \"abc\\"))
        .isInstanceOf(CommandLineTokens.SyntaxException.class)
        .hasMessage("unbalanced quotes");
  }

  @Test
  void a_closing_quote_must_be_followed_by_a_blank() {
    assertThatThrownBy(() -> split("\"a\"b"))
        .isInstanceOf(CommandLineTokens.SyntaxException.class)
        .hasMessage("closing quote must be followed by a space");
    assertThatThrownBy(() -> split("'a'b"))
        .isInstanceOf(CommandLineTokens.SyntaxException.class)
        .hasMessage("closing quote must be followed by a space");
    assertThat(split("\"a\"\t'b'")).containsExactly("a", "b");
  }
}
