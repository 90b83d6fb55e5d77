package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.ClientClosedException;
import io.jumpgate.driver.CommandFailedException;
import io.jumpgate.driver.CommandRetryClass;
import io.jumpgate.driver.CommandTimeoutException;
import io.jumpgate.driver.FailureClass;
import io.jumpgate.driver.NodeUnavailableException;
import io.jumpgate.driver.Outcome;
import io.jumpgate.driver.RetriesExhaustedException;
import io.jumpgate.driver.RetryContext;
import io.jumpgate.driver.RetryOptions;
import io.jumpgate.driver.RetryVerdict;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.protocol.RedisCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher's failure paths with fake connections and a virtual clock: the test decides when
 * each try is written, answered or failed, and when time passes. Nothing here sleeps.
 */
class DispatcherTest extends DispatcherHarness {

  // ---- the caller owns its future (item 2)
  // -------------------------------------------------------

  @Test
  void should_not_send_again_when_the_caller_times_out_its_future() {
    start();
    RoutedCommand<String, String, String> command = get();
    at(a).writeLast();

    // what orTimeout does when its delay passes
    command.completeExceptionally(new TimeoutException());
    scheduler.advance(2 * TIMEOUT.toNanos());

    assertThat(at(a).dispatched).hasSize(1);
    assertThat(dispatcher.inFlight()).isZero();
    assertThat(failureOf(command)).isInstanceOf(TimeoutException.class);
  }

  @Test
  void should_not_write_a_try_whose_command_the_caller_cancelled() {
    start();
    RoutedCommand<String, String, String> command = get();
    RedisCommand<?, ?, ?> queued = at(a).last();
    assertThat(queued.isDone()).isFalse();

    command.cancel(false);

    // Lettuce writes a command only while it is not done
    assertThat(queued.isDone()).isTrue();
    assertThat(dispatcher.inFlight()).isZero();
  }

  @Test
  void should_drop_a_late_answer_and_count_the_command_once_when_the_caller_completed_it() {
    start();
    RoutedCommand<String, String, String> command = get();
    RedisCommand<?, ?, ?> written = at(a).writeLast();

    command.complete("mine");
    written.complete();

    assertThat(command.join()).isEqualTo("mine");
    assertThat(dispatcher.inFlight()).isZero();
  }

  @Test
  void should_not_retry_when_the_caller_cancels_while_a_retry_waits() {
    start();
    RoutedCommand<String, String, Long> command = incr();
    at(a).last().completeExceptionally(new RedisCommandExecutionException("TRYAGAIN later"));
    command.cancel(false);
    scheduler.advance(TIMEOUT.toNanos());

    assertThat(at(a).dispatched).hasSize(1);
    assertThat(dispatcher.inFlight()).isZero();
  }

  // ---- outcomes that never lie (item 3)
  // ----------------------------------------------------------

  @Test
  void should_say_unknown_when_the_node_went_down_after_an_earlier_try_was_written() {
    start();
    RoutedCommand<String, String, String> command = get();
    at(a).writeLast().completeExceptionally(new RedisException("Connection closed"));
    at(a).refuseWith = new RedisException("Currently not connected. Commands are rejected.");
    scheduler.advance(TIMEOUT.toNanos());

    Throwable failure = failureOf(command);
    assertThat(failure).isInstanceOf(NodeUnavailableException.class);
    assertThat(((CommandFailedException) failure).outcome()).isEqualTo(Outcome.UNKNOWN);
  }

  @Test
  void should_say_not_run_and_retry_an_incr_refused_by_a_full_queue() {
    start();
    at(a).refuseWith = FakeNodes.queueFull();
    RoutedCommand<String, String, Long> command = incr();
    scheduler.advance(TIMEOUT.toNanos());

    Throwable failure = failureOf(command);
    assertThat(failure).isInstanceOf(RetriesExhaustedException.class);
    assertThat(((CommandFailedException) failure).outcome()).isEqualTo(Outcome.NOT_RUN);
    assertThat(((CommandFailedException) failure).attempts()).hasSize(3);
  }

  // ---- the retry policy of the options
  // ----------------------------------------------------------------------

  @Test
  void should_not_retry_an_incr_refused_by_a_full_queue_under_a_policy_that_never_retries() {
    List<RetryContext> asked = new ArrayList<>();
    retryPolicy =
        context -> {
          asked.add(context);
          return RetryVerdict.GIVE_UP;
        };
    start();
    at(a).refuseWith = FakeNodes.queueFull();
    RoutedCommand<String, String, Long> command = incr();
    scheduler.advance(TIMEOUT.toNanos());

    Throwable failure = failureOf(command);
    assertThat(failure).isInstanceOf(RetriesExhaustedException.class);
    assertThat(((CommandFailedException) failure).outcome()).isEqualTo(Outcome.NOT_RUN);
    assertThat(((CommandFailedException) failure).attempts()).hasSize(1);
    assertThat(asked).hasSize(1);
    RetryContext context = asked.get(0);
    assertThat(context.commandName()).isEqualTo("INCR");
    assertThat(context.commandClass()).isEqualTo(CommandRetryClass.NON_IDEMPOTENT_WRITE);
    assertThat(context.failure()).isEqualTo(FailureClass.NOT_RUN);
    assertThat(context.tryMayHaveRun()).isFalse();
    assertThat(context.attempt()).isEqualTo(1);
    assertThat(context.remainingNanos()).isEqualTo(TIMEOUT.toNanos());
  }

  @Test
  void should_retry_a_read_at_once_when_the_policy_says_so() {
    retryPolicy = context -> RetryVerdict.RETRY_NOW;
    start();
    RoutedCommand<String, String, String> command = get();
    at(a).writeLast().completeExceptionally(new RedisException("Connection closed"));
    scheduler.runDue();

    assertThat(at(a).dispatched).hasSize(2);
    assertThat(command).isNotDone();
  }

  @Test
  void should_give_up_when_the_policy_throws() {
    retryPolicy =
        context -> {
          throw new IllegalStateException("broken policy");
        };
    start();
    at(a).refuseWith = FakeNodes.queueFull();
    RoutedCommand<String, String, Long> command = incr();
    scheduler.advance(TIMEOUT.toNanos());

    assertThat(((CommandFailedException) failureOf(command)).attempts()).hasSize(1);
  }

  @Test
  void should_return_a_server_answer_without_asking_the_policy() {
    List<RetryContext> asked = new ArrayList<>();
    retryPolicy =
        context -> {
          asked.add(context);
          return RetryVerdict.RETRY_NOW;
        };
    start();
    RoutedCommand<String, String, Long> command = incr();
    at(a).writeLast().completeExceptionally(new RedisCommandExecutionException("WRONGTYPE no"));
    scheduler.advance(TIMEOUT.toNanos());

    assertThat(failureOf(command)).isInstanceOf(RedisCommandExecutionException.class);
    assertThat(asked).isEmpty();
    assertThat(at(a).dispatched).hasSize(1);
  }

  @Test
  void should_say_not_run_when_the_connection_was_already_closed() {
    start();
    at(a).refuseWith = new RedisException("Connection is closed");
    RoutedCommand<String, String, Long> command = incr();
    scheduler.advance(TIMEOUT.toNanos());

    assertThat(((CommandFailedException) failureOf(command)).outcome()).isEqualTo(Outcome.NOT_RUN);
  }

  @Test
  void should_say_unknown_for_an_incr_whose_written_try_lost_its_connection() {
    start();
    RoutedCommand<String, String, Long> command = incr();
    at(a).writeLast().completeExceptionally(new RedisException("Connection closed"));
    scheduler.advance(TIMEOUT.toNanos());

    Throwable failure = failureOf(command);
    assertThat(((CommandFailedException) failure).outcome()).isEqualTo(Outcome.UNKNOWN);
    assertThat(at(a).dispatched).hasSize(1);
  }

  @Test
  void should_say_not_run_for_an_incr_dropped_before_it_was_written() {
    start();
    RoutedCommand<String, String, Long> command = incr();
    at(a).last().completeExceptionally(new RedisException("Connection closed"));
    // not written: the next try is allowed and goes out
    scheduler.advance(TIMEOUT.toNanos() / 10);
    assertThat(at(a).dispatched).hasSize(2);
    at(a).writeLast().complete();
    assertThat(command).isCompleted();
  }

  @Test
  void should_send_again_on_the_new_map_when_the_node_left_it_before_the_try_reached_it() {
    start();
    nodes.holdConnects();
    RoutedCommand<String, String, Long> command = incr();
    // the map moves every shard to b while the try waits for a's connection
    publish(b);
    nodes.connectAtOnce();
    scheduler.advance(2 * TimeUnit.SECONDS.toNanos(1) + TIMEOUT.toNanos());
    // a's handle was retired and closed; b is where the retry goes
    assertThat(command).isNotDone();
    assertThat(at(b).dispatched).hasSize(1);
    at(b).writeLast().complete();
    assertThat(command).isCompleted();
  }

  // ---- waiting for a newer map (item 4) --------------------------------------------------------

  @Test
  void should_retain_nothing_when_a_demoted_leader_answers_readonly_until_the_deadline() {
    start(RetryOptions.builder().maxAttempts(100).build(), TopologyWaiters.DEFAULT_CAPACITY);
    List<RoutedCommand<String, String, Long>> commands = new ArrayList<>();
    for (int index = 0; index < 200; index++) {
      commands.add(incr());
    }
    for (int step = 0; step < 50; step++) {
      for (RedisCommand<?, ?, ?> sent : new ArrayList<>(at(a).dispatched)) {
        if (!sent.isDone()) {
          sent.completeExceptionally(
              new RedisCommandExecutionException(
                  "READONLY You can't write against a read only replica."));
        }
      }
      scheduler.advance(TIMEOUT.toNanos() / 20);
    }
    scheduler.advance(TIMEOUT.toNanos());

    assertThat(commands).allSatisfy(command -> assertThat(command).isCompletedExceptionally());
    assertThat(dispatcher.waitingForTopology()).isZero();
    assertThat(dispatcher.inFlight()).isZero();
    assertThat(scheduler.pendingTasks()).isZero();
  }

  @Test
  void should_retry_on_the_new_leader_as_soon_as_a_newer_map_arrives() {
    start();
    RoutedCommand<String, String, Long> command = incr();
    at(a).last().completeExceptionally(new RedisCommandExecutionException("READONLY replica"));
    scheduler.runDue();
    assertThat(dispatcher.waitingForTopology()).isEqualTo(1);

    publish(b);
    scheduler.runDue();

    assertThat(dispatcher.waitingForTopology()).isZero();
    assertThat(at(b).dispatched).hasSize(1);
    at(b).writeLast().complete();
    assertThat(command).isCompleted();
    // the wait's own timer was cancelled: it starts no second try
    scheduler.advance(RetryOptions.DEFAULT_TOPOLOGY_WAIT.toNanos());
    assertThat(at(b).dispatched).hasSize(1);
  }

  @Test
  void should_retry_at_once_when_the_map_moved_before_readonly_arrived() {
    start();
    RoutedCommand<String, String, Long> command = incr();
    publish(b);
    at(a).last().completeExceptionally(new RedisCommandExecutionException("READONLY replica"));
    scheduler.runDue();

    assertThat(dispatcher.waitingForTopology()).isZero();
    assertThat(at(b).dispatched).hasSize(1);
    assertThat(command).isNotDone();
  }

  @Test
  void should_fail_at_once_not_run_when_too_many_commands_wait_for_a_newer_map() {
    start(RetryOptions.defaults(), 2);
    List<RoutedCommand<String, String, Long>> commands = List.of(incr(), incr(), incr());
    for (RedisCommand<?, ?, ?> sent : at(a).dispatched) {
      sent.completeExceptionally(new RedisCommandExecutionException("READONLY replica"));
    }

    assertThat(commands.get(0)).isNotDone();
    assertThat(commands.get(1)).isNotDone();
    Throwable failure = failureOf(commands.get(2));
    assertThat(failure).isInstanceOf(RetriesExhaustedException.class);
    assertThat(((CommandFailedException) failure).outcome()).isEqualTo(Outcome.NOT_RUN);
  }

  // ---- shutdown paths (item 7) -----------------------------------------------------------------

  @Test
  void should_fail_a_command_whose_retry_cannot_be_scheduled_any_more() {
    start();
    RoutedCommand<String, String, Long> command = incr();
    scheduler.shutdown();
    at(a).last().completeExceptionally(new RedisCommandExecutionException("TRYAGAIN later"));

    Throwable failure = failureOf(command);
    assertThat(failure).isInstanceOf(ClientClosedException.class);
    assertThat(((CommandFailedException) failure).outcome()).isEqualTo(Outcome.NOT_RUN);
    assertThat(dispatcher.inFlight()).isZero();
  }

  @Test
  void should_fail_the_commands_that_wait_for_a_newer_map_when_closing() {
    start();
    RoutedCommand<String, String, Long> command = incr();
    at(a).last().completeExceptionally(new RedisCommandExecutionException("READONLY replica"));

    dispatcher.close();

    assertThat(failureOf(command)).isInstanceOf(ClientClosedException.class);
    assertThat(dispatcher.waitingForTopology()).isZero();
  }

  // ---- no connect storm (item 8) ---------------------------------------------------------------

  @Test
  void should_fail_fast_not_run_while_a_node_is_down_and_reconnect_in_the_background() {
    nodes.holdConnects();
    start();
    RoutedCommand<String, String, Long> first = incr();
    nodes.failConnect(a.address());
    scheduler.runDue();
    assertThat(nodes.connects(a.address())).isEqualTo(1);

    // within the backoff: every try fails at once, nobody connects
    RoutedCommand<String, String, Long> second = incr();
    scheduler.advance(50 * MILLIS);
    assertThat(failureOf(second)).isInstanceOf(NodeUnavailableException.class);
    assertThat(((CommandFailedException) failureOf(second)).outcome()).isEqualTo(Outcome.NOT_RUN);
    assertThat(failureOf(first)).isInstanceOf(NodeUnavailableException.class);
    assertThat(nodes.connects(a.address())).isEqualTo(1);

    // the background reconnect after the first backoff succeeds: commands go through again
    scheduler.advance(NodeHandle.FIRST_RECONNECT_DELAY_NANOS);
    assertThat(nodes.connects(a.address())).isEqualTo(2);
    nodes.completeConnect(a.address());
    RoutedCommand<String, String, Long> third = incr();
    at(a).writeLast().complete();
    assertThat(third).isCompleted();
  }

  @Test
  void should_say_not_run_when_the_deadline_passes_while_waiting_for_the_first_connect() {
    nodes.holdConnects();
    start();
    RoutedCommand<String, String, Long> command = incr();
    scheduler.advance(TIMEOUT.toNanos());

    Throwable failure = failureOf(command);
    assertThat(failure).isInstanceOf(CommandTimeoutException.class);
    assertThat(((CommandFailedException) failure).outcome()).isEqualTo(Outcome.NOT_RUN);
    // the connection opens late: the expired try is not sent
    nodes.completeConnect(a.address());
    scheduler.runDue();
    assertThat(at(a).dispatched).isEmpty();
  }

  @Test
  void should_give_unknown_after_a_timeout_of_a_written_try() {
    start();
    RoutedCommand<String, String, Long> command = incr();
    at(a).writeLast().completeExceptionally(new RedisCommandTimeoutException("timed out"));

    assertThat(((CommandFailedException) failureOf(command)).outcome()).isEqualTo(Outcome.UNKNOWN);
  }
}
