package io.jumpgate.bench.endtoend;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of the end-to-end benchmark. Defaults: the full run (5 rounds, 0.4 s warm-up and
 * 1.6 s measurement per point); {@code --quick} is 2 rounds of 0.1 s + 0.35 s. Immutable.
 *
 * <pre>
 * --quick                 the short run (under 3 minutes with bin/bench)
 * --results DIR           where results go (default bench/results)
 * --rounds N              rounds of A B C D alternation
 * --warmup-ms N           warm-up per point, not measured
 * --measure-ms N          measurement per point
 * --systems a,b           a subset of jumpgate,direct,lettuceCluster,twemproxy
 * --workloads a,b         a subset of get,set,mix,mget10,mget100,mset10,
 *                         sync-get,sync-set,sync-hset,sync-hgetall (blocking calls from N
 *                         threads, N the in-flight limit)
 * --inflight 1,16,64      the in-flight limits
 * --keys N                the key space (default 100000)
 * --no-timing             do not run the propagation, failover and migration mains
 * --coalescing on|off     Jumpgate's write coalescing (default on, the driver's default)
 * --transport T           the Netty transport of every system: nio (default), epoll, io_uring
 * </pre>
 *
 * <p>The transport is one per JVM (Lettuce decides it once): every system, the direct-Lettuce
 * baselines included, runs on the same one, so that ratios compare routing and not transports.
 */
record BenchOptions(
    boolean quick,
    Path results,
    int rounds,
    long warmupMillis,
    long measureMillis,
    List<String> systems,
    List<Workload> workloads,
    List<Integer> inflights,
    int keyCount,
    boolean timing,
    boolean coalescing,
    String transport) {

  /** The transports {@code --transport} takes. */
  static final List<String> TRANSPORTS = List.of("nio", "epoll", "io_uring");

  static final String USAGE =
      "usage: bin/bench [--quick] [--results DIR] [--rounds N] [--warmup-ms N] [--measure-ms N]"
          + " [--systems jumpgate,direct,lettuceCluster,twemproxy]"
          + " [--workloads get,set,mix,mget10,mget100,mset10,sync-get,sync-set,sync-hset,"
          + "sync-hgetall] [--inflight 1,16,64] [--keys N]"
          + " [--no-timing] [--coalescing on|off] [--transport nio|epoll|io_uring]";

  /**
   * @throws IllegalArgumentException naming the bad argument and giving the usage
   */
  static BenchOptions parse(String... args) {
    boolean quick = false;
    Path results = Path.of("bench", "results");
    Integer rounds = null;
    Long warmup = null;
    Long measure = null;
    List<String> systems = Summary.SYSTEM_ORDER;
    List<Workload> workloads = List.of(Workload.values());
    List<Integer> inflights = List.of(1, 16, 64);
    int keyCount = 100_000;
    boolean timing = true;
    boolean coalescing = true;
    String transport = "nio";
    for (int index = 0; index < args.length; index++) {
      String arg = args[index];
      switch (arg) {
        case "--quick" -> quick = true;
        case "--no-timing" -> timing = false;
        case "--results" -> results = Path.of(value(args, ++index, arg));
        case "--rounds" -> rounds = positive(value(args, ++index, arg), arg);
        case "--warmup-ms" -> warmup = (long) nonNegative(value(args, ++index, arg), arg);
        case "--measure-ms" -> measure = (long) positive(value(args, ++index, arg), arg);
        case "--keys" -> keyCount = positive(value(args, ++index, arg), arg);
        case "--coalescing" -> {
          String value = value(args, ++index, arg);
          if (!value.equals("on") && !value.equals("off")) {
            throw new IllegalArgumentException(
                "--coalescing takes on or off, was '" + value + "'\n" + USAGE);
          }
          coalescing = value.equals("on");
        }
        case "--transport" -> {
          transport = value(args, ++index, arg);
          if (!TRANSPORTS.contains(transport)) {
            throw new IllegalArgumentException(
                "unknown transport '" + transport + "' (known: " + TRANSPORTS + ")\n" + USAGE);
          }
        }
        case "--systems" -> {
          systems = new ArrayList<>();
          for (String system : value(args, ++index, arg).split(",")) {
            if (!Summary.SYSTEM_ORDER.contains(system)) {
              throw new IllegalArgumentException(
                  "unknown system '"
                      + system
                      + "' (known: "
                      + Summary.SYSTEM_ORDER
                      + ")\n"
                      + USAGE);
            }
            systems.add(system);
          }
        }
        case "--workloads" -> {
          workloads = new ArrayList<>();
          for (String workload : value(args, ++index, arg).split(",")) {
            workloads.add(Workload.ofLabel(workload));
          }
        }
        case "--inflight" -> {
          inflights = new ArrayList<>();
          for (String inflight : value(args, ++index, arg).split(",")) {
            inflights.add(positive(inflight, arg));
          }
        }
        default -> throw new IllegalArgumentException("unknown argument '" + arg + "'\n" + USAGE);
      }
    }
    if (keyCount < 100) {
      throw new IllegalArgumentException("--keys must be at least 100 (MGET of 100 distinct keys)");
    }
    return new BenchOptions(
        quick,
        results,
        rounds != null ? rounds : quick ? 2 : 5,
        warmup != null ? warmup : quick ? 100 : 400,
        measure != null ? measure : quick ? 350 : 1600,
        List.copyOf(systems),
        List.copyOf(workloads),
        List.copyOf(inflights),
        keyCount,
        timing,
        coalescing,
        transport);
  }

  private static String value(String[] args, int index, String name) {
    if (index >= args.length) {
      throw new IllegalArgumentException(name + " needs a value\n" + USAGE);
    }
    return args[index];
  }

  private static int positive(String text, String name) {
    int value = nonNegative(text, name);
    if (value == 0) {
      throw new IllegalArgumentException(name + " must be at least 1, was 0");
    }
    return value;
  }

  private static int nonNegative(String text, String name) {
    try {
      int value = Integer.parseInt(text);
      if (value < 0) {
        throw new IllegalArgumentException(name + " must not be negative, was " + text);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " needs a whole number, was '" + text + "'");
    }
  }
}
