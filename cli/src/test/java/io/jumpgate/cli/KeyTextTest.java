package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class KeyTextTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "ff", // never valid
        "c0af", // overlong '/'
        "e282", // truncated
        "eda080", // encoded surrogate (CESU-8)
        "f4900000" // above U+10FFFF
      })
  void invalidUtf8DecodesToNull(String hex) {
    assertThat(KeyText.utf8OrNull(HexFormat.of().parseHex(hex))).isNull();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "757365723a3432|user:42",
        "c3a9|é",
        "e697a5|日",
        "|(empty)",
        "09|hex:09",
        "2061|hex:2061",
        "6120|hex:6120",
        "61206220|hex:61206220",
        "612062|a b",
        "c2a0|hex:c2a0",
        "e2808b|hex:e2808b",
        "efbfbd|�",
        "6865783a3030|hex:6865783a3030",
        "28656d70747929|hex:28656d70747929",
        "ff|hex:ff"
      })
  void tableShowsPrintableTextAsIsAndAnythingElseInHex(String hex, String shown) {
    byte[] key = hex == null ? new byte[0] : HexFormat.of().parseHex(hex);

    assertThat(KeyText.forTable(key)).isEqualTo(shown);
  }
}
