package io.jumpgate.topology.internal;

import static io.jumpgate.topology.TopologyFixtures.KEYS;
import static io.jumpgate.topology.TopologyFixtures.delete;
import static io.jumpgate.topology.TopologyFixtures.meta;
import static io.jumpgate.topology.TopologyFixtures.node;
import static io.jumpgate.topology.TopologyFixtures.raw;
import static io.jumpgate.topology.TopologyFixtures.shard;
import static io.jumpgate.topology.TopologyFixtures.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spi.MigrationLock;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologySnapshot;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the reader applies migrating and frozen shards and the migration lock. */
class TopologyStateMigrationTest {

  private final TopologyState state =
      new TopologyState(
          KEYS, 0, Clock.fixed(Instant.parse("2026-11-24T10:00:00Z"), ZoneOffset.UTC));

  private static KeyChange frozen(int shard, String leader, String migration, String to, long rev) {
    return raw(
        KEYS.shard(shard),
        "{\"leader\":\""
            + leader
            + "\",\"epoch\":1,\"state\":\"frozen\",\"migration\":{\"id\":\""
            + migration
            + "\",\"to\":\""
            + to
            + "\"}}",
        rev);
  }

  private static KeyChange migrating(
      int shard, String leader, String migration, String to, long r) {
    return raw(
        KEYS.shard(shard),
        "{\"leader\":\""
            + leader
            + "\",\"epoch\":1,\"state\":\"migrating\",\"migration\":{\"id\":\""
            + migration
            + "\",\"to\":\""
            + to
            + "\"}}",
        r);
  }

  private static KeyChange lock(String migration, long modRevision, long createRevision) {
    return new KeyChange(
        KEYS.migrationLock(),
        utf8(
            "{\"migration\":\""
                + migration
                + "\",\"owner\":\"mover:42\",\"since\":\"2026-11-24T10:00:00Z\"}"),
        modRevision,
        createRevision);
  }

  /** Shards 0 and 1 frozen by m1 to c, shard 2 migrating under m1, shard 3 active; no lock. */
  private TopologySnapshot initial() {
    return state.reset(
        10,
        List.of(
            meta(4, 1),
            node("a", "10.0.0.1", 6379, 2),
            node("b", "10.0.0.2", 6379, 2),
            node("c", "10.0.0.3", 6379, 2),
            frozen(0, "a", "m1", "c", 3),
            frozen(1, "b", "m1", "c", 3),
            migrating(2, "a", "m1", "c", 3),
            shard(3, "b", List.of(), 1, 3)));
  }

  @Test
  void should_route_a_frozen_shard_with_its_migration() {
    TopologySnapshot snapshot = initial();

    assertThat(snapshot.route(0).state()).isEqualTo(ShardState.FROZEN);
    assertThat(snapshot.route(0).migration().id()).isEqualTo("m1");
    assertThat(snapshot.route(0).migration().to().id()).isEqualTo("c");
    assertThat(snapshot.route(0).migration().to().host()).isEqualTo("10.0.0.3");
    assertThat(snapshot.route(2).state()).isEqualTo(ShardState.MIGRATING);
    assertThat(snapshot.route(3).migration()).isNull();
    assertThat(snapshot.invalidEntries()).isEmpty();
  }

  @Test
  void should_not_hold_a_frozen_shard_without_the_lock() {
    TopologySnapshot snapshot = initial();

    assertThat(snapshot.migrationLock()).isEmpty();
    assertThat(snapshot.hasHeldShards()).isFalse();
    assertThat(snapshot.isHeld(0)).isFalse();
    assertThat(snapshot.heldShardCount()).isZero();
  }

  @Test
  void should_hold_the_frozen_shards_of_the_migration_the_lock_names() {
    initial();

    TopologySnapshot snapshot = state.apply(11, List.of(lock("m1", 11, 11)));

    assertThat(snapshot.revision()).as("the lock is not a change of the map").isEqualTo(3);
    assertThat(snapshot.migrationLock())
        .contains(new MigrationLock("m1", "mover:42", "2026-11-24T10:00:00Z", 11));
    assertThat(snapshot.hasHeldShards()).isTrue();
    assertThat(snapshot.isHeld(0)).isTrue();
    assertThat(snapshot.isHeld(1)).isTrue();
    assertThat(snapshot.isHeld(2)).as("migrating, not frozen").isFalse();
    assertThat(snapshot.isHeld(3)).as("active").isFalse();
    assertThat(snapshot.heldShardCount()).isEqualTo(2);
  }

  @Test
  void should_not_hold_a_frozen_shard_of_another_migration() {
    initial();

    TopologySnapshot snapshot = state.apply(11, List.of(lock("m2", 11, 11)));

    assertThat(snapshot.migrationLock()).isPresent();
    assertThat(snapshot.hasHeldShards()).isFalse();
    assertThat(snapshot.isHeld(0)).isFalse();
  }

  @Test
  void should_publish_a_snapshot_without_held_shards_when_the_lock_goes() {
    initial();
    TopologySnapshot held = state.apply(11, List.of(lock("m1", 11, 11)));

    TopologySnapshot released = state.apply(12, List.of(delete(KEYS.migrationLock(), 12)));

    assertThat(released).isNotSameAs(held);
    assertThat(released.revision()).isEqualTo(held.revision()).isEqualTo(3);
    assertThat(released.migrationLock()).isEmpty();
    assertThat(released.isHeld(0)).isFalse();
    assertThat(released.route(0).state()).isEqualTo(ShardState.FROZEN);
  }

  @Test
  void should_take_the_create_revision_of_a_lock_taken_again() {
    initial();
    state.apply(11, List.of(lock("m1", 11, 11)));
    state.apply(12, List.of(delete(KEYS.migrationLock(), 12)));

    TopologySnapshot again = state.apply(13, List.of(lock("m1", 13, 13)));

    assertThat(again.migrationLock().orElseThrow().createRevision()).isEqualTo(13);
    assertThat(again.isHeld(0)).isTrue();
  }

  @Test
  void should_treat_a_lock_that_does_not_decode_as_no_lock_and_not_report_it() {
    initial();
    state.apply(11, List.of(lock("m1", 11, 11)));

    TopologySnapshot broken =
        state.apply(12, List.of(raw(KEYS.migrationLock(), "{\"owner\":\"x\"}", 12)));

    assertThat(broken.revision()).isEqualTo(3);
    assertThat(broken.migrationLock()).isEmpty();
    assertThat(broken.hasHeldShards()).isFalse();
    assertThat(broken.invalidEntries()).isEmpty();
  }

  @Test
  void should_read_the_lock_of_the_first_listing_with_its_create_revision() {
    TopologySnapshot snapshot =
        state.reset(
            20,
            List.of(
                meta(4, 1),
                node("a", "10.0.0.1", 6379, 2),
                node("c", "10.0.0.3", 6379, 2),
                frozen(0, "a", "m1", "c", 15),
                lock("m1", 14, 9)));

    assertThat(snapshot.migrationLock().orElseThrow().createRevision()).isEqualTo(9);
    assertThat(snapshot.isHeld(0)).isTrue();
  }

  @Test
  void should_drop_the_lock_missing_from_a_new_listing() {
    initial();
    state.apply(11, List.of(lock("m1", 11, 11)));

    TopologySnapshot relisted =
        state.reset(
            30,
            List.of(
                meta(4, 1),
                node("a", "10.0.0.1", 6379, 2),
                node("b", "10.0.0.2", 6379, 2),
                node("c", "10.0.0.3", 6379, 2),
                frozen(0, "a", "m1", "c", 3),
                frozen(1, "b", "m1", "c", 3),
                migrating(2, "a", "m1", "c", 3),
                shard(3, "b", List.of(), 1, 3)));

    assertThat(relisted.migrationLock()).isEmpty();
    assertThat(relisted.isHeld(0)).isFalse();
  }

  @Test
  void should_keep_ignoring_migration_records() {
    TopologySnapshot first = initial();

    TopologySnapshot next =
        state.apply(11, List.of(raw(KEYS.migration("m1"), "{\"shards\":{}}", 11)));

    assertThat(next).isSameAs(first);
  }

  @Test
  void should_report_a_migration_to_an_unknown_node_and_keep_the_last_valid_entry() {
    initial();

    TopologySnapshot snapshot = state.apply(11, List.of(frozen(3, "b", "m1", "z", 11)));

    assertThat(snapshot.route(3).state()).isEqualTo(ShardState.ACTIVE);
    assertThat(snapshot.invalidEntries())
        .singleElement()
        .satisfies(
            entry -> {
              assertThat(entry.key()).isEqualTo(KEYS.shard(3));
              assertThat(entry.reason()).isEqualTo("migration target 'z' is not in the node table");
            });
  }

  @Test
  void should_report_a_frozen_shard_without_migration_and_keep_the_last_valid_entry() {
    initial();

    TopologySnapshot snapshot =
        state.apply(
            11,
            List.of(raw(KEYS.shard(3), "{\"leader\":\"b\",\"epoch\":2,\"state\":\"frozen\"}", 11)));

    assertThat(snapshot.route(3).state()).isEqualTo(ShardState.ACTIVE);
    assertThat(snapshot.route(3).epoch()).isEqualTo(1);
    assertThat(snapshot.invalidEntries()).extracting(e -> e.key()).containsExactly(KEYS.shard(3));
  }

  @Test
  void should_revalidate_a_migrating_shard_when_its_target_node_is_deleted() {
    initial();

    TopologySnapshot snapshot = state.apply(11, List.of(delete(KEYS.node("c"), 11)));

    assertThat(snapshot.invalidEntries())
        .extracting(e -> e.key())
        .contains(KEYS.shard(0), KEYS.shard(1), KEYS.shard(2));
    assertThat(snapshot.route(0).migration().to().id()).isEqualTo("c");
  }
}
