package io.jumpgate.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NodeTest {

  @Test
  void should_write_the_address_with_an_ipv6_host_in_brackets() {
    assertThat(Node.of("n1", "10.0.0.1", 6379).address()).isEqualTo("10.0.0.1:6379");
    assertThat(Node.of("n1", "::1", 6380).address()).isEqualTo("[::1]:6380");
    assertThat(Node.of("n1", "redis-1.internal", 1).address()).isEqualTo("redis-1.internal:1");
  }

  @Test
  void should_accept_the_limits_of_the_id_and_the_port() {
    String longest = "a".repeat(64);

    assertThat(Node.of(longest, "h", 65535).id()).isEqualTo(longest);
    assertThat(Node.of("A-z_0.9", "h", 1).port()).isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "has space", "slash/no", "ünicode"})
  void should_refuse_a_bad_id_naming_it(String id) {
    assertThatThrownBy(() -> Node.of(id, "h", 6379))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("node id must match [A-Za-z0-9._-]{1,64}, was '" + id + "'");
  }

  @Test
  void should_refuse_an_id_of_65_characters() {
    assertThatThrownBy(() -> Node.of("a".repeat(65), "h", 6379))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("node id must match");
  }

  @Test
  void should_refuse_a_blank_host_naming_the_node() {
    assertThatThrownBy(() -> Node.of("n1", "  ", 6379))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("host of node 'n1' must not be blank");
  }

  @ParameterizedTest
  @ValueSource(ints = {0, -1, 65536})
  void should_refuse_a_port_out_of_range_naming_node_and_port(int port) {
    assertThatThrownBy(() -> Node.of("n1", "h", port))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("port of node 'n1' must be between 1 and 65535, was " + port);
  }

  @Test
  void should_name_the_missing_id_or_host() {
    assertThatThrownBy(() -> Node.of(null, "h", 1)).hasMessage("id");
    assertThatThrownBy(() -> Node.of("n1", null, 1)).hasMessage("host");
  }

  @Test
  void should_copy_the_tags_sorted_and_treat_null_as_none() {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put("z", "1");
    tags.put("a", "2");
    Node node = new Node("n1", "h", 1, "eu-1", tags, true);
    tags.put("later", "3");

    assertThat(node.tags()).containsOnlyKeys("a", "z");
    assertThatThrownBy(() -> node.tags().put("x", "y"))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThat(new Node("n1", "h", 1, null, null, false).tags()).isEmpty();
    assertThat(node.zoneIfSet()).contains("eu-1");
    assertThat(Node.of("n1", "h", 1).zoneIfSet()).isEmpty();
  }

  @Test
  void should_differ_when_the_address_changes_under_the_same_id() {
    assertThat(Node.of("n1", "h", 1)).isEqualTo(Node.of("n1", "h", 1));
    assertThat(Node.of("n1", "h", 1)).isNotEqualTo(Node.of("n1", "h", 2));
  }
}
