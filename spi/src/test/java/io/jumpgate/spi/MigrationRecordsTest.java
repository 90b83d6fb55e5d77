package io.jumpgate.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The metadata, migration and lock records: their ranges and the errors that name the field. */
class MigrationRecordsTest {

  private final Node b = Node.of("b", "127.0.0.1", 7002);

  @Test
  void should_make_format_one_metadata_and_refuse_out_of_range_values() {
    TopologyMetadata metadata = TopologyMetadata.of(1024);
    assertThat(metadata.format()).isEqualTo(TopologyMetadata.CURRENT_FORMAT);
    assertThat(metadata.routing()).isEqualTo("xxh64-jump");
    assertThat(TopologyMetadata.of(TopologyMetadata.MAX_SHARDS).shards()).isEqualTo(65536);

    assertThatThrownBy(() -> TopologyMetadata.of(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("shards must be between 1 and 65536, was 0");
    assertThatThrownBy(() -> TopologyMetadata.of(65537))
        .hasMessage("shards must be between 1 and 65536, was 65537");
    assertThatThrownBy(() -> new TopologyMetadata(0, 16, "xxh64-jump"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("format must be at least 1, was 0");
    assertThatThrownBy(() -> new TopologyMetadata(1, 16, null)).hasMessage("routing");
  }

  @Test
  void should_refuse_a_bad_migration_id_naming_it() {
    assertThat(new ShardMigration("add-node.2026_11", b).to()).isEqualTo(b);
    assertThatThrownBy(() -> new ShardMigration("no spaces", b))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("migration id must match [A-Za-z0-9._-]{1,64}, was 'no spaces'");
    assertThatThrownBy(() -> new ShardMigration("m1", null)).hasMessage("to");
  }

  @Test
  void should_refuse_a_lock_with_a_bad_migration_id_or_revision() {
    assertThat(new MigrationLock("m1", "host:1", "2026-11-24T00:00:00Z", 0).createRevision())
        .isZero();
    assertThatThrownBy(() -> new MigrationLock("m/1", "host:1", "now", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("migration id must match [A-Za-z0-9._-]{1,64}, was 'm/1'");
    assertThatThrownBy(() -> new MigrationLock("m1", "host:1", "now", -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("createRevision must be at least 0, was -1");
    assertThatThrownBy(() -> new MigrationLock("m1", null, "now", 1)).hasMessage("owner");
  }

  @Test
  void should_say_shard_revision_and_reason_when_a_shard_is_unavailable() {
    ShardUnavailableException error = new ShardUnavailableException(7, 42, "no leader");

    assertThat(error)
        .isInstanceOf(JumpgateException.class)
        .hasMessage("shard 7 is unavailable at topology revision 42: no leader");
    assertThat(error.shard()).isEqualTo(7);
    assertThat(error.revision()).isEqualTo(42);
    assertThat(error.reason()).isEqualTo("no leader");
  }
}
