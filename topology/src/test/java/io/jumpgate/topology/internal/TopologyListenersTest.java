package io.jumpgate.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.TopologyListener;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopologyListenersTest {

  private static final TopologySnapshot SNAPSHOT =
      TopologySnapshot.create(
          "test",
          3,
          TopologyMetadata.of(1),
          Map.of(),
          new ShardRoute[] {ShardRoute.unavailable(0, "none")},
          List.of(),
          Instant.EPOCH);

  private final TopologyListeners listeners = new TopologyListeners("file x");

  @Test
  void should_call_listeners_in_order_past_one_that_throws() {
    List<String> calls = new ArrayList<>();
    listeners.add((previous, current) -> calls.add("first"));
    listeners.add(
        (previous, current) -> {
          throw new IllegalStateException("bug");
        });
    listeners.add((previous, current) -> calls.add("third"));

    listeners.notifyChange(null, SNAPSHOT);

    assertThat(calls).containsExactly("first", "third");
  }

  @Test
  void should_remove_one_registration_per_handle() throws Exception {
    List<String> calls = new ArrayList<>();
    TopologyListener listener = (previous, current) -> calls.add("called");
    AutoCloseable first = listeners.add(listener);
    listeners.add(listener);

    first.close();
    first.close();
    listeners.notifyChange(null, SNAPSHOT);

    assertThat(calls).containsExactly("called");
    assertThat(listeners.size()).isEqualTo(1);
  }

  @Test
  void should_call_nothing_once_closed() throws Exception {
    List<String> calls = new ArrayList<>();
    listeners.add((previous, current) -> calls.add("before"));

    listeners.close();
    listeners.add((previous, current) -> calls.add("after")).close();
    listeners.notifyChange(null, SNAPSHOT);

    assertThat(calls).isEmpty();
    assertThat(listeners.size()).isZero();
  }
}
