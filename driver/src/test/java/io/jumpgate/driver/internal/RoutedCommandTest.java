package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.ClientClosedException;
import io.jumpgate.driver.CommandFailedException;
import io.jumpgate.driver.CommandTimeoutException;
import io.jumpgate.driver.Outcome;
import io.jumpgate.driver.RetryOptions;
import io.jumpgate.driver.RetryVerdict;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A routed command, the caller's future, from its first try to its end, over fake connections and a
 * virtual clock: the caller ending it, its one deadline, the client closing while a try is in
 * flight, and its node leaving the map while it waits. Nothing here sleeps.
 */
class RoutedCommandTest extends DispatcherHarness {

  private static final long GRACE_NANOS = TIMEOUT.toNanos() + TimeUnit.SECONDS.toNanos(1);

  // ---- the caller ends its future --------------------------------------------------------------

  @Test
  void should_count_a_command_the_caller_gave_up_once_however_often_it_is_ended() {
    start();
    RoutedCommand<String, String, String> command = get();
    RedisCommand<?, ?, ?> written = at(a).writeLast();

    command.cancel(false);
    command.obtrudeException(new IllegalStateException("mine"));
    command.completeExceptionally(new IllegalStateException("mine again"));
    written.complete(); // the server's late answer

    assertThat(dispatcher.inFlight()).isZero();
    assertThat(ended).hasSize(1);
    assertThat(ended.get(0).success()).isFalse();
    assertThat(at(a).dispatched).hasSize(1);
  }

  // ---- a fan-out part's end listener -----------------------------------------------------------

  /** A fan-out part of shard 0 (one key) whose end listener records what it was told. */
  private RoutedCommand<String, String, String> part(java.util.List<String> told) {
    long now = scheduler.nanoTime();
    return dispatcher.send(
        executor.groupPart(
            CommandType.GET,
            dispatcher.nodeFor(CommandFlags.READ_ONLY, 0, dispatcher.table()),
            new int[] {0},
            new int[] {0},
            dispatcher.table().generation(),
            executor.args("k"),
            Outputs.value(),
            CommandFlags.READ_ONLY,
            now,
            now + TIMEOUT.toNanos(),
            (value, error) -> told.add(error == null ? "answered " + value : "failed " + error)));
  }

  @Test
  void should_tell_a_fan_out_part_its_answer_once_after_its_future_completed() {
    start();
    java.util.List<String> told = new java.util.ArrayList<>();
    RoutedCommand<String, String, String> command = part(told);
    assertThat(told).isEmpty();

    RedisCommand<?, ?, ?> written = at(a).writeLast();
    written.complete();
    command.cancel(false); // too late: already answered

    assertThat(command).isCompleted();
    assertThat(told).containsExactly("answered null");
  }

  @Test
  void should_tell_a_fan_out_part_its_failure_once() {
    start();
    java.util.List<String> told = new java.util.ArrayList<>();
    RoutedCommand<String, String, String> command = part(told);

    RedisCommand<?, ?, ?> written = at(a).writeLast();
    written.completeExceptionally(new RedisCommandExecutionException("WRONGTYPE not a string"));
    written.complete(); // a late answer changes nothing

    assertThat(command).isCompletedExceptionally();
    assertThat(told).singleElement().asString().startsWith("failed ");
  }

  @Test
  void should_tell_a_fan_out_part_when_its_future_is_cancelled() {
    start();
    java.util.List<String> told = new java.util.ArrayList<>();
    RoutedCommand<String, String, String> command = part(told);

    command.cancel(false);
    command.completeExceptionally(new IllegalStateException("again"));

    assertThat(told)
        .singleElement()
        .asString()
        .startsWith("failed java.util.concurrent.CancellationException");
  }

  @Test
  void should_not_count_a_cancel_that_comes_after_the_answer() {
    start();
    RoutedCommand<String, String, String> command = get();
    at(a).writeLast().complete();

    assertThat(command.cancel(false)).isFalse();

    assertThat(command).isCompleted();
    assertThat(dispatcher.inFlight()).isZero();
    assertThat(ended).singleElement().satisfies(event -> assertThat(event.success()).isTrue());
  }

  @Test
  void should_keep_the_callers_value_and_send_nothing_more_when_it_obtrudes_one_during_a_backoff() {
    start();
    RoutedCommand<String, String, Long> command = incr();
    at(a).last().completeExceptionally(new RedisCommandExecutionException("TRYAGAIN later"));

    command.obtrudeValue(7L);
    scheduler.advance(TIMEOUT.toNanos());

    assertThat(command.join()).isEqualTo(7L);
    assertThat(at(a).dispatched).hasSize(1);
    assertThat(dispatcher.inFlight()).isZero();
    assertThat(ended).hasSize(1);
  }

  @Test
  void should_send_nothing_to_the_new_leader_when_the_caller_cancelled_while_waiting_for_a_map() {
    start();
    RoutedCommand<String, String, Long> command = incr();
    at(a).last().completeExceptionally(new RedisCommandExecutionException("READONLY replica"));
    scheduler.runDue();
    assertThat(dispatcher.waitingForTopology()).isEqualTo(1);

    command.cancel(false);
    publish(b);
    scheduler.advance(GRACE_NANOS); // a's handle closes after the grace

    assertThat(at(b).dispatched).isEmpty();
    assertThat(dispatcher.waitingForTopology()).isZero();
    assertThat(dispatcher.inFlight()).isZero();
    assertThat(scheduler.pendingTasks()).isZero();
  }

  // ---- one deadline for every try --------------------------------------------------------------

  @Test
  void should_fail_as_timed_out_without_a_second_try_when_the_backoff_outlasts_the_deadline() {
    // the standard policy gives up at once when the backoff is longer than what is left; one that
    // always backs off meets the deadline when the backoff (between 1 s and 2 s) ends
    retryPolicy = context -> RetryVerdict.RETRY_AFTER_BACKOFF;
    start(
        RetryOptions.builder().backoff(Duration.ofSeconds(2), Duration.ofSeconds(2)).build(),
        TopologyWaiters.DEFAULT_CAPACITY);
    RoutedCommand<String, String, Long> command = incr();
    at(a).last().completeExceptionally(new RedisCommandExecutionException("TRYAGAIN later"));

    scheduler.advance(TIMEOUT.toNanos() / 2);
    assertThat(command).isNotDone();
    scheduler.advance(2 * TIMEOUT.toNanos());

    Throwable failure = failureOf(command);
    assertThat(failure).isInstanceOf(CommandTimeoutException.class);
    assertThat(((CommandFailedException) failure).outcome()).isEqualTo(Outcome.NOT_RUN);
    assertThat(((CommandFailedException) failure).attempts()).hasSize(1);
    assertThat(at(a).dispatched).hasSize(1);
  }

  @Test
  void should_end_a_blocked_callers_written_try_at_the_deadline_as_a_timeout_of_unknown_outcome() {
    start();
    RoutedCommand<String, String, Long> command = blockingIncr();
    // what Lettuce's timeout source asks as it takes the try for writing: no timer for this one
    assertThat(((HasDeadline) at(a).last()).deadlineWatchedByCaller()).isTrue();
    RedisCommand<?, ?, ?> written = at(a).writeLast();
    scheduler.advance(TIMEOUT.toNanos());
    assertThat(command).isNotDone();

    assertThat(command.expireAtDeadline()).isTrue();

    Throwable failure = failureOf(command);
    assertThat(failure).isInstanceOf(CommandTimeoutException.class);
    assertThat(((CommandFailedException) failure).outcome()).isEqualTo(Outcome.UNKNOWN);
    assertThat(command.expireAtDeadline()).isFalse();
    written.complete(); // a late answer changes nothing
    assertThat(failureOf(command)).isSameAs(failure);
    assertThat(at(a).dispatched).hasSize(1);
    assertThat(dispatcher.inFlight()).isZero();
  }

  @Test
  void should_leave_a_try_that_lettuce_times_itself_to_lettuce() {
    start();
    RoutedCommand<String, String, Long> command = incr();
    assertThat(((HasDeadline) at(a).last()).deadlineWatchedByCaller()).isFalse();
    at(a).writeLast();

    assertThat(command.expireAtDeadline()).isFalse();
    assertThat(command).isNotDone();
  }

  @Test
  void should_leave_a_blocked_callers_try_that_waits_for_its_connection_to_that_wait() {
    nodes.holdConnects();
    start();
    RoutedCommand<String, String, Long> command = blockingIncr();

    assertThat(command.expireAtDeadline()).isFalse();
    assertThat(command).isNotDone();
    scheduler.advance(TIMEOUT.toNanos());

    Throwable failure = failureOf(command);
    assertThat(failure).isInstanceOf(CommandTimeoutException.class);
    assertThat(((CommandFailedException) failure).outcome()).isEqualTo(Outcome.NOT_RUN);
  }

  // ---- the client closes while a try is in flight ----------------------------------------------

  @Test
  void should_fail_a_read_as_closed_of_unknown_outcome_when_closing_drops_its_written_try() {
    start();
    RoutedCommand<String, String, String> command = get();
    at(a).writeLast();

    dispatcher.close();
    assertThat(at(a).open).isFalse();
    at(a).last().cancel(); // what Lettuce does to the commands of a connection it closes
    scheduler.advance(TIMEOUT.toNanos());

    Throwable failure = failureOf(command);
    assertThat(failure).isInstanceOf(ClientClosedException.class);
    assertThat(((CommandFailedException) failure).outcome()).isEqualTo(Outcome.UNKNOWN);
    assertThat(at(a).dispatched).hasSize(1);
    assertThat(dispatcher.inFlight()).isZero();
  }

  @Test
  void should_refuse_a_command_sent_after_the_close_without_sending_it() {
    start();
    dispatcher.close();

    assertThatThrownBy(this::get)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
    assertThat(at(a).dispatched).isEmpty();
    assertThat(dispatcher.inFlight()).isZero();
  }

  // ---- the node leaves the map while the command waits ----------------------------------------

  @Test
  void should_take_the_old_leaders_answer_when_the_map_moves_while_its_try_is_in_flight() {
    start();
    RoutedCommand<String, String, String> command = get();
    RedisCommand<?, ?, ?> written = at(a).writeLast();

    publish(b);
    written.complete();

    assertThat(command).isCompleted();
    assertThat(at(b).dispatched).isEmpty();
    assertThat(dispatcher.inFlight()).isZero();
  }

  @Test
  void should_close_the_old_leaders_connection_only_after_its_tries_passed_their_deadline() {
    start();
    get();
    at(a).writeLast();

    publish(b);
    scheduler.advance(TIMEOUT.toNanos());
    assertThat(at(a).open).as("open while a try on it may still be answered").isTrue();
    scheduler.advance(GRACE_NANOS - TIMEOUT.toNanos());

    assertThat(at(a).open).isFalse();
  }

  @Test
  void should_not_send_an_incr_to_the_new_leader_when_the_old_one_dropped_it_after_writing() {
    start();
    RoutedCommand<String, String, Long> command = incr();
    at(a).writeLast();

    publish(b);
    at(a).last().cancel(); // the old leader's connection was reset
    scheduler.advance(TIMEOUT.toNanos());

    Throwable failure = failureOf(command);
    assertThat(((CommandFailedException) failure).outcome()).isEqualTo(Outcome.UNKNOWN);
    assertThat(at(b).dispatched).isEmpty();
  }

  @Test
  void should_send_a_read_to_the_new_leader_when_the_old_one_dropped_it_after_writing() {
    start();
    RoutedCommand<String, String, String> command = get();
    at(a).writeLast();

    publish(b);
    at(a).last().cancel();
    scheduler.advance(TIMEOUT.toNanos() / 10);

    assertThat(at(b).dispatched).hasSize(1);
    at(b).writeLast().complete();
    assertThat(command).isCompleted();
    assertThat(at(a).dispatched).hasSize(1);
  }

  @Test
  void should_send_the_retry_to_the_new_leader_when_the_node_left_the_map_during_the_backoff() {
    start();
    RoutedCommand<String, String, Long> command = incr();
    at(a).last().completeExceptionally(new RedisCommandExecutionException("TRYAGAIN later"));

    publish(b);
    scheduler.advance(TIMEOUT.toNanos() / 10);

    assertThat(at(a).dispatched).hasSize(1);
    assertThat(at(b).dispatched).hasSize(1);
    at(b).writeLast().complete();
    assertThat(command).isCompleted();
    assertThat(ended).singleElement().satisfies(event -> assertThat(event.nodeId()).isEqualTo("b"));
  }

  private RoutedCommand<String, String, Long> blockingIncr() {
    CommandExecutor<String, String> blocking = executor.forBlockingCaller();
    return blocking.toShard(
        CommandType.INCR, 0, blocking.args("k"), Outputs.integer(), CommandFlags.WRITE);
  }
}
