package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The grouping of a fan-out's keys into parts: one pass, primitive arrays, request order kept. */
class FanOutGroupingTest {

  @Test
  void should_group_positions_by_id_in_order_of_first_appearance() {
    int[][] parts = FanOut.groupInOnePass(new int[] {7, 3, 7, 9, 3, 7}, 16);

    assertThat(parts).hasNumberOfRows(3);
    assertThat(parts[0]).containsExactly(0, 2, 5);
    assertThat(parts[1]).containsExactly(1, 4);
    assertThat(parts[2]).containsExactly(3);
  }

  @Test
  void should_give_up_past_the_group_limit_so_that_sorting_takes_over() {
    assertThat(FanOut.groupInOnePass(new int[] {1, 2, 3}, 2)).isNull();
    assertThat(FanOut.groupInOnePass(new int[] {1, 2, 1, 2}, 2)).hasDimensions(2, 2);
    assertThat(FanOut.groupInOnePass(new int[0], 16)).isEmpty();
  }

  @Test
  void should_agree_with_a_map_of_lists_and_with_the_sorted_grouping_on_random_keys() {
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
      int[][] onePass = FanOut.groupInOnePass(ids, FanOut.MAX_ONE_PASS_GROUPS);
      if (expected.size() > FanOut.MAX_ONE_PASS_GROUPS) {
        assertThat(onePass).isNull();
      } else {
        assertThat(toLists(onePass)).containsExactlyElementsOf(expected.values());
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
