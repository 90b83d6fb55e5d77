package io.jumpgate.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.jumpgate.spi.MigrationLock;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class MigrationCodecTest {

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void should_write_the_lock_as_the_contract_spells_it_and_read_it_back() {
    MigrationLock lock = new MigrationLock("m1", "host:42", "2026-11-24T10:00:00Z", 17);

    byte[] value = MigrationCodec.encodeLock(lock);

    assertThat(new String(value, StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"migration\":\"m1\",\"owner\":\"host:42\",\"since\":\"2026-11-24T10:00:00Z\"}");
    assertThat(MigrationCodec.decodeLock(value, 17)).isEqualTo(lock);
  }

  @Test
  void should_refuse_a_lock_without_migration() {
    assertThatThrownBy(
            () -> MigrationCodec.decodeLock(utf8("{\"owner\":\"h:1\",\"since\":\"s\"}"), 3))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage("\"migration\" is required");
  }

  @Test
  void should_refuse_a_lock_whose_migration_is_not_a_migration_id() {
    assertThatThrownBy(
            () ->
                MigrationCodec.decodeLock(
                    utf8("{\"migration\":\"a/b\",\"owner\":\"h:1\",\"since\":\"s\"}"), 3))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage(
            "\"migration\" must be a migration id matching [A-Za-z0-9._-]{1,64}, was \"a/b\"");
  }

  @Test
  void should_write_the_record_as_the_contract_spells_it_and_read_it_back() {
    MigrationRecord record =
        new MigrationRecord(
            Map.of(17, new MigrationRecord.ShardMove("node-a", "node-d", "copying")),
            "2026-11-24T10:00:00Z",
            "online");

    byte[] value = MigrationCodec.encodeRecord(record);

    assertThat(new String(value, StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"shards\":{\"17\":{\"from\":\"node-a\",\"to\":\"node-d\",\"phase\":\"copying\"}},"
                + "\"created\":\"2026-11-24T10:00:00Z\",\"mode\":\"online\"}");
    assertThat(MigrationCodec.decodeRecord(value)).isEqualTo(record);
  }

  @Test
  void should_write_the_sources_original_notify_keyspace_events_and_read_them_back() {
    MigrationRecord record =
        new MigrationRecord(
            Map.of(17, new MigrationRecord.ShardMove("node-a", "node-d", "copying")),
            "2026-11-24T10:00:00Z",
            "online",
            Map.of("node-b", "Ex", "node-a", ""));

    byte[] value = MigrationCodec.encodeRecord(record);

    assertThat(new String(value, StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"shards\":{\"17\":{\"from\":\"node-a\",\"to\":\"node-d\",\"phase\":\"copying\"}},"
                + "\"created\":\"2026-11-24T10:00:00Z\",\"mode\":\"online\","
                + "\"notifyKeyspaceEvents\":{\"node-a\":\"\",\"node-b\":\"Ex\"}}");
    MigrationRecord decoded = MigrationCodec.decodeRecord(value);
    assertThat(decoded).isEqualTo(record);
    assertThat(decoded.notifyKeyspaceEvents())
        .containsExactly(entry("node-a", ""), entry("node-b", "Ex"));
  }

  @Test
  void should_read_a_record_of_an_older_mover_without_notify_keyspace_events_as_none() {
    MigrationRecord record =
        MigrationCodec.decodeRecord(
            utf8(
                "{\"shards\":{\"3\":{\"from\":\"a\",\"to\":\"d\",\"phase\":\"copying\"}},"
                    + "\"created\":\"c\",\"mode\":\"online\"}"));

    assertThat(record.notifyKeyspaceEvents()).isEmpty();
    assertThat(record)
        .isEqualTo(
            new MigrationRecord(
                Map.of(3, new MigrationRecord.ShardMove("a", "d", "copying")), "c", "online"));
  }

  @Test
  void should_keep_the_original_notify_keyspace_events_when_a_shard_changes_phase() {
    MigrationRecord record =
        new MigrationRecord(
            Map.of(3, new MigrationRecord.ShardMove("a", "d", "copying")),
            "c",
            "online",
            Map.of("a", "KEA"));

    MigrationRecord updated = record.withShard(3, record.shards().get(3).withPhase("cut-over"));

    assertThat(updated.notifyKeyspaceEvents()).containsExactly(entry("a", "KEA"));
  }

  @Test
  void should_refuse_a_record_whose_notify_keyspace_events_is_not_an_object_of_strings() {
    String start = "{\"shards\":{},\"created\":\"c\",\"mode\":\"online\",\"notifyKeyspaceEvents\":";

    assertThatThrownBy(() -> MigrationCodec.decodeRecord(utf8(start + "\"KA\"}")))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessageStartingWith("\"notifyKeyspaceEvents\" must be an object of node id to setting");
    assertThatThrownBy(() -> MigrationCodec.decodeRecord(utf8(start + "{\"a\":1}}")))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessageStartingWith("\"notifyKeyspaceEvents.a\" must be a string");
    assertThatThrownBy(() -> MigrationCodec.decodeRecord(utf8(start + "{\"a/b\":\"\"}}")))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessageStartingWith("\"notifyKeyspaceEvents\" must be keyed by node ids");
  }

  @Test
  void should_read_padded_shard_ids_of_a_record() {
    MigrationRecord record =
        MigrationCodec.decodeRecord(
            utf8(
                "{\"shards\":{\"0017\":{\"from\":\"a\",\"to\":\"d\",\"phase\":\"done\"}},"
                    + "\"created\":\"c\",\"mode\":\"online\",\"future\":1}"));

    assertThat(record.shards()).containsOnlyKeys(17);
  }

  @Test
  void should_refuse_a_record_moving_a_shard_to_its_source() {
    assertThatThrownBy(
            () ->
                MigrationCodec.decodeRecord(
                    utf8(
                        "{\"shards\":{\"3\":{\"from\":\"a\",\"to\":\"a\",\"phase\":\"copying\"}},"
                            + "\"created\":\"c\",\"mode\":\"online\"}")))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage("shard 3: a shard cannot move from 'a' to itself");
  }

  @Test
  void should_refuse_a_record_with_a_shard_id_that_is_not_a_number() {
    assertThatThrownBy(
            () ->
                MigrationCodec.decodeRecord(
                    utf8("{\"shards\":{\"x\":{}},\"created\":\"c\",\"mode\":\"online\"}")))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage("shard id must be a decimal number, was \"x\"");
  }

  @Test
  void should_read_drained_of_a_registration_and_absent_as_not_taking_part() {
    RegisteredClient acknowledging =
        RegisteredClient.decode(
            "app-1",
            utf8("{\"host\":\"h\",\"pid\":4,\"revision\":20,\"since\":\"s\",\"drained\":19}"),
            7,
            21);
    RegisteredClient older =
        RegisteredClient.decode("app-2", utf8("{\"host\":\"h\",\"revision\":20}"), 7, 21);

    assertThat(acknowledging.drained()).isEqualTo(OptionalLong.of(19));
    assertThat(acknowledging.hasDrained(19)).isTrue();
    assertThat(acknowledging.hasDrained(20)).isFalse();
    assertThat(older.drained()).isEmpty();
    assertThat(older.hasDrained(0)).isFalse();
  }

  @Test
  void should_keep_a_registration_that_does_not_decode_as_never_drained() {
    RegisteredClient broken = RegisteredClient.decode("app-3", utf8("{\"drained\":-1}"), 0, 5);

    assertThat(broken.invalidReason()).isEqualTo("drained must be >= 0, was -1");
    assertThat(broken.hasDrained(0)).isFalse();
  }

  @Test
  void should_tell_the_client_id_of_a_jumpgate_connection_name() {
    assertThat(RegisteredClient.connectionName("app-1:x")).isEqualTo("jumpgate:app-1:x");
    assertThat(RegisteredClient.clientIdOfConnectionName("jumpgate:app-1:x")).contains("app-1:x");
    assertThat(RegisteredClient.clientIdOfConnectionName("other")).isEmpty();
    assertThat(RegisteredClient.clientIdOfConnectionName("jumpgate:")).isEmpty();
  }
}
