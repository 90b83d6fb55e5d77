package io.jumpgate.topology;

import static io.jumpgate.topology.TopologyFixtures.KEYS;
import static io.jumpgate.topology.TopologyFixtures.meta;
import static io.jumpgate.topology.TopologyFixtures.node;
import static io.jumpgate.topology.TopologyFixtures.raw;
import static io.jumpgate.topology.TopologyFixtures.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.topology.internal.KeyChange;
import io.jumpgate.topology.internal.TopologyState;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Export, file and diff keep a shard's state and migration and the migration lock. */
class TopologyDocumentMigrationTest {

  private static TopologySnapshot frozenUnderLock() {
    TopologyState state = new TopologyState(KEYS, 0, Clock.systemUTC());
    return state.reset(
        20,
        List.of(
            meta(2, 1),
            node("a", "10.0.0.1", 6379, 2),
            node("d", "10.0.0.4", 6379, 2),
            raw(
                KEYS.shard(0),
                "{\"leader\":\"a\",\"state\":\"frozen\",\"migration\":{\"id\":\"m1\",\"to\":\"d\"}}",
                3),
            raw(KEYS.shard(1), "{\"leader\":\"d\"}", 3),
            new KeyChange(
                KEYS.migrationLock(),
                utf8("{\"migration\":\"m1\",\"owner\":\"h:1\",\"since\":\"t\"}"),
                9,
                9)));
  }

  @Test
  void should_keep_state_migration_and_lock_through_an_exported_document() {
    TopologySnapshot snapshot = frozenUnderLock();

    byte[] json = TopologyDocument.fromSnapshot(snapshot).toJson();
    TopologyDocument parsed = TopologyDocument.parse(json);
    TopologySnapshot reloaded =
        new TopologyState(KEYS, 0, Clock.systemUTC()).reset(1, KeyChange.puts(parsed.entries(), 0));

    assertThat(new String(json, StandardCharsets.UTF_8))
        .contains(
            "\"migrationLock\": {\"migration\":\"m1\",\"owner\":\"h:1\",\"since\":\"t\"}",
            "{\"shard\":0,\"leader\":\"a\",\"replicas\":[],\"epoch\":0,\"state\":\"frozen\","
                + "\"migration\":{\"id\":\"m1\",\"to\":\"d\"}}");
    assertThat(reloaded.route(0).state()).isEqualTo(ShardState.FROZEN);
    assertThat(reloaded.route(0).migration().to().id()).isEqualTo("d");
    assertThat(reloaded.isHeld(0)).isTrue();
    assertThat(TopologyDiff.between(snapshot, reloaded).isEmpty()).isTrue();
  }

  @Test
  void should_tell_the_lock_and_a_shard_migration_in_a_diff() {
    TopologySnapshot before =
        new TopologyState(KEYS, 0, Clock.systemUTC())
            .reset(
                5,
                List.of(
                    meta(2, 1),
                    node("a", "10.0.0.1", 6379, 2),
                    node("d", "10.0.0.4", 6379, 2),
                    raw(KEYS.shard(0), "{\"leader\":\"a\"}", 3),
                    raw(KEYS.shard(1), "{\"leader\":\"d\"}", 3)));

    assertThat(TopologyDiff.between(before, frozenUnderLock()).lines())
        .containsExactly(
            "migration lock none -> m1 (owner h:1)",
            "shard 0000 state active -> frozen, migration none -> m1 to d");
  }
}
