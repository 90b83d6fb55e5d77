package io.jumpgate.topology;

import static io.jumpgate.topology.TopologyFixtures.KEYS;
import static io.jumpgate.topology.TopologyFixtures.delete;
import static io.jumpgate.topology.TopologyFixtures.meta;
import static io.jumpgate.topology.TopologyFixtures.node;
import static io.jumpgate.topology.TopologyFixtures.raw;
import static io.jumpgate.topology.TopologyFixtures.shard;
import static io.jumpgate.topology.TopologyFixtures.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.spi.InvalidEntry;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.topology.internal.KeyChange;
import io.jumpgate.topology.internal.TopologyState;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TopologyDocumentTest {

  private static final String EXPORTED =
      """
      {
        "format": 1,
        "cluster": "test",
        "revision": 11,
        "shards": 3,
        "routing": "xxh64-jump",
        "nodes": {
          "a": {"host":"10.0.0.1","port":6379},
          "b": {"host":"10.0.0.2","port":6380}
        },
        "assignments": [
          {"shard":0,"leader":"a","replicas":["b"],"epoch":2,"state":"active"},
          {"shard":1,"leader":"b","replicas":[],"epoch":0,"state":"active"}
        ],
        "invalid": [
          {"key":"/jumpgate/test/shards/0002","reason":"\\"leader\\" is required","modRevision":11}
        ]
      }
      """;

  private static TopologySnapshot snapshot() {
    TopologyState state = new TopologyState(KEYS, 0, Clock.systemUTC());
    return state.reset(
        12,
        List.of(
            meta(3, 1),
            node("a", "10.0.0.1", 6379, 2),
            node("b", "10.0.0.2", 6380, 2),
            shard(0, "a", List.of("b"), 2, 3),
            shard(1, "b", List.of(), 0, 3),
            raw(KEYS.shard(2), "{}", 11)));
  }

  @Test
  void should_write_a_snapshot_in_a_stable_pretty_layout() {
    byte[] json = TopologyDocument.fromSnapshot(snapshot()).toJson();

    assertThat(new String(json, StandardCharsets.UTF_8)).isEqualTo(EXPORTED);
  }

  @Test
  void should_read_back_what_it_wrote() {
    TopologyDocument document = TopologyDocument.parse(utf8(EXPORTED));

    assertThat(document.cluster()).isEqualTo("test");
    assertThat(document.revision()).isEqualTo(11);
    assertThat(new String(document.toJson(), StandardCharsets.UTF_8)).isEqualTo(EXPORTED);
    assertThat(document.invalidEntries())
        .containsExactly(
            new InvalidEntry("/jumpgate/test/shards/0002", "\"leader\" is required", 11));
    SortedMap<String, byte[]> entries = document.entries();
    assertThat(entries)
        .containsOnlyKeys(
            "/jumpgate/test/meta",
            "/jumpgate/test/nodes/a",
            "/jumpgate/test/nodes/b",
            "/jumpgate/test/shards/0000",
            "/jumpgate/test/shards/0001");
    assertThat(new String(entries.get("/jumpgate/test/shards/0000"), StandardCharsets.UTF_8))
        .isEqualTo("{\"leader\":\"a\",\"replicas\":[\"b\"],\"epoch\":2,\"state\":\"active\"}");
    assertThat(new String(entries.get("/jumpgate/test/meta"), StandardCharsets.UTF_8))
        .isEqualTo("{\"format\":1,\"shards\":3,\"routing\":\"xxh64-jump\"}");
  }

  @Test
  void should_load_the_same_routes_through_the_same_validation() {
    TopologySnapshot original = snapshot();
    TopologyDocument document = TopologyDocument.fromSnapshot(original);

    TopologySnapshot loaded =
        new TopologyState(KEYS, 0, Clock.systemUTC())
            .reset(1, KeyChange.puts(document.entries(), 0));

    assertThat(loaded.nodes()).isEqualTo(original.nodes());
    for (int shard = 0; shard < 3; shard++) {
      assertThat(loaded.route(shard).leader()).isEqualTo(original.route(shard).leader());
      assertThat(loaded.route(shard).replicas()).isEqualTo(original.route(shard).replicas());
      assertThat(loaded.route(shard).epoch()).isEqualTo(original.route(shard).epoch());
    }
  }

  @Test
  void should_write_a_node_that_routes_still_name_after_it_was_deleted() {
    TopologyState state = new TopologyState(KEYS, 0, Clock.systemUTC());
    state.reset(
        5, List.of(meta(1, 1), node("a", "10.0.0.1", 6379, 2), shard(0, "a", List.of(), 0, 3)));
    TopologySnapshot deleted = state.apply(6, List.of(delete(KEYS.node("a"), 6)));

    TopologyDocument document = TopologyDocument.fromSnapshot(deleted);

    assertThat(document.entries()).containsKey("/jumpgate/test/nodes/a");
    assertThat(document.invalidEntries()).hasSize(1);
  }

  @Test
  void should_report_invalid_entries_of_a_file_per_key() {
    String json =
        """
        {"format":1,"cluster":"test","shards":2,"routing":"xxh64-jump",
         "nodes":{"a":{"host":"h","port":1},"bad":{"host":"h","port":70000},"x/y":{}},
         "assignments":[{"shard":0,"leader":"a"},{"shard":1,"leader":"bad"},{"shard":5,"leader":"a"}],
         "future":{"ignored":true}}
        """;

    TopologySnapshot snapshot =
        new TopologyState(KEYS, 0, Clock.systemUTC())
            .reset(1, KeyChange.puts(TopologyDocument.parse(utf8(json)).entries(), 0));

    assertThat(snapshot.nodes().values()).containsExactly(Node.of("a", "h", 1));
    assertThat(snapshot.route(0).leader().id()).isEqualTo("a");
    assertThat(snapshot.route(1).unavailableReason())
        .isEqualTo("leader 'bad' is not in the node table");
    assertThat(snapshot.invalidEntries())
        .extracting(InvalidEntry::key, InvalidEntry::reason)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "/jumpgate/test/nodes/bad", "port must be between 1 and 65535, was 70000"),
            org.assertj.core.groups.Tuple.tuple(
                "/jumpgate/test/nodes/x/y", "node id must match [A-Za-z0-9._-]{1,64}, was 'x/y'"),
            org.assertj.core.groups.Tuple.tuple(
                "/jumpgate/test/shards/0001", "leader 'bad' is not in the node table"),
            org.assertj.core.groups.Tuple.tuple(
                "/jumpgate/test/shards/0005", "shard id 0005 is out of range [0, 2)"));
  }

  @Test
  void should_leave_meta_checks_to_the_state() {
    String json = "{\"format\":\"one\",\"cluster\":\"test\"}";

    TopologyDocument document = TopologyDocument.parse(utf8(json));

    assertThat(new String(document.entries().get(KEYS.meta()), StandardCharsets.UTF_8))
        .isEqualTo("{\"format\":\"one\"}");
    assertThat(TopologyDocument.parse(utf8("{\"cluster\":\"test\"}")).entries()).isEmpty();
  }

  @ParameterizedTest(name = "{index}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{}|\"cluster\" is required",
        "{\"cluster\":\"Bad Name\"}"
            + "|\"cluster\" must be a cluster name matching [a-z0-9][a-z0-9_-]{0,62}, was \"Bad"
            + " Name\"",
        "{\"cluster\":\"c\",\"revision\":-1}|\"revision\" must be an integer >= 0, was -1",
        "{\"cluster\":\"c\",\"revision\":1.5}|\"revision\" must be an integer >= 0, was 1.5",
        "{\"cluster\":\"c\",\"nodes\":[]}"
            + "|\"nodes\" must be an object of node id to node, was an array",
        "{\"cluster\":\"c\",\"nodes\":{\"\":{}}}|\"nodes\" has an empty node id",
        "{\"cluster\":\"c\",\"assignments\":{}}"
            + "|\"assignments\" must be an array of objects, was an object",
        "{\"cluster\":\"c\",\"assignments\":[1]}|\"assignments\"[0] must be an object, was 1",
        "{\"cluster\":\"c\",\"assignments\":[{\"leader\":\"a\"}]}|\"assignments\"[0] has no \"shard\"",
        "{\"cluster\":\"c\",\"assignments\":[{\"shard\":\"1\"}]}"
            + "|\"assignments\"[0].shard must be an integer >= 0, was \"1\"",
        "{\"cluster\":\"c\",\"assignments\":[{\"shard\":4294967296}]}"
            + "|\"assignments\"[0].shard must be an integer >= 0, was 4294967296",
        "{\"cluster\":\"c\",\"assignments\":[{\"shard\":1},{\"shard\":1}]}"
            + "|shard 1 is listed twice in \"assignments\"",
        "{\"cluster\":\"c\",\"invalid\":[{\"key\":1}]}"
            + "|\"invalid\"[0] must be an object with the strings \"key\" and \"reason\"",
        "[]|the value must be a JSON object, was an array",
      })
  void should_name_what_is_wrong_with_the_structure(String json, String message) {
    assertThatThrownBy(() -> TopologyDocument.parse(utf8(json)))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage(message);
  }

  @Test
  void should_reject_broken_json_with_a_typed_error() {
    assertThatThrownBy(() -> TopologyDocument.parse(utf8("{\"cluster\":\"c\",")))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessageStartingWith("not valid JSON: ");
    assertThatThrownBy(() -> TopologyDocument.parse(utf8("{\"cluster\":\"c\",\"cluster\":\"d\"}")))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessageContaining("Duplicate field 'cluster'");
    assertThatThrownBy(() -> TopologyDocument.parse(null))
        .isInstanceOf(TopologyEntryException.class);
  }
}
