package io.jumpgate.bench.timing;

import io.jumpgate.bench.endtoend.LatencyHistogram;
import io.jumpgate.driver.JumpgateCommands;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The mixed workload of {@link MigrationRun}, through one {@code JumpgateClient}: {@value #THREADS}
 * threads in a closed loop (each sends its next command when the previous one answered), each
 * command chosen at random: half GETs of a preloaded key (whose value is known: a different answer
 * counts as a wrong read), a quarter SETs and a quarter INCRs of keys of the thread's own ({@value
 * #OWN_KEYS_PER_THREAD} of each kind per thread, spread over every shard), so the value every own
 * key must hold at the end is known from what was acknowledged.
 *
 * <p>The run is cut into {@link Stage stages}, entered by the caller (and the mover's listener);
 * completions and latencies (issue to answer) are counted per stage, and completions per {@value
 * #BUCKET_MILLIS} ms bucket for the chart. Thread-safe: {@link #enter} from any thread; {@link
 * #expectedValues} and the figures after {@link #stop}.
 */
final class MigrationWorkload {

  static final int THREADS = 4;
  static final int OWN_KEYS_PER_THREAD = 1_000;
  static final long BUCKET_MILLIS = 100;
  private static final int BUCKETS = 36_000; // an hour
  private static final int ERROR_EXAMPLES = 5;

  /** Where the run is; completions are counted in the stage current when they answer. */
  enum Stage {
    WARMUP("warm-up"),
    BEFORE("before"),
    PREPARE("prepare"),
    COPY("copy"),
    CUTOVER("cutover"),
    CLEANUP("cleanup"),
    FINISHING("finishing"),
    AFTER("after"),
    STOPPED("stopped");

    private final String label;

    Stage(String label) {
      this.label = label;
    }

    String label() {
      return label;
    }
  }

  private final JumpgateCommands<String, String> redis;
  private final int preloadedKeys;
  private final long startNanos = System.nanoTime();
  private final Map<Stage, Long> stageStarts = new EnumMap<>(Stage.class);
  private final List<Stage> entered = new ArrayList<>();
  private final Map<Stage, LatencyHistogram> latencies = new EnumMap<>(Stage.class);
  private final Map<Stage, LongAdder> completions = new EnumMap<>(Stage.class);
  private final LatencyHistogram moving = new LatencyHistogram();

  /**
   * Per stage (by ordinal), where its latencies also go: {@link #moving} for prepare, copy and
   * cutover, a histogram nobody reads for the others. An array read rather than a branch on the
   * stage, so that entering the move does not make the JIT recompile the workload's loop (its code
   * is the application's here, not the mover's).
   */
  private final LatencyHistogram[] alsoRecordedIn = new LatencyHistogram[Stage.values().length];

  private final AtomicLongArray timeline = new AtomicLongArray(BUCKETS);
  private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  private final LongAdder wrongReads = new LongAdder();
  private final ConcurrentLinkedQueue<String> errorExamples = new ConcurrentLinkedQueue<>();
  private final List<Worker> workers = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private volatile Stage stage = Stage.WARMUP;
  private volatile boolean running = true;

  MigrationWorkload(JumpgateCommands<String, String> redis, int preloadedKeys) {
    this.redis = redis;
    this.preloadedKeys = preloadedKeys;
    for (Stage each : Stage.values()) {
      latencies.put(each, new LatencyHistogram());
      completions.put(each, new LongAdder());
      boolean whileMoving = each == Stage.PREPARE || each == Stage.COPY || each == Stage.CUTOVER;
      alsoRecordedIn[each.ordinal()] = whileMoving ? moving : new LatencyHistogram();
    }
    stageStarts.put(Stage.WARMUP, startNanos);
    entered.add(Stage.WARMUP);
  }

  /** Starts the threads. */
  void start() {
    for (int index = 0; index < THREADS; index++) {
      Worker worker = new Worker(index);
      workers.add(worker);
      Thread thread = new Thread(worker::loop, "migration-workload-" + index);
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
  }

  /** Enters {@code next} now, unless it was entered already (a stage is entered once). */
  synchronized void enter(Stage next) {
    if (!stageStarts.containsKey(next)) {
      stageStarts.put(next, System.nanoTime());
      entered.add(next);
      stage = next;
    }
  }

  /** Stops the threads and waits for them (each finishes the command it is waiting for). */
  void stop() throws InterruptedException {
    enter(Stage.STOPPED);
    running = false;
    for (Thread thread : threads) {
      thread.join(TimeUnit.SECONDS.toMillis(30));
      if (thread.isAlive()) {
        throw new IllegalStateException(thread.getName() + " did not stop within 30 s");
      }
    }
  }

  long startNanos() {
    return startNanos;
  }

  /** When {@code of} was entered, in ms since the workload started; -1 when it was not. */
  synchronized double stageStartMillis(Stage of) {
    Long start = stageStarts.get(of);
    return start == null ? -1 : (start - startNanos) / 1e6;
  }

  /**
   * How long {@code of} lasted (until the next stage entered, or until now for the current stage),
   * in seconds; 0 when not entered.
   */
  synchronized double stageSeconds(Stage of) {
    int position = entered.indexOf(of);
    if (position < 0) {
      return 0;
    }
    long end =
        position == entered.size() - 1
            ? System.nanoTime()
            : stageStarts.get(entered.get(position + 1));
    return (end - stageStarts.get(of)) / 1e9;
  }

  /** The stages entered, in order. */
  synchronized List<Stage> entered() {
    return List.copyOf(entered);
  }

  /** Completed commands per second in {@code of}; 0 when it lasted no time. */
  double opsPerSecond(Stage of) {
    double seconds = stageSeconds(of);
    return seconds <= 0 ? 0 : completions.get(of).sum() / seconds;
  }

  /** Completed commands per second over the stages given (together), weighted by their length. */
  double opsPerSecond(List<Stage> stages) {
    double seconds = 0;
    long count = 0;
    for (Stage each : stages) {
      seconds += stageSeconds(each);
      count += completions.get(each).sum();
    }
    return seconds <= 0 ? 0 : count / seconds;
  }

  long completions(Stage of) {
    return completions.get(of).sum();
  }

  /** p50, p99, p99.9 and max latency (us) of the commands that answered in {@code of}. */
  Map<String, Object> latency(Stage of) {
    return latencyJson(latencies.get(of));
  }

  /** The same over prepare, copy and cutover: while the data moved. */
  Map<String, Object> latencyWhileMoving() {
    return latencyJson(moving);
  }

  double p99MicrosWhileMoving() {
    return moving.valueAt(0.99) / 1e3;
  }

  private static Map<String, Object> latencyJson(LatencyHistogram histogram) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("commands", histogram.count());
    json.put("p50Us", histogram.valueAt(0.50) / 1e3);
    json.put("p99Us", histogram.valueAt(0.99) / 1e3);
    json.put("p999Us", histogram.valueAt(0.999) / 1e3);
    json.put("maxUs", histogram.valueAt(1.0) / 1e3);
    return json;
  }

  /** Completions per {@link #BUCKET_MILLIS} ms since the start, up to the last non-empty bucket. */
  long[] timeline() {
    int last = BUCKETS - 1;
    while (last > 0 && timeline.get(last) == 0) {
      last--;
    }
    long[] counts = new long[last + 1];
    for (int bucket = 0; bucket <= last; bucket++) {
      counts[bucket] = timeline.get(bucket);
    }
    return counts;
  }

  /** Exceptions thrown to the workload, by class. */
  Map<String, Long> errors() {
    Map<String, Long> counts = new TreeMap<>();
    errors.forEach((type, count) -> counts.put(type, count.sum()));
    return counts;
  }

  long errorCount() {
    return errors.values().stream().mapToLong(LongAdder::sum).sum();
  }

  /** GETs of a preloaded key that answered another value (or none). */
  long wrongReads() {
    return wrongReads.sum();
  }

  List<String> errorExamples() {
    return List.copyOf(errorExamples);
  }

  /**
   * After {@link #stop}: what each own key the workload wrote must hold, from what was
   * acknowledged. Keys never written are left out (they must not exist); keys whose last write
   * failed (the outcome is unknown) are in {@code uncertain} instead.
   */
  Map<String, String> expectedValues(List<String> uncertain) {
    Map<String, String> expected = new LinkedHashMap<>();
    for (Worker worker : workers) {
      for (int slot = 0; slot < OWN_KEYS_PER_THREAD; slot++) {
        if (worker.setUncertain[slot]) {
          uncertain.add(worker.setKeys[slot]);
        } else if (worker.setSequence[slot] > 0) {
          expected.put(worker.setKeys[slot], setValue(worker.index, worker.setSequence[slot]));
        }
        if (worker.counterUncertain[slot]) {
          uncertain.add(worker.counterKeys[slot]);
        } else if (worker.counterAcknowledged[slot] > 0) {
          expected.put(worker.counterKeys[slot], Long.toString(worker.counterAcknowledged[slot]));
        }
      }
    }
    return expected;
  }

  private static String setValue(int thread, long sequence) {
    return "t" + thread + ":" + sequence;
  }

  private void completed(long issued, long answered) {
    Stage current = stage;
    long nanos = answered - issued;
    latencies.get(current).record(nanos);
    completions.get(current).increment();
    alsoRecordedIn[current.ordinal()].record(nanos);
    long bucket = TimeUnit.NANOSECONDS.toMillis(answered - startNanos) / BUCKET_MILLIS;
    if (bucket >= 0 && bucket < BUCKETS) {
      timeline.incrementAndGet((int) bucket);
    }
  }

  private void failed(RuntimeException error) {
    errors.computeIfAbsent(error.getClass().getSimpleName(), type -> new LongAdder()).increment();
    if (errorExamples.size() < ERROR_EXAMPLES) {
      errorExamples.add(error.toString());
    }
  }

  /** One thread's loop and what it had acknowledged; its arrays are read after {@link #stop}. */
  private final class Worker {
    final int index;
    final String[] setKeys = new String[OWN_KEYS_PER_THREAD];
    final String[] counterKeys = new String[OWN_KEYS_PER_THREAD];
    final long[] setSequence = new long[OWN_KEYS_PER_THREAD];
    final boolean[] setUncertain = new boolean[OWN_KEYS_PER_THREAD];
    final long[] counterAcknowledged = new long[OWN_KEYS_PER_THREAD];
    final boolean[] counterUncertain = new boolean[OWN_KEYS_PER_THREAD];

    Worker(int index) {
      this.index = index;
      for (int slot = 0; slot < OWN_KEYS_PER_THREAD; slot++) {
        setKeys[slot] = "workload:" + index + ":set:" + slot;
        counterKeys[slot] = "workload:" + index + ":counter:" + slot;
      }
    }

    void loop() {
      ThreadLocalRandom random = ThreadLocalRandom.current();
      long sequence = 0;
      while (running) {
        int choice = random.nextInt(4);
        int slot = random.nextInt(OWN_KEYS_PER_THREAD);
        long issued = System.nanoTime();
        try {
          switch (choice) {
            case 0, 1 -> {
              int keyIndex = random.nextInt(preloadedKeys);
              String value = redis.get(CopyRateRun.key(keyIndex));
              if (!CopyRateRun.value(keyIndex).equals(value)) {
                wrongReads.increment();
                if (errorExamples.size() < ERROR_EXAMPLES) {
                  errorExamples.add(
                      "GET "
                          + CopyRateRun.key(keyIndex)
                          + " answered "
                          + value
                          + ", not its value");
                }
              }
            }
            case 2 -> {
              sequence++;
              redis.set(setKeys[slot], setValue(index, sequence));
              setSequence[slot] = sequence;
            }
            default -> {
              redis.incr(counterKeys[slot]);
              counterAcknowledged[slot]++;
            }
          }
          completed(issued, System.nanoTime());
        } catch (RuntimeException e) {
          if (choice == 2) {
            setUncertain[slot] = true;
          } else if (choice == 3) {
            counterUncertain[slot] = true;
          }
          failed(e);
        }
      }
    }
  }
}
