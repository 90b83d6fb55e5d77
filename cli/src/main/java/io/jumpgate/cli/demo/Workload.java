package io.jumpgate.cli.demo;

import io.jumpgate.driver.CommandTimeoutException;
import io.jumpgate.driver.FanOutFailedException;
import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.NodeUnavailableException;
import io.jumpgate.driver.RetriesExhaustedException;
import io.jumpgate.spi.ShardUnavailableException;
import io.lettuce.core.RedisCommandExecutionException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The demo's load: a mix of {@value #GET_PERCENT}% GET, {@value #SET_PERCENT}% SET of {@value
 * #VALUE_BYTES}-byte values, {@value #DEL_PERCENT}% DEL, {@value #INCR_PERCENT}% INCR of counters
 * and the rest MGET of {@value #MGET_KEYS} keys, over {@value #KEYS} keys ({@code user:<n>}) and
 * {@value #COUNTERS} counters ({@code counter:<n>}), both skewed towards low numbers ({@code
 * user:0} is the hottest key). One thread sends the commands through the driver's asynchronous API
 * with at most {@code maxInFlight} outstanding; every answer or failure is counted with its
 * latency.
 *
 * <p>Every write is recorded in a {@link WriteLedger}, for the check at the end. So that the value
 * a key must hold is known exactly, a key has at most one SET or DEL in flight: a write picked for
 * a key that has one in flight is sent as a GET of that key instead (this happens mostly to the
 * hottest keys, and shifts the mix by a fraction of a percent towards GET).
 *
 * <p>Thread-safe: answers are counted on the driver's threads; {@link #snapshot()} may be called
 * from any thread.
 */
final class Workload {

  static final int KEYS = 10_000;
  static final int COUNTERS = 100;
  static final int MGET_KEYS = 10;

  /** How many distinct values SET writes. */
  static final int VALUES = 16;

  static final int VALUE_BYTES = 100;
  static final int GET_PERCENT = 40;
  static final int SET_PERCENT = 27;
  static final int DEL_PERCENT = 3;
  static final int INCR_PERCENT = 15;

  /** The hottest key. */
  static final String HOTTEST_KEY = key(0);

  /**
   * The command types the workload sends, in the order of {@link #commandCounts()}. An MGET is one
   * command however many nodes the driver splits it over.
   */
  static final List<String> COMMAND_TYPES = List.of("DEL", "GET", "INCR", "MGET", "SET");

  private static final int DEL = 0;
  private static final int GET = 1;
  private static final int INCR = 2;
  private static final int MGET = 3;
  private static final int SET = 4;

  /**
   * The commands of one type that ended.
   *
   * @param succeeded commands answered
   * @param failed commands that failed
   * @param p99Micros the 99th percentile of their latency in microseconds, -1 if none ended
   */
  record CommandCount(long succeeded, long failed, long p99Micros) {}

  /**
   * What the workload did so far.
   *
   * @param succeeded commands answered
   * @param failed commands that failed
   * @param latencies the counts of a {@link LatencyHistogram}, answers and failures alike
   * @param errors failures by type ({@link #errorType})
   */
  record Snapshot(long succeeded, long failed, long[] latencies, SortedMap<String, Long> errors) {

    /** Commands that ended. */
    long commands() {
      return succeeded + failed;
    }

    /** What happened between {@code earlier} and this snapshot (errors stay cumulative). */
    Snapshot since(Snapshot earlier) {
      return new Snapshot(
          succeeded - earlier.succeeded,
          failed - earlier.failed,
          LatencyHistogram.minus(latencies, earlier.latencies),
          errors);
    }
  }

  private final JumpgateAsyncCommands<String, String> redis;
  private final int maxInFlight;
  private final Semaphore inFlight;
  private final LatencyHistogram latencies = new LatencyHistogram();
  private final LongAdder succeeded = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final LongAdder[] succeededByType = newAdders();
  private final LongAdder[] failedByType = newAdders();
  private final LatencyHistogram[] latenciesByType = new LatencyHistogram[COMMAND_TYPES.size()];

  /** The type of the command {@link #sendOne} sends; only the sender thread uses it. */
  private int sentType;

  private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  private final String[] values = new String[VALUES];
  private final WriteLedger ledger;
  private volatile boolean running;
  private Thread sender;

  /**
   * @param redis the driver's commands
   * @param maxInFlight commands kept outstanding
   * @param ledger where the writes are recorded, {@link #newLedger()}; shared by workloads that run
   *     one after the other on the same keys
   */
  Workload(JumpgateAsyncCommands<String, String> redis, int maxInFlight, WriteLedger ledger) {
    this.redis = redis;
    this.ledger = ledger;
    this.maxInFlight = maxInFlight;
    this.inFlight = new Semaphore(maxInFlight);
    for (int index = 0; index < values.length; index++) {
      values[index] = value(index);
    }
    for (int type = 0; type < latenciesByType.length; type++) {
      latenciesByType[type] = new LatencyHistogram();
    }
  }

  private static LongAdder[] newAdders() {
    LongAdder[] adders = new LongAdder[COMMAND_TYPES.size()];
    for (int type = 0; type < adders.length; type++) {
      adders[type] = new LongAdder();
    }
    return adders;
  }

  /** A ledger for this workload's keys, counters and values. */
  static WriteLedger newLedger() {
    return new WriteLedger(KEYS, COUNTERS, VALUES);
  }

  /** The value number {@code index}: {@value #VALUE_BYTES} times one letter. */
  static String value(int index) {
    return Character.toString('a' + index).repeat(VALUE_BYTES);
  }

  static String key(int index) {
    return "user:" + index;
  }

  static String counter(int index) {
    return "counter:" + index;
  }

  /** A number in {@code [0, bound)}, low numbers much more likely: {@code bound * u^3}. */
  static int skewed(ThreadLocalRandom random, int bound) {
    double u = random.nextDouble();
    return (int) (bound * u * u * u);
  }

  /** Starts sending on a thread of its own. */
  synchronized void start() {
    if (sender != null) {
      throw new IllegalStateException("the workload runs already");
    }
    running = true;
    sender = new Thread(this::send, "jumpgate-demo-workload");
    sender.setDaemon(true);
    sender.start();
  }

  /**
   * Stops sending and waits (at most {@code drain}) for the commands in flight to end.
   *
   * @return true if every command ended
   */
  synchronized boolean stop(Duration drain) throws InterruptedException {
    running = false;
    if (sender == null) {
      return true;
    }
    long deadline = System.nanoTime() + drain.toNanos();
    sender.join(Math.max(1, drain.toMillis()));
    boolean drained =
        inFlight.tryAcquire(
            maxInFlight, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    if (drained) {
      inFlight.release(maxInFlight);
    }
    return drained;
  }

  Snapshot snapshot() {
    SortedMap<String, Long> errorCounts = new TreeMap<>();
    errors.forEach((type, count) -> errorCounts.put(type, count.sum()));
    // read the histogram last: a command counted in succeeded/failed is in it too
    long ok = succeeded.sum();
    long bad = failed.sum();
    return new Snapshot(ok, bad, latencies.snapshot(), errorCounts);
  }

  /**
   * The commands that ended so far by type ({@link #COMMAND_TYPES}, in that order), each counted
   * once: their sums are the {@link Snapshot#succeeded()} and {@link Snapshot#failed()} of a
   * snapshot taken when no command is in flight.
   */
  Map<String, CommandCount> commandCounts() {
    Map<String, CommandCount> counts = new LinkedHashMap<>();
    for (int type = 0; type < COMMAND_TYPES.size(); type++) {
      // the histogram last: a command counted is in it too
      long ok = succeededByType[type].sum();
      long bad = failedByType[type].sum();
      counts.put(
          COMMAND_TYPES.get(type),
          new CommandCount(
              ok, bad, LatencyHistogram.percentileMicros(latenciesByType[type].snapshot(), 0.99)));
    }
    return counts;
  }

  private void send() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    try {
      while (running) {
        if (!inFlight.tryAcquire(100, TimeUnit.MILLISECONDS)) {
          continue;
        }
        if (!running) {
          inFlight.release();
          return;
        }
        long start = System.nanoTime();
        try {
          CompletionStage<?> sent = sendOne(random);
          int type = sentType;
          sent.whenComplete((answer, error) -> ended(type, start, error));
        } catch (RuntimeException e) { // e.g. the client was closed
          ended(sentType, start, e);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private CompletionStage<?> sendOne(ThreadLocalRandom random) {
    int pick = random.nextInt(100);
    if (pick < GET_PERCENT) {
      sentType = GET;
      return redis.get(key(skewed(random, KEYS)));
    }
    if (pick < GET_PERCENT + SET_PERCENT + DEL_PERCENT) {
      int key = skewed(random, KEYS);
      if (!ledger.tryLockKey(key)) {
        sentType = GET;
        return redis.get(key(key)); // a write to it is in flight: see the class comment
      }
      int state;
      CompletionStage<?> sent;
      try {
        if (pick < GET_PERCENT + SET_PERCENT) {
          int value = random.nextInt(values.length);
          state = WriteLedger.valueState(value);
          sentType = SET;
          sent = redis.set(key(key), values[value]);
        } else {
          state = WriteLedger.ABSENT;
          sentType = DEL;
          sent = redis.del(key(key));
        }
      } catch (RuntimeException e) { // not sent: the key keeps its value
        ledger.unlockKey(key);
        throw e;
      }
      return sent.whenComplete((answer, error) -> ledger.keyWritten(key, state, error == null));
    }
    if (pick < GET_PERCENT + SET_PERCENT + DEL_PERCENT + INCR_PERCENT) {
      int counter = skewed(random, COUNTERS);
      sentType = INCR;
      return redis
          .incr(counter(counter))
          .whenComplete((answer, error) -> ledger.counterIncremented(counter, error == null));
    }
    String[] keys = new String[MGET_KEYS];
    for (int index = 0; index < keys.length; index++) {
      keys[index] = key(skewed(random, KEYS));
    }
    sentType = MGET;
    return redis.mget(keys);
  }

  private void ended(int commandType, long start, Throwable error) {
    long nanos = System.nanoTime() - start;
    latencies.record(nanos);
    latenciesByType[commandType].record(nanos);
    if (error == null) {
      succeededByType[commandType].increment();
      succeeded.increment();
    } else {
      failedByType[commandType].increment();
      errors.computeIfAbsent(errorType(error), type -> new LongAdder()).increment();
      failed.increment();
    }
    inFlight.release();
  }

  /**
   * A short name for a failure: {@code timeout}, {@code node unavailable}, {@code shard
   * unavailable}, {@code retries exhausted (READONLY)}, a server error's code ({@code READONLY},
   * {@code ERR}), else the exception's simple class name.
   */
  static String errorType(Throwable error) {
    Throwable cause = unwrap(error);
    if (cause instanceof FanOutFailedException fanOut && !fanOut.failedParts().isEmpty()) {
      // a multi-key command: named after its first failed part, so a timeout stays a timeout
      return errorType(fanOut.failedParts().get(0).error());
    }
    if (cause instanceof CommandTimeoutException) {
      return "timeout";
    }
    if (cause instanceof NodeUnavailableException) {
      return "node unavailable";
    }
    if (cause instanceof ShardUnavailableException) {
      return "shard unavailable";
    }
    if (cause instanceof RetriesExhaustedException) {
      Throwable last = cause.getCause() == null ? null : unwrap(cause.getCause());
      return last instanceof RedisCommandExecutionException
          ? "retries exhausted (" + serverCode(last) + ")"
          : "retries exhausted";
    }
    if (cause instanceof RedisCommandExecutionException) {
      return serverCode(cause);
    }
    return cause.getClass().getSimpleName();
  }

  private static String serverCode(Throwable serverError) {
    String message = serverError.getMessage() == null ? "" : serverError.getMessage().strip();
    int space = message.indexOf(' ');
    return message.isEmpty() ? "server error" : space < 0 ? message : message.substring(0, space);
  }

  private static Throwable unwrap(Throwable error) {
    Throwable cause = error;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }
}
