package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.output.ValueListOutput;
import io.lettuce.core.protocol.RedisStateMachine;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The output of {@code dispatch}: each try records its reply, and only a reply read whole without
 * an error reaches the caller's output, once. Replies are decoded by Lettuce's own RESP decoder.
 */
class ReplayingOutputTest {

  private final RedisStateMachine decoder = new RedisStateMachine();

  @AfterEach
  void close() {
    decoder.close();
  }

  private void decode(String resp, CommandOutput<String, String, ?> output) {
    ByteBuf buffer = Unpooled.copiedBuffer(resp, StandardCharsets.UTF_8);
    try {
      assertThat(decoder.decode(buffer, output)).as("decoded whole").isTrue();
    } finally {
      buffer.release();
    }
  }

  @Test
  void should_hand_a_whole_reply_to_the_callers_output() {
    NestedMultiOutput<String, String> target = new NestedMultiOutput<>(StringCodec.UTF8);
    OutputFactory<String, String, List<Object>> factory = Outputs.replayingInto(target);
    CommandOutput<String, String, List<Object>> attempt = factory.create(StringCodec.UTF8);

    decode("*3\r\n$1\r\na\r\n:5\r\n*2\r\n$1\r\nb\r\n$-1\r\n", attempt);

    assertThat(attempt.hasError()).isFalse();
    List<Object> nested = new ArrayList<>();
    nested.add("b");
    nested.add(null);
    assertThat(attempt.get()).containsExactly("a", 5L, nested);
    assertThat(target.get()).isSameAs(attempt.get());
  }

  @Test
  void should_keep_an_error_reply_away_from_the_callers_output_and_take_the_next_try() {
    StatusOutput<String, String> target = new StatusOutput<>(StringCodec.UTF8);
    OutputFactory<String, String, String> factory = Outputs.replayingInto(target);

    CommandOutput<String, String, String> first = factory.create(StringCodec.UTF8);
    decode("-MOVED 3999 127.0.0.1:6381\r\n", first);
    assertThat(first.hasError()).isTrue();
    assertThat(first.getError()).isEqualTo("MOVED 3999 127.0.0.1:6381");
    assertThat(target.hasError()).isFalse();
    assertThat(target.get()).isNull();

    CommandOutput<String, String, String> second = factory.create(StringCodec.UTF8);
    decode("+OK\r\n", second);
    assertThat(second.hasError()).isFalse();
    assertThat(second.get()).isEqualTo("OK");
    assertThat(target.get()).isEqualTo("OK");
    assertThat(target.hasError()).isFalse();
  }

  @Test
  void should_hand_nothing_of_a_reply_cut_short() {
    ValueListOutput<String, String> target = new ValueListOutput<>(StringCodec.UTF8);
    CommandOutput<String, String, List<String>> attempt =
        Outputs.replayingInto(target).create(StringCodec.UTF8);
    ByteBuf half = Unpooled.copiedBuffer("*3\r\n$1\r\na\r\n$1\r\nb\r\n", StandardCharsets.UTF_8);
    try {
      assertThat(decoder.decode(half, attempt)).isFalse();
    } finally {
      half.release();
    }
    assertThat(target.get()).isEmpty();
  }

  @Test
  void should_hand_a_reply_to_the_callers_output_only_once() {
    ValueListOutput<String, String> target = new ValueListOutput<>(StringCodec.UTF8);
    OutputFactory<String, String, List<String>> factory = Outputs.replayingInto(target);
    CommandOutput<String, String, List<String>> first = factory.create(StringCodec.UTF8);
    CommandOutput<String, String, List<String>> late = factory.create(StringCodec.UTF8);

    decode("*1\r\n$1\r\na\r\n", first);
    decode("*1\r\n$1\r\nz\r\n", late);

    assertThat(target.get()).containsExactly("a");
    assertThat(first.get()).containsExactly("a");
  }

  @Test
  void should_copy_the_bytes_it_records() {
    StatusOutput<String, String> target = new StatusOutput<>(StringCodec.UTF8);
    CommandOutput<String, String, String> attempt =
        Outputs.replayingInto(target).create(StringCodec.UTF8);
    ByteBuffer reused = ByteBuffer.wrap("first".getBytes(StandardCharsets.UTF_8));

    attempt.set(reused);
    reused.clear();
    reused.put("later".getBytes(StandardCharsets.UTF_8)).flip();
    attempt.complete(0);

    assertThat(target.get()).isEqualTo("first");
  }

  @Test
  void should_fail_the_try_when_the_callers_output_throws() {
    StatusOutput<String, String> target =
        new StatusOutput<>(StringCodec.UTF8) {
          @Override
          public void set(ByteBuffer bytes) {
            throw new IllegalStateException("refused");
          }
        };
    CommandOutput<String, String, String> attempt =
        Outputs.replayingInto(target).create(StringCodec.UTF8);

    decode("+OK\r\n", attempt);

    assertThat(attempt.hasError()).isTrue();
    assertThat(attempt.getError())
        .startsWith("ERR the output given to dispatch failed to take the reply")
        .contains("refused");
  }

  /** Guards a Lettuce upgrade: an output method the recorder does not know would be lost. */
  @Test
  void should_record_every_method_the_decoder_may_call() throws Exception {
    List<String> missing = new ArrayList<>();
    for (Method method : CommandOutput.class.getDeclaredMethods()) {
      int modifiers = method.getModifiers();
      boolean callback =
          method.getName().startsWith("set")
              || method.getName().startsWith("multi")
              || method.getName().equals("complete");
      if (!Modifier.isPublic(modifiers)
          || Modifier.isStatic(modifiers)
          || !callback
          || method.getName().equals("setError")) {
        continue;
      }
      Method declared =
          Outputs.ReplayingOutput.class.getMethod(method.getName(), method.getParameterTypes());
      if (declared.getDeclaringClass() != Outputs.ReplayingOutput.class) {
        missing.add(method.toString());
      }
    }
    assertThat(missing).isEmpty();
  }
}
