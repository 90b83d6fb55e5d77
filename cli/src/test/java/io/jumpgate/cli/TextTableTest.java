package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class TextTableTest {

  private static String print(TextTable table) {
    StringWriter text = new StringWriter();
    table.printTo(new PrintWriter(text));
    return text.toString();
  }

  @Test
  void padsColumnsToTheWidestCellAndAlignsRight() {
    TextTable table =
        new TextTable()
            .column("NAME")
            .column("COUNT", TextTable.Alignment.RIGHT)
            .column("NOTE")
            .row("a", "1", "x")
            .row("longer", "12345", "");

    assertThat(print(table).lines())
        .containsExactly("NAME    COUNT  NOTE", "a           1  x", "longer  12345");
  }

  @Test
  void widthCountsTerminalColumns() {
    assertThat(TextTable.displayWidth("abc")).isEqualTo(3);
    assertThat(TextTable.displayWidth("日本語")).isEqualTo(6);
    assertThat(TextTable.displayWidth("e\u0301")).isEqualTo(1);
    assertThat(TextTable.displayWidth("\uD83D\uDE00")).isEqualTo(2);

    TextTable table = new TextTable().column("K").column("V").row("日本", "1").row("abcd", "2");
    assertThat(print(table).lines()).containsExactly("K     V", "日本  1", "abcd  2");
  }

  @Test
  void rowMustHaveOneCellPerColumn() {
    TextTable table = new TextTable().column("A").column("B");

    assertThatThrownBy(() -> table.row("only one"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a row needs 2 cells, got 1");
  }
}
