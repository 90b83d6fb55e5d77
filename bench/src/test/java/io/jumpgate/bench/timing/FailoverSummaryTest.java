package io.jumpgate.bench.timing;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.routing.Xxh64JumpRouter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FailoverSummaryTest {

  private static Map<String, Object> run(double gap, double fromKill, Map<String, Long> errors) {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("gapMs", gap);
    run.put("gapFromKillMs", fromKill);
    run.put("errors", errors);
    run.put("untypedErrors", 0L);
    return run;
  }

  @Test
  void should_report_the_largest_and_the_median_gap_and_sum_the_errors() {
    Map<String, Object> json =
        FailoverRun.summarise(
            List.of(
                run(30.0, 60.0, Map.of("NodeUnavailableException", 2L)),
                run(10.0, 40.0, Map.of("NodeUnavailableException", 1L, "X", 4L)),
                run(20.0, 50.0, Map.of())),
            true);
    assertThat(json.get("gapMs")).isEqualTo(30.0);
    assertThat(json.get("gapMedianMs")).isEqualTo(20.0);
    assertThat(json.get("gapFromKillMs")).isEqualTo(60.0);
    assertThat(json.get("errors")).isEqualTo(Map.of("NodeUnavailableException", 3L, "X", 4L));
    assertThat(json.get("targetMet")).isEqualTo(true);
  }

  @Test
  void should_miss_the_target_on_a_slow_run_and_average_the_middle_pair() {
    Map<String, Object> json =
        FailoverRun.summarise(
            List.of(run(300.0, 400.0, Map.of()), run(10.0, 30.0, Map.of())), false);
    assertThat(json.get("targetMet")).isEqualTo(false);
    assertThat(json.get("gapMedianMs")).isEqualTo(155.0);
  }

  @Test
  void should_find_a_key_for_every_shard() {
    String[] keys = new String[1024];
    FailoverRun.fillKeysByShard(keys);
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(1024);
    for (int shard = 0; shard < keys.length; shard++) {
      assertThat(router.shardOfUtf8(keys[shard] + ":n")).isEqualTo(shard);
    }
  }
}
