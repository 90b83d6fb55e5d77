package io.jumpgate.bench.timing;

import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.EtcdTopologySource;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One topology watcher in a JVM of its own, started by {@link PropagationRun}: it watches the map
 * with an {@link EtcdTopologySource} and reports, on stdout, when each new snapshot arrived.
 *
 * <p>Arguments: {@code --etcd ENDPOINTS --cluster NAME}. Lines written to stdout, each starting
 * with {@value #PREFIX}:
 *
 * <ul>
 *   <li>{@code ready REVISION}: the first snapshot is loaded;
 *   <li>{@code rev REVISION NANOS}: a new snapshot, and {@link System#nanoTime()} in the listener;
 *   <li>{@code clock TOKEN NANOS}: the answer to a {@code clock TOKEN} line read on stdin, for the
 *       parent to check that both JVMs read the same monotonic clock.
 * </ul>
 *
 * <p>The probe stops when stdin ends or says {@code quit}. The listener only records the time and
 * queues the line; a separate thread writes it, so the topology thread never waits on the pipe.
 */
public final class PropagationProbe {

  /** What starts each line of the protocol; other output (logging) is ignored by the parent. */
  public static final String PREFIX = "JUMPGATE-PROBE ";

  private static final String END = "\u0000end";

  private PropagationProbe() {}

  public static void main(String[] args) throws Exception {
    String endpoints = null;
    String cluster = null;
    for (int index = 0; index + 1 < args.length; index += 2) {
      switch (args[index]) {
        case "--etcd" -> endpoints = args[index + 1];
        case "--cluster" -> cluster = args[index + 1];
        default -> throw new IllegalArgumentException("unknown argument '" + args[index] + "'");
      }
    }
    if (endpoints == null || cluster == null || args.length % 2 != 0) {
      throw new IllegalArgumentException("usage: PropagationProbe --etcd ENDPOINTS --cluster NAME");
    }
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread writer =
        new Thread(
            () -> {
              try {
                for (String line = lines.take(); !line.equals(END); line = lines.take()) {
                  out.println(PREFIX + line);
                  if (lines.isEmpty()) {
                    out.flush();
                  }
                }
              } catch (InterruptedException stop) {
                Thread.currentThread().interrupt();
              }
              out.flush();
            },
            "probe-writer");
    writer.setDaemon(true);
    writer.start();
    try (EtcdTopologySource source =
        EtcdTopologySource.create(
            EtcdTopologyOptions.builder().endpoints(endpoints).cluster(cluster).build())) {
      source.subscribe(
          (previous, current) -> {
            long now = System.nanoTime();
            lines.add("rev " + current.revision() + " " + now);
          });
      long first = source.start().toCompletableFuture().get(30, TimeUnit.SECONDS).revision();
      lines.add("ready " + first);
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.startsWith("clock ")) {
          long now = System.nanoTime();
          lines.add("clock " + line.substring("clock ".length()).trim() + " " + now);
        } else if (line.equals("quit")) {
          break;
        }
      }
    }
    // the writer drains what is queued, then stops
    lines.add(END);
    writer.join(5000);
  }
}
