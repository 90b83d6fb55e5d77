package io.jumpgate.cli;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Tells at once whether every etcd endpoint refuses connections, so that a verb does not wait its
 * whole {@code --timeout} for a failure already known: one TCP connect per endpoint, each bounded
 * by {@link #CONNECT_TIMEOUT} (and all of them by the verb's timeout).
 *
 * <p>Only "connection refused" on every endpoint counts: an endpoint that accepts, that does not
 * answer within the bound, or whose host does not resolve leaves the decision to the etcd client,
 * within the verb's timeout as before. A refused connection is final for a CLI call: a verb does
 * not wait for an etcd that is still starting (run it again once etcd listens).
 *
 * <p>Stateless; the calling thread connects (never a Netty or jetcd event-loop thread).
 */
final class RefusedEndpoints {

  /** The bound on each endpoint's connect attempt. */
  static final Duration CONNECT_TIMEOUT = Duration.ofMillis(500);

  /** etcd's client port, for an endpoint URL without one. */
  private static final int DEFAULT_PORT = 2379;

  private RefusedEndpoints() {}

  /**
   * One connect attempt per endpoint.
   *
   * @param endpoints the etcd client URLs
   * @param limit the most all attempts together may take
   * @return when every endpoint refused: {@code connection refused by every endpoint
   *     (127.0.0.1:1)}; otherwise empty
   */
  static Optional<String> check(List<URI> endpoints, Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    List<String> refused = new ArrayList<>();
    for (URI endpoint : endpoints) {
      long remainingMillis = (deadline - System.nanoTime()) / 1_000_000;
      if (remainingMillis < 1 || endpoint.getHost() == null) {
        return Optional.empty();
      }
      int port = endpoint.getPort() < 0 ? DEFAULT_PORT : endpoint.getPort();
      int timeout = (int) Math.min(CONNECT_TIMEOUT.toMillis(), remainingMillis);
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress(endpoint.getHost(), port), timeout);
        return Optional.empty(); // it listens
      } catch (ConnectException e) {
        if (e.getMessage() == null || !e.getMessage().contains("refused")) {
          return Optional.empty();
        }
        refused.add(endpoint.getHost() + ":" + port);
      } catch (IOException | RuntimeException e) {
        return Optional.empty(); // a timeout, an unknown host: for the etcd client to report
      }
    }
    return Optional.of(
        (refused.size() == 1 ? "connection refused by " : "connection refused by every endpoint, ")
            + String.join(", ", refused));
  }
}
