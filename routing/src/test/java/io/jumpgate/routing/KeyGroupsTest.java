package io.jumpgate.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyGroupsTest {

  private final Xxh64JumpRouter router = Xxh64JumpRouter.withDefaultShards();

  @Test
  void should_group_keys_by_node_keeping_request_order_inside_each_group() {
    // Given 1000 keys and shards spread over 3 nodes (shard % 3)
    byte[][] keys = new byte[1000][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = ("key:" + i).getBytes(StandardCharsets.UTF_8);
    }
    // When grouped by node
    KeyGroups groups = KeyGroups.byGroup(router, keys, shard -> shard % 3);
    // Then there is one group per node, in ascending id
    assertThat(groups.groupCount()).isEqualTo(3);
    assertThat(groups.keyCount()).isEqualTo(1000);
    Set<Integer> seen = new HashSet<>();
    for (int group = 0; group < groups.groupCount(); group++) {
      assertThat(groups.groupId(group)).isEqualTo(group);
      int previous = -1;
      for (int position = 0; position < groups.groupSize(group); position++) {
        int index = groups.keyIndex(group, position);
        // And each key is in the group of its shard's node, in request order, exactly once
        assertThat(router.shardOf(keys[index]) % 3).isEqualTo(groups.groupId(group));
        assertThat(groups.shardOfKey(index)).isEqualTo(router.shardOf(keys[index]));
        assertThat(index).isGreaterThan(previous);
        assertThat(seen.add(index)).isTrue();
        previous = index;
      }
    }
    assertThat(seen).hasSize(1000);
  }

  @Test
  void should_group_keys_by_shard() {
    byte[][] keys = {
      utf8("{a}1"), utf8("{b}1"), utf8("{a}2"), utf8("{b}2"), utf8("{a}3"),
    };
    KeyGroups groups = KeyGroups.byShard(router, keys);

    assertThat(groups.groupCount())
        .isEqualTo(router.shardOf(utf8("a")) == router.shardOf(utf8("b")) ? 1 : 2);
    List<List<Integer>> members = new ArrayList<>();
    for (int group = 0; group < groups.groupCount(); group++) {
      List<Integer> indices = new ArrayList<>();
      for (int position = 0; position < groups.groupSize(group); position++) {
        indices.add(groups.keyIndex(group, position));
      }
      members.add(indices);
    }
    assertThat(members).containsExactlyInAnyOrder(List.of(0, 2, 4), List.of(1, 3));
  }

  @Test
  void should_accept_no_keys() {
    KeyGroups groups = KeyGroups.byShard(router, new byte[0][]);
    assertThat(groups.groupCount()).isZero();
    assertThat(groups.keyCount()).isZero();
  }

  @Test
  void should_name_the_null_key() {
    byte[][] keys = {utf8("a"), null};
    assertThatThrownBy(() -> KeyGroups.byShard(router, keys))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("keys[1]");
  }

  @Test
  void should_reject_a_negative_group_naming_shard_and_key() {
    assertThatThrownBy(() -> KeyGroups.of(2, key -> 5, shard -> -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shard 5")
        .hasMessageContaining("key 0");
  }

  @Test
  void should_reject_a_position_outside_the_group() {
    KeyGroups groups = KeyGroups.of(3, key -> key, shard -> 0);
    assertThat(groups.groupSize(0)).isEqualTo(3);
    assertThatThrownBy(() -> groups.keyIndex(0, 3)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
