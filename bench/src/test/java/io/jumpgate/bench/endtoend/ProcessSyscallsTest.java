package io.jumpgate.bench.endtoend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ProcessSyscallsTest {

  @Test
  void readsAndWritesAreAddedFromProcIo() {
    String text =
        "rchar: 6976\nwchar: 12\nsyscr: 10\nsyscw: 3\nread_bytes: 0\nwrite_bytes: 0\n"
            + "cancelled_write_bytes: 0\n";
    assertThat(ProcessSyscalls.parse(text)).isEqualTo(13);
  }

  @Test
  void aTextWithoutTheCountersIsRejected() {
    assertThatThrownBy(() -> ProcessSyscalls.parse("rchar: 1\nsyscr: 4\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("syscr and syscw");
  }

  @Test
  void perRequestIsTheWindowsCallsOverItsRequestsOrMinusOne() {
    assertThat(ProcessSyscalls.perRequest(1_000, 4_000, 1_500)).isEqualTo(2.0);
    assertThat(ProcessSyscalls.perRequest(-1, 4_000, 1_500)).isEqualTo(-1);
    assertThat(ProcessSyscalls.perRequest(1_000, 4_000, 0)).isEqualTo(-1);
  }

  @Test
  void thisProcessCountsTheWritesItMakes() throws Exception {
    assumeThat(Path.of("/proc/self/io")).exists();
    Path file = Files.createTempFile("syscalls", ".bin");
    try (var out = Files.newOutputStream(file)) {
      long before = ProcessSyscalls.readWriteCalls();
      for (int index = 0; index < 100; index++) {
        out.write(index); // unbuffered: one write(2) each
      }
      long after = ProcessSyscalls.readWriteCalls();
      assertThat(after - before).isGreaterThanOrEqualTo(100);
    } finally {
      Files.deleteIfExists(file);
    }
  }
}
