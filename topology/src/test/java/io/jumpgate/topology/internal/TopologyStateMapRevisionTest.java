package io.jumpgate.topology.internal;

import static io.jumpgate.topology.TopologyFixtures.KEYS;
import static io.jumpgate.topology.TopologyFixtures.delete;
import static io.jumpgate.topology.TopologyFixtures.meta;
import static io.jumpgate.topology.TopologyFixtures.node;
import static io.jumpgate.topology.TopologyFixtures.raw;
import static io.jumpgate.topology.TopologyFixtures.shard;
import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spi.TopologySnapshot;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The snapshot's revision is the map revision: the revision of the last change to meta, nodes/ or
 * shards/, whatever else moves the store's revision (client registrations, the migration lock,
 * migration records).
 */
class TopologyStateMapRevisionTest {

  private final TopologyState state = new TopologyState(KEYS, 0, Clock.systemUTC());

  /** The map as written at revisions 1 (meta), 2 (nodes) and 5 (shard 1). */
  private static List<KeyChange> listing() {
    List<KeyChange> listing = new ArrayList<>();
    listing.add(meta(2, 1));
    listing.add(node("a", "10.0.0.1", 6379, 2));
    listing.add(node("b", "10.0.0.2", 6379, 2));
    listing.add(shard(0, "a", List.of("b"), 0, 3));
    listing.add(shard(1, "b", List.of(), 0, 5));
    return listing;
  }

  private static KeyChange lock(long revision) {
    return new KeyChange(
        KEYS.migrationLock(),
        "{\"migration\":\"m1\",\"owner\":\"mover:1\",\"since\":\"2026-11-24T10:00:00Z\"}"
            .getBytes(StandardCharsets.UTF_8),
        revision,
        revision);
  }

  @Test
  void a_listing_takes_the_last_change_of_a_map_key_not_the_listing_revision() {
    List<KeyChange> entries = listing();
    entries.add(raw(KEYS.client("app-1"), "{\"host\":\"app\",\"revision\":5}", 40));
    entries.add(raw(KEYS.migration("m0"), "{\"shards\":{}}", 41));
    entries.add(lock(42));

    TopologySnapshot snapshot = state.reset(50, entries);

    assertThat(snapshot.revision()).isEqualTo(5);
    assertThat(state.mapRevision()).isEqualTo(5);
    assertThat(snapshot.migrationLock()).isPresent();
  }

  @Test
  void client_writes_migration_records_and_the_lock_do_not_move_it_a_map_change_does() {
    TopologySnapshot first = state.reset(50, listing());

    assertThat(state.apply(51, List.of(raw(KEYS.client("app-1"), "{}", 51)))).isSameAs(first);
    assertThat(state.apply(52, List.of(raw(KEYS.migration("m1"), "{}", 52)))).isSameAs(first);
    TopologySnapshot locked = state.apply(53, List.of(lock(53)));
    assertThat(locked).as("the lock is read: a new snapshot").isNotSameAs(first);
    assertThat(locked.revision()).as("but not a change of the map").isEqualTo(5);

    TopologySnapshot moved = state.apply(54, List.of(shard(1, "a", List.of(), 1, 54)));
    assertThat(moved.revision()).isEqualTo(54);

    TopologySnapshot deleted = state.apply(55, List.of(delete(KEYS.node("b"), 55)));
    assertThat(deleted.revision()).as("a delete is a change of the map").isEqualTo(55);
  }

  @Test
  void staged_revisions_publish_the_last_map_change_among_them() {
    state.reset(50, listing());

    state.stage(51, List.of(shard(0, "b", List.of("a"), 1, 51)));
    state.stage(52, List.of(lock(52)));
    state.stage(53, List.of(raw(KEYS.client("app-1"), "{}", 53)));

    assertThat(state.publishStaged().revision()).isEqualTo(51);
  }

  @Test
  void a_listing_that_finds_a_map_key_deleted_takes_the_listing_revision() {
    TopologySnapshot first = state.reset(50, listing());
    assertThat(first.revision()).isEqualTo(5);

    // shard 1's key deleted while the watch was down: its revision is not in the listing
    List<KeyChange> without = listing();
    without.removeIf(entry -> entry.key().equals(KEYS.shard(1)));
    TopologySnapshot after = state.reset(60, without);

    assertThat(after.revision()).isEqualTo(60);
    assertThat(after.route(1).unavailableReason()).isEqualTo("assignment deleted at revision 60");

    // listed again, unchanged: the revision does not go back to the last put (5)
    assertThat(state.reset(70, without).revision()).isEqualTo(60);
  }

  @Test
  void a_listing_after_a_delete_seen_by_the_watch_keeps_its_revision() {
    state.reset(50, listing());
    state.apply(55, List.of(delete(KEYS.shard(1), 55)));

    List<KeyChange> without = listing();
    without.removeIf(entry -> entry.key().equals(KEYS.shard(1)));

    assertThat(state.reset(80, without).revision()).isEqualTo(55);
  }

  @Test
  void a_listing_of_changed_keys_takes_their_newest_mod_revision() {
    state.reset(50, listing());

    List<KeyChange> changed = listing();
    changed.set(2, node("b", "10.0.0.9", 6379, 58));
    changed.add(lock(59));

    assertThat(state.reset(70, changed).revision()).isEqualTo(58);
  }

  @Test
  void keys_without_mod_revisions_count_at_the_listing_revision() {
    // a file has no revisions: its loader lists every key at mod revision 0
    Map<String, byte[]> file = new LinkedHashMap<>();
    for (KeyChange entry : listing()) {
      file.put(entry.key(), entry.value());
    }

    assertThat(state.reset(7, KeyChange.puts(file, 0)).revision()).isEqualTo(7);
    assertThat(state.reset(8, KeyChange.puts(file, 0)).revision()).isEqualTo(8);
  }
}
