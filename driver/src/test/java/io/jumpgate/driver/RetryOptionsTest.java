package io.jumpgate.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryOptionsTest {

  @Test
  void should_double_the_backoff_per_try_with_jitter_between_half_and_all_of_the_step() {
    RetryOptions options =
        RetryOptions.builder().backoff(Duration.ofMillis(10), Duration.ofMillis(200)).build();
    assertThat(options.backoffNanos(2, 0.0)).isEqualTo(Duration.ofMillis(5).toNanos());
    assertThat(options.backoffNanos(2, 0.999))
        .isBetween(Duration.ofMillis(9).toNanos(), Duration.ofMillis(10).toNanos());
    assertThat(options.backoffNanos(3, 0.0)).isEqualTo(Duration.ofMillis(10).toNanos());
    assertThat(options.backoffNanos(4, 0.0)).isEqualTo(Duration.ofMillis(20).toNanos());
    // capped at backoffMax
    assertThat(options.backoffNanos(30, 0.999))
        .isLessThanOrEqualTo(Duration.ofMillis(200).toNanos());
    assertThat(options.backoffNanos(30, 0.0)).isEqualTo(Duration.ofMillis(100).toNanos());
  }

  @Test
  void should_name_the_bad_value() {
    assertThatThrownBy(() -> RetryOptions.builder().maxAttempts(0))
        .hasMessage("retry maxAttempts must be between 1 and 100, was 0");
    assertThatThrownBy(
            () -> RetryOptions.builder().backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
        .hasMessageContaining("base=PT2S max=PT1S");
  }

  @Test
  void should_default_to_three_attempts() {
    assertThat(RetryOptions.defaults().maxAttempts()).isEqualTo(3);
    assertThat(RetryOptions.defaults().mutate().build().topologyWait())
        .isEqualTo(Duration.ofMillis(500));
  }

  @Test
  void should_not_accept_second_run_replies_unless_asked() {
    assertThat(RetryOptions.defaults().acceptSecondRunReplies()).isFalse();
    assertThat(RetryOptions.DEFAULT_ACCEPT_SECOND_RUN_REPLIES).isFalse();
    RetryOptions accepting = RetryOptions.builder().acceptSecondRunReplies(true).build();
    assertThat(accepting.acceptSecondRunReplies()).isTrue();
    assertThat(accepting.toString()).contains("acceptSecondRunReplies=true");
  }

  @Test
  void should_keep_accept_second_run_replies_when_mutated() {
    RetryOptions accepting =
        RetryOptions.builder().acceptSecondRunReplies(true).maxAttempts(5).build();
    RetryOptions mutated = accepting.mutate().maxAttempts(2).build();
    assertThat(mutated.acceptSecondRunReplies()).isTrue();
    assertThat(mutated.maxAttempts()).isEqualTo(2);
    assertThat(mutated.mutate().acceptSecondRunReplies(false).build().acceptSecondRunReplies())
        .isFalse();
  }
}
