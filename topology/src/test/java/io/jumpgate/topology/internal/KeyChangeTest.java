package io.jumpgate.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeyChangeTest {

  @Test
  void should_compare_values_by_content_and_never_print_them() {
    KeyChange one = KeyChange.put("/k", "secret".getBytes(StandardCharsets.UTF_8), 3);
    KeyChange same = KeyChange.put("/k", "secret".getBytes(StandardCharsets.UTF_8), 3);

    assertThat(one).isEqualTo(same).hasSameHashCodeAs(same);
    assertThat(one.toString())
        .isEqualTo("KeyChange{/k 6 bytes at revision 3}")
        .doesNotContain("secret");
    assertThat(KeyChange.delete("/k", 4).isDelete()).isTrue();
    assertThat(KeyChange.delete("/k", 4).toString())
        .isEqualTo("KeyChange{/k deleted at revision 4}");
  }

  @Test
  void should_turn_entries_into_puts_in_order() {
    Map<String, byte[]> entries = new LinkedHashMap<>();
    entries.put("/b", new byte[] {1});
    entries.put("/a", new byte[] {2});

    assertThat(KeyChange.puts(entries, 0))
        .extracting(KeyChange::key, KeyChange::modRevision)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("/b", 0L),
            org.assertj.core.groups.Tuple.tuple("/a", 0L));
    assertThatThrownBy(() -> KeyChange.put("/a", new byte[0], -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("modRevision of '/a' must be at least 0, was -1");
  }
}
