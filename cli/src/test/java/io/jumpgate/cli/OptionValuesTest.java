package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

class OptionValuesTest {

  private static final CommandSpec SPEC = new CommandLine(CommandSpec.create()).getCommandSpec();

  @ParameterizedTest
  @CsvSource({
    "500ms, PT0.5S",
    "5s, PT5S",
    "2m, PT2M",
    "1h, PT1H",
    "1m30s, PT1M30S",
    "1h2m3s4ms, PT1H2M3.004S",
    "PT5S, PT5S",
    "pt1m, PT1M",
    "' 7s ', PT7S"
  })
  void durationsAreNumbersWithUnitsOrIso8601(String text, String expected) {
    assertThat(OptionValues.positiveDuration(SPEC, "--for", text))
        .isEqualTo(Duration.parse(expected));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "5", "s", "5 s", "5sec", "-5s", "1.5s", "PT", "P", "5d", "1m-5s"})
  void otherTextIsNotADuration(String text) {
    assertThatThrownBy(() -> OptionValues.positiveDuration(SPEC, "--for", text))
        .isInstanceOf(ParameterException.class)
        .hasMessage("--for must be a duration such as 500ms, 5s, 2m or 1h30m, was '" + text + "'");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0s", "0ms", "PT0S", "PT-5S"})
  void aDurationMustBePositive(String text) {
    assertThatThrownBy(() -> OptionValues.positiveDuration(SPEC, "--timeout", text))
        .isInstanceOf(ParameterException.class)
        .hasMessage("--timeout must be positive, was '" + text + "'");
  }
}
