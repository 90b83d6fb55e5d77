package io.jumpgate.bench.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTextTest {

  @Test
  void should_write_maps_in_order_lists_numbers_and_escaped_strings() {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("b", 1);
    value.put("a", List.of(2L, 2.5, 1.23456));
    value.put("text", "say \"hi\"\n\\ \u0001");
    value.put("none", null);
    value.put("ok", true);
    value.put("empty", Map.of());
    String json = JsonText.write(value);
    assertThat(json)
        .isEqualTo(
            String.join(
                "\n",
                "{",
                "  \"b\": 1,",
                "  \"a\": [",
                "    2,",
                "    2.5,",
                "    1.235",
                "  ],",
                "  \"text\": \"say \\\"hi\\\"\\n\\\\ \\u0001\",",
                "  \"none\": null,",
                "  \"ok\": true,",
                "  \"empty\": {}",
                "}",
                ""));
  }

  @Test
  void should_write_round_doubles_without_a_fraction() {
    assertThat(JsonText.write(List.of(50.0, -0.0001, 0.1)).replaceAll("\\s+", ""))
        .isEqualTo("[50,0,0.1]");
  }

  @Test
  void should_refuse_what_json_cannot_hold() {
    assertThatThrownBy(() -> JsonText.write(Double.NaN)).hasMessageContaining("NaN");
    assertThatThrownBy(() -> JsonText.write(Arrays.asList(new Object())))
        .hasMessageContaining("java.lang.Object");
  }
}
