package io.jumpgate.bench.timing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MigrationRunTest {

  private static Map<String, Object> measured(
      double freezeP50,
      double freezeP99,
      double copyRate,
      double ratio,
      long errors,
      long checked) {
    Map<String, Object> duration = new LinkedHashMap<>();
    duration.put("p50Ms", freezeP50);
    duration.put("p99Ms", freezeP99);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("freeze", Map.of("duration", duration));
    json.put("copy", Map.of("keysPerSecond", copyRate));
    json.put("throughput", Map.of("duringRatio", ratio));
    json.put("errors", Map.of("total", errors));
    json.put("check", Map.of("keysChecked", checked, "passed", true));
    return json;
  }

  private static Object met(Map<String, Object> targets, String name) {
    return ((Map<?, ?>) targets.get(name)).get("met");
  }

  @Test
  void should_meet_every_target_at_its_bound() {
    Map<String, Object> targets =
        MigrationRun.targets(measured(30, 100, 100_000, 0.7, 0, 1_000_000), 1_000_000);

    assertThat(targets.values())
        .allSatisfy(target -> assertThat(((Map<?, ?>) target).get("met")).isEqualTo(true));
  }

  @Test
  void should_miss_each_target_just_past_its_bound() {
    Map<String, Object> targets =
        MigrationRun.targets(measured(30.1, 100.1, 99_999, 0.69, 1, 999_999), 1_000_000);

    assertThat(met(targets, "freezeP50Ms")).isEqualTo(false);
    assertThat(met(targets, "freezeP99Ms")).isEqualTo(false);
    assertThat(met(targets, "copyKeysPerSecond")).isEqualTo(false);
    assertThat(met(targets, "duringOverBeforeOps")).isEqualTo(false);
    assertThat(met(targets, "errors")).isEqualTo(false);
    assertThat(met(targets, "keysChecked")).isEqualTo(false);
    assertThat(met(targets, "checkPassed")).isEqualTo(true);
  }

  @Test
  void should_miss_the_freeze_targets_when_no_group_was_frozen() {
    Map<String, Object> json = measured(1, 1, 200_000, 1, 0, 10);
    json.put("freeze", new LinkedHashMap<>(Map.of("attempts", 0)));

    Map<String, Object> targets = MigrationRun.targets(json, 10);

    assertThat(met(targets, "freezeP99Ms")).isEqualTo(false);
    assertThat(((Map<?, ?>) targets.get("freezeP99Ms")).get("measured")).isNull();
  }
}
