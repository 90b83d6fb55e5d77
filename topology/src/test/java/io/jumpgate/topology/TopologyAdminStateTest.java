package io.jumpgate.topology;

import static io.jumpgate.topology.TopologyFixtures.KEYS;
import static io.jumpgate.topology.TopologyFixtures.meta;
import static io.jumpgate.topology.TopologyFixtures.node;
import static io.jumpgate.topology.TopologyFixtures.raw;
import static io.jumpgate.topology.TopologyFixtures.shard;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.spi.IncompatibleTopologyException;
import io.jumpgate.spi.InvalidEntry;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.internal.KeyChange;
import io.jumpgate.topology.internal.TopologyState;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyAdminStateTest {

  private static final String LOCK = KEYS.root() + "/init-lock";

  @Test
  void should_decode_nodes_assignments_and_every_mod_revision() {
    // Given
    List<KeyChange> listing =
        List.of(
            meta(4, 2),
            node("a", "10.0.0.1", 6379, 3),
            node("b", "10.0.0.2", 6379, 4),
            shard(0, "a", List.of("b"), 0, 5),
            shard(1, "b", List.of("a"), 3, 6),
            raw(KEYS.client("app-1"), "{\"host\":\"x\"}", 7));

    // When
    TopologyAdminState state = TopologyAdminState.decode(KEYS, 9, listing);

    // Then
    assertThat(state.cluster()).isEqualTo("test");
    assertThat(state.revision()).isEqualTo(9);
    assertThat(state.metadata().shards()).isEqualTo(4);
    assertThat(state.nodes()).containsOnlyKeys("a", "b");
    assertThat(state.assignments()).containsOnlyKeys(0, 1);
    assertThat(state.assignments().get(1).epoch()).isEqualTo(3);
    assertThat(state.modRevisions())
        .containsOnlyKeys(
            KEYS.meta(), KEYS.node("a"), KEYS.node("b"), KEYS.shard(0), KEYS.shard(1));
    assertThat(state.modRevision(KEYS.shard(1))).isEqualTo(6);
    assertThat(state.modRevision(KEYS.shard(2))).isZero();
    assertThat(state.invalidEntries()).isEmpty();
    assertThat(state.leaderCounts()).containsEntry("a", 1).containsEntry("b", 1);
  }

  @Test
  void should_list_entries_that_cannot_be_used_and_keep_those_naming_unknown_nodes() {
    // Given
    List<KeyChange> listing =
        List.of(
            meta(4, 2),
            node("a", "10.0.0.1", 6379, 3),
            raw(KEYS.node("bad"), "{\"host\":\"h\",\"port\":70000}", 4),
            shard(0, "a", List.of("gone"), 0, 5),
            raw(KEYS.shard(1), "{\"replicas\":[]}", 6),
            shard(9, "a", List.of(), 0, 7),
            raw(KEYS.shardsPrefix() + "x1", "{\"leader\":\"a\"}", 8));

    // When
    TopologyAdminState state = TopologyAdminState.decode(KEYS, 9, listing);

    // Then
    assertThat(state.nodes()).containsOnlyKeys("a");
    assertThat(state.assignments()).containsOnlyKeys(0);
    assertThat(state.invalidEntries())
        .extracting(InvalidEntry::key)
        .containsExactly(
            KEYS.node("bad"),
            KEYS.shard(0),
            KEYS.shard(1),
            KEYS.shard(9),
            KEYS.shardsPrefix() + "x1");
    assertThat(state.invalidEntries().get(0).reason()).contains("port").contains("70000");
    assertThat(state.invalidEntries().get(1).reason()).contains("[gone]");
    assertThat(state.invalidEntries().get(3).reason()).contains("[0, 4)");
    assertThat(state.modRevision(KEYS.node("bad"))).isEqualTo(4);
    assertThat(state.modRevision(KEYS.shard(1))).isEqualTo(6);
  }

  @Test
  void should_say_the_cluster_is_not_initialised_without_meta() {
    assertThatThrownBy(
            () -> TopologyAdminState.decode(KEYS, 3, List.of(node("a", "10.0.0.1", 6379, 2))))
        .isInstanceOf(TopologyUnavailableException.class)
        .hasMessage("cluster 'test' is not initialised at /jumpgate/test — run `jumpgate init`");
  }

  @Test
  void should_name_an_init_under_way() {
    assertThatThrownBy(
            () -> TopologyAdminState.decode(KEYS, 3, List.of(raw(LOCK, "{\"token\":\"t\"}", 2))))
        .isInstanceOf(TopologyUnavailableException.class)
        .hasMessageStartingWith(
            "cluster 'test' is not initialised at /jumpgate/test — run `jumpgate init`")
        .hasMessageContaining(LOCK)
        .hasMessageContaining("since revision 2");
  }

  @Test
  void should_refuse_to_change_a_cluster_of_a_newer_format() {
    List<KeyChange> listing =
        List.of(raw(KEYS.meta(), "{\"format\":2,\"shards\":4,\"routing\":\"xxh64-jump\"}", 2));
    assertThatThrownBy(() -> TopologyAdminState.decode(KEYS, 3, listing))
        .isInstanceOf(IncompatibleTopologyException.class)
        .hasMessageContaining("format 2");
  }

  @Test
  void readers_ignore_the_init_lock_and_see_no_cluster_without_meta() {
    // Given: the schema parses the lock as a key outside it
    assertThat(KEYS.parse(LOCK).kind()).isEqualTo(TopologyKeys.Kind.OTHER);
    KeyChange lock = raw(LOCK, "{\"token\":\"t\"}", 2);

    // Then: a half-written cluster under a lock is "not initialised" for a reader
    TopologyState reader = new TopologyState(KEYS, 0, Clock.systemUTC());
    List<KeyChange> halfWritten =
        List.of(lock, node("a", "h", 1, 3), shard(0, "a", List.of(), 0, 3));
    assertThatThrownBy(() -> reader.reset(3, halfWritten))
        .isInstanceOf(TopologyUnavailableException.class)
        .hasMessageContaining("not initialised");

    // And: with meta the lock is neither an entry nor an invalid one
    TopologySnapshot snapshot =
        new TopologyState(KEYS, 0, Clock.systemUTC())
            .reset(
                4, List.of(meta(1, 4), lock, node("a", "h", 1, 3), shard(0, "a", List.of(), 0, 3)));
    assertThat(snapshot.invalidEntries()).isEmpty();
    assertThat(snapshot.unavailableShardCount()).isZero();
  }
}
