package io.jumpgate.bench.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MoverPriorityTest {

  @Test
  void should_parse_the_three_priorities_and_refuse_others() {
    assertThat(MoverPriority.parse("normal")).isEqualTo(MoverPriority.NORMAL);
    assertThat(MoverPriority.parse("nice")).isEqualTo(MoverPriority.NICE);
    assertThat(MoverPriority.parse("idle")).isEqualTo(MoverPriority.IDLE);
    assertThatThrownBy(() -> MoverPriority.parse("low"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("normal, nice, idle or idle-copy");
  }

  @Test
  void should_run_a_program_at_each_priority() throws Exception {
    assertThat(scheduledAs(MoverPriority.NORMAL))
        .isEqualTo(Map.of("nice", 0, "policy", "SCHED_OTHER"));
    assertThat(scheduledAs(MoverPriority.NICE))
        .isEqualTo(Map.of("nice", 19, "policy", "SCHED_OTHER"));
    assertThat(scheduledAs(MoverPriority.IDLE))
        .isEqualTo(Map.of("nice", 0, "policy", "SCHED_IDLE"));
  }

  /** Launches {@code sleep} at {@code priority} and reads its scheduling while it runs. */
  private static Map<String, Object> scheduledAs(MoverPriority priority)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(priority.launcher());
    command.addAll(List.of("sleep", "30"));
    Process process = new ProcessBuilder(command).start();
    try {
      // the launcher execs sleep: until then the process may still be the launcher at the old
      // priority, so read until the command is sleep (bounded)
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!process.info().command().orElse("").endsWith("sleep")) {
        assertThat(System.nanoTime() - deadline)
            .as("%s to exec sleep within 10 s", command)
            .isNegative();
        Thread.onSpinWait();
      }
      return MoverPriority.scheduling(process.pid());
    } finally {
      process.destroyForcibly();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }
}
