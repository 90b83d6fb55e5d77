package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The sorted grouping of a fan-out's keys into parts (past the parts one pass handles): groups in
 * ascending id, request order kept inside each. The one-pass grouping is checked end to end by
 * {@code FanOutPartsTest}.
 */
class FanOutGroupingTest {

  @Test
  void should_agree_with_a_map_of_lists_sorted_by_id_on_random_keys() {
    Random random = new Random(14);
    for (int round = 0; round < 2000; round++) {
      int[] ids = new int[1 + random.nextInt(200)];
      int distinctBound = 1 + random.nextInt(random.nextBoolean() ? 6 : 1024);
      for (int index = 0; index < ids.length; index++) {
        ids[index] = random.nextInt(distinctBound);
      }
      Map<Integer, List<Integer>> expected = new LinkedHashMap<>();
      for (int position = 0; position < ids.length; position++) {
        expected.computeIfAbsent(ids[position], id -> new ArrayList<>()).add(position);
      }
      List<List<Integer>> sortedExpected =
          expected.keySet().stream().sorted().map(expected::get).toList();
      assertThat(toLists(FanOut.groupSorted(ids))).containsExactlyElementsOf(sortedExpected);
    }
  }

  private static List<List<Integer>> toLists(int[][] parts) {
    List<List<Integer>> lists = new ArrayList<>();
    for (int[] part : parts) {
      List<Integer> list = new ArrayList<>();
      for (int position : part) {
        list.add(position);
      }
      lists.add(list);
    }
    return lists;
  }
}
