package io.jumpgate.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class ShardStateTest {

  @ParameterizedTest
  @CsvSource({"active,ACTIVE", "migrating,MIGRATING", "frozen,FROZEN"})
  void should_parse_the_stored_names(String wireName, ShardState expected) {
    assertThat(ShardState.fromWireName(wireName)).isEqualTo(expected);
  }

  @ParameterizedTest
  @EnumSource(ShardState.class)
  void should_read_back_what_it_writes(ShardState state) {
    assertThat(ShardState.fromWireName(state.wireName())).isSameAs(state);
  }

  @ParameterizedTest
  @ValueSource(strings = {"ACTIVE", "Active", "", "paused", " active"})
  void should_refuse_an_unknown_name_naming_it(String name) {
    assertThatThrownBy(() -> ShardState.fromWireName(name))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "shard state must be \"active\", \"migrating\" or \"frozen\", was \"" + name + "\"");
  }

  @Test
  void should_refuse_a_missing_name() {
    assertThatThrownBy(() -> ShardState.fromWireName(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageEndingWith("was \"null\"");
  }
}
