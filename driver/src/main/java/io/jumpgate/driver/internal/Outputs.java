package io.jumpgate.driver.internal;

import io.lettuce.core.KeyValue;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.output.DoubleOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.KeyListOutput;
import io.lettuce.core.output.KeyValueListOutput;
import io.lettuce.core.output.MapOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.output.ValueListOutput;
import io.lettuce.core.output.ValueOutput;
import io.lettuce.core.output.ValueSetOutput;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

  /** Not shared: a key-value list output needs the keys it asked for. */
  public static <K, V> OutputFactory<K, V, List<KeyValue<K, V>>> keyValueList(Iterable<K> keys) {
    return codec -> new KeyValueListOutput<>(codec, keys);
  }
}
