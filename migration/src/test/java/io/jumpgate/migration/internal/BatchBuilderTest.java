package io.jumpgate.migration.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchBuilderTest {

  private static RoutedKey key(int index) {
    return new RoutedKey(("k" + index).getBytes(StandardCharsets.UTF_8), 0);
  }

  @Test
  void should_emit_full_batches_then_the_rest_when_flushed() {
    BatchBuilder builder = new BatchBuilder(3);
    List<List<RoutedKey>> batches = new ArrayList<>();

    for (int index = 0; index < 7; index++) {
      List<RoutedKey> batch = builder.add(key(index));
      if (batch != null) {
        batches.add(batch);
      }
    }
    batches.add(builder.flush());

    assertThat(batches).extracting(List::size).containsExactly(3, 3, 1);
    assertThat(batches.get(1)).containsExactly(key(3), key(4), key(5));
    assertThat(builder.flush()).as("nothing left").isEmpty();
  }

  @Test
  void should_reject_a_batch_size_when_below_one() {
    assertThatThrownBy(() -> new BatchBuilder(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("was 0");
  }
}
