package io.jumpgate.migration.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KeyspaceEventsTest {

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void should_extract_the_key_when_the_channel_is_a_keyspace_channel_of_db_0() {
    assertThat(KeyspaceEvents.keyOf(bytes("__keyspace@0__:{user1}:a")))
        .isEqualTo(bytes("{user1}:a"));
    assertThat(KeyspaceEvents.keyOf(bytes("__keyspace@0__:with:colons:")))
        .isEqualTo(bytes("with:colons:"));
  }

  @Test
  void should_return_null_when_the_channel_is_of_another_db_or_not_keyspace() {
    assertThat(KeyspaceEvents.keyOf(bytes("__keyspace@1__:k"))).isNull();
    assertThat(KeyspaceEvents.keyOf(bytes("__keyevent@0__:set"))).isNull();
    assertThat(KeyspaceEvents.keyOf(bytes("jumpgate:migration:barrier:x"))).isNull();
  }

  @Test
  void should_classify_deletions_and_server_side_events() {
    assertThat(KeyspaceEvents.isDeletion(bytes("del"))).isTrue();
    assertThat(KeyspaceEvents.isDeletion(bytes("expired"))).isTrue();
    assertThat(KeyspaceEvents.isDeletion(bytes("rename_from"))).isTrue();
    assertThat(KeyspaceEvents.isDeletion(bytes("rename_to"))).isFalse();
    assertThat(KeyspaceEvents.isDeletion(bytes("set"))).isFalse();
    assertThat(KeyspaceEvents.isClientWrite(bytes("expired"))).isFalse();
    assertThat(KeyspaceEvents.isClientWrite(bytes("evicted"))).isFalse();
    assertThat(KeyspaceEvents.isClientWrite(bytes("hset"))).isTrue();
  }

  @Test
  void should_add_only_the_missing_flags_and_keep_the_others() {
    assertThat(KeyspaceEvents.withCaptureFlags("")).isEqualTo("KA");
    assertThat(KeyspaceEvents.withCaptureFlags("Ex")).isEqualTo("ExKA");
    assertThat(KeyspaceEvents.withCaptureFlags("AK")).isNull();
    assertThat(KeyspaceEvents.withCaptureFlags("AKE")).isNull();
    assertThat(KeyspaceEvents.withCaptureFlags("Kg")).isEqualTo("KgA");
  }
}
