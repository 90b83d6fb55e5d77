package io.jumpgate.bench.endtoend;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KeySpaceTest {

  @Test
  void keySpaceBatchesHoldDistinctKeys() {
    KeySpace keys = new KeySpace(1000, 9);

    for (int[] batch : keys.batches(100)) {
      assertThat(batch).hasSize(100).doesNotHaveDuplicates();
    }
    assertThat(keys.batches(10).length).isEqualTo(KeySpace.BATCHES);
    assertThat(keys.value()).hasSize(100);
    assertThat(new String(keys.key(42), java.nio.charset.StandardCharsets.US_ASCII))
        .isEqualTo("bench:0000042");
    assertThat(KeySpace.distinct(5, 5, new SplittableRandom(1)))
        .containsExactlyInAnyOrder(0, 1, 2, 3, 4);
  }
}
