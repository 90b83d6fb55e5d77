package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.CommandTimeoutException;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.driver.RetriesExhaustedException;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.Ports;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * MOVED answers. Plain Redis never sends one, so the shard's leader here is a small RESP server
 * written for the test that answers every command but PING with {@code -MOVED <slot> <address>}. A
 * MOVED that names a node of the map is followed at once (also for a non-idempotent INCR: a MOVED
 * means the command did not run); one that names an unknown address makes the command wait for a
 * newer map, bounded by its deadline.
 */
class DriverMovedIT {

  private static final int SHARDS = 16;

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  @Test
  void should_follow_a_moved_answer_that_names_a_known_node() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "moved", SHARDS, 2, 0);
    String key = "{moved}:key";
    int shard = Xxh64JumpRouter.forShards(SHARDS).shardOfUtf8(key);
    // The real owner after the redirect: the leader that does not lead this shard in the map
    int target = 1 - shard % 2;
    cluster.leader(target).call("SET", key, "on-the-target");
    try (MovedServer moved = MovedServer.start(cluster.leader(target).address())) {
      pointShardAt(cluster, shard, moved);
      SimpleMeterRegistry meters = new SimpleMeterRegistry();
      JumpgateCommands<String, String> redis =
          client(cluster, Duration.ofSeconds(2), meters).connect().sync();

      assertThat(redis.get(key)).isEqualTo("on-the-target");
      assertThat(redis.incr("{moved}:counter")).isEqualTo(1L);

      assertThat(cluster.leader(target).call("GET", "{moved}:counter")).isEqualTo("1");
      assertThat(moved.commands()).contains("GET " + key, "INCR {moved}:counter");
      assertThat(meters.get("jumpgate.redirects").counter().count()).isEqualTo(2.0);
    }
  }

  @Test
  void should_wait_for_a_newer_map_when_moved_names_an_unknown_address_then_give_up_at_deadline()
      throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "moved", SHARDS, 2, 0);
    String key = "{moved}:key";
    int shard = Xxh64JumpRouter.forShards(SHARDS).shardOfUtf8(key);
    String nowhere = "127.0.0.1:" + Ports.free();
    try (MovedServer moved = MovedServer.start(nowhere)) {
      pointShardAt(cluster, shard, moved);
      Duration timeout = Duration.ofMillis(1500);
      JumpgateCommands<String, String> redis =
          client(cluster, timeout, new SimpleMeterRegistry()).connect().sync();

      long start = System.nanoTime();
      assertThatThrownBy(() -> redis.get(key))
          .isInstanceOfAny(CommandTimeoutException.class, RetriesExhaustedException.class)
          .hasMessageContaining("MOVED");
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      // It waited for a newer map instead of failing at once, and not past its deadline (the
      // margin is for a loaded 2-core machine)
      assertThat(took).isBetween(Duration.ofMillis(200), timeout.plusMillis(750));
      // The GET was sent to the MOVED server, not to the address it named
      assertThat(moved.commands()).contains("GET " + key);
    }
  }

  private JumpgateClient client(
      LocalCluster cluster, Duration timeout, SimpleMeterRegistry meters) {
    return fixture.register(
        JumpgateClient.create(
            JumpgateOptions.builder()
                .etcd(
                    io.jumpgate.topology.EtcdTopologyOptions.builder()
                        .endpoints(cluster.etcd().endpointList())
                        .cluster(cluster.cluster())
                        .build())
                .commandTimeout(timeout)
                .meterRegistry(meters)
                .build()));
  }

  private static void pointShardAt(LocalCluster cluster, int shard, MovedServer moved)
      throws Exception {
    cluster.putValues(
        Map.of(
            "nodes/mover",
            "{\"host\":\"127.0.0.1\",\"port\":" + moved.port() + "}",
            LocalCluster.shardKey(shard),
            LocalCluster.assignmentJson("mover", List.of(), 1)));
  }

  /** Answers PING with PONG and every other command with a MOVED to {@code address}. */
  private static final class MovedServer implements AutoCloseable {
    private final ServerSocket socket;
    private final String address;
    private final ConcurrentLinkedQueue<String> commands = new ConcurrentLinkedQueue<>();
    private final List<Socket> connections = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private MovedServer(ServerSocket socket, String address) {
      this.socket = socket;
      this.address = address;
    }

    static MovedServer start(String address) throws IOException {
      MovedServer server =
          new MovedServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), address);
      Thread accept = new Thread(server::acceptLoop, "moved-server-accept");
      accept.setDaemon(true);
      accept.start();
      return server;
    }

    int port() {
      return socket.getLocalPort();
    }

    List<String> commands() {
      assertThat(failure.get()).as("the MOVED server's own failure").isNull();
      return List.copyOf(commands);
    }

    private void acceptLoop() {
      while (!socket.isClosed()) {
        try {
          Socket connection = socket.accept();
          synchronized (connections) {
            connections.add(connection);
          }
          Thread serve = new Thread(() -> serve(connection), "moved-server-connection");
          serve.setDaemon(true);
          serve.start();
        } catch (IOException closed) {
          return;
        }
      }
    }

    private void serve(Socket connection) {
      try (connection;
          InputStream in = new BufferedInputStream(connection.getInputStream());
          OutputStream out = connection.getOutputStream()) {
        while (true) {
          List<String> command = readCommand(in);
          if (command == null) {
            return;
          }
          String name = command.get(0).toUpperCase(java.util.Locale.ROOT);
          if (name.equals("PING")) {
            out.write("+PONG\r\n".getBytes(StandardCharsets.US_ASCII));
          } else {
            commands.add(String.join(" ", command));
            out.write(("-MOVED 0 " + address + "\r\n").getBytes(StandardCharsets.US_ASCII));
          }
          out.flush();
        }
      } catch (IOException e) {
        if (!socket.isClosed()) {
          failure.compareAndSet(null, e);
        }
      }
    }

    /** One RESP array of bulk strings, or null at the end of the stream. */
    private static List<String> readCommand(InputStream in) throws IOException {
      String header = readLine(in);
      if (header == null) {
        return null;
      }
      if (header.charAt(0) != '*') {
        throw new IOException("expected an array, got " + header);
      }
      int count = Integer.parseInt(header.substring(1));
      List<String> parts = new ArrayList<>(count);
      for (int index = 0; index < count; index++) {
        String length = readLine(in);
        if (length == null || length.charAt(0) != '$') {
          throw new IOException("expected a bulk string, got " + length);
        }
        byte[] data = in.readNBytes(Integer.parseInt(length.substring(1)) + 2);
        parts.add(new String(data, 0, data.length - 2, StandardCharsets.UTF_8));
      }
      return parts;
    }

    private static String readLine(InputStream in) throws IOException {
      StringBuilder line = new StringBuilder();
      int previous = -1;
      while (true) {
        int next = in.read();
        if (next < 0) {
          return null;
        }
        if (previous == '\r' && next == '\n') {
          line.setLength(line.length() - 1);
          return line.toString();
        }
        line.append((char) next);
        previous = next;
      }
    }

    @Override
    public void close() throws IOException {
      socket.close();
      synchronized (connections) {
        for (Socket connection : connections) {
          connection.close();
        }
      }
    }
  }
}
