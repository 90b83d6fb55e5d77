package io.jumpgate.bench.endtoend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The order the systems run in, per round: rotated by one each round, so that no system is always
 * measured first (just after the previous case's last system, with the JIT and the servers in the
 * state it left them) or last. Round r (counted from 1) starts with system (r - 1) mod n of the
 * configured order: round 1 with the first, round 2 with the second, and so on, wrapping around.
 * Stateless.
 */
final class RoundOrder {
  private RoundOrder() {}

  /**
   * The systems in the order round {@code round} runs them.
   *
   * @throws IllegalArgumentException if {@code round} is below 1 or there are no systems
   */
  static <T> List<T> of(List<T> systems, int round) {
    if (round < 1) {
      throw new IllegalArgumentException("rounds count from 1, was " + round);
    }
    if (systems.isEmpty()) {
      throw new IllegalArgumentException("no systems to order");
    }
    int first = (round - 1) % systems.size();
    List<T> order = new ArrayList<>(systems.size());
    for (int index = 0; index < systems.size(); index++) {
      order.add(systems.get((first + index) % systems.size()));
    }
    return order;
  }

  /** Every round's order, by round number as text ({@code "1"}, ...), for summary.json. */
  static Map<String, List<String>> all(List<String> systems, int rounds) {
    Map<String, List<String>> orders = new LinkedHashMap<>();
    for (int round = 1; round <= rounds; round++) {
      orders.put(Integer.toString(round), of(systems, round));
    }
    return orders;
  }
}
