package io.jumpgate.it.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.it.chaos.VersionCheck.Result;
import org.junit.jupiter.api.Test;

class VersionCheckTest {

  @Test
  void should_flag_a_version_older_than_one_read_before_in_the_same_epoch() {
    VersionCheck check = new VersionCheck();
    assertThat(check.check("k", 3, 10)).isEqualTo(Result.FIRST_IN_EPOCH);
    assertThat(check.check("k", 3, 12)).isEqualTo(Result.IN_ORDER);
    assertThat(check.check("k", 3, 12)).isEqualTo(Result.IN_ORDER);
    assertThat(check.check("k", 3, 11)).isEqualTo(Result.WENT_BACK);
    assertThat(check.highest("k")).isEqualTo(12);
  }

  @Test
  void should_compare_only_within_one_epoch() {
    VersionCheck check = new VersionCheck();
    check.check("k", 3, 50);
    // a new leader (a move to a group that held older data, or a crash) starts afresh
    assertThat(check.check("k", 4, 7)).isEqualTo(Result.FIRST_IN_EPOCH);
    assertThat(check.check("k", 4, 8)).isEqualTo(Result.IN_ORDER);
    assertThat(check.check("k", 3, 1)).isEqualTo(Result.FIRST_IN_EPOCH);
    assertThat(check.check("k", 4, 6)).isEqualTo(Result.WENT_BACK);
    assertThat(check.check("other", 4, 0)).isEqualTo(Result.FIRST_IN_EPOCH);
  }
}
