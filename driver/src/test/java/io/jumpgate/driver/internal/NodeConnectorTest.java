package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.driver.ScriptedRespServer;
import io.jumpgate.driver.ScriptedRespServer.Reply;
import io.jumpgate.spi.Node;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisCredentialsProvider;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The node connections' settings, as behaviour: against a {@link ScriptedRespServer} on loopback (a
 * real Lettuce connection, a fake server), with every wait bounded.
 */
class NodeConnectorTest {

  private static final Duration WAIT = Duration.ofSeconds(5);

  private static final Node NODE = Node.of("n0", "127.0.0.1", 7000);
  private static ClientResources resources;

  @BeforeAll
  static void start() {
    resources = DefaultClientResources.builder().ioThreadPoolSize(1).build();
  }

  @AfterAll
  static void stop() {
    resources.shutdown();
  }

  @Test
  void should_give_lettuce_immediate_credentials_when_an_acl_user_is_set() {
    // Lettuce continues the handshake on another thread for any other provider, and may then hand
    // out the connection before it is active: its first command fails as "not connected".
    RedisURI uri =
        uri(
            JumpgateOptions.builder()
                .topologySource(DispatcherHarness.unusedSource())
                .redisCredentials("app", "secret"));

    RedisCredentialsProvider provider = uri.getCredentialsProvider();
    assertThat(provider)
        .isInstanceOf(RedisCredentialsProvider.ImmediateRedisCredentialsProvider.class);
    RedisCredentials credentials =
        ((RedisCredentialsProvider.ImmediateRedisCredentialsProvider) provider)
            .resolveCredentialsNow();
    assertThat(credentials.getUsername()).isEqualTo("app");
    assertThat(credentials.getPassword()).containsExactly("secret".toCharArray());
  }

  @Test
  void should_give_lettuce_immediate_credentials_when_only_a_password_is_set() {
    RedisURI uri =
        uri(
            JumpgateOptions.builder()
                .topologySource(DispatcherHarness.unusedSource())
                .redisPassword("secret"));

    RedisCredentialsProvider provider = uri.getCredentialsProvider();
    assertThat(provider)
        .isInstanceOf(RedisCredentialsProvider.ImmediateRedisCredentialsProvider.class);
    RedisCredentials credentials =
        ((RedisCredentialsProvider.ImmediateRedisCredentialsProvider) provider)
            .resolveCredentialsNow();
    assertThat(credentials.hasUsername()).isFalse();
    assertThat(credentials.getPassword()).containsExactly("secret".toCharArray());
  }

  @Test
  void should_name_the_connection_and_send_no_library_name() {
    NodeConnector connector =
        new NodeConnector(
            resources,
            JumpgateOptions.builder().topologySource(DispatcherHarness.unusedSource()).build(),
            "jumpgate:c1");

    RedisURI uri = connector.uri(NODE);

    assertThat(uri.getClientName()).isEqualTo("jumpgate:c1");
    assertThat(uri.getHost()).isEqualTo("127.0.0.1");
    assertThat(uri.getPort()).isEqualTo(7000);
    assertThat(uri.getLibraryName()).isEmpty();
    assertThat(uri.getCredentialsProvider())
        .isInstanceOf(RedisCredentialsProvider.ImmediateRedisCredentialsProvider.class);
  }

  // ---- connections, against a fake server ------------------------------------------------------

  @Test
  void should_time_a_command_out_at_what_is_left_of_its_own_deadline() throws Exception {
    try (ScriptedRespServer server = ScriptedRespServer.start().otherwise(Reply.none())) {
      NodeConnector connector = connector(options().commandTimeout(Duration.ofSeconds(30)));
      StatefulRedisConnection<byte[], byte[]> connection = open(connector, server);
      long start = System.nanoTime();

      TimedCommand command = new TimedCommand("k", Duration.ofMillis(300), false);
      connection.dispatch(command);

      // not the 30 s command timeout: the 300 ms left of this command's deadline
      assertThat(failureWithin(command, WAIT)).isInstanceOf(RedisCommandTimeoutException.class);
      assertThat(System.nanoTime() - start)
          .isGreaterThanOrEqualTo(Duration.ofMillis(250).toNanos());
      connector.shutdownAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  @Test
  void should_arm_no_timer_for_a_command_whose_blocked_caller_watches_its_deadline()
      throws Exception {
    try (ScriptedRespServer server = ScriptedRespServer.start().otherwise(Reply.none())) {
      NodeConnector connector = connector(options());
      StatefulRedisConnection<byte[], byte[]> connection = open(connector, server);

      TimedCommand watched = new TimedCommand("watched", Duration.ofMillis(100), true);
      TimedCommand timed = new TimedCommand("timed", Duration.ofMillis(400), false);
      connection.dispatch(watched);
      connection.dispatch(timed);

      // a timer for the watched one would have fired 300 ms before this one's
      assertThat(failureWithin(timed, WAIT)).isInstanceOf(RedisCommandTimeoutException.class);
      assertThat(watched).isNotDone();
      connector.shutdownAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  @Test
  void should_fail_a_command_in_flight_when_its_connection_drops_and_never_send_it_again()
      throws Exception {
    try (ScriptedRespServer server =
        ScriptedRespServer.start()
            .otherwise(index -> index == 0 ? Reply.closeConnection() : Reply.with("+OK\r\n"))) {
      NodeConnector connector = connector(options().commandTimeout(Duration.ofSeconds(30)));
      StatefulRedisConnection<byte[], byte[]> connection = open(connector, server);

      TimedCommand lost = new TimedCommand("lost", Duration.ofSeconds(30), false);
      connection.dispatch(lost);

      // fails at once with the disconnection, not at its deadline: its fate is unknown
      Throwable failure = failureWithin(lost, WAIT);
      assertThat(failure).isInstanceOf(RedisException.class);
      assertThat(failure).isNotInstanceOf(RedisCommandTimeoutException.class);
      // Lettuce reconnects by itself; what it then sends is only what is sent from now on
      server.awaitConnections(2, WAIT);
      awaitTrue(connection::isOpen, "the connection to reopen");
      TimedCommand after = new TimedCommand("after", Duration.ofSeconds(5), false);
      connection.dispatch(after);
      assertThat(after.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("OK");
      assertThat(server.commands(1)).containsExactly(List.of("GET", "after"));
      connector.shutdownAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  @Test
  void should_refuse_a_command_at_once_while_the_node_is_unreachable() throws Exception {
    try (ScriptedRespServer server =
        ScriptedRespServer.start().otherwise(Reply.closeConnection())) {
      NodeConnector connector = connector(options().commandTimeout(Duration.ofSeconds(30)));
      StatefulRedisConnection<byte[], byte[]> connection = open(connector, server);
      server.stopAccepting();
      TimedCommand lost = new TimedCommand("lost", Duration.ofSeconds(30), false);
      connection.dispatch(lost);
      failureWithin(lost, WAIT);

      TimedCommand refused = new TimedCommand("refused", Duration.ofSeconds(30), false);
      connection.dispatch(refused);

      // not parked until the node is back (or for its 30 s deadline)
      Throwable failure = failureWithin(refused, WAIT);
      assertThat(failure).isInstanceOf(RedisException.class);
      assertThat(failure).isNotInstanceOf(RedisCommandTimeoutException.class);
      assertThat(server.commands(0)).containsExactly(List.of("GET", "lost"));
      connector.shutdownAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  @Test
  void should_refuse_a_command_beyond_the_request_queue_at_once() throws Exception {
    try (ScriptedRespServer server = ScriptedRespServer.start().otherwise(Reply.none())) {
      NodeConnector connector = connector(options().requestQueueSize(2));
      StatefulRedisConnection<byte[], byte[]> connection = open(connector, server);

      connection.dispatch(new TimedCommand("1", Duration.ofSeconds(30), false));
      connection.dispatch(new TimedCommand("2", Duration.ofSeconds(30), false));
      TimedCommand third = new TimedCommand("3", Duration.ofSeconds(30), false);
      connection.dispatch(third);

      // refused by the connection's queue, or, once the first two were written, by its stack of
      // commands awaiting an answer: both bounded by requestQueueSize
      Throwable failure = failureWithin(third, WAIT);
      assertThat(failure).isInstanceOf(RedisException.class);
      assertThat(failure.getMessage())
          .containsAnyOf("Request queue size exceeded: 2", "Internal stack size exceeded: 2");
      connector.shutdownAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  @Test
  void should_send_the_connection_name_in_the_handshake_and_no_library_name() throws Exception {
    try (ScriptedRespServer server = ScriptedRespServer.start().otherwise(Reply.with("+OK\r\n"))) {
      NodeConnector connector = new NodeConnector(resources, options().build(), "jumpgate:c1");
      open(connector, server);

      assertThat(server.commands(0)).contains(List.of("CLIENT", "SETNAME", "jumpgate:c1"));
      assertThat(server.commands(0)).noneMatch(command -> command.contains("SETINFO"));
      connector.shutdownAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  @Test
  void should_name_the_node_when_its_port_refuses_the_connect() throws Exception {
    int port;
    try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = closed.getLocalPort();
    }
    NodeConnector connector = connector(options());

    Throwable failure =
        catchThrowable(
            () ->
                connector
                    .connect(Node.of("n9", "127.0.0.1", port))
                    .get(WAIT.toSeconds(), TimeUnit.SECONDS));

    assertThat(failure).isInstanceOf(ExecutionException.class);
    assertThat(failure.getCause())
        .isInstanceOf(RedisConnectionException.class)
        .hasMessageStartingWith("cannot connect to node n9 (127.0.0.1:" + port + "): ");
    connector.shutdownAsync().get(WAIT.toSeconds(), TimeUnit.SECONDS);
  }

  // ---- why a connect failed
  // ----------------------------------------------------------------------

  @Test
  void should_say_the_credentials_were_refused_without_the_exception_class() {
    String message =
        NodeConnector.connectFailure(
            NODE,
            false,
            new RedisConnectionException(
                "Unable to connect",
                new RedisCommandExecutionException("WRONGPASS invalid username-password pair")));

    assertThat(message)
        .isEqualTo(
            "cannot connect to node n0 (127.0.0.1:7000): "
                + "the node refused the credentials (redis username and password)");
  }

  @Test
  void should_say_which_tls_file_to_look_at_when_the_handshake_fails() {
    assertThat(
            NodeConnector.connectFailure(
                NODE,
                true,
                new RedisConnectionException(
                    "Unable to connect",
                    new SSLHandshakeException(
                        "PKIX path building failed: unable to find valid certification path"))))
        .startsWith(
            "cannot connect to node n0 (127.0.0.1:7000, TLS): the node's certificate is"
                + " not signed by a trusted CA (redis CA certificate): SSLHandshakeException: PKIX");
    assertThat(
            NodeConnector.connectFailure(
                NODE, true, new SSLHandshakeException("Received fatal alert: unknown_ca")))
        .contains("the node refused the client certificate, or wants one");
    assertThat(
            NodeConnector.connectFailure(
                NODE, true, new SSLHandshakeException("No subject alternative names present")))
        .contains("the node's certificate does not name its host");
  }

  @Test
  void should_give_the_root_cause_when_the_reason_is_not_known() {
    assertThat(
            NodeConnector.connectFailure(
                NODE,
                false,
                new RedisConnectionException(
                    "Unable to connect to 127.0.0.1:7000", new IOException("Connection refused"))))
        .isEqualTo("cannot connect to node n0 (127.0.0.1:7000): IOException: Connection refused");
  }

  /** A GET with a deadline of its own, as the driver's tries have. */
  private static final class TimedCommand extends AsyncCommand<byte[], byte[], String>
      implements HasDeadline {
    private final long deadlineNanos;
    private final boolean watchedByCaller;

    TimedCommand(String key, Duration left, boolean watchedByCaller) {
      super(
          new Command<>(
              CommandType.GET,
              new StatusOutput<>(ByteArrayCodec.INSTANCE),
              new CommandArgs<>(ByteArrayCodec.INSTANCE)
                  .addKey(key.getBytes(StandardCharsets.UTF_8))));
      this.deadlineNanos = System.nanoTime() + left.toNanos();
      this.watchedByCaller = watchedByCaller;
    }

    @Override
    public long deadlineNanos() {
      return deadlineNanos;
    }

    @Override
    public boolean deadlineWatchedByCaller() {
      return watchedByCaller;
    }
  }

  private static JumpgateOptions.Builder options() {
    return JumpgateOptions.builder()
        .topologySource(DispatcherHarness.unusedSource())
        .connectTimeout(WAIT);
  }

  private static NodeConnector connector(JumpgateOptions.Builder options) {
    return new NodeConnector(resources, options.build());
  }

  private static StatefulRedisConnection<byte[], byte[]> open(
      NodeConnector connector, ScriptedRespServer server) throws Exception {
    return connector
        .connect(Node.of("fake", "127.0.0.1", server.port()))
        .get(WAIT.toSeconds(), TimeUnit.SECONDS);
  }

  /** How the command failed, waiting for it at most {@code wait}. */
  private static Throwable failureWithin(AsyncCommand<?, ?, ?> command, Duration wait)
      throws InterruptedException {
    try {
      Object value = command.get(wait.toMillis(), TimeUnit.MILLISECONDS);
      throw new AssertionError(command + " was answered (" + value + "), expected it to fail");
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (TimeoutException e) {
      throw new AssertionError(command + " neither failed nor was answered within " + wait);
    }
  }

  private static void awaitTrue(BooleanSupplier condition, String what) {
    long end = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - end > 0) {
        throw new AssertionError("waited " + WAIT + " for " + what);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }

  private static RedisURI uri(JumpgateOptions.Builder options) {
    return new NodeConnector(resources, options.build()).uri(NODE);
  }
}
