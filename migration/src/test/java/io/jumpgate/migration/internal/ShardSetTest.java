package io.jumpgate.migration.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.routing.Xxh64JumpRouter;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import org.junit.jupiter.api.Test;

class ShardSetTest {

  @Test
  void should_reject_a_shard_when_outside_the_shard_count_naming_it() {
    BitSet shards = new BitSet();
    shards.set(1024);

    assertThatThrownBy(() -> ShardSet.of(shards, 1024))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shard 1024")
        .hasMessageContaining("0 to 1023");
  }

  @Test
  void should_not_change_when_the_callers_bitset_changes() {
    BitSet shards = new BitSet();
    shards.set(3);
    ShardSet set = ShardSet.of(shards, 8);

    shards.set(4);

    assertThat(set.contains(4)).isFalse();
    assertThat(set.contains(3)).isTrue();
  }

  @Test
  void should_compute_union_and_difference_without_changing_either_set() {
    BitSet a = new BitSet();
    a.set(1);
    a.set(2);
    BitSet b = new BitSet();
    b.set(2);
    ShardSet left = ShardSet.of(a, 8);
    ShardSet right = ShardSet.of(b, 8);

    assertThat(left.minus(right).toBitSet()).isEqualTo(BitSet.valueOf(new long[] {0b10}));
    assertThat(right.union(left).size()).isEqualTo(2);
    assertThat(left.containsAll(right)).isTrue();
    assertThat(right.containsAll(left)).isFalse();
    assertThat(left.size()).isEqualTo(2);
  }

  @Test
  void should_keep_a_hash_tagged_group_in_one_shard_when_filtering_as_clients_route() {
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(1024);
    int shard = router.shardOf("{user1}:a".getBytes(StandardCharsets.UTF_8));
    BitSet moving = new BitSet();
    moving.set(shard);
    ShardSet set = ShardSet.of(moving, 1024);

    assertThat(set.contains(router.shardOf("{user1}:b".getBytes(StandardCharsets.UTF_8)))).isTrue();
    assertThat(router.shardOf("user1".getBytes(StandardCharsets.UTF_8))).isEqualTo(shard);
  }
}
