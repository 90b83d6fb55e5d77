package io.jumpgate.topology;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.etcd.jetcd.common.exception.EtcdException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.internal.GrpcLogging;
import io.jumpgate.topology.internal.GrpcRuntimeCheck;
import io.jumpgate.topology.internal.WatchCallExecutor;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * Builds jetcd clients from {@link EtcdTopologyOptions} (endpoints, credentials, TLS), and names
 * etcd failures in one line. What the driver's client registration, the CLI and the admin use to
 * reach etcd the same way the topology source does.
 *
 * <p>Every jetcd client of the project (the driver's topology source and registry lease, the admin,
 * the CLI, the mover) is built here, with one set of gRPC keepalive settings that etcd's default
 * ping enforcement never refuses ({@link #KEEPALIVE_TIME}, {@link #KEEPALIVE_TIMEOUT}, {@link
 * #KEEPALIVE_WITHOUT_CALLS}; docs/topology.md "Connection keepalive"), and gRPC's java.util.logging
 * routed to SLF4J ({@link GrpcLogging}).
 *
 * <p>Defaults: the connect timeout is the options' {@code requestTimeout}; unary calls do not wait
 * for a ready connection; one answer may be up to {@link #MAX_INBOUND_BYTES}. Stateless and
 * thread-safe; the caller owns (and closes) every client it gets.
 */
public final class EtcdClients {

  /** The largest etcd answer accepted: room for the largest map (65536 shards, 1000s of nodes). */
  public static final int MAX_INBOUND_BYTES = 256 << 20;

  /**
   * Time without reads on a connection with a call open before gRPC pings etcd: twice etcd's
   * default {@code --grpc-keepalive-min-time} (5 s), and gRPC's own floor (it raises anything lower
   * to 10 s). A dead etcd under an open watch or lease keep-alive is found within {@code
   * KEEPALIVE_TIME + KEEPALIVE_TIMEOUT}.
   */
  public static final Duration KEEPALIVE_TIME = Duration.ofSeconds(10);

  /** How long gRPC waits for the answer to its ping before it closes the connection. */
  public static final Duration KEEPALIVE_TIMEOUT = Duration.ofSeconds(10);

  /**
   * No pings on a connection without an open call. etcd's servers refuse those ({@code
   * PermitWithoutStream} is false): each ping within 2 hours of the last one on a connection with
   * no stream is a strike, and the third strike ends the connection with {@code GOAWAY
   * ENHANCE_YOUR_CALM too_many_pings}, after which gRPC doubles its keepalive time (jetcd issue
   * 1075 reports watches that stop after it). jetcd's default is true: an admin connection idle for
   * 4 keepalive periods was closed that way.
   */
  public static final boolean KEEPALIVE_WITHOUT_CALLS = false;

  private EtcdClients() {}

  /**
   * A jetcd client for the options' endpoints, credentials and TLS material, with the keepalive
   * settings above. Unary calls do not wait for a ready connection (callers bound them with their
   * own timeout and retry).
   *
   * @throws io.jumpgate.topology.GrpcRuntimeMissingException if the class path lacks a piece of
   *     gRPC's runtime that jetcd needs ({@link GrpcRuntimeCheck})
   * @throws TopologyUnavailableException if the TLS material cannot be read
   */
  public static Client create(EtcdTopologyOptions options) {
    return builder(options).build();
  }

  /**
   * A client as {@link #create} builds it, whose watch streams deliver their messages on {@code
   * watchCallbacks} instead of gRPC's shared executor ({@link WatchCallExecutor}); its other calls
   * keep gRPC's executor. For a topology source that owns its client: the executor is its topology
   * thread.
   */
  static Client createWithWatchCallbacksOn(EtcdTopologyOptions options, Executor watchCallbacks) {
    return builder(options).interceptor(new WatchCallExecutor(watchCallbacks)).build();
  }

  private static ClientBuilder builder(EtcdTopologyOptions options) {
    GrpcRuntimeCheck.check();
    GrpcLogging.routeToSlf4j();
    ClientBuilder builder =
        Client.builder()
            .endpoints(options.endpoints().toArray(URI[]::new))
            .connectTimeout(options.requestTimeout())
            .waitForReady(false)
            .keepaliveTime(KEEPALIVE_TIME)
            .keepaliveTimeout(KEEPALIVE_TIMEOUT)
            .keepaliveWithoutCalls(KEEPALIVE_WITHOUT_CALLS)
            // A 65536-shard map lists as ~6.5 MB: above gRPC's 4 MiB default for one answer.
            .maxInboundMessageSize(MAX_INBOUND_BYTES);
    options
        .username()
        .ifPresent(user -> builder.user(ByteSequence.from(user, StandardCharsets.UTF_8)));
    options
        .password()
        .ifPresent(
            password -> builder.password(ByteSequence.from(password, StandardCharsets.UTF_8)));
    if (options.caCertificate().isPresent() || options.clientCertificate().isPresent()) {
      try {
        builder.sslContext(
            ssl -> {
              options.caCertificate().ifPresent(ca -> ssl.trustManager(ca.toFile()));
              options
                  .clientCertificate()
                  .ifPresent(
                      certificate ->
                          ssl.keyManager(
                              certificate.toFile(), options.clientKey().orElseThrow().toFile()));
            });
      } catch (SSLException | IllegalArgumentException e) {
        throw new TopologyUnavailableException(
            "cannot use the TLS files for etcd at " + options.endpointList() + ": " + describe(e),
            e);
      }
    }
    return builder;
  }

  /** Whether etcd refused the credentials or the permissions: retrying will not help. */
  public static boolean isAuthenticationFailure(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      Status.Code code = null;
      if (cause instanceof StatusRuntimeException statusError) {
        code = statusError.getStatus().getCode();
      }
      if (code == Status.Code.UNAUTHENTICATED || code == Status.Code.PERMISSION_DENIED) {
        return true;
      }
      String message = cause.getMessage();
      if (message != null) {
        String lower = message.toLowerCase(Locale.ROOT);
        if (lower.contains("authentication failed")
            || lower.contains("permission denied")
            || lower.contains("user name is empty")
            || lower.contains("invalid auth token")) {
          return true;
        }
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }

  /** Whether an etcd call failed only because its answer did not come in time. */
  static boolean isTimeout(Throwable error) {
    return unwrap(error) instanceof TimeoutException;
  }

  private static Throwable unwrap(Throwable error) {
    Throwable cause = error;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  /** A one-line description of an etcd failure, without wrapper noise. Never holds a secret. */
  public static String describe(Throwable error) {
    Throwable cause = unwrap(error);
    if (cause instanceof TimeoutException) {
      return "no answer in time";
    }
    if (cause instanceof EtcdException etcdError) {
      return etcdError.getErrorCode() + ": " + etcdError.getMessage();
    }
    String message = cause.getMessage();
    if (message != null && message.contains("\nChannel Pipeline:")) {
      // gRPC appends the Netty pipeline on a line of its own: noise for a reader.
      message = message.substring(0, message.indexOf("\nChannel Pipeline:"));
    }
    String text = cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    // gRPC says "UNAVAILABLE: io exception" or "ssl exception": the reason is in its cause.
    Throwable root = cause;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (root != cause && root.getMessage() != null && !text.contains(root.getMessage())) {
      text +=
          " (" + tlsHint(root) + root.getClass().getSimpleName() + ": " + root.getMessage() + ")";
    }
    return text;
  }

  /** What a TLS failure usually means, before its own words. */
  private static String tlsHint(Throwable root) {
    String message = root.getMessage().toLowerCase(Locale.ROOT);
    if (message.contains("pkix") || message.contains("unable to find valid certification path")) {
      return "the server's certificate is not signed by a trusted CA: ";
    }
    if (message.contains("certificate_required") || message.contains("bad_certificate")) {
      return "the server wants a client certificate it trusts: ";
    }
    return "";
  }
}
