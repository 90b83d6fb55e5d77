package io.jumpgate.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rules of docs/driver.md ("Retries") as a table over {@link RetryPolicy#standard()}: every
 * failure class, for each of the four command classes after a try that may have run and one that
 * did not, and the limits (last attempt, deadline, backoff past the deadline), each at its
 * boundary. Inverting any single rule of the standard policy makes at least one row fail.
 *
 * <p>Columns: failure | the try may have run | command class | acceptSecondRunReplies | attempt (of
 * 3) | time left (ms) | backoff (ms) | MOVED names a known node | verdict.
 */
class RetryPolicyTest {

  @ParameterizedTest(
      name =
          "{0} mayHaveRun={1} {2} accept={3} try {4} left={5}ms backoff={6}ms "
              + "moved={7} -> {8}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # a try that may have run: only classes whose second run is harmless go again
          TIMEOUT             | true  | READ_ONLY            | false | 1 | 500 | 10  | false | RETRY_AFTER_BACKOFF
          TIMEOUT             | true  | IDEMPOTENT_WRITE     | false | 1 | 500 | 10  | false | RETRY_AFTER_BACKOFF
          TIMEOUT             | true  | SAME_STATE_WRITE     | false | 1 | 500 | 10  | false | GIVE_UP
          TIMEOUT             | true  | SAME_STATE_WRITE     | true  | 1 | 500 | 10  | false | RETRY_AFTER_BACKOFF
          TIMEOUT             | true  | NON_IDEMPOTENT_WRITE | false | 1 | 500 | 10  | false | GIVE_UP
          TIMEOUT             | true  | NON_IDEMPOTENT_WRITE | true  | 1 | 500 | 10  | false | GIVE_UP
          CONNECTION_LOST     | true  | READ_ONLY            | false | 1 | 500 | 10  | false | RETRY_AFTER_BACKOFF
          CONNECTION_LOST     | true  | IDEMPOTENT_WRITE     | false | 1 | 500 | 10  | false | RETRY_AFTER_BACKOFF
          CONNECTION_LOST     | true  | SAME_STATE_WRITE     | false | 1 | 500 | 10  | false | GIVE_UP
          CONNECTION_LOST     | true  | SAME_STATE_WRITE     | true  | 1 | 500 | 10  | false | RETRY_AFTER_BACKOFF
          CONNECTION_LOST     | true  | NON_IDEMPOTENT_WRITE | false | 1 | 500 | 10  | false | GIVE_UP
          CONNECTION_LOST     | true  | NON_IDEMPOTENT_WRITE | true  | 1 | 500 | 10  | false | GIVE_UP
          # a try that provably did not run goes again whatever the class
          CONNECTION_LOST     | false | NON_IDEMPOTENT_WRITE | false | 1 | 500 | 10  | false | RETRY_AFTER_BACKOFF
          NOT_RUN             | false | NON_IDEMPOTENT_WRITE | false | 1 | 500 | 10  | false | RETRY_AFTER_BACKOFF
          NOT_RUN             | false | SAME_STATE_WRITE     | false | 1 | 500 | 10  | false | RETRY_AFTER_BACKOFF
          NOT_RUN             | false | READ_ONLY            | false | 1 | 500 | 10  | false | RETRY_AFTER_BACKOFF
          NODE_DOWN           | false | NON_IDEMPOTENT_WRITE | false | 1 | 500 | 10  | false | RETRY_AFTER_BACKOFF
          NODE_DOWN           | false | IDEMPOTENT_WRITE     | false | 1 | 500 | 10  | false | RETRY_AFTER_BACKOFF
          # READONLY, MOVED, a node gone from the map: a newer map, or the node MOVED names
          REDIRECT            | false | NON_IDEMPOTENT_WRITE | false | 1 | 500 | 10  | false | RETRY_ON_NEWER_MAP
          REDIRECT            | false | READ_ONLY            | false | 1 | 500 | 10  | false | RETRY_ON_NEWER_MAP
          REDIRECT            | false | NON_IDEMPOTENT_WRITE | false | 1 | 500 | 10  | true  | RETRY_ON_MOVED_NODE
          REDIRECT            | false | SAME_STATE_WRITE     | false | 2 | 500 | 10  | true  | RETRY_ON_MOVED_NODE
          # a redirect does not back off: a backoff past the deadline does not stop it
          REDIRECT            | false | IDEMPOTENT_WRITE     | false | 1 | 5   | 600 | false | RETRY_ON_NEWER_MAP
          # the deadline passed while waiting for the first connection: never sent, no retry
          EXPIRED_BEFORE_SEND | false | READ_ONLY            | false | 1 | 0   | 10  | false | GIVE_UP
          EXPIRED_BEFORE_SEND | false | NON_IDEMPOTENT_WRITE | false | 1 | 0   | 10  | false | GIVE_UP
          # the attempts: the third try is the last
          NOT_RUN             | false | READ_ONLY            | false | 2 | 500 | 10  | false | RETRY_AFTER_BACKOFF
          NOT_RUN             | false | READ_ONLY            | false | 3 | 500 | 10  | false | GIVE_UP
          REDIRECT            | false | READ_ONLY            | false | 3 | 500 | 10  | true  | GIVE_UP
          TIMEOUT             | true  | READ_ONLY            | false | 3 | 500 | 10  | false | GIVE_UP
          # the deadline: nothing after it, even a redirect
          NODE_DOWN           | false | READ_ONLY            | false | 1 | 0   | 0   | false | GIVE_UP
          REDIRECT            | false | READ_ONLY            | false | 1 | 0   | 0   | true  | GIVE_UP
          REDIRECT            | false | READ_ONLY            | false | 1 | -1  | 0   | false | GIVE_UP
          REDIRECT            | false | READ_ONLY            | false | 1 | 1   | 0   | false | RETRY_ON_NEWER_MAP
          # a backoff that would reach the deadline gives up at once
          NOT_RUN             | false | READ_ONLY            | false | 1 | 10  | 10  | false | GIVE_UP
          NOT_RUN             | false | READ_ONLY            | false | 1 | 11  | 10  | false | RETRY_AFTER_BACKOFF
          TIMEOUT             | true  | IDEMPOTENT_WRITE     | false | 1 | 5   | 600 | false | GIVE_UP
          """)
  void should_decide_what_follows_a_failed_try(
      FailureClass failure,
      boolean tryMayHaveRun,
      CommandRetryClass commandClass,
      boolean acceptSecondRunReplies,
      int attempt,
      long remainingMillis,
      long backoffMillis,
      boolean movedToKnownNode,
      RetryVerdict expected) {
    RetryContext context =
        new RetryContext(
            "CMD",
            commandClass,
            failure,
            tryMayHaveRun,
            attempt,
            RetryOptions.DEFAULT_MAX_ATTEMPTS,
            acceptSecondRunReplies,
            TimeUnit.MILLISECONDS.toNanos(100),
            TimeUnit.MILLISECONDS.toNanos(remainingMillis),
            TimeUnit.MILLISECONDS.toNanos(backoffMillis),
            movedToKnownNode);

    assertThat(RetryPolicy.standard().decide(context)).isEqualTo(expected);
  }

  @Test
  void should_be_the_default_of_the_options() {
    JumpgateOptions options =
        JumpgateOptions.builder().topologyFile(java.nio.file.Path.of("map.json")).build();

    assertThat(options.retryPolicy()).isSameAs(RetryPolicy.standard());
  }

  @Test
  void should_keep_a_custom_policy_through_mutate() {
    RetryPolicy never = context -> RetryVerdict.GIVE_UP;
    JumpgateOptions options =
        JumpgateOptions.builder()
            .topologyFile(java.nio.file.Path.of("map.json"))
            .retryPolicy(never)
            .build();

    assertThat(options.mutate().build().retryPolicy()).isSameAs(never);
    assertThatThrownBy(() -> JumpgateOptions.builder().retryPolicy(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("retryPolicy");
  }

  @Test
  void should_refuse_a_context_with_an_impossible_attempt_naming_it() {
    assertThatThrownBy(
            () ->
                new RetryContext(
                    "GET",
                    CommandRetryClass.READ_ONLY,
                    FailureClass.TIMEOUT,
                    true,
                    0,
                    3,
                    false,
                    0,
                    1,
                    0,
                    false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("attempt must be at least 1, got 0");
    assertThatThrownBy(
            () ->
                new RetryContext(
                    "GET", CommandRetryClass.READ_ONLY, null, true, 1, 3, false, 0, 1, 0, false))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("failure");
  }
}
