package io.jumpgate.topology;

import static io.jumpgate.topology.TopologyFixtures.KEYS;
import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.topology.TopologyAdminPlan.KeyWrite;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyAdminWritesTest {

  private static List<KeyWrite> writes(int count, int valueLength) {
    List<KeyWrite> writes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      writes.add(new KeyWrite(KEYS.shard(i), "x".repeat(valueLength), 0));
    }
    return writes;
  }

  @Test
  void should_cut_1027_writes_into_batches_of_100_in_order() {
    // When
    List<List<KeyWrite>> batches = TopologyAdminWrites.batches(writes(1027, 50), 100, 1 << 20);

    // Then
    assertThat(batches).hasSize(11);
    assertThat(batches.subList(0, 10)).allSatisfy(batch -> assertThat(batch).hasSize(100));
    assertThat(batches.get(10)).hasSize(27);
    List<KeyWrite> flattened = new ArrayList<>();
    batches.forEach(flattened::addAll);
    assertThat(flattened).isEqualTo(writes(1027, 50));
  }

  @Test
  void should_cut_by_bytes_and_put_an_oversized_write_alone() {
    // Given: each write is about 1 KiB
    List<KeyWrite> writes = writes(10, 1000);
    long each = TopologyAdminWrites.bytes(writes.get(0));

    // When: three fit in the byte budget
    List<List<KeyWrite>> batches =
        TopologyAdminWrites.batches(writes, 100, (int) (3 * each + each / 2));

    // Then
    assertThat(batches).extracting(List::size).containsExactly(3, 3, 3, 1);

    // And: a write above the budget still goes, alone
    List<KeyWrite> mixed = new ArrayList<>(writes(1, 10));
    mixed.add(new KeyWrite(KEYS.shard(5), "y".repeat(5000), 0));
    mixed.add(new KeyWrite(KEYS.shard(6), "z", 0));
    assertThat(TopologyAdminWrites.batches(mixed, 100, 2048))
        .extracting(List::size)
        .containsExactly(1, 1, 1);
  }

  @Test
  void should_give_nothing_for_no_write() {
    assertThat(TopologyAdminWrites.batches(List.of(), 100, 1 << 20)).isEmpty();
  }

  @Test
  void init_should_write_its_last_batch_with_meta_when_it_fits() {
    // 1027 writes: 10 batches of 100 between the lock and the last transaction, 27 with meta
    TopologyAdminWrites.InitBatches large =
        TopologyAdminWrites.initBatches(writes(1027, 50), KEYS, 100, 1 << 20);
    assertThat(large.middle()).hasSize(10);
    assertThat(large.last()).hasSize(27);
    assertThat(large.transactions()).isEqualTo(12);

    // 98 writes fit with meta and the lock delete: claim + last
    TopologyAdminWrites.InitBatches small =
        TopologyAdminWrites.initBatches(writes(98, 50), KEYS, 100, 1 << 20);
    assertThat(small.middle()).isEmpty();
    assertThat(small.last()).hasSize(98);
    assertThat(small.transactions()).isEqualTo(2);

    // 99 do not: they get a batch of their own and the last one only writes meta
    TopologyAdminWrites.InitBatches tight =
        TopologyAdminWrites.initBatches(writes(99, 50), KEYS, 100, 1 << 20);
    assertThat(tight.middle()).hasSize(1);
    assertThat(tight.last()).isEmpty();
    assertThat(tight.transactions()).isEqualTo(3);
  }
}
