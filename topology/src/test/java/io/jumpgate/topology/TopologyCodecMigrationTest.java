package io.jumpgate.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.spi.ShardState;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The contract's rules for a shard's {@code state} and {@code migration}, one case per rule. */
class TopologyCodecMigrationTest {

  private static ShardAssignment decode(String json) {
    return TopologyCodec.decodeAssignment(7, json.getBytes(StandardCharsets.UTF_8));
  }

  private static void assertInvalid(String json, String message) {
    assertThatThrownBy(() -> decode(json))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage(message);
  }

  @Test
  void should_decode_a_migrating_shard_with_its_migration() {
    ShardAssignment assignment =
        decode(
            "{\"leader\":\"a\",\"epoch\":3,\"state\":\"migrating\","
                + "\"migration\":{\"id\":\"m-1.x_2\",\"to\":\"d\"}}");

    assertThat(assignment.state()).isEqualTo(ShardState.MIGRATING);
    assertThat(assignment.migration()).isEqualTo(new ShardAssignment.Migration("m-1.x_2", "d"));
  }

  @Test
  void should_decode_a_frozen_shard_with_its_migration_given_before_the_state() {
    ShardAssignment assignment =
        decode(
            "{\"migration\":{\"to\":\"d\",\"id\":\"m1\"},\"leader\":\"a\",\"state\":\"frozen\"}");

    assertThat(assignment.state()).isEqualTo(ShardState.FROZEN);
    assertThat(assignment.migration()).isEqualTo(new ShardAssignment.Migration("m1", "d"));
  }

  @Test
  void should_refuse_a_migrating_shard_without_migration() {
    assertInvalid(
        "{\"leader\":\"a\",\"state\":\"migrating\"}",
        "state \"migrating\" of shard 7 needs a \"migration\" ({\"id\":..,\"to\":..})");
  }

  @Test
  void should_refuse_a_frozen_shard_without_migration() {
    assertInvalid(
        "{\"leader\":\"a\",\"state\":\"frozen\"}",
        "state \"frozen\" of shard 7 needs a \"migration\" ({\"id\":..,\"to\":..})");
  }

  @Test
  void should_refuse_a_frozen_shard_whose_migration_is_null() {
    assertInvalid(
        "{\"leader\":\"a\",\"state\":\"frozen\",\"migration\":null}",
        "state \"frozen\" of shard 7 needs a \"migration\" ({\"id\":..,\"to\":..})");
  }

  @Test
  void should_refuse_a_migration_id_outside_the_syntax() {
    assertInvalid(
        "{\"leader\":\"a\",\"state\":\"frozen\",\"migration\":{\"id\":\"m 1\",\"to\":\"d\"}}",
        "\"migration\".\"id\" must be a migration id matching [A-Za-z0-9._-]{1,64}, was \"m 1\"");
  }

  @Test
  void should_refuse_a_migration_id_of_65_characters() {
    String id = "m".repeat(65);

    assertThatThrownBy(
            () ->
                decode(
                    "{\"leader\":\"a\",\"state\":\"frozen\",\"migration\":{\"id\":\""
                        + id
                        + "\",\"to\":\"d\"}}"))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessageStartingWith("\"migration\".\"id\" must be a migration id matching");
    assertThat(
            decode(
                    "{\"leader\":\"a\",\"state\":\"frozen\",\"migration\":{\"id\":\""
                        + id.substring(1)
                        + "\",\"to\":\"d\"}}")
                .migration()
                .id())
        .hasSize(64);
  }

  @Test
  void should_refuse_a_migration_target_that_is_not_a_node_id() {
    assertInvalid(
        "{\"leader\":\"a\",\"state\":\"migrating\",\"migration\":{\"id\":\"m1\",\"to\":7}}",
        "\"migration\".\"to\" must be a node id matching [A-Za-z0-9._-]{1,64}, was 7");
  }

  @Test
  void should_refuse_a_migration_to_the_leader() {
    assertInvalid(
        "{\"leader\":\"a\",\"state\":\"migrating\",\"migration\":{\"id\":\"m1\",\"to\":\"a\"}}",
        "migration 'm1' of shard 7 moves it to its own leader 'a'");
  }

  @Test
  void should_accept_a_migration_to_a_replica() {
    ShardAssignment assignment =
        decode(
            "{\"leader\":\"a\",\"replicas\":[\"b\"],\"state\":\"migrating\","
                + "\"migration\":{\"id\":\"m1\",\"to\":\"b\"}}");

    assertThat(assignment.migration().to()).isEqualTo("b");
  }

  @Test
  void should_refuse_a_migration_without_id() {
    assertInvalid(
        "{\"leader\":\"a\",\"state\":\"frozen\",\"migration\":{\"to\":\"d\"}}",
        "\"migration\".\"id\" is required");
  }

  @Test
  void should_refuse_a_migration_without_target() {
    assertInvalid(
        "{\"leader\":\"a\",\"state\":\"frozen\",\"migration\":{\"id\":\"m1\"}}",
        "\"migration\".\"to\" is required");
  }

  @Test
  void should_refuse_a_migration_that_is_not_an_object() {
    assertInvalid(
        "{\"leader\":\"a\",\"state\":\"frozen\",\"migration\":[\"m1\",\"d\"]}",
        "\"migration\" must be an object {\"id\":..,\"to\":..}, was an array");
  }

  @Test
  void should_refuse_a_migration_with_a_field_given_twice() {
    assertThatThrownBy(
            () ->
                decode(
                    "{\"leader\":\"a\",\"state\":\"frozen\","
                        + "\"migration\":{\"id\":\"m1\",\"id\":\"m2\",\"to\":\"d\"}}"))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessageContaining("Duplicate field 'id'");
  }

  @Test
  void should_ignore_unknown_fields_of_a_migration() {
    ShardAssignment assignment =
        decode(
            "{\"leader\":\"a\",\"state\":\"frozen\","
                + "\"migration\":{\"id\":\"m1\",\"future\":{\"x\":[1]},\"to\":\"d\"}}");

    assertThat(assignment.migration()).isEqualTo(new ShardAssignment.Migration("m1", "d"));
  }

  @Test
  void should_ignore_the_migration_of_an_active_shard() {
    ShardAssignment assignment =
        decode(
            "{\"leader\":\"d\",\"epoch\":4,\"state\":\"active\","
                + "\"migration\":{\"id\":\"m1\",\"to\":\"d\"}}");

    assertThat(assignment).isEqualTo(ShardAssignment.of(7, "d", List.of(), 4));
  }

  @Test
  void should_ignore_a_malformed_migration_of_an_active_shard_and_read_the_fields_after_it() {
    ShardAssignment assignment =
        decode(
            "{\"leader\":\"a\",\"migration\":{\"id\":\"bad id\",\"to\":{\"x\":1}},"
                + "\"epoch\":9,\"replicas\":[\"b\"]}");

    assertThat(assignment).isEqualTo(ShardAssignment.of(7, "a", List.of("b"), 9));
  }

  @Test
  void should_write_the_migration_after_the_state_and_read_it_back() {
    ShardAssignment assignment =
        new ShardAssignment(
            7, "a", List.of(), 2, ShardState.MIGRATING, new ShardAssignment.Migration("m1", "d"));

    byte[] encoded = TopologyCodec.encodeAssignment(assignment);

    assertThat(new String(encoded, StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"leader\":\"a\",\"replicas\":[],\"epoch\":2,\"state\":\"migrating\","
                + "\"migration\":{\"id\":\"m1\",\"to\":\"d\"}}");
    assertThat(TopologyCodec.decodeAssignment(7, encoded)).isEqualTo(assignment);
  }

  @Test
  void should_keep_state_and_migration_when_only_replicas_change() {
    ShardAssignment frozen =
        new ShardAssignment(
            7, "a", List.of("b"), 2, ShardState.FROZEN, new ShardAssignment.Migration("m1", "d"));

    ShardAssignment changed = frozen.withNodes("a", List.of("c"));

    assertThat(changed.state()).isEqualTo(ShardState.FROZEN);
    assertThat(changed.migration()).isEqualTo(frozen.migration());
    assertThat(changed.epoch()).isEqualTo(2);
  }
}
