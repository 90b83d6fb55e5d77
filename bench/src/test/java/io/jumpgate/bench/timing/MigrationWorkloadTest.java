package io.jumpgate.bench.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.jumpgate.bench.timing.MigrationWorkload.Stage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MigrationWorkloadTest {

  @Test
  void should_enter_each_stage_once_in_order_and_time_it_until_the_next() {
    MigrationWorkload workload = new MigrationWorkload(null, 10);

    workload.enter(Stage.BEFORE);
    workload.enter(Stage.PREPARE);
    workload.enter(Stage.BEFORE);
    workload.enter(Stage.COPY);

    assertThat(workload.entered())
        .containsExactly(Stage.WARMUP, Stage.BEFORE, Stage.PREPARE, Stage.COPY);
    double beforeStart = workload.stageStartMillis(Stage.BEFORE);
    double prepareStart = workload.stageStartMillis(Stage.PREPARE);
    assertThat(prepareStart).isGreaterThanOrEqualTo(beforeStart);
    assertThat(workload.stageSeconds(Stage.BEFORE) * 1000)
        .isCloseTo(prepareStart - beforeStart, offset(1e-6));
    assertThat(workload.stageSeconds(Stage.CUTOVER)).isZero();
    assertThat(workload.stageStartMillis(Stage.CUTOVER)).isEqualTo(-1);
    assertThat(MigrationRun.stageAt(workload, workload.entered(), prepareStart))
        .isIn(Stage.PREPARE, Stage.COPY);
  }

  @Test
  void should_expect_nothing_of_keys_it_never_wrote() {
    MigrationWorkload workload = new MigrationWorkload(null, 10);
    List<String> uncertain = new ArrayList<>();

    assertThat(workload.expectedValues(uncertain)).isEmpty();
    assertThat(uncertain).isEmpty();
    assertThat(workload.errorCount()).isZero();
    assertThat(workload.opsPerSecond(List.of(Stage.WARMUP))).isZero();
  }
}
