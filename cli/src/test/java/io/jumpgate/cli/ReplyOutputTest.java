package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reply shapes that ReplyOutput assembles from Lettuce's decoder calls. */
class ReplyOutputTest {

  private static ByteBuffer buffer(String text) {
    return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void scalars() {
    ReplyOutput bulk = new ReplyOutput();
    bulk.set(buffer("Ada"));
    ReplyOutput nil = new ReplyOutput();
    nil.set((ByteBuffer) null);
    ReplyOutput integer = new ReplyOutput();
    integer.set(42L);
    ReplyOutput status = new ReplyOutput();
    status.setSingle(buffer("OK"));

    assertThat((byte[]) bulk.get()).isEqualTo("Ada".getBytes(StandardCharsets.UTF_8));
    assertThat(nil.get()).isNull();
    assertThat(integer.get()).isEqualTo(42L);
    assertThat(status.get()).isEqualTo("OK");
  }

  @Test
  void nested_arrays_are_closed_by_their_sizes() {
    ReplyOutput output = new ReplyOutput();
    output.multi(3);
    output.set(1L);
    output.multi(2);
    output.set(buffer("a"));
    output.complete(2);
    output.multi(0);
    output.complete(2);
    output.complete(1);
    output.set((ByteBuffer) null);
    output.complete(0);

    List<?> reply = (List<?>) output.get();
    assertThat(reply).hasSize(3);
    assertThat(reply.get(0)).isEqualTo(1L);
    List<?> inner = (List<?>) reply.get(1);
    assertThat((byte[]) inner.get(0)).isEqualTo("a".getBytes(StandardCharsets.UTF_8));
    assertThat(inner.get(1)).isEqualTo(List.of());
    assertThat(reply.get(2)).isNull();
  }

  @Test
  void an_empty_array_and_a_null_array() {
    ReplyOutput empty = new ReplyOutput();
    empty.multi(0);
    ReplyOutput none = new ReplyOutput();
    none.multi(-1);

    assertThat(empty.get()).isEqualTo(List.of());
    assertThat(none.get()).isNull();
  }

  @Test
  void bulk_bytes_are_copied_from_the_decoder_buffer() {
    ByteBuffer buffer = buffer("xyz");
    ReplyOutput output = new ReplyOutput();
    output.set(buffer);
    buffer.put(0, (byte) 'Q');

    assertThat((byte[]) output.get()).isEqualTo("xyz".getBytes(StandardCharsets.UTF_8));
  }
}
