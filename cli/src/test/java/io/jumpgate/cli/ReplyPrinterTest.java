package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Replies as redis-cli prints them on a terminal (its cliFormatReplyTTY and sdscatrepr). */
class ReplyPrinterTest {

  private static byte[] bulk(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void scalars() {
    assertThat(ReplyPrinter.format(null)).isEqualTo("(nil)\n");
    assertThat(ReplyPrinter.format("OK")).isEqualTo("OK\n");
    assertThat(ReplyPrinter.format(bulk("OK"))).isEqualTo("\"OK\"\n");
    assertThat(ReplyPrinter.format(3L)).isEqualTo("(integer) 3\n");
    assertThat(ReplyPrinter.format(-7)).isEqualTo("(integer) -7\n");
    assertThat(ReplyPrinter.format(1.5)).isEqualTo("(double) 1.5\n");
    assertThat(ReplyPrinter.format(true)).isEqualTo("(true)\n");
    assertThat(ReplyPrinter.format(new ReplyPrinter.ErrorReply("WRONGTYPE Operation")))
        .isEqualTo("(error) WRONGTYPE Operation\n");
  }

  @Test
  void bulk_strings_are_quoted_with_redis_cli_escapes() {
    assertThat(ReplyPrinter.quoted(bulk("a\"b\\c\nd\re\tf\u0007g\bh")))
        .isEqualTo("\"a\\\"b\\\\c\\nd\\re\\tf\\ag\\bh\"");
    assertThat(ReplyPrinter.quoted(new byte[] {0, 0x1f, 0x7f, (byte) 0x80, (byte) 0xff}))
        .isEqualTo("\"\\x00\\x1f\\x7f\\x80\\xff\"");
    assertThat(ReplyPrinter.quoted(bulk("café"))).isEqualTo("\"caf\\xc3\\xa9\"");
    assertThat(ReplyPrinter.quoted(bulk(" ~"))).isEqualTo("\" ~\"");
    assertThat(ReplyPrinter.quoted(new byte[0])).isEqualTo("\"\"");
  }

  @Test
  void arrays_number_their_elements_and_an_empty_one_says_so() {
    assertThat(ReplyPrinter.format(List.of(bulk("a"), 2L, "OK")))
        .isEqualTo("1) \"a\"\n2) (integer) 2\n3) OK\n");
    assertThat(ReplyPrinter.format(List.of())).isEqualTo("(empty array)\n");
    assertThat(ReplyPrinter.format(Arrays.asList(bulk("a"), null)))
        .isEqualTo("1) \"a\"\n2) (nil)\n");
  }

  @Test
  void indices_are_right_aligned_to_the_widest() {
    List<Object> eleven = new ArrayList<>();
    for (int index = 0; index < 11; index++) {
      eleven.add(bulk("v" + index));
    }

    List<String> lines = ReplyPrinter.lines(eleven);

    assertThat(lines.get(0)).isEqualTo(" 1) \"v0\"");
    assertThat(lines.get(9)).isEqualTo("10) \"v9\"");
    assertThat(lines.get(10)).isEqualTo("11) \"v10\"");
  }

  @Test
  void nested_arrays_are_indented_under_their_index() {
    // XRANGE: 1) 1) "id" 2) 1) "f" 2) "v", as redis-cli prints it.
    Object reply =
        List.of(
            List.of(bulk("1-0"), List.of(bulk("f"), bulk("v"))), List.of(bulk("2-0"), List.of()));

    assertThat(ReplyPrinter.lines(reply))
        .containsExactly(
            "1) 1) \"1-0\"",
            "   2) 1) \"f\"",
            "      2) \"v\"",
            "2) 1) \"2-0\"",
            "   2) (empty array)");
  }

  @Test
  void nested_indentation_grows_with_the_parent_index_width() {
    List<Object> reply = new ArrayList<>();
    for (int index = 0; index < 9; index++) {
      reply.add(1L);
    }
    reply.add(List.of(bulk("a"), bulk("b")));

    List<String> lines = ReplyPrinter.lines(reply);

    assertThat(lines.get(9)).isEqualTo("10) 1) \"a\"");
    assertThat(lines.get(10)).isEqualTo("    2) \"b\"");
  }

  @Test
  void maps_print_key_and_value_on_one_line() {
    Map<Object, Object> map = new LinkedHashMap<>();
    map.put(bulk("n0"), "PONG");
    map.put(bulk("n1"), List.of(1L, 2L));

    assertThat(ReplyPrinter.lines(map))
        .containsExactly("1# \"n0\" => PONG", "2# \"n1\" => 1) (integer) 1", "   2) (integer) 2");
  }

  @Test
  void raw_text_is_printed_as_it_is_with_line_feeds() {
    assertThat(ReplyPrinter.lines(new ReplyPrinter.Raw("# Server\r\nredis_version:7\r\n")))
        .containsExactly("# Server", "redis_version:7");
  }
}
