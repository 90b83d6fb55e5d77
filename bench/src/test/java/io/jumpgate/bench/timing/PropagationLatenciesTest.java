package io.jumpgate.bench.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PropagationLatenciesTest {

  /** A change sent at {@code sent} whose put returned 500 ns later. */
  private static PropagationRun.Change change(int index, long revision, long sent) {
    return new PropagationRun.Change(index, index, revision, sent, sent + 500);
  }

  @Test
  void should_measure_each_change_from_the_send_of_the_put_to_the_watcher_arrival() {
    ArrivalLog log = new ArrivalLog("main", "w0");
    log.arrived(10, 1_300);
    log.arrived(11, 2_100);
    // the second arrived before the writer's put returned (2_200 + 500): still 100 ns after the
    // send
    long[] latencies =
        PropagationRun.latencies(List.of(change(0, 10, 1_000), change(1, 11, 2_000)), log);
    assertThat(latencies).containsExactly(300, 100);
  }

  @Test
  void should_fail_naming_a_watcher_that_saw_a_change_before_it_was_sent() {
    ArrivalLog log = new ArrivalLog("probe-2", "probe-2");
    log.arrived(11, 900);
    assertThatThrownBy(() -> PropagationRun.latencies(List.of(change(4, 11, 1_000)), log))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(
            "probe-2/probe-2 saw change 4 (revision 11) 100 ns before it was sent")
        .hasMessageContaining("clocks cannot be compared");
  }

  @Test
  void should_take_the_next_snapshot_when_a_watcher_skipped_a_revision() {
    ArrivalLog log = new ArrivalLog("probe-1", "probe-1");
    log.arrived(12, 5_000);
    assertThat(PropagationRun.latencies(List.of(change(0, 11, 4_000)), log)).containsExactly(1_000);
  }

  @Test
  void should_keep_the_first_arrival_of_each_revision_across_skips_and_growth() {
    ArrivalLog log = new ArrivalLog("main", "w1");
    log.arrived(100, 7);
    log.arrived(100, 8); // a second arrival of the same revision does not count
    log.arrived(103, 9); // 101 and 102 skipped: the snapshot of 103 covers them
    for (long revision = 104; revision < 3_100; revision++) {
      log.arrived(revision, revision * 10);
    }
    log.arrived(50, 1); // older than the first: ignored
    assertThat(log.arrivalOf(99)).isEqualTo(7);
    assertThat(log.arrivalOf(100)).isEqualTo(7);
    assertThat(log.arrivalOf(101)).isEqualTo(9);
    assertThat(log.arrivalOf(102)).isEqualTo(9);
    assertThat(log.arrivalOf(2_500)).isEqualTo(25_000);
    assertThat(log.arrivalOf(3_099)).isEqualTo(30_990);
    assertThat(log.arrivalOf(3_100)).isEqualTo(-1);
    assertThat(log.lastRevision()).isEqualTo(3_099);
    assertThat(new ArrivalLog("main", "w2").arrivalOf(1)).isEqualTo(-1);
  }

  @Test
  void should_fail_naming_the_watcher_and_the_change_it_never_saw() {
    ArrivalLog log = new ArrivalLog("main", "watcher-7");
    log.arrived(10, 1_300);
    assertThatThrownBy(
            () ->
                PropagationRun.latencies(List.of(change(0, 10, 1_000), change(3, 11, 2_000)), log))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("main/watcher-7 never saw change 3 (revision 11)");
  }

  @Test
  void should_return_the_watchers_still_missing_a_revision_when_the_wait_times_out()
      throws InterruptedException {
    ArrivalLog seen = new ArrivalLog("main", "a");
    ArrivalLog late = new ArrivalLog("main", "b");
    seen.arrived(5, 1);
    late.arrived(4, 1);
    assertThat(ArrivalLog.awaitAll(List.of(seen, late), 5, 1_000_000)).containsExactly(late);
    late.arrived(5, 2);
    assertThat(ArrivalLog.awaitAll(List.of(seen, late), 5, 1_000_000)).isEmpty();
  }

  @Test
  void should_take_a_count_up_to_its_bound_and_name_the_flag_and_anything_else() {
    String flag = PropagationRun.IN_JVM_WATCHERS_FLAG;
    assertThat(PropagationRun.parseCount(flag, "0", 500)).isZero();
    assertThat(PropagationRun.parseCount(flag, "500", 500)).isEqualTo(500);
    for (String bad : List.of("-1", "501", "ten", "")) {
      assertThatThrownBy(() -> PropagationRun.parseCount(flag, bad, 500))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(
              "--in-jvm-watchers= takes a count from 0 to 500, not '" + bad + "'");
    }
    assertThatThrownBy(
            () -> PropagationRun.parseCount(PropagationRun.WARMUP_CHANGES_FLAG, "100001", 100_000))
        .hasMessageContaining("--warmup-changes= takes a count from 0 to 100000, not '100001'");
  }
}
