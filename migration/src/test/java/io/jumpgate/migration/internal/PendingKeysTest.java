package io.jumpgate.migration.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class PendingKeysTest {

  private static final int SHARDS = 8;

  private static RoutedKey key(String name, int shard) {
    return new RoutedKey(name.getBytes(StandardCharsets.UTF_8), shard);
  }

  private static List<String> names(List<PendingKeys.Entry> entries) {
    return entries.stream().map(entry -> entry.key().printable()).toList();
  }

  private static ShardSet shards(int... ids) {
    BitSet set = new BitSet();
    for (int id : ids) {
      set.set(id);
    }
    return ShardSet.of(set, SHARDS);
  }

  @Test
  void should_hand_out_keys_in_order_of_first_change_when_changed_several_times() {
    PendingKeys pending = new PendingKeys(SHARDS);

    pending.changed(key("a", 1), false);
    pending.changed(key("b", 2), false);
    pending.changed(key("a", 1), false); // keeps its place
    pending.changed(key("c", 1), true);

    assertThat(names(pending.takeBatch(10, null))).containsExactly("a", "b", "c");
    assertThat(pending.pendingCount()).isZero();
  }

  @Test
  void should_cut_batches_at_max_when_more_keys_are_pending() {
    PendingKeys pending = new PendingKeys(SHARDS);
    for (int index = 0; index < 5; index++) {
      pending.changed(key("k" + index, 0), false);
    }

    assertThat(names(pending.takeBatch(2, null))).containsExactly("k0", "k1");
    assertThat(names(pending.takeBatch(2, null))).containsExactly("k2", "k3");
    assertThat(names(pending.takeBatch(2, null))).containsExactly("k4");
    assertThat(pending.takeBatch(2, null)).isEmpty();
  }

  @Test
  void should_not_hand_out_a_key_twice_when_it_changes_during_its_copy() {
    PendingKeys pending = new PendingKeys(SHARDS);
    pending.changed(key("a", 1), false);
    List<PendingKeys.Entry> first = pending.takeBatch(10, null);

    pending.changed(key("a", 1), true); // changed while its copy runs

    assertThat(pending.takeBatch(10, null)).as("still in flight: not handed out").isEmpty();
    assertThat(pending.finished(List.of(first.get(0).key()))).isEqualTo(1);
    List<PendingKeys.Entry> again = pending.takeBatch(10, null);
    assertThat(names(again)).containsExactly("a");
    assertThat(again.get(0).deleted()).as("the last change was a deletion").isTrue();
  }

  @Test
  void should_put_a_recopied_key_after_the_keys_already_pending_when_its_copy_ends() {
    PendingKeys pending = new PendingKeys(SHARDS);
    pending.changed(key("a", 1), false);
    List<PendingKeys.Entry> first = pending.takeBatch(10, null);
    pending.changed(key("a", 1), false);
    pending.changed(key("b", 1), false);

    pending.finished(List.of(first.get(0).key()));

    assertThat(names(pending.takeBatch(10, null))).containsExactly("b", "a");
  }

  @Test
  void should_refuse_a_scanned_key_when_it_is_pending_or_in_flight() {
    PendingKeys pending = new PendingKeys(SHARDS);
    pending.changed(key("pending", 1), false);
    assertThat(pending.claim(key("fresh", 1))).isTrue();

    assertThat(pending.claim(key("pending", 1))).isFalse();
    assertThat(pending.claim(key("fresh", 1))).as("in flight").isFalse();
  }

  @Test
  void should_copy_a_scanned_key_again_when_it_changed_during_its_first_copy() {
    PendingKeys pending = new PendingKeys(SHARDS);
    RoutedKey scanned = key("s", 3);
    assertThat(pending.claim(scanned)).isTrue();
    pending.changed(key("s", 3), false);

    assertThat(pending.takeBatch(10, null)).isEmpty();
    pending.finished(List.of(scanned));

    assertThat(names(pending.takeBatch(10, null))).containsExactly("s");
  }

  @Test
  void should_forget_a_key_when_its_copy_ends_without_a_change() {
    PendingKeys pending = new PendingKeys(SHARDS);
    RoutedKey scanned = key("s", 3);
    pending.claim(scanned);

    assertThat(pending.finished(List.of(scanned))).isZero();

    assertThat(pending.isSettled(shards(3))).isTrue();
    assertThat(pending.claim(scanned)).as("may be claimed again").isTrue();
  }

  @Test
  void should_take_only_keys_of_the_given_shards_when_filtered() {
    PendingKeys pending = new PendingKeys(SHARDS);
    pending.changed(key("a", 1), false);
    pending.changed(key("b", 2), false);
    pending.changed(key("c", 1), false);

    assertThat(names(pending.takeBatch(10, shards(1)))).containsExactly("a", "c");
    assertThat(pending.pendingCount(shards(1))).isZero();
    assertThat(pending.pendingCount(shards(2))).isEqualTo(1);
    assertThat(pending.isSettled(shards(1))).as("a and c are in flight").isFalse();
    assertThat(pending.isSettled(shards(2))).isFalse();
  }

  @Test
  void should_return_keys_to_pending_when_their_copy_failed() {
    PendingKeys pending = new PendingKeys(SHARDS);
    RoutedKey scanned = key("s", 3);
    pending.claim(scanned);

    pending.failed(List.of(scanned));

    assertThat(names(pending.takeBatch(10, null))).containsExactly("s");
  }

  @Test
  void should_drop_pending_keys_of_shards_when_they_are_cut_over() {
    PendingKeys pending = new PendingKeys(SHARDS);
    pending.changed(key("a", 1), false);
    pending.changed(key("b", 2), false);

    assertThat(pending.drop(shards(1))).isEqualTo(1);

    assertThat(names(pending.takeBatch(10, null))).containsExactly("b");
  }
}
