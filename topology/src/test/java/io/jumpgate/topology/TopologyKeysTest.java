package io.jumpgate.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.topology.TopologyKeys.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TopologyKeysTest {

  private static final TopologyKeys KEYS = TopologyKeys.forCluster("test");

  /** Found by TopologyHostileInputFuzzTest: keys with more than 12 digits were out of range. */
  @ParameterizedTest
  @CsvSource({
    "7, 7",
    "0007, 7",
    "0, 0",
    "0000, 0",
    "0000000000000000000000000012, 12",
    "000000000000002147483647, 2147483647",
    "2147483648, -1",
    "00000000000002147483648, -1",
    "99999999999999999999, -1",
    "7a, -1",
    "-1, -1",
    "+7, -1"
  })
  void should_read_shard_ids_with_any_number_of_leading_zeros(String id, int shard) {
    TopologyKeys.ParsedKey parsed = KEYS.parse(KEYS.shardsPrefix() + id);

    assertThat(parsed.kind()).isEqualTo(Kind.SHARD);
    assertThat(parsed.name()).isEqualTo(id);
    assertThat(parsed.shard()).isEqualTo(shard);
  }

  @Test
  void should_write_shard_keys_zero_padded_to_four_digits() {
    assertThat(KEYS.shard(7)).isEqualTo("/jumpgate/test/shards/0007");
    assertThat(KEYS.parse(KEYS.shard(65535)).shard()).isEqualTo(65535);
  }

  @ParameterizedTest
  @CsvSource({
    "meta, true",
    "migration-lock, true",
    "migrations/m-1, true",
    "nodes/n0, true",
    "shards/0000, true",
    "shards/99999999999999999999, true",
    "clients/app-1, false",
    "init-lock, false",
    "mess, false",
    "other/x, true",
    "shards0, false",
    "unknown/x, false"
  })
  void should_hold_the_map_and_neither_registry_nor_init_lock_in_the_map_range(
      String rest, boolean inRange) {
    assertThat(KEYS.inMapRange(KEYS.rootPrefix() + rest)).as(rest).isEqualTo(inRange);
  }

  @Test
  void should_keep_another_cluster_whose_name_extends_this_one_out_of_the_map_range() {
    assertThat(KEYS.mapRangeStart()).isEqualTo("/jumpgate/test/meta");
    assertThat(KEYS.mapRangeEnd()).isEqualTo("/jumpgate/test/shards0");
    assertThat(KEYS.inMapRange("/jumpgate/test2/meta")).isFalse();
    assertThat(KEYS.inMapRange("/jumpgate/test-b/nodes/n0")).isFalse();
  }
}
