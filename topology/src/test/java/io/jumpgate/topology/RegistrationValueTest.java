package io.jumpgate.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The registry codec: what the driver writes is what the CLI and the mover read. */
class RegistrationValueTest {

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static final RegistrationValue FULL =
      new RegistrationValue(
          "app-3", 4242, 1234, OptionalLong.of(1230), "2026-11-21T10:00:00Z", "0.1.0", "prod");

  @Test
  void should_write_the_fields_in_the_documented_order() {
    assertThat(new String(FULL.encode(), StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"host\":\"app-3\",\"pid\":4242,\"revision\":1234,\"drained\":1230,"
                + "\"since\":\"2026-11-21T10:00:00Z\",\"version\":\"0.1.0\",\"cluster\":\"prod\"}");
  }

  @Test
  void should_read_back_what_it_writes_with_and_without_the_optional_fields() {
    RegistrationValue minimal =
        new RegistrationValue(null, -1, 0, OptionalLong.empty(), null, null, null);

    assertThat(RegistrationValue.decode(FULL.encode())).isEqualTo(FULL);
    assertThat(RegistrationValue.decode(minimal.encode())).isEqualTo(minimal);
    assertThat(new String(minimal.encode(), StandardCharsets.UTF_8)).isEqualTo("{\"revision\":0}");
  }

  @Test
  void should_ignore_unknown_fields_and_take_null_as_absent() {
    RegistrationValue value =
        RegistrationValue.decode(
            utf8("{\"revision\":7,\"pid\":null,\"host\":null,\"extra\":{\"a\":[1,2]},\"z\":true}"));

    assertThat(value)
        .isEqualTo(new RegistrationValue(null, -1, 7, OptionalLong.empty(), null, null, null));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "not json | not valid JSON",
        "[1] | the value must be a JSON object, was an array",
        "{\"host\":\"x\"} | \"revision\" is required",
        "{\"revision\":\"12\"} | \"revision\" must be an integer >= 0, was \"12\"",
        "{\"revision\":-3} | revision must be >= 0, was -3",
        "{\"revision\":1,\"pid\":\"x\"} | \"pid\" must be an integer >= 0, was \"x\"",
        "{\"revision\":1,\"drained\":-1} | drained must be >= 0, was -1",
        "{\"revision\":1,\"drained\":1.5} | \"drained\" must be an integer >= 0, was 1.5",
        "{\"revision\":1,\"host\":7} | \"host\" must be a string, was 7",
        "{\"revision\":1,\"since\":\" \"} | \"since\" must not be blank",
        "{\"revision\":1,\"revision\":2} | not valid JSON: Duplicate field 'revision'",
        "{\"revision\":1} x | not valid JSON",
      })
  void should_name_what_is_wrong_with_a_value_that_is_not_a_registration(
      String value, String message) {
    assertThatThrownBy(() -> RegistrationValue.decode(utf8(value)))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void should_refuse_a_missing_an_empty_or_an_oversized_value() {
    assertThatThrownBy(() -> RegistrationValue.decode(null))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage("the value is missing (null)");
    assertThatThrownBy(() -> RegistrationValue.decode(new byte[0]))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessage("not valid JSON: the value is empty");
    assertThatThrownBy(() -> RegistrationValue.decode(new byte[RegistrationValue.MAX_BYTES + 1]))
        .isInstanceOf(TopologyEntryException.class)
        .hasMessageContaining("more than the " + RegistrationValue.MAX_BYTES + " allowed");
  }

  @Test
  void should_refuse_to_build_a_value_with_numbers_out_of_range() {
    assertThatThrownBy(
            () -> new RegistrationValue("h", -2, 1, OptionalLong.empty(), null, null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("pid must be >= 0 (or -1: not known), was -2");
    assertThatThrownBy(
            () -> new RegistrationValue("h", 1, -1, OptionalLong.empty(), null, null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("revision must be >= 0, was -1");
    assertThatThrownBy(
            () -> new RegistrationValue("h", 1, 1, OptionalLong.of(-1), null, null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("drained must be >= 0, was -1");
  }

  @Test
  void should_keep_a_registration_whose_value_does_not_decode_with_the_codec_message() {
    RegisteredClient broken = RegisteredClient.decode("app-1", utf8("{\"pid\":1}"), 5, 9);

    assertThat(broken.value()).isNull();
    assertThat(broken.invalidReason()).isEqualTo("\"revision\" is required");
    assertThat(broken.revision()).isEqualTo(-1);
    assertThat(broken.hasDrained(0)).isFalse();
  }
}
