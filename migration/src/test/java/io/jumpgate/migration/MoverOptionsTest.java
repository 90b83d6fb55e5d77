package io.jumpgate.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class MoverOptionsTest {

  @Test
  void defaultsAreOnlineWithGroupsOfEight() {
    MoverOptions options = MoverOptions.defaults();

    assertThat(options.offline()).isFalse();
    assertThat(options.groupSize()).isEqualTo(MoverOptions.DEFAULT_GROUP_SIZE).isEqualTo(8);
    assertThat(options.groupSize(true)).isEqualTo(MoverOptions.DEFAULT_OFFLINE_GROUP_SIZE);
    assertThat(options.toString()).contains("offline=false");
  }

  @Test
  void offlineWithoutAGroupSizeTakesTheOfflineDefault() {
    MoverOptions options = MoverOptions.builder().offline(true).build();

    assertThat(options.offline()).isTrue();
    assertThat(options.groupSize()).isEqualTo(32);
    assertThat(options.groupSize(false)).isEqualTo(8);
    assertThat(options.toString()).contains("offline=true", "groupSize=32");
  }

  @Test
  void aGroupSizeSetIsKeptInBothModesWhateverTheOrderOfTheSetters() {
    MoverOptions before = MoverOptions.builder().groupSize(4).offline(true).build();
    MoverOptions after = MoverOptions.builder().offline(true).groupSize(4).build();

    assertThat(List.of(before.groupSize(), before.groupSize(true), before.groupSize(false)))
        .containsOnly(4);
    assertThat(after.groupSize()).isEqualTo(4);
  }

  @Test
  void offlineCanBeSwitchedOffAgain() {
    MoverOptions options = MoverOptions.builder().offline(true).offline(false).build();

    assertThat(options.offline()).isFalse();
    assertThat(options.groupSize()).isEqualTo(8);
  }

  @Test
  void badValuesAreRefusedNamingTheOption() {
    assertThatThrownBy(() -> MoverOptions.builder().offline(true).groupSize(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("groupSize must be 1 to 100, was 0");
    assertThatThrownBy(() -> MoverOptions.builder().groupSize(101))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("groupSize");
    assertThatThrownBy(() -> MoverOptions.builder().acknowledgementTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("acknowledgementTimeout");
  }
}
