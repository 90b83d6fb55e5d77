package io.jumpgate.bench.timing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.vm.VM;

class BoundedGraphTest {

  static final class Holder {
    Object first;
    Object second;
    long number;

    Holder(Object first, Object second) {
      this.first = first;
      this.second = second;
    }
  }

  static final class Library {
    final byte[] payload = new byte[1000];
  }

  @Test
  void should_count_each_reachable_object_once_and_stop_at_the_boundary() {
    System.setProperty("jol.magicFieldOffset", "true");
    byte[] shared = new byte[64];
    Object[] array = {shared, shared, null};
    Holder root = new Holder(array, new Library());
    BoundedGraph graph = new BoundedGraph(object -> object instanceof Library, Set.of()).walk(root);
    long expected =
        VM.current().sizeOf(root) + VM.current().sizeOf(array) + VM.current().sizeOf(shared);
    assertThat(graph.objects()).isEqualTo(3);
    assertThat(graph.bytes()).isEqualTo(expected);
    assertThat(graph.topClasses(1).get(0).get("class")).isEqualTo(byte[].class.getName());
  }

  @Test
  void should_leave_out_what_another_walk_already_counted() {
    System.setProperty("jol.magicFieldOffset", "true");
    byte[] shared = new byte[64];
    Holder first = new Holder(shared, null);
    Holder second = new Holder(shared, first);
    BoundedGraph before = new BoundedGraph(object -> false, Set.of()).walk(first);
    BoundedGraph after = new BoundedGraph(object -> false, before.seen()).walk(second);
    assertThat(after.objects()).isEqualTo(1);
    assertThat(after.bytes()).isEqualTo(VM.current().sizeOf(second));
  }
}
