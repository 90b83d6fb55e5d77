package io.jumpgate.driver;

import io.jumpgate.spi.TopologySource;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.lettuce.core.resource.ClientResources;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Everything a {@link JumpgateClient} is configured with.
 *
 * <p>Immutable and thread-safe; build with {@link #builder()}, derive with {@link #mutate()}. The
 * builder fails fast on a bad or conflicting value with a message that names the option. Exactly
 * one topology source is required: {@link Builder#etcd}, {@link Builder#topologyFile} or {@link
 * Builder#topologySource}. Defaults:
 *
 * <ul>
 *   <li>{@code readPolicy} {@link ReadPolicy#LEADER}
 *   <li>{@code commandTimeout} {@link #DEFAULT_COMMAND_TIMEOUT} (2 s): the deadline of a command,
 *       retries included
 *   <li>{@code connectTimeout} {@link #DEFAULT_CONNECT_TIMEOUT} (2 s) per node connection
 *   <li>{@code startTimeout} {@link #DEFAULT_START_TIMEOUT} (10 s) for the first topology
 *   <li>{@code retry} {@link RetryOptions#defaults()}
 *   <li>{@code retryPolicy} {@link RetryPolicy#standard()}: the rules of docs/driver.md, using the
 *       attempts, backoff and {@code acceptSecondRunReplies} of {@code retry}
 *   <li>{@code fanOutGrouping} {@link FanOutGrouping#BY_NODE}
 *   <li>{@code requestQueueSize} {@link #DEFAULT_REQUEST_QUEUE_SIZE} (10 000) per node connection
 *   <li>{@code freezeMaxRequests} {@link #DEFAULT_FREEZE_MAX_REQUESTS} (1 000) and {@code
 *       freezeMaxWait} {@link #DEFAULT_FREEZE_MAX_WAIT} (5 s): how many requests to shards frozen
 *       for a migration's cutover the client holds at once, and how long one is held at most
 *   <li>{@code connectionNames} on: every node connection is named {@code jumpgate:<client-id>}
 *       (CLIENT SETNAME), so that a mover can tell this client's connections apart; turn it off for
 *       RESP servers that refuse CLIENT SETNAME (twemproxy)
 *   <li>{@code writeCoalescing} on: the commands ready for one node within one turn of its event
 *       loop leave in one socket write (see {@link Builder#writeCoalescing})
 *   <li>no Redis credentials, no TLS, no client certificate, no zone, no warm-up, no shared {@code
 *       ClientResources} (the client makes and owns its own), no metrics
 *   <li>{@code registration} on when the topology is in etcd, with a {@code clientId} made per
 *       client
 * </ul>
 *
 * <p>{@link #toString()} never shows a password.
 */
public final class JumpgateOptions {

  public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(2);
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(2);
  public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(10);
  public static final int DEFAULT_REQUEST_QUEUE_SIZE = 10_000;
  public static final int DEFAULT_FREEZE_MAX_REQUESTS = 1_000;
  public static final Duration DEFAULT_FREEZE_MAX_WAIT = Duration.ofSeconds(5);

  private final Supplier<TopologySource> topologySource;
  private final String topologyDescription;
  private final EtcdTopologyOptions etcd;
  private final ReadPolicy readPolicy;
  private final RetryOptions retry;
  private final RetryPolicy retryPolicy;
  private final Duration commandTimeout;
  private final Duration connectTimeout;
  private final Duration startTimeout;
  private final String redisUsername;
  private final String redisPassword;
  private final boolean redisTls;
  private final Path redisCaCertificate;
  private final Path redisClientCertificate;
  private final Path redisClientKey;
  private final String zone;
  private final boolean warmUp;
  private final FanOutGrouping fanOutGrouping;
  private final int requestQueueSize;
  private final int freezeMaxRequests;
  private final Duration freezeMaxWait;
  private final boolean connectionNames;
  private final boolean writeCoalescing;
  private final ClientResources clientResources;
  private final Object meterRegistry;
  private final CommandListener commandListener;
  private final Boolean registration;
  private final String clientId;

  private JumpgateOptions(Builder builder) {
    this.topologySource = builder.topologySource;
    this.topologyDescription = builder.topologyDescription;
    this.etcd = builder.etcd;
    this.readPolicy = builder.readPolicy;
    this.retry = builder.retry;
    this.retryPolicy = builder.retryPolicy;
    this.commandTimeout = builder.commandTimeout;
    this.connectTimeout = builder.connectTimeout;
    this.startTimeout = builder.startTimeout;
    this.redisUsername = builder.redisUsername;
    this.redisPassword = builder.redisPassword;
    this.redisTls = builder.redisTls;
    this.redisCaCertificate = builder.redisCaCertificate;
    this.redisClientCertificate = builder.redisClientCertificate;
    this.redisClientKey = builder.redisClientKey;
    this.zone = builder.zone;
    this.warmUp = builder.warmUp;
    this.fanOutGrouping = builder.fanOutGrouping;
    this.requestQueueSize = builder.requestQueueSize;
    this.freezeMaxRequests = builder.freezeMaxRequests;
    this.freezeMaxWait = builder.freezeMaxWait;
    this.connectionNames = builder.connectionNames;
    this.writeCoalescing = builder.writeCoalescing;
    this.clientResources = builder.clientResources;
    this.meterRegistry = builder.meterRegistry;
    this.commandListener = builder.commandListener;
    this.registration = builder.registration;
    this.clientId = builder.clientId;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from these options. */
  public Builder mutate() {
    Builder builder = new Builder();
    builder.topologySource = topologySource;
    builder.topologyDescription = topologyDescription;
    builder.etcd = etcd;
    builder.readPolicy = readPolicy;
    builder.retry = retry;
    builder.retryPolicy = retryPolicy;
    builder.commandTimeout = commandTimeout;
    builder.connectTimeout = connectTimeout;
    builder.startTimeout = startTimeout;
    builder.redisUsername = redisUsername;
    builder.redisPassword = redisPassword;
    builder.redisTls = redisTls;
    builder.redisCaCertificate = redisCaCertificate;
    builder.redisClientCertificate = redisClientCertificate;
    builder.redisClientKey = redisClientKey;
    builder.zone = zone;
    builder.warmUp = warmUp;
    builder.fanOutGrouping = fanOutGrouping;
    builder.requestQueueSize = requestQueueSize;
    builder.freezeMaxRequests = freezeMaxRequests;
    builder.freezeMaxWait = freezeMaxWait;
    builder.connectionNames = connectionNames;
    builder.writeCoalescing = writeCoalescing;
    builder.clientResources = clientResources;
    builder.meterRegistry = meterRegistry;
    builder.commandListener = commandListener;
    builder.registration = registration;
    builder.clientId = clientId;
    return builder;
  }

  /** Makes the topology source; called once per client. */
  public TopologySource newTopologySource() {
    return topologySource.get();
  }

  /** The etcd settings, when the topology comes from etcd. */
  public Optional<EtcdTopologyOptions> etcd() {
    return Optional.ofNullable(etcd);
  }

  /** What the topology source reads, for messages. */
  public String topologyDescription() {
    return topologyDescription;
  }

  public ReadPolicy readPolicy() {
    return readPolicy;
  }

  public RetryOptions retry() {
    return retry;
  }

  /** Decides what follows a failed try; {@link RetryPolicy#standard()} unless one was set. */
  public RetryPolicy retryPolicy() {
    return retryPolicy;
  }

  public Duration commandTimeout() {
    return commandTimeout;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  public Duration startTimeout() {
    return startTimeout;
  }

  public Optional<String> redisUsername() {
    return Optional.ofNullable(redisUsername);
  }

  /** The Redis password; never logged or shown by {@link #toString()}. */
  public Optional<String> redisPassword() {
    return Optional.ofNullable(redisPassword);
  }

  public boolean redisTls() {
    return redisTls;
  }

  public Optional<Path> redisCaCertificate() {
    return Optional.ofNullable(redisCaCertificate);
  }

  /**
   * The PEM client certificate (chain) presented to nodes that require one ({@code tls-auth-clients
   * yes}), or empty; see {@link Builder#redisClientCertificate}.
   */
  public Optional<Path> redisClientCertificate() {
    return Optional.ofNullable(redisClientCertificate);
  }

  /** The PKCS#8 PEM key of {@link #redisClientCertificate()}, or empty. */
  public Optional<Path> redisClientKey() {
    return Optional.ofNullable(redisClientKey);
  }

  /** The client's zone, for {@link ReadPolicy#NEAREST}. */
  public Optional<String> zone() {
    return Optional.ofNullable(zone);
  }

  /** Whether to connect to every leader at start. */
  public boolean warmUp() {
    return warmUp;
  }

  public FanOutGrouping fanOutGrouping() {
    return fanOutGrouping;
  }

  public int requestQueueSize() {
    return requestQueueSize;
  }

  /** How many requests to frozen shards are held at once. */
  public int freezeMaxRequests() {
    return freezeMaxRequests;
  }

  /** How long a request to a frozen shard is held at most. */
  public Duration freezeMaxWait() {
    return freezeMaxWait;
  }

  /** Whether node connections are named {@code jumpgate:<client-id>}. */
  public boolean connectionNames() {
    return connectionNames;
  }

  /**
   * Whether the commands sent to one node within one event-loop turn leave in one write (see {@link
   * Builder#writeCoalescing}); on by default.
   */
  public boolean writeCoalescing() {
    return writeCoalescing;
  }

  /** Shared Lettuce resources, owned by the caller, or empty. */
  public Optional<ClientResources> clientResources() {
    return Optional.ofNullable(clientResources);
  }

  /** Told of every command's end, or empty. */
  public Optional<CommandListener> commandListener() {
    return Optional.ofNullable(commandListener);
  }

  /** A Micrometer {@code MeterRegistry}, or empty. Typed Object so Micrometer stays optional. */
  public Optional<Object> meterRegistry() {
    return Optional.ofNullable(meterRegistry);
  }

  /**
   * Whether the client registers itself under {@code /jumpgate/<cluster>/clients/<client-id>} in
   * etcd (see {@link Builder#registration}): as set, else true when the topology is in etcd.
   */
  public boolean registration() {
    return registration != null ? registration : etcd != null;
  }

  /**
   * The client id the application chose, or empty: the client then makes one per instance, {@code
   * <host>:<pid>:<random>}. A chosen id also tags the client's meters ({@code client}).
   */
  public Optional<String> clientId() {
    return Optional.ofNullable(clientId);
  }

  @Override
  public String toString() {
    return "JumpgateOptions{topology="
        + topologyDescription
        + ", readPolicy="
        + readPolicy
        + ", commandTimeout="
        + commandTimeout
        + ", retry="
        + retry
        + ", retryPolicy="
        + retryPolicy
        + ", redisUser="
        + (redisUsername == null ? "default" : redisUsername)
        + ", redisPassword="
        + (redisPassword == null ? "none" : "***")
        + ", redisTls="
        + redisTls
        + (redisClientCertificate == null
            ? ""
            : ", redisClientCertificate=" + redisClientCertificate)
        + ", zone="
        + zone
        + ", fanOut="
        + fanOutGrouping
        + ", freeze="
        + freezeMaxRequests
        + " requests/"
        + freezeMaxWait
        + ", writeCoalescing="
        + writeCoalescing
        + "}";
  }

  /** Builds {@link JumpgateOptions}; fails fast, naming the option. Not thread-safe. */
  public static final class Builder {
    private Supplier<TopologySource> topologySource;
    private String topologyDescription;
    private EtcdTopologyOptions etcd;
    private ReadPolicy readPolicy = ReadPolicy.LEADER;
    private RetryOptions retry = RetryOptions.defaults();
    private RetryPolicy retryPolicy = RetryPolicy.standard();
    private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private Duration startTimeout = DEFAULT_START_TIMEOUT;
    private String redisUsername;
    private String redisPassword;
    private boolean redisTls;
    private Path redisCaCertificate;
    private Path redisClientCertificate;
    private Path redisClientKey;
    private String zone;
    private boolean warmUp;
    private FanOutGrouping fanOutGrouping = FanOutGrouping.BY_NODE;
    private int requestQueueSize = DEFAULT_REQUEST_QUEUE_SIZE;
    private int freezeMaxRequests = DEFAULT_FREEZE_MAX_REQUESTS;
    private Duration freezeMaxWait = DEFAULT_FREEZE_MAX_WAIT;
    private boolean connectionNames = true;
    private boolean writeCoalescing = true;
    private ClientResources clientResources;
    private Object meterRegistry;
    private CommandListener commandListener;
    private Boolean registration;
    private String clientId;

    private Builder() {}

    /** Read and watch the topology in etcd. */
    public Builder etcd(EtcdTopologyOptions etcd) {
      Objects.requireNonNull(etcd, "etcd");
      requireNoSource("etcd");
      this.etcd = etcd;
      this.topologySource = () -> io.jumpgate.topology.EtcdTopologySource.create(etcd);
      this.topologyDescription =
          "etcd " + etcd.endpointList() + " cluster '" + etcd.cluster() + "'";
      return this;
    }

    /** Read the topology from a file written by {@code jumpgate topology export}. */
    public Builder topologyFile(Path file) {
      Objects.requireNonNull(file, "topologyFile");
      requireNoSource("topologyFile");
      this.topologySource = () -> io.jumpgate.topology.FileTopologySource.create(file);
      this.topologyDescription = "file " + file;
      return this;
    }

    /**
     * Use this source; the client starts it, and closes it with the client. Give a new instance per
     * client.
     */
    public Builder topologySource(TopologySource source) {
      Objects.requireNonNull(source, "topologySource");
      requireNoSource("topologySource");
      this.topologySource = () -> source;
      this.topologyDescription = source.description();
      return this;
    }

    private void requireNoSource(String option) {
      if (topologySource != null) {
        throw new IllegalArgumentException(
            option + ": a topology source was already set (" + topologyDescription + ")");
      }
    }

    public Builder readPolicy(ReadPolicy policy) {
      this.readPolicy = Objects.requireNonNull(policy, "readPolicy");
      return this;
    }

    public Builder retry(RetryOptions retry) {
      this.retry = Objects.requireNonNull(retry, "retry");
      return this;
    }

    /**
     * Replaces the rules that decide what follows a failed try (default {@link
     * RetryPolicy#standard()}). The policy runs on event-loop threads: it must not block. The retry
     * options still give it the attempts, the backoff and the topology wait.
     */
    public Builder retryPolicy(RetryPolicy policy) {
      this.retryPolicy = Objects.requireNonNull(policy, "retryPolicy");
      return this;
    }

    public Builder commandTimeout(Duration timeout) {
      this.commandTimeout = positive("commandTimeout", timeout);
      return this;
    }

    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = positive("connectTimeout", timeout);
      return this;
    }

    public Builder startTimeout(Duration timeout) {
      this.startTimeout = positive("startTimeout", timeout);
      return this;
    }

    /** Redis ACL user and password (AUTH user password). */
    public Builder redisCredentials(String username, String password) {
      Objects.requireNonNull(username, "redis username");
      Objects.requireNonNull(password, "redis password");
      this.redisUsername = username;
      this.redisPassword = password;
      return this;
    }

    /** Redis password of the default user (AUTH password). */
    public Builder redisPassword(String password) {
      this.redisUsername = null;
      this.redisPassword = Objects.requireNonNull(password, "redis password");
      return this;
    }

    /**
     * Connect to every node with TLS (else only to nodes marked {@code "tls":true} in the
     * topology); {@code caCertificate} (PEM) may be null for the JDK's CAs. The node's certificate
     * must name the host of its topology entry (subject alternative name).
     */
    public Builder redisTls(boolean tls, Path caCertificate) {
      this.redisTls = tls;
      this.redisCaCertificate = caCertificate;
      return this;
    }

    /**
     * The client certificate (PEM, the chain from the client's certificate up) and its key
     * (unencrypted PKCS#8 PEM, {@code BEGIN PRIVATE KEY}) to present to nodes over TLS, for servers
     * that require one ({@code tls-auth-clients yes}). Both or neither (null, null: none, the
     * default). The files are read when a connection is opened: a missing file fails that
     * connection.
     *
     * @throws IllegalArgumentException if only one of the two is given
     */
    public Builder redisClientCertificate(Path certificate, Path key) {
      if ((certificate == null) != (key == null)) {
        throw new IllegalArgumentException(
            "redis client certificate and key must be given together");
      }
      this.redisClientCertificate = certificate;
      this.redisClientKey = key;
      return this;
    }

    public Builder zone(String zone) {
      if (zone != null && zone.isBlank()) {
        throw new IllegalArgumentException("zone must not be blank");
      }
      this.zone = zone;
      return this;
    }

    public Builder warmUp(boolean warmUp) {
      this.warmUp = warmUp;
      return this;
    }

    public Builder fanOutGrouping(FanOutGrouping grouping) {
      this.fanOutGrouping = Objects.requireNonNull(grouping, "fanOutGrouping");
      return this;
    }

    public Builder requestQueueSize(int size) {
      if (size < 1) {
        throw new IllegalArgumentException("requestQueueSize must be at least 1, was " + size);
      }
      this.requestQueueSize = size;
      return this;
    }

    /**
     * How many requests to shards frozen for a migration's cutover the client holds at once (a
     * request beyond fails at once with {@link ShardFrozenException}, never sent), and how long one
     * is held at most (then it fails the same way; its own deadline ends it sooner).
     */
    public Builder freezeBuffer(int maxRequests, Duration maxWait) {
      if (maxRequests < 1) {
        throw new IllegalArgumentException(
            "freeze maxRequests must be at least 1, was " + maxRequests);
      }
      Objects.requireNonNull(maxWait, "freeze maxWait");
      if (maxWait.isNegative() || maxWait.isZero()) {
        throw new IllegalArgumentException("freeze maxWait must be positive, was " + maxWait);
      }
      this.freezeMaxRequests = maxRequests;
      this.freezeMaxWait = maxWait;
      return this;
    }

    /**
     * Whether node connections are named {@code jumpgate:<client-id>} (on by default). Turn it off
     * for RESP servers that refuse {@code CLIENT SETNAME}; a mover then cannot see this client's
     * connections, and live migration between such nodes is not possible (move with --map-only).
     */
    public Builder connectionNames(boolean names) {
      this.connectionNames = names;
      return this;
    }

    /**
     * Write coalescing (on by default): the commands that are ready for one node within one turn of
     * its connection's event loop (issued by many threads at once, or by completion callbacks while
     * a read is being handled) leave in one socket write instead of one write each. A command that
     * is alone is written at once when no other task is queued on the event loop, else in the same
     * turn after those tasks: it never waits for a later command or a timer. It saves system calls
     * on the client and the servers when many commands are in flight; the end-to-end bench ({@code
     * bin/bench --coalescing on|off}) measures it. Turn it off to flush every command on its own,
     * as plain Lettuce does. Applies to this client's node connections only, also when the {@link
     * #clientResources} are shared with other Lettuce clients.
     */
    public Builder writeCoalescing(boolean coalescing) {
      this.writeCoalescing = coalescing;
      return this;
    }

    /**
     * Share Lettuce resources (event loops, timers); the caller shuts them down after the client.
     */
    public Builder clientResources(ClientResources resources) {
      this.clientResources = resources;
      return this;
    }

    /** Told of every command's end (tracing); null for none, the default. */
    public Builder commandListener(CommandListener listener) {
      this.commandListener = listener;
      return this;
    }

    /**
     * A Micrometer {@code io.micrometer.core.instrument.MeterRegistry} for the driver's metrics.
     */
    public Builder meterRegistry(Object registry) {
      if (registry != null && !isMeterRegistry(registry)) {
        throw new IllegalArgumentException(
            "meterRegistry must be an io.micrometer.core.instrument.MeterRegistry, was "
                + registry.getClass().getName());
      }
      this.meterRegistry = registry;
      return this;
    }

    /**
     * Whether the client registers itself in etcd, under {@code <root>/clients/<client-id>} bound
     * to a lease, with its host, pid, start time and applied topology revision, so that {@code
     * jumpgate clients} can list it. Default: true when the topology is in etcd. Needs {@link
     * #etcd}: {@link #build()} refuses {@code true} with another source.
     */
    public Builder registration(boolean registration) {
      this.registration = registration;
      return this;
    }

    /**
     * The id the client registers under and tags its meters with ({@code client}); unique per
     * client instance, {@code [A-Za-z0-9._:-]{1,128}}. Default: {@code <host>:<pid>:<random>}, made
     * per client, and no {@code client} tag.
     *
     * @throws IllegalArgumentException if the id does not match the pattern
     */
    public Builder clientId(String clientId) {
      if (clientId != null
          && !io.jumpgate.topology.TopologyKeys.CLIENT_ID_PATTERN.matcher(clientId).matches()) {
        throw new IllegalArgumentException(
            "clientId must match "
                + io.jumpgate.topology.TopologyKeys.CLIENT_ID_PATTERN.pattern()
                + ", was '"
                + clientId
                + "'");
      }
      this.clientId = clientId;
      return this;
    }

    private static boolean isMeterRegistry(Object registry) {
      try {
        return Class.forName("io.micrometer.core.instrument.MeterRegistry").isInstance(registry);
      } catch (ClassNotFoundException e) {
        return false;
      }
    }

    /**
     * @throws IllegalArgumentException when no topology source was set
     */
    public JumpgateOptions build() {
      if (topologySource == null) {
        throw new IllegalArgumentException(
            "a topology source is required: etcd(...), topologyFile(...) or topologySource(...)");
      }
      if (Boolean.TRUE.equals(registration) && etcd == null) {
        throw new IllegalArgumentException(
            "registration needs the topology in etcd (etcd(...)), not " + topologyDescription);
      }
      return new JumpgateOptions(this);
    }

    private static Duration positive(String name, Duration value) {
      Objects.requireNonNull(value, name);
      if (value.isZero() || value.isNegative()) {
        throw new IllegalArgumentException(name + " must be positive, was " + value);
      }
      return value;
    }
  }
}
