package io.jumpgate.cli;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A Lettuce output that keeps any reply whole, in the shapes {@link ReplyPrinter} prints: a bulk
 * string as {@code byte[]}, a status as {@link String}, an integer as {@link Long}, nil as {@code
 * null}, an array as a {@link List} (nested as deep as the reply nests), so that redis-cli's
 * distinctions ({@code OK} versus {@code "OK"}) survive.
 *
 * <p>Arrays are assembled from their announced sizes, not from Lettuce's {@code complete} calls: an
 * element completes its array when the array has all its elements. A null array ({@code *-1}) is
 * kept as {@code null}. An error reply is not kept here: Lettuce fails the command with it.
 *
 * <p>Not thread-safe: one output per command, filled on one event loop and read after the command
 * completed (its completion publishes the reply).
 */
final class ReplyOutput extends CommandOutput<byte[], byte[], Object> {

  /** An array being filled: its elements so far and how many it announced. */
  private record Frame(List<Object> elements, int size) {}

  private final Deque<Frame> open = new ArrayDeque<>();

  ReplyOutput() {
    super(ByteArrayCodec.INSTANCE, null);
  }

  @Override
  public void set(ByteBuffer bytes) {
    add(bytes == null ? null : bytes(bytes));
  }

  @Override
  public void setSingle(ByteBuffer bytes) {
    add(bytes == null ? null : new String(bytes(bytes), StandardCharsets.UTF_8));
  }

  @Override
  public void setBigNumber(ByteBuffer bytes) {
    add(bytes == null ? null : new String(bytes(bytes), StandardCharsets.UTF_8));
  }

  @Override
  public void set(long integer) {
    add(integer);
  }

  @Override
  public void set(double number) {
    add(number);
  }

  @Override
  public void set(boolean value) {
    add(value);
  }

  @Override
  public void multi(int count) {
    if (count < 0) {
      add(null);
      return;
    }
    List<Object> elements = new ArrayList<>(count);
    if (count == 0) {
      add(elements);
    } else {
      open.push(new Frame(elements, count));
    }
  }

  /** Puts a value into the innermost open array, or makes it the reply; closes full arrays. */
  private void add(Object value) {
    Object element = value;
    while (true) {
      Frame frame = open.peek();
      if (frame == null) {
        output = element;
        return;
      }
      frame.elements().add(element);
      if (frame.elements().size() < frame.size()) {
        return;
      }
      open.pop();
      element = frame.elements();
    }
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }
}
