package io.jumpgate.bench.timing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class TimingArgumentsTest {

  @Test
  void should_read_the_results_dir_and_the_quick_flag_in_any_order() {
    assertThat(TimingArguments.parse("Run", "--quick", "--results", "out/x"))
        .isEqualTo(new TimingArguments(Path.of("out/x"), true));
    assertThat(TimingArguments.parse("Run", "--results", "r"))
        .isEqualTo(new TimingArguments(Path.of("r"), false));
  }

  @Test
  void should_name_what_is_wrong_with_the_arguments() {
    assertThatThrownBy(() -> TimingArguments.parse("Run", "--quick"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--results is required")
        .hasMessageContaining("usage: Run --results DIR [--quick]");
    assertThatThrownBy(() -> TimingArguments.parse("Run", "--results"))
        .hasMessageContaining("--results needs a directory");
    assertThatThrownBy(() -> TimingArguments.parse("Run", "--results", "--quick"))
        .hasMessageContaining("--results needs a directory");
    assertThatThrownBy(() -> TimingArguments.parse("Run", "--results", "r", "--fast"))
        .hasMessageContaining("unknown argument '--fast'");
  }
}
