package io.jumpgate.topology;

import static io.jumpgate.topology.TopologyFixtures.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyMetadata;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TopologyCodecTest {

  @Test
  void should_encode_metadata_as_the_contract_shows() {
    byte[] encoded = TopologyCodec.encodeMetadata(TopologyMetadata.of(1024));

    assertThat(new String(encoded, StandardCharsets.UTF_8))
        .isEqualTo("{\"format\":1,\"shards\":1024,\"routing\":\"xxh64-jump\"}");
    assertThat(TopologyCodec.decodeMetadata(encoded)).isEqualTo(TopologyMetadata.of(1024));
  }

  @Test
  void should_omit_unset_optional_fields_of_a_node() {
    byte[] encoded = TopologyCodec.encodeNode(Node.of("node-a", "10.0.0.5", 6379));

    assertThat(new String(encoded, StandardCharsets.UTF_8))
        .isEqualTo("{\"host\":\"10.0.0.5\",\"port\":6379}");
  }

  @Test
  void should_round_trip_a_node_with_every_field() {
    Node node = new Node("node-a", "10.0.0.5", 6379, "az1", Map.of("rack", "r2", "a", "b"), true);

    byte[] encoded = TopologyCodec.encodeNode(node);

    assertThat(new String(encoded, StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"host\":\"10.0.0.5\",\"port\":6379,\"zone\":\"az1\","
                + "\"tags\":{\"a\":\"b\",\"rack\":\"r2\"},\"tls\":true}");
    assertThat(TopologyCodec.decodeNode("node-a", encoded)).isEqualTo(node);
  }

  @Test
  void should_round_trip_an_assignment() {
    ShardAssignment assignment =
        new ShardAssignment(
            7,
            "node-a",
            List.of("node-b"),
            7,
            ShardState.FROZEN,
            new ShardAssignment.Migration("m1", "node-d"));

    byte[] encoded = TopologyCodec.encodeAssignment(assignment);

    assertThat(new String(encoded, StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"leader\":\"node-a\",\"replicas\":[\"node-b\"],\"epoch\":7,\"state\":\"frozen\","
                + "\"migration\":{\"id\":\"m1\",\"to\":\"node-d\"}}");
    assertThat(TopologyCodec.decodeAssignment(7, encoded)).isEqualTo(assignment);
  }

  @Test
  void should_default_replicas_epoch_and_state() {
    ShardAssignment assignment = TopologyCodec.decodeAssignment(3, utf8("{\"leader\":\"a\"}"));

    assertThat(assignment).isEqualTo(ShardAssignment.of(3, "a", List.of(), 0));
    assertThat(assignment.state()).isEqualTo(ShardState.ACTIVE);
  }

  @Test
  void should_ignore_unknown_fields_at_any_depth() {
    String json =
        "{\"future\":{\"x\":[1,{\"y\":null}]},\"host\":\"h\",\"port\":1,\"more\":[[]],"
            + "\"zone\":null,\"tags\":null,\"tls\":null}";

    Node node = TopologyCodec.decodeNode("n", utf8(json));

    assertThat(node).isEqualTo(Node.of("n", "h", 1));
  }

  @Test
  void should_skip_a_leading_byte_order_mark() {
    byte[] json = utf8("\uFEFF{\"host\":\"h\",\"port\":1}");

    assertThat(TopologyCodec.decodeNode("n", json)).isEqualTo(Node.of("n", "h", 1));
  }

  @ParameterizedTest(name = "{index}: {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "{\"host\":\"h\",\"port\":70000}|port must be between 1 and 65535, was 70000",
        "{\"host\":\"h\",\"port\":0}|port must be between 1 and 65535, was 0",
        "{\"host\":\"h\",\"port\":99999999999999999999999}"
            + "|port must be between 1 and 65535, was 99999999999999999999999",
        "{\"host\":\"h\",\"port\":\"6379\"}"
            + "|\"port\" must be an integer between 1 and 65535, was \"6379\"",
        "{\"host\":\"h\",\"port\":6379.0}|\"port\" must be an integer between 1 and 65535, was"
            + " 6379.0",
        "{\"host\":\"h\",\"port\":1e3}|\"port\" must be an integer between 1 and 65535, was 1e3",
        "{\"host\":\"h\",\"port\":null}|\"port\" must be an integer between 1 and 65535, was null",
        "{\"host\":\"h\"}|\"port\" is required",
        "{\"port\":1}|\"host\" is required",
        "{\"host\":\" \",\"port\":1}|\"host\" must not be blank",
        "{\"host\":5,\"port\":1}|\"host\" must be a string, was 5",
        "{\"host\":\"h\",\"port\":1,\"zone\":true}|\"zone\" must be a string, was true",
        "{\"host\":\"h\",\"port\":1,\"tags\":[]}|\"tags\" must be an object of strings, was an array",
        "{\"host\":\"h\",\"port\":1,\"tags\":{\"a\":1}}|tag \"a\" must be a string, was 1",
        "{\"host\":\"h\",\"port\":1,\"tls\":\"yes\"}|\"tls\" must be true or false, was \"yes\"",
        "[]|the value must be a JSON object, was an array",
        "\"x\"|the value must be a JSON object, was \"x\"",
        "`  `|the value must be a JSON object, was nothing",
      })
  void should_name_the_field_and_value_of_an_invalid_node(String json, String message) {
    assertThatThrownBy(() -> TopologyCodec.decodeNode("node-a", utf8(json)))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage(message);
  }

  @ParameterizedTest(name = "{index}: {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "{}|\"leader\" is required",
        "{\"leader\":\"a\",\"epoch\":\"x\"}|\"epoch\" must be an integer >= 0, was \"x\"",
        "{\"leader\":\"a\",\"epoch\":-1}|epoch must be >= 0, was -1",
        "{\"leader\":\"a\",\"epoch\":1.5}|\"epoch\" must be an integer >= 0, was 1.5",
        "{\"leader\":\"a\",\"epoch\":9223372036854775808}"
            + "|epoch must be >= 0, was 9223372036854775808",
        "{\"leader\":\"a\",\"replicas\":[\"a\"]}|leader 'a' of shard 7 is also listed as a replica",
        "{\"leader\":\"a\",\"replicas\":[\"b\",\"b\"]}|replica 'b' of shard 7 is listed twice",
        "{\"leader\":\"a\",\"replicas\":\"b\"}|\"replicas\" must be an array of node ids, was \"b\"",
        "{\"leader\":\"a\",\"replicas\":[\"b\",3]}"
            + "|\"replicas\"[1] must be a node id matching [A-Za-z0-9._-]{1,64}, was 3",
        "{\"leader\":\"a b\"}"
            + "|\"leader\" must be a node id matching [A-Za-z0-9._-]{1,64}, was \"a b\"",
        "{\"leader\":\"a\",\"state\":\"paused\"}"
            + "|\"state\" must be \"active\", \"migrating\" or \"frozen\", was \"paused\"",
      })
  void should_name_the_field_and_value_of_an_invalid_assignment(String json, String message) {
    assertThatThrownBy(() -> TopologyCodec.decodeAssignment(7, utf8(json)))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage(message);
  }

  @ParameterizedTest(name = "{index}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"shards\":1024,\"routing\":\"xxh64-jump\"}|\"format\" is required",
        "{\"format\":1,\"routing\":\"xxh64-jump\"}|\"shards\" is required",
        "{\"format\":1,\"shards\":1024}|\"routing\" is required",
        "{\"format\":1,\"shards\":0,\"routing\":\"xxh64-jump\"}"
            + "|shards must be between 1 and 65536, was 0",
        "{\"format\":1,\"shards\":65537,\"routing\":\"xxh64-jump\"}"
            + "|shards must be between 1 and 65536, was 65537",
        "{\"format\":0,\"shards\":1,\"routing\":\"xxh64-jump\"}|format must be >= 1, was 0",
        "{\"format\":2,\"layout\":{}}"
            + "|format 2 is newer than format 1, the newest this client reads (\"shards\" is"
            + " required)",
      })
  void should_name_the_field_and_value_of_an_invalid_meta(String json, String message) {
    assertThatThrownBy(() -> TopologyCodec.decodeMetadata(utf8(json)))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage(message);
  }

  @Test
  void should_return_a_newer_format_whose_fields_fit_for_the_caller_to_refuse() {
    TopologyMetadata metadata =
        TopologyCodec.decodeMetadata(
            utf8("{\"format\":2,\"shards\":64,\"routing\":\"xxh64-jump\",\"extra\":1}"));

    assertThat(metadata).isEqualTo(new TopologyMetadata(2, 64, "xxh64-jump"));
  }

  @Test
  void should_reject_a_field_given_twice_even_inside_an_unknown_field() {
    assertThatThrownBy(
            () -> TopologyCodec.decodeNode("n", utf8("{\"host\":\"a\",\"port\":1,\"host\":\"b\"}")))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessageStartingWith("not valid JSON: Duplicate field 'host'");
    assertThatThrownBy(
            () ->
                TopologyCodec.decodeNode(
                    "n", utf8("{\"host\":\"a\",\"port\":1,\"x\":{\"y\":1,\"y\":2}}")))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessageContaining("Duplicate field 'y'");
  }

  @Test
  void should_reject_what_is_not_one_json_object() {
    assertThatThrownBy(() -> TopologyCodec.decodeNode("n", null))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage("the value is missing (null)");
    assertThatThrownBy(() -> TopologyCodec.decodeNode("n", new byte[0]))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage("not valid JSON: the value is empty");
    assertThatThrownBy(() -> TopologyCodec.decodeNode("n", utf8("{\"host\":\"a\",\"port\":1")))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessageStartingWith("not valid JSON: ");
    assertThatThrownBy(() -> TopologyCodec.decodeNode("n", utf8("{\"host\":\"a\",\"port\":1} {}")))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage("not valid JSON: more content after the object");
    assertThatThrownBy(() -> TopologyCodec.decodeNode("n", utf8("{\"host\":\"a\",\"port\":1}x")))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessageStartingWith("not valid JSON: ");
  }

  @Test
  void should_reject_bytes_that_are_not_utf8() {
    byte[] json = {'{', '"', 'h', 'o', 's', 't', '"', ':', '"', (byte) 0xC3, '"', '}'};

    assertThatThrownBy(() -> TopologyCodec.decodeNode("n", json))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage("not valid UTF-8 at byte 9");
  }

  @Test
  void should_reject_deep_nesting_and_huge_values() {
    String deep = "[".repeat(10_000) + "]".repeat(10_000);
    assertThatThrownBy(
            () -> TopologyCodec.decodeNode("n", utf8("{\"x\":" + deep + ",\"host\":\"h\"}")))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessageStartingWith("not valid JSON: ")
        .hasMessageContaining("nesting depth");

    byte[] huge = new byte[TopologyCodec.MAX_ENTRY_BYTES + 1];
    assertThatThrownBy(() -> TopologyCodec.decodeNode("n", huge))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage("the value is 1048577 bytes, more than the 1048576 allowed");
  }

  @Test
  void should_reject_an_invalid_node_id_or_shard() {
    assertThatThrownBy(() -> TopologyCodec.decodeNode("a/b", utf8("{\"host\":\"h\",\"port\":1}")))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage("node id must match [A-Za-z0-9._-]{1,64}, was 'a/b'");
    assertThatThrownBy(() -> TopologyCodec.decodeNode(null, utf8("{}")))
        .isInstanceOf(TopologyEntryException.class);
    assertThatThrownBy(() -> TopologyCodec.decodeAssignment(-1, utf8("{\"leader\":\"a\"}")))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage("shard must be at least 0, was -1");
  }
}
