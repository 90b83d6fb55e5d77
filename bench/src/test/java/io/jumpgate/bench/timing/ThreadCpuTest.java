package io.jumpgate.bench.timing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

  @Test
  void should_group_threads_by_their_name_without_numbers() {
    assertThat(ThreadCpu.group("grpc-nio-worker-ELG-1-13")).isEqualTo("grpc-nio-worker-ELG-N-N");
    assertThat(ThreadCpu.group("jumpgate-topology-propagation"))
        .isEqualTo("jumpgate-topology-propagation");
  }

  @Test
  void should_attribute_cpu_used_between_two_readings_to_this_thread() {
    ThreadCpu start = ThreadCpu.now();
    long sink = 0;
    long until = System.nanoTime() + 50_000_000;
    while (System.nanoTime() < until) {
      sink += Long.numberOfTrailingZeros(sink + System.nanoTime());
    }
    Map<String, Object> perGroup = ThreadCpu.now().since(start, 1);
    assertThat(sink).isNotNegative();
    assertThat((Double) perGroup.get("total")).isGreaterThan(0.0);
    assertThat(perGroup).containsKey(ThreadCpu.group(Thread.currentThread().getName()));
  }
}
