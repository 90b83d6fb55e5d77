package io.jumpgate.driver.internal;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The tries that an event loop's thread sends while it handles a read of a node connection, held
 * until that read completes and then sent one batch per connection: each connection gets one write
 * and one flush for the whole read, and a connection on another event loop gets its batch in one
 * wake-up of that loop instead of one per try.
 *
 * <p>Without it, a try sent from a completion callback went out at once to any connection but the
 * one being read ({@link WriteCoalescingHandler} holds only that one's flushes): with many requests
 * in flight, the replies of one read issue many tries to the other nodes, and each cost its own
 * task on the other loop and its own {@code write} (about 6,000 single writes in 3 s on each of the
 * two other connections in an MGET of 100 keys at 64 in flight, docs/performance.md).
 *
 * <p>Fan-out parts of more than {@link #MAX_HELD_PART_KEYS} keys are not held.
 *
 * <p>A channel's {@link WriteCoalescingHandler} marks the read ({@link #readStarted}, {@link
 * #readCompleted}); {@link Dispatcher} asks {@link #holding()} before it hands a try to Lettuce.
 * Threads that are not event loops (the application's, the retry scheduler's) never hold.
 *
 * <p>One per event loop thread, used by that thread only: not thread-safe, and needs none. Holding
 * allocates nothing once its arrays have grown to the largest read's tries.
 */
final class LoopTurn {

  private static final FastThreadLocal<LoopTurn> TURNS =
      new FastThreadLocal<>() {
        @Override
        protected LoopTurn initialValue() {
          return new LoopTurn();
        }
      };

  /**
   * The longest a try is held: a read of many large replies (an MGET of 100 keys at 16 in flight)
   * takes hundreds of microseconds to handle, and holding the parts of the requests it completes
   * until its end left the servers idle (0.78 and 0.83x direct against 0.91 and 0.96 without the
   * holding, in the same runs). Checked when a try is held: past it, every held try goes out.
   */
  static final long MAX_HOLD_NANOS = 20_000;

  /**
   * The most keys of a fan-out part that is held: a larger part goes out at once. Its server work
   * (an MGET of 33 keys: about 30 us of a server's CPU here) dwarfs the write it would share, and
   * waiting for the read's end delays it more than sharing saves. Not holding any part gave MGET of
   * 100 keys at 16 in flight 0.92 and 0.91x direct against 0.86 and 0.89, but MGET of 10 keys
   * (parts of about 3) 1.34 and 1.32x against 1.48 and 1.63; with this bound, MGET of 100 keys went
   * to 1.10 and 1.05x against 1.00 and 1.06 (held), MGET of 10 keys 1.90 and 1.72x against 1.92 and
   * 1.98 (docs/performance.md). 16 lies between the two part sizes; it was not tuned further.
   */
  static final int MAX_HELD_PART_KEYS = 16;

  private boolean reading;
  private boolean sending;
  private long firstHeldNanos;
  private StatefulRedisConnection<?, ?>[] connections = new StatefulRedisConnection<?, ?>[16];
  private CommandTry<?, ?, ?>[] tries = new CommandTry<?, ?, ?>[16];
  private int held;
  private final List<RedisCommand<byte[], byte[], ?>> batch = new ArrayList<>();

  private LoopTurn() {}

  /** The calling event loop's turn when it is handling a read of a node connection, else null. */
  static LoopTurn holding() {
    if (!(Thread.currentThread() instanceof FastThreadLocalThread)) {
      return null;
    }
    LoopTurn turn = TURNS.get();
    return turn.reading && !turn.sending ? turn : null;
  }

  /** Whether a try of this command is held when {@link #holding()} says so. */
  static boolean worthHolding(RoutedCommand<?, ?, ?> command) {
    return !command.isGroup() || command.groupSize() <= MAX_HELD_PART_KEYS;
  }

  /** The calling event loop's turn (called by a channel handler, on its event loop). */
  static LoopTurn current() {
    return TURNS.get();
  }

  /** A read of a node connection began on this loop. */
  void readStarted() {
    reading = true;
  }

  /** The read ended (completed, or failed): the held tries go out, a batch per connection. */
  void readCompleted() {
    reading = false;
    sendHeld();
  }

  /**
   * Holds a try for {@code connection} until the read completes, or sends every held try now when
   * the first of them has waited {@link #MAX_HOLD_NANOS}.
   *
   * @param now the dispatcher's clock, in nanoseconds
   */
  void hold(StatefulRedisConnection<?, ?> connection, CommandTry<?, ?, ?> attempt, long now) {
    if (held == 0) {
      firstHeldNanos = now;
    } else if (held == tries.length) {
      connections = Arrays.copyOf(connections, held * 2);
      tries = Arrays.copyOf(tries, held * 2);
    }
    connections[held] = connection;
    tries[held] = attempt;
    held++;
    if (now - firstHeldNanos >= MAX_HOLD_NANOS) {
      sendHeld();
    }
  }

  private void sendHeld() {
    int count = held;
    held = 0;
    // A try that fails at once may be sent again from here: it goes out directly, not into the
    // arrays being emptied.
    sending = true;
    try {
      sendHeld(count);
    } finally {
      sending = false;
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void sendHeld(int count) {
    for (int first = 0; first < count; first++) {
      StatefulRedisConnection connection = connections[first];
      if (connection == null) {
        continue;
      }
      batch.clear();
      for (int index = first; index < count; index++) {
        if (connections[index] == connection) {
          batch.add((RedisCommand) tries[index]);
          connections[index] = null;
          tries[index] = null;
        }
      }
      try {
        // Lettuce copies the list: it is reused for the next connection.
        connection.dispatch(batch);
      } catch (RuntimeException e) {
        for (RedisCommand<byte[], byte[], ?> command : batch) {
          ((CommandTry<?, ?, ?>) command).failTry(e);
        }
      }
    }
    batch.clear();
  }
}
