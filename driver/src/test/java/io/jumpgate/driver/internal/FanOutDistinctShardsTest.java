package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The distinct shards of a fan-out part, without boxing. */
class FanOutDistinctShardsTest {

  @Test
  void should_keep_each_shard_once_in_ascending_order() {
    assertThat(FanOut.distinctShards(new int[] {5, 3, 5, 1, 3, 1023, 0}))
        .containsExactly(0, 1, 3, 5, 1023);
    assertThat(FanOut.distinctShards(new int[] {7})).containsExactly(7);
    assertThat(FanOut.distinctShards(new int[0])).isEmpty();
  }

  @Test
  void should_not_change_its_input_and_agree_with_a_stream_on_random_parts() {
    Random random = new Random(11);
    for (int round = 0; round < 2000; round++) {
      int[] shards = new int[1 + random.nextInt(200)];
      for (int index = 0; index < shards.length; index++) {
        shards[index] = random.nextInt(1 + random.nextInt(1024));
      }
      int[] before = shards.clone();
      assertThat(FanOut.distinctShards(shards))
          .containsExactly(Arrays.stream(shards).distinct().sorted().toArray());
      assertThat(shards).containsExactly(before);
    }
  }
}
