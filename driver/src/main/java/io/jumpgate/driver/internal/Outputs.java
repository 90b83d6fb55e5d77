package io.jumpgate.driver.internal;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.KeyValue;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.output.DoubleOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.KeyListOutput;
import io.lettuce.core.output.KeyScanOutput;
import io.lettuce.core.output.KeyValueListOutput;
import io.lettuce.core.output.MapOutput;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.output.ObjectOutput;
import io.lettuce.core.output.ScoredValueListOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.output.ValueListOutput;
import io.lettuce.core.output.ValueOutput;
import io.lettuce.core.output.ValueSetOutput;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Output factories for the common reply shapes. Each is a stateless constructor reference, so
 * commands share them and allocate nothing for them.
 */
@SuppressWarnings({"rawtypes", "unchecked"})
public final class Outputs {

  private static final OutputFactory VALUE = ValueOutput::new;
  private static final OutputFactory STATUS = StatusOutput::new;
  private static final OutputFactory INTEGER = IntegerOutput::new;
  private static final OutputFactory BOOLEAN = BooleanOutput::new;
  private static final OutputFactory DOUBLE = DoubleOutput::new;
  private static final OutputFactory KEY_LIST = KeyListOutput::new;
  private static final OutputFactory VALUE_LIST = ValueListOutput::new;
  private static final OutputFactory VALUE_SET = ValueSetOutput::new;
  private static final OutputFactory MAP = MapOutput::new;
  private static final OutputFactory KEY_SCAN = KeyScanOutput::new;

  private Outputs() {}

  public static <K, V> OutputFactory<K, V, V> value() {
    return VALUE;
  }

  public static <K, V> OutputFactory<K, V, String> status() {
    return STATUS;
  }

  public static <K, V> OutputFactory<K, V, Long> integer() {
    return INTEGER;
  }

  public static <K, V> OutputFactory<K, V, Boolean> bool() {
    return BOOLEAN;
  }

  public static <K, V> OutputFactory<K, V, Double> decimal() {
    return DOUBLE;
  }

  public static <K, V> OutputFactory<K, V, List<K>> keyList() {
    return KEY_LIST;
  }

  public static <K, V> OutputFactory<K, V, List<V>> valueList() {
    return VALUE_LIST;
  }

  public static <K, V> OutputFactory<K, V, Set<V>> valueSet() {
    return VALUE_SET;
  }

  public static <K, V> OutputFactory<K, V, Map<K, V>> map() {
    return MAP;
  }

  /** A SCAN reply: the node's cursor and its keys. */
  public static <K, V> OutputFactory<K, V, KeyScanCursor<K>> keyScan() {
    return KEY_SCAN;
  }

  /** Not shared: a key-value list output needs the keys it asked for. */
  public static <K, V> OutputFactory<K, V, List<KeyValue<K, V>>> keyValueList(Iterable<K> keys) {
    return codec -> new KeyValueListOutput<>(codec, keys);
  }

  private static final OutputFactory SCORED_VALUE_LIST = ScoredValueListOutput::new;
  private static final OutputFactory NESTED_MULTI = NestedMultiOutput::new;
  private static final OutputFactory OBJECT = ObjectOutput::new;

  /** Members with their scores (ZRANGE ... WITHSCORES). */
  public static <K, V> OutputFactory<K, V, List<ScoredValue<V>>> scoredValueList() {
    return SCORED_VALUE_LIST;
  }

  /**
   * The output of a script's reply, typed as Lettuce types it: BOOLEAN a Boolean, INTEGER a Long,
   * STATUS a String, VALUE a value, MULTI a nested List, OBJECT whatever the reply holds.
   */
  public static <K, V, T> OutputFactory<K, V, T> script(ScriptOutputType type) {
    return switch (type) {
      case BOOLEAN -> BOOLEAN;
      case INTEGER -> INTEGER;
      case STATUS -> STATUS;
      case VALUE -> VALUE;
      case MULTI -> NESTED_MULTI;
      case OBJECT -> OBJECT;
    };
  }

  /**
   * Not shared: for a command whose caller gives the output ({@code dispatch}), which cannot be
   * made fresh for a retry. Each try gets its own {@link ReplayingOutput}, which records the reply;
   * the reply of the try that ends well is replayed into {@code target}, at most once over all
   * tries, so an error reply or a partial reply of a failed try never reaches it.
   */
  public static <K, V, T> OutputFactory<K, V, T> replayingInto(CommandOutput<K, V, T> target) {
    AtomicBoolean delivered = new AtomicBoolean();
    return codec -> new ReplayingOutput<>(codec, target, delivered);
  }

  /**
   * Records what Lettuce's decoder tells an output (every value, every aggregate header, every end
   * of an element) and, when the whole reply was read without an error (the end at depth 0), tells
   * the same to the target output, in the same order. Bulk strings are copied: the decoder's
   * buffers are only valid during the call.
   *
   * <p>An exception thrown by the target while it takes the reply becomes this output's error, so
   * the command fails with it instead of leaving the caller waiting.
   *
   * <p>Threading: filled and replayed on the event loop of its connection; {@code delivered} is
   * shared by every try of one command and makes the replay happen once.
   */
  static final class ReplayingOutput<K, V, T> extends CommandOutput<K, V, T> {

    private final CommandOutput<K, V, T> target;
    private final AtomicBoolean delivered;
    private final List<Consumer<CommandOutput<K, V, T>>> events = new ArrayList<>();

    ReplayingOutput(
        RedisCodec<K, V> codec, CommandOutput<K, V, T> target, AtomicBoolean delivered) {
      super(codec, null);
      this.target = target;
      this.delivered = delivered;
    }

    @Override
    public void set(ByteBuffer bytes) {
      ByteBuffer copy = copy(bytes);
      events.add(output -> output.set(copy));
    }

    @Override
    public void setSingle(ByteBuffer bytes) {
      ByteBuffer copy = copy(bytes);
      events.add(output -> output.setSingle(copy));
    }

    @Override
    public void setBigNumber(ByteBuffer bytes) {
      ByteBuffer copy = copy(bytes);
      events.add(output -> output.setBigNumber(copy));
    }

    @Override
    public void set(long integer) {
      events.add(output -> output.set(integer));
    }

    @Override
    public void set(double number) {
      events.add(output -> output.set(number));
    }

    @Override
    public void set(boolean value) {
      events.add(output -> output.set(value));
    }

    @Override
    public void multi(int count) {
      events.add(output -> output.multi(count));
    }

    @Override
    public void multiArray(int count) {
      events.add(output -> output.multiArray(count));
    }

    @Override
    public void multiPush(int count) {
      events.add(output -> output.multiPush(count));
    }

    @Override
    public void multiSet(int count) {
      events.add(output -> output.multiSet(count));
    }

    @Override
    public void multiMap(int count) {
      events.add(output -> output.multiMap(count));
    }

    @Override
    public void complete(int depth) {
      events.add(output -> output.complete(depth));
      if (depth == 0) {
        deliver();
      }
    }

    /** The target's answer, once the reply was handed to it. */
    @Override
    public T get() {
      deliver();
      return target.get();
    }

    /** Hands the recorded reply to the target, unless it had an error or was handed already. */
    private void deliver() {
      if (events.isEmpty() || hasError() || !delivered.compareAndSet(false, true)) {
        return;
      }
      try {
        for (Consumer<CommandOutput<K, V, T>> event : events) {
          event.accept(target);
        }
      } catch (RuntimeException e) {
        setError("ERR the output given to dispatch failed to take the reply: " + e);
      } finally {
        events.clear();
      }
    }

    private static ByteBuffer copy(ByteBuffer bytes) {
      if (bytes == null) {
        return null;
      }
      ByteBuffer copy = ByteBuffer.allocate(bytes.remaining());
      copy.put(bytes.duplicate()).flip();
      return copy;
    }
  }
}
