package io.jumpgate.bench.endtoend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchOptionsTest {

  @Test
  void quickIsShorterThanTheFullRun() {
    BenchOptions quick = BenchOptions.parse("--quick", "--results", "/tmp/x");
    BenchOptions full = BenchOptions.parse();

    assertThat(quick.quick()).isTrue();
    assertThat(quick.results()).isEqualTo(Path.of("/tmp/x"));
    assertThat(quick.rounds() * (quick.warmupMillis() + quick.measureMillis()))
        .isLessThan(full.rounds() * (full.warmupMillis() + full.measureMillis()));
    assertThat(full.inflights()).containsExactly(1, 16, 64);
    assertThat(full.workloads()).containsExactly(Workload.values());
    assertThat(full.systems()).containsExactly("jumpgate", "direct", "lettuceCluster", "twemproxy");
  }

  @Test
  void subsetsAndOverrides() {
    BenchOptions options =
        BenchOptions.parse(
            "--systems",
            "jumpgate,direct",
            "--workloads",
            "get,mget100",
            "--inflight",
            "64",
            "--rounds",
            "3",
            "--measure-ms",
            "250",
            "--no-timing");

    assertThat(options.systems()).isEqualTo(List.of("jumpgate", "direct"));
    assertThat(options.workloads()).containsExactly(Workload.GET, Workload.MGET100);
    assertThat(options.inflights()).containsExactly(64);
    assertThat(options.rounds()).isEqualTo(3);
    assertThat(options.measureMillis()).isEqualTo(250);
    assertThat(options.timing()).isFalse();
  }

  @Test
  void badArgumentsNameWhatWasWrong() {
    assertThatThrownBy(() -> BenchOptions.parse("--systems", "redis"))
        .hasMessageContaining("unknown system 'redis'");
    assertThatThrownBy(() -> BenchOptions.parse("--workloads", "scan"))
        .hasMessageContaining("unknown workload 'scan'");
    assertThatThrownBy(() -> BenchOptions.parse("--rounds", "0"))
        .hasMessageContaining("--rounds must be at least 1");
    assertThatThrownBy(() -> BenchOptions.parse("--rounds")).hasMessageContaining("needs a value");
    assertThatThrownBy(() -> BenchOptions.parse("--fast")).hasMessageContaining("unknown argument");
  }

  @Test
  void coalescingAndTransport() {
    BenchOptions defaults = BenchOptions.parse();
    assertThat(defaults.coalescing()).as("the driver's default").isTrue();
    assertThat(defaults.transport()).isEqualTo("nio");

    BenchOptions options = BenchOptions.parse("--coalescing", "off", "--transport", "io_uring");
    assertThat(options.coalescing()).isFalse();
    assertThat(options.transport()).isEqualTo("io_uring");
    assertThat(EndToEndBenchmark.transportProperties("io_uring"))
        .containsEntry("io.lettuce.core.epoll", "false")
        .containsEntry("io.lettuce.core.iouring", "true");
    assertThat(EndToEndBenchmark.transportProperties("nio"))
        .containsEntry("io.lettuce.core.epoll", "false")
        .containsEntry("io.lettuce.core.iouring", "false");

    assertThatThrownBy(() -> BenchOptions.parse("--coalescing", "yes"))
        .hasMessageContaining("--coalescing takes on or off, was 'yes'");
    assertThatThrownBy(() -> BenchOptions.parse("--transport", "kqueue"))
        .hasMessageContaining("unknown transport 'kqueue'");
  }
}
