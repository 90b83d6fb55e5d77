package io.jumpgate.driver.internal;

import static io.jumpgate.driver.internal.RetryRules.Verdict.GIVE_UP;
import static io.jumpgate.driver.internal.RetryRules.Verdict.RETRY_AFTER_BACKOFF;
import static io.jumpgate.driver.internal.RetryRules.Verdict.RETRY_ON_MOVED_NODE;
import static io.jumpgate.driver.internal.RetryRules.Verdict.RETRY_ON_NEWER_MAP;
import static io.jumpgate.driver.internal.RetryRules.Verdict.RETURN_SERVER_ANSWER;
import static io.jumpgate.driver.internal.RetryRules.Verdict.WAIT_FOR_NEWER_MAP;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every rule of {@link RetryRules}, one row each, for commands that may and may not be sent again
 * after an unknown outcome. Inverting any single rule makes at least one row fail.
 */
class RetryRulesTest {

  private static final long NOW = 1_000_000_000L;
  private static final long DEADLINE = NOW + 500_000_000L;
  private static final long SMALL_BACKOFF = 10_000_000L;
  private static final long HUGE_BACKOFF = 600_000_000L;

  /** kind, try may have run, retry after unknown, attempt, now, backoff, moved known, newer map. */
  static Stream<Arguments> rows() {
    return Stream.of(
        // the server's own answer is returned, whatever else holds
        row(
            FailureKind.SERVER_ANSWER,
            false,
            false,
            1,
            NOW,
            SMALL_BACKOFF,
            false,
            false,
            RETURN_SERVER_ANSWER),
        row(
            FailureKind.SERVER_ANSWER,
            false,
            true,
            3,
            DEADLINE,
            SMALL_BACKOFF,
            false,
            false,
            RETURN_SERVER_ANSWER),
        // a try that may have run: only commands that allow it go again
        row(FailureKind.TIMEOUT, true, false, 1, NOW, SMALL_BACKOFF, false, false, GIVE_UP),
        row(
            FailureKind.TIMEOUT,
            true,
            true,
            1,
            NOW,
            SMALL_BACKOFF,
            false,
            false,
            RETRY_AFTER_BACKOFF),
        row(FailureKind.UNKNOWN, true, false, 1, NOW, SMALL_BACKOFF, false, false, GIVE_UP),
        row(
            FailureKind.UNKNOWN,
            true,
            true,
            1,
            NOW,
            SMALL_BACKOFF,
            false,
            false,
            RETRY_AFTER_BACKOFF),
        // a try that did not run goes again whatever the command
        row(
            FailureKind.UNKNOWN,
            false,
            false,
            1,
            NOW,
            SMALL_BACKOFF,
            false,
            false,
            RETRY_AFTER_BACKOFF),
        row(
            FailureKind.NOT_RUN,
            false,
            false,
            1,
            NOW,
            SMALL_BACKOFF,
            false,
            false,
            RETRY_AFTER_BACKOFF),
        row(
            FailureKind.NODE_DOWN,
            false,
            false,
            2,
            NOW,
            SMALL_BACKOFF,
            false,
            false,
            RETRY_AFTER_BACKOFF),
        // attempts and deadline bound everything
        row(FailureKind.NOT_RUN, false, false, 3, NOW, SMALL_BACKOFF, false, false, GIVE_UP),
        row(FailureKind.NODE_DOWN, false, true, 1, DEADLINE, SMALL_BACKOFF, false, false, GIVE_UP),
        row(FailureKind.REDIRECT, false, false, 3, NOW, SMALL_BACKOFF, true, true, GIVE_UP),
        row(FailureKind.REDIRECT, false, false, 1, DEADLINE, SMALL_BACKOFF, true, true, GIVE_UP),
        row(
            FailureKind.EXPIRED_BEFORE_SEND,
            false,
            false,
            1,
            DEADLINE,
            SMALL_BACKOFF,
            false,
            false,
            GIVE_UP),
        // a backoff that would end past the deadline is not waited for
        row(FailureKind.NOT_RUN, false, false, 1, NOW, HUGE_BACKOFF, false, false, GIVE_UP),
        // READONLY and MOVED: follow a known node, else use or wait for a newer map
        row(
            FailureKind.REDIRECT,
            false,
            false,
            1,
            NOW,
            HUGE_BACKOFF,
            true,
            false,
            RETRY_ON_MOVED_NODE),
        row(
            FailureKind.REDIRECT,
            false,
            false,
            1,
            NOW,
            HUGE_BACKOFF,
            false,
            true,
            RETRY_ON_NEWER_MAP),
        row(
            FailureKind.REDIRECT,
            false,
            false,
            2,
            NOW,
            HUGE_BACKOFF,
            false,
            false,
            WAIT_FOR_NEWER_MAP),
        row(
            FailureKind.REDIRECT,
            false,
            true,
            1,
            NOW,
            SMALL_BACKOFF,
            true,
            true,
            RETRY_ON_MOVED_NODE));
  }

  @ParameterizedTest(name = "{0} mayHaveRun={1} retryAfterUnknown={2} try {3} -> {8}")
  @MethodSource("rows")
  void should_decide_what_follows_a_failed_try(
      FailureKind kind,
      boolean tryMayHaveRun,
      boolean retryAfterUnknown,
      int attempt,
      long now,
      long backoff,
      boolean movedKnown,
      boolean newerMap,
      RetryRules.Verdict expected) {
    assertThat(
            RetryRules.decide(
                kind,
                tryMayHaveRun,
                retryAfterUnknown,
                attempt,
                3,
                now,
                DEADLINE,
                backoff,
                movedKnown,
                newerMap))
        .isEqualTo(expected);
  }

  private static Arguments row(
      FailureKind kind,
      boolean tryMayHaveRun,
      boolean retryAfterUnknown,
      int attempt,
      long now,
      long backoff,
      boolean movedKnown,
      boolean newerMap,
      RetryRules.Verdict expected) {
    return Arguments.of(
        kind,
        tryMayHaveRun,
        retryAfterUnknown,
        attempt,
        now,
        backoff,
        movedKnown,
        newerMap,
        expected);
  }
}
