package io.jumpgate.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spi.ShardUnavailableException;
import io.lettuce.core.RedisCommandExecutionException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

class WorkloadTest {

  @Test
  void serverErrorsAreNamedByTheirCode() {
    assertThat(
            Workload.errorType(
                new CompletionException(
                    new RedisCommandExecutionException(
                        "READONLY You can't write against a read only replica."))))
        .isEqualTo("READONLY");
  }

  @Test
  void otherFailuresAreNamedByTheirKind() {
    assertThat(Workload.errorType(new ShardUnavailableException(7, 12, "no valid entry")))
        .isEqualTo("shard unavailable");
    assertThat(Workload.errorType(new IllegalStateException("closed")))
        .isEqualTo("IllegalStateException");
  }

  @Test
  void keysAreSkewedTowardsLowNumbers() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int low = 0;
    for (int i = 0; i < 10_000; i++) {
      int key = Workload.skewed(random, Workload.KEYS);
      assertThat(key).isBetween(0, Workload.KEYS - 1);
      if (key < Workload.KEYS / 100) {
        low++;
      }
    }
    // u^3 < 1/100 when u < 0.215: about a fifth of the picks go to the lowest 1% of the keys
    assertThat(low).isBetween(1_800, 2_500);
  }
}
