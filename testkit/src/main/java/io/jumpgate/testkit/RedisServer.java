package io.jumpgate.testkit;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

/**
 * A redis-server on 127.0.0.1:{@link #port()} (its TLS port with {@link Tls}), in a dir of its own:
 * no persistence ({@code --save '' --appendonly no}), {@code --protected-mode no}, {@code
 * --repl-diskless-sync-delay 0} (a replica syncs at once), its dir as {@code --dir}. Ready when
 * PING answers PONG (or NOAUTH, when the default user is off and the probe has no user). Made by
 * {@link #builder(Path)}; the lifecycle (start, stop, SIGSTOP/SIGCONT, kill -9, restart on the same
 * port and dir, the log in errors) is {@link LocalServer}'s.
 *
 * <p>Defaults: a free port below the ephemeral range ({@link FreePorts}), no TLS, no ACL user, a
 * leader (no {@code --replicaof}), a 20 s ready timeout. Thread-safe like {@link LocalServer}.
 */
public final class RedisServer extends LocalServer {

  /**
   * TLS: {@code --port 0 --tls-port <port>} with a server certificate of {@code authority} (for
   * 127.0.0.1), {@code --tls-ca-cert-file} the authority's CA, {@code --tls-auth-clients yes|no}
   * and {@code --tls-replication yes} (a TLS replica follows a TLS leader). The probe and {@link
   * #call} connect with TLS, trusting the authority and presenting a client certificate of it (CN
   * {@code <name>-probe}). Immutable.
   */
  public record Tls(TestCertificates authority, boolean authClients) {
    /** Checks the authority is there. */
    public Tls {
      Objects.requireNonNull(authority, "authority");
    }
  }

  private static final AtomicInteger COUNTER = new AtomicInteger();

  private final int port;
  private final Tls tls;
  private final String username;
  private final String password;
  private final int replicaOfPort;
  private final List<String> extraArgs;
  private final TestCertificates.CertificateFiles serverCertificate;
  private final SSLContext probeContext;

  private RedisServer(Builder builder, String name) {
    super(name, builder.parentDir.resolve(name), Program.REDIS_SERVER, builder.readyTimeout);
    this.port = builder.port > 0 ? builder.port : FreePorts.next();
    this.tls = builder.tls;
    this.username = builder.username;
    this.password = builder.password;
    this.replicaOfPort = builder.replicaOfPort;
    this.extraArgs = List.copyOf(builder.extraArgs);
    if (tls != null) {
      this.serverCertificate = tls.authority().server(name);
      this.probeContext = tls.authority().sslContext(tls.authority().client(name + "-probe"));
    } else {
      this.serverCertificate = null;
      this.probeContext = null;
    }
  }

  /** A builder of a redis-server whose dir goes below {@code parentDir}. */
  public static Builder builder(Path parentDir) {
    return new Builder(parentDir);
  }

  /** The port clients connect to (the TLS port with {@link Tls}). */
  public int port() {
    return port;
  }

  /** {@code 127.0.0.1:<port>} */
  public String address() {
    return "127.0.0.1:" + port;
  }

  /** {@code redis://127.0.0.1:<port>} */
  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  /** The TLS settings, or null for a plain redis-server. */
  public Tls tls() {
    return tls;
  }

  /**
   * Sends one command on a new connection (with TLS and the ACL user when set), waiting at most
   * {@link Resp#DEFAULT_TIMEOUT}.
   */
  public Object call(String... command) throws IOException {
    return call(Resp.DEFAULT_TIMEOUT, command);
  }

  /** Sends one command on a new connection with the given connect and read timeout. */
  public Object call(Duration timeout, String... command) throws IOException {
    try (Resp.Connection connection = connect(timeout)) {
      return connection.call(command);
    }
  }

  /** A raw RESP connection (close it), authenticated when an ACL user was set. */
  public Resp.Connection connect(Duration timeout) throws IOException {
    Resp.Connection connection = Resp.connect(port, timeout, probeContext);
    if (username != null) {
      Object reply = connection.call("AUTH", username, password);
      if (reply instanceof Resp.Error error) {
        connection.close();
        throw new IOException("AUTH " + username + " on " + address() + ": " + error.message());
      }
    }
    return connection;
  }

  @Override
  protected List<String> args() {
    List<String> args = new ArrayList<>();
    if (tls == null) {
      args.addAll(List.of("--port", Integer.toString(port)));
    } else {
      args.addAll(List.of("--port", "0", "--tls-port", Integer.toString(port)));
      args.addAll(List.of("--tls-cert-file", serverCertificate.certificate().toString()));
      args.addAll(List.of("--tls-key-file", serverCertificate.key().toString()));
      args.addAll(List.of("--tls-ca-cert-file", tls.authority().caCertificate().toString()));
      args.addAll(List.of("--tls-auth-clients", tls.authClients() ? "yes" : "no"));
      args.addAll(List.of("--tls-replication", "yes"));
    }
    args.addAll(List.of("--bind", "127.0.0.1", "--save", "", "--appendonly", "no"));
    args.addAll(List.of("--dir", dir().toString(), "--protected-mode", "no"));
    args.addAll(List.of("--daemonize", "no", "--logfile", ""));
    // Redis waits 5 s by default before a diskless full sync; replicas must sync at once.
    args.addAll(List.of("--repl-diskless-sync-delay", "0"));
    if (username != null) {
      args.addAll(List.of("--user", username, "on", ">" + password, "~*", "&*", "+@all"));
      args.addAll(List.of("--user", "default", "off"));
    }
    if (replicaOfPort > 0) {
      args.addAll(List.of("--replicaof", "127.0.0.1", Integer.toString(replicaOfPort)));
      if (username != null) {
        args.addAll(List.of("--masteruser", username, "--masterauth", password));
      }
    }
    args.addAll(extraArgs);
    return args;
  }

  @Override
  protected boolean probeReady() throws IOException {
    Object reply = call(Duration.ofSeconds(1), "PING");
    // With ACL users and the default user off, a server that answers NOAUTH is up too.
    return "PONG".equals(reply)
        || (reply instanceof Resp.Error error && error.message().startsWith("NOAUTH"));
  }

  @Override
  protected String readiness() {
    return "answer PING with PONG (or NOAUTH) on "
        + address()
        + (tls == null ? "" : " over TLS (CA " + tls.authority().name() + ")");
  }

  /**
   * Settings of a {@link RedisServer}. Not thread-safe; setters check their value at once and throw
   * {@link IllegalArgumentException} naming it.
   */
  public static final class Builder {
    private final Path parentDir;
    private String name;
    private int port;
    private Tls tls;
    private String username;
    private String password;
    private int replicaOfPort;
    private final List<String> extraArgs = new ArrayList<>();
    private Duration readyTimeout = DEFAULT_READY_TIMEOUT;

    private Builder(Path parentDir) {
      this.parentDir = Objects.requireNonNull(parentDir, "parentDir");
    }

    /** The name in messages and of its dir; default {@code redis<n>}, n counting in this JVM. */
    public Builder name(String name) {
      if (name == null || !name.matches("[A-Za-z0-9][A-Za-z0-9_.-]*")) {
        throw new IllegalArgumentException("redis server name must be a word, was '" + name + "'");
      }
      this.name = name;
      return this;
    }

    /** The port (1 to 65535); default a free one. */
    public Builder port(int port) {
      if (port < 1 || port > 65_535) {
        throw new IllegalArgumentException("port must be between 1 and 65535, was " + port);
      }
      this.port = port;
      return this;
    }

    /** Serve TLS only; default plain. */
    public Builder tls(Tls tls) {
      this.tls = Objects.requireNonNull(tls, "tls");
      return this;
    }

    /**
     * Require this ACL user (all keys, channels and commands) and turn the default user off; a
     * replica authenticates to its leader with it, and the probe and {@link #call} log in with it.
     */
    public Builder user(String username, String password) {
      if (username == null || username.isBlank() || username.contains(" ")) {
        throw new IllegalArgumentException(
            "redis username must be a non-blank word, was '" + username + "'");
      }
      if (username.equals("default")) {
        throw new IllegalArgumentException("redis username must not be 'default'");
      }
      if (password == null || password.isEmpty() || password.contains(" ")) {
        throw new IllegalArgumentException("redis password must be a non-empty word");
      }
      this.username = username;
      this.password = password;
      return this;
    }

    /** {@code --replicaof 127.0.0.1 <leaderPort>}; default none (a leader). */
    public Builder replicaOf(int leaderPort) {
      if (leaderPort < 1 || leaderPort > 65_535) {
        throw new IllegalArgumentException(
            "leader port must be between 1 and 65535, was " + leaderPort);
      }
      this.replicaOfPort = leaderPort;
      return this;
    }

    /**
     * More redis-server arguments, after the testkit's own (so they override them), e.g. {@code
     * "--cluster-enabled", "yes"}.
     */
    public Builder config(String... args) {
      extraArgs.addAll(Arrays.asList(args));
      return this;
    }

    /** How long a start may take until PING answers; default 20 s. */
    public Builder readyTimeout(Duration timeout) {
      if (timeout == null || timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("ready timeout must be positive, was " + timeout);
      }
      this.readyTimeout = timeout;
      return this;
    }

    /** The server, not started yet ({@link RedisServer#start()}). */
    public RedisServer build() {
      return new RedisServer(this, name != null ? name : "redis" + COUNTER.incrementAndGet());
    }

    /**
     * Builds and starts the server and waits until it is ready; on a taken port, tries twice more
     * on new free ports (when no port was set).
     */
    public RedisServer start() {
      return startOnFreePorts(port > 0 ? 1 : 3, this::build);
    }
  }
}
