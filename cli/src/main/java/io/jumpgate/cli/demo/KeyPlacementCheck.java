package io.jumpgate.cli.demo;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisException;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The check at the end of the demo: every key of the workload's key space ({@value Workload#KEYS}
 * keys and {@value Workload#COUNTERS} counters) is read from the servers directly, not through the
 * driver, and must be on exactly the node that leads its shard in the final map, with the value the
 * {@link WriteLedger} says (the last answered SET, absent after an answered DEL or when never
 * written, a counter equal to its answered INCRs); no server holds a key of a shard it does not
 * lead, nor a key the workload does not write.
 *
 * <p>Only the servers that are Redis masters are read: a replica holds a copy of its master's keys,
 * which are checked on the master.
 *
 * <p>Stateless; {@link #read} blocks the calling thread, each reply bounded by its connection's
 * timeout.
 */
final class KeyPlacementCheck {

  /** Mismatches named one by one; the rest are counted. */
  static final int MISMATCHES_SHOWN = 10;

  private static final int MGET_BATCH = 500;

  /**
   * What the check found.
   *
   * @param keysChecked keys and counters checked
   * @param withValue of them, those that hold a value (on their owner)
   * @param uncertain of them, those with a write of unknown outcome (it failed), accepted either
   *     way
   * @param errors how many mismatches in all
   * @param firstErrors the first {@value #MISMATCHES_SHOWN} mismatches, described
   */
  record Result(
      int keysChecked, int withValue, int uncertain, int errors, List<String> firstErrors) {

    boolean passed() {
      return errors == 0;
    }
  }

  private KeyPlacementCheck() {}

  /**
   * Reads every key and its value from each server ({@code KEYS *}, then {@code MGET} in batches of
   * {@value #MGET_BATCH}) on its own connection, not through the driver.
   *
   * @param masters the commands of each master's connection by node id (their timeouts bound each
   *     reply)
   * @return the keys and values by node id
   * @throws DemoException if a server cannot be read
   */
  static Map<String, Map<String, String>> read(Map<String, RedisCommands<String, String>> masters) {
    Map<String, Map<String, String>> contents = new TreeMap<>();
    for (Map.Entry<String, RedisCommands<String, String>> node : masters.entrySet()) {
      RedisCommands<String, String> commands = node.getValue();
      try {
        List<String> keys = commands.keys("*");
        Map<String, String> values = new HashMap<>();
        for (int from = 0; from < keys.size(); from += MGET_BATCH) {
          List<String> batch = keys.subList(from, Math.min(keys.size(), from + MGET_BATCH));
          for (KeyValue<String, String> value : commands.mget(batch.toArray(String[]::new))) {
            // a key that expired or was deleted between KEYS and MGET reads as null: absent
            if (value.hasValue()) {
              values.put(value.getKey(), value.getValue());
            }
          }
        }
        contents.put(node.getKey(), values);
      } catch (RedisException e) {
        throw new DemoException(
            "reading the keys of " + node.getKey() + " failed: " + e.getMessage(), e);
      }
    }
    return contents;
  }

  /**
   * Checks {@code contents} against the ledger.
   *
   * @param contents every key and value by node id, of every master ({@link #read})
   * @param ownerOf the node id that leads the shard of a key in the final map
   */
  static Result check(
      Map<String, Map<String, String>> contents,
      Function<String, String> ownerOf,
      WriteLedger ledger) {
    List<String> errors = new ArrayList<>();
    int withValue = 0;
    int uncertain = 0;
    for (int index = 0; index < ledger.keys(); index++) {
      String key = Workload.key(index);
      String owner = ownerOf.apply(key);
      Map<String, String> onOwner = contents.get(owner);
      if (onOwner == null) {
        errors.add(key + ": its owner " + owner + " is not a master that was read");
        continue;
      }
      String value = onOwner.get(key);
      if (value != null) {
        withValue++;
      }
      if (!ledger.exact(index)) {
        uncertain++;
      }
      int state = stateOf(value);
      if (!ledger.accepts(index, state)) {
        errors.add(
            String.format(
                Locale.ROOT,
                "%s on %s: %s, expected %s%s",
                key,
                owner,
                describeState(state, value),
                describeState(ledger.expectedState(index), null),
                ledger.exact(index) ? "" : " (or the value of a failed write)"));
      }
    }
    for (int index = 0; index < ledger.counters(); index++) {
      String counter = Workload.counter(index);
      String owner = ownerOf.apply(counter);
      Map<String, String> onOwner = contents.get(owner);
      if (onOwner == null) {
        errors.add(counter + ": its owner " + owner + " is not a master that was read");
        continue;
      }
      String value = onOwner.get(counter);
      long least = ledger.incrementsAnswered(index);
      long most = least + ledger.incrementsFailed(index);
      if (value != null) {
        withValue++;
      }
      if (most > least) {
        uncertain++;
      }
      long actual;
      try {
        actual = value == null ? 0 : Long.parseLong(value);
      } catch (NumberFormatException e) {
        actual = -1;
      }
      if (actual < least || actual > most) {
        errors.add(
            String.format(
                Locale.ROOT,
                "%s on %s: %s, expected %s (INCRs answered%s)",
                counter,
                owner,
                value == null ? "absent" : value,
                least == most ? Long.toString(least) : least + " to " + most,
                least == most ? "" : ", and up to " + (most - least) + " that failed"));
      }
    }
    for (Map.Entry<String, Map<String, String>> node : contents.entrySet()) {
      for (String key : new TreeMap<>(node.getValue()).keySet()) {
        if (!isWorkloadKey(key)) {
          errors.add(key + " on " + node.getKey() + ": not a key the workload writes");
        } else if (!node.getKey().equals(ownerOf.apply(key))) {
          errors.add(
              key
                  + " on "
                  + node.getKey()
                  + ": a copy on a node that does not lead its shard (led by "
                  + ownerOf.apply(key)
                  + ")");
        }
      }
    }
    return new Result(
        ledger.keys() + ledger.counters(),
        withValue,
        uncertain,
        errors.size(),
        List.copyOf(errors.subList(0, Math.min(MISMATCHES_SHOWN, errors.size()))));
  }

  /** {@link WriteLedger#ABSENT}, the state of one of the workload's values, or -1 for another. */
  static int stateOf(String value) {
    if (value == null) {
      return WriteLedger.ABSENT;
    }
    for (int index = 0; index < Workload.VALUES; index++) {
      if (Workload.value(index).equals(value)) {
        return WriteLedger.valueState(index);
      }
    }
    return -1;
  }

  private static String describeState(int state, String value) {
    if (state == WriteLedger.ABSENT) {
      return "absent";
    }
    if (state < 0) {
      String shown = value.length() > 20 ? value.substring(0, 20) + "..." : value;
      return "'" + shown + "' (not a value the workload writes)";
    }
    return "value "
        + (state - 1)
        + " ('"
        + Workload.value(state - 1).charAt(0)
        + "' x "
        + Workload.VALUE_BYTES
        + ")";
  }

  private static boolean isWorkloadKey(String key) {
    return isNumbered(key, "user:", Workload.KEYS)
        || isNumbered(key, "counter:", Workload.COUNTERS);
  }

  /** {@code prefix} then a number below {@code bound} written as the workload writes it. */
  private static boolean isNumbered(String key, String prefix, int bound) {
    if (!key.startsWith(prefix)) {
      return false;
    }
    String number = key.substring(prefix.length());
    if (number.isEmpty()
        || number.length() > 9
        || (number.length() > 1 && number.startsWith("0"))) {
      return false;
    }
    for (int index = 0; index < number.length(); index++) {
      char digit = number.charAt(index);
      if (digit < '0' || digit > '9') {
        return false;
      }
    }
    return Integer.parseInt(number) < bound;
  }
}
