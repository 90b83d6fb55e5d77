package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.CommandFailedException;
import io.jumpgate.driver.FanOutGrouping;
import io.jumpgate.driver.Outcome;
import io.jumpgate.driver.RetriesExhaustedException;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Tries sent while an event loop handles a read are held in its {@link LoopTurn} and leave when the
 * read completes, one batch per connection, or once the first has waited {@link
 * LoopTurn#MAX_HOLD_NANOS}; a fan-out part of more than {@link LoopTurn#MAX_HELD_PART_KEYS} keys is
 * never held. Each test runs on a {@link FastThreadLocalThread}, as an event loop's thread is; the
 * dispatcher's clock is the harness's virtual one.
 */
class LoopTurnTest extends DispatcherHarness {

  @Test
  void should_hold_the_tries_of_a_read_and_send_them_a_batch_per_connection_when_it_completes()
      throws Exception {
    duringRead(
        turn -> {
          get();
          incr();
          publish(b); // the map moves during the read: the next tries go to b
          incr();
          get();

          assertThat(at(a).dispatched).isEmpty();
          assertThat(at(b).dispatched).isEmpty();

          turn.readCompleted();

          assertThat(at(a).batches.get()).isEqualTo(1);
          assertThat(typesOf(at(a).dispatched)).containsExactly("GET", "INCR");
          assertThat(at(b).batches.get()).isEqualTo(1);
          assertThat(typesOf(at(b).dispatched)).containsExactly("INCR", "GET");
        });
  }

  @Test
  void should_send_every_held_try_once_the_first_has_waited_the_longest_hold() throws Exception {
    duringRead(
        turn -> {
          get();
          scheduler.advance(LoopTurn.MAX_HOLD_NANOS - 1);
          get();
          assertThat(at(a).dispatched).isEmpty();

          scheduler.advance(1);
          get();

          assertThat(at(a).dispatched).hasSize(3);
          assertThat(at(a).batches.get()).isEqualTo(1);
          get();
          assertThat(at(a).dispatched).as("held again, until the read completes").hasSize(3);
          turn.readCompleted();
          assertThat(at(a).dispatched).hasSize(4);
          assertThat(at(a).batches.get()).isEqualTo(2);
        });
  }

  @Test
  void should_hold_a_small_fan_out_part_and_send_a_large_one_at_once() throws Exception {
    duringRead(
        turn -> {
          // every shard is led by a: each MGET is one part holding all its keys
          mget(LoopTurn.MAX_HELD_PART_KEYS);
          assertThat(at(a).dispatched).as("a part of the most keys held").isEmpty();

          mget(LoopTurn.MAX_HELD_PART_KEYS + 1);
          assertThat(at(a).dispatched).as("a larger part, at once").hasSize(1);
          assertThat(at(a).batches.get()).isZero();

          turn.readCompleted();
          assertThat(at(a).dispatched).hasSize(2);
          assertThat(at(a).batches.get()).isEqualTo(1);
        });
  }

  @Test
  void should_send_at_once_outside_a_read() throws Exception {
    onEventLoopThread(
        () -> {
          start();
          get();
          assertThat(at(a).dispatched).hasSize(1);
          assertThat(at(a).batches.get()).isZero();
        });
  }

  @Test
  void should_send_at_once_from_a_thread_that_is_not_an_event_loop() {
    start();
    LoopTurn turn = LoopTurn.current();
    turn.readStarted();
    try {
      get();
      assertThat(at(a).dispatched).hasSize(1);
    } finally {
      turn.readCompleted();
    }
  }

  @Test
  void should_fail_a_held_try_that_the_connection_refuses_when_the_read_completes()
      throws Exception {
    duringRead(
        turn -> {
          RoutedCommand<String, String, Long> command = incr();
          at(a).refuseWith = FakeNodes.queueFull();
          turn.readCompleted();
          scheduler.advance(TIMEOUT.toNanos());

          // refused: not run, so tried again (refused again) until the attempts ran out
          Throwable failure = failureOf(command);
          assertThat(failure).isInstanceOf(RetriesExhaustedException.class);
          assertThat(((CommandFailedException) failure).outcome()).isEqualTo(Outcome.NOT_RUN);
          assertThat(((CommandFailedException) failure).attempts()).hasSize(3);
        });
  }

  /** An MGET of {@code count} keys, as the driver's MGET sends it. */
  private void mget(int count) {
    String[] keys = new String[count];
    for (int index = 0; index < count; index++) {
      keys[index] = "k" + index;
    }
    FanOut.run(
        executor,
        keys,
        CommandType.MGET,
        CommandFlags.READ_ONLY,
        Outputs.valueList(),
        FanOutGrouping.BY_NODE,
        new FanOut.Plan<String, String, List<String>, Void>() {
          @Override
          public CommandArgs<String, String> args(int[] keyIndices) {
            return new PartArguments<>(StringCodec.UTF8, keys, null, keyIndices);
          }

          @Override
          public void accept(int[] keyIndices, List<String> answer) {}

          @Override
          public Void result() {
            return null;
          }
        });
  }

  private static List<String> typesOf(List<RedisCommand<?, ?, ?>> tries) {
    return tries.stream().map(each -> each.getType().toString()).toList();
  }

  /** On a thread of Netty's kind: the harness started, a read begun; the body gets the turn. */
  private void duringRead(Consumer<LoopTurn> body) throws Exception {
    onEventLoopThread(
        () -> {
          start();
          LoopTurn turn = LoopTurn.current();
          turn.readStarted();
          body.accept(turn);
        });
  }

  /** Runs the test on a thread of Netty's kind, at most 10 s, and rethrows its failure. */
  private static void onEventLoopThread(Runnable body) throws Exception {
    CompletableFuture<Void> done = new CompletableFuture<>();
    Thread thread =
        new FastThreadLocalThread(
            () -> {
              try {
                body.run();
                done.complete(null);
              } catch (Throwable e) {
                done.completeExceptionally(e);
              }
            },
            "loop-turn-test");
    thread.start();
    try {
      done.get(10, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw (Exception) e.getCause();
    }
  }
}
