package io.jumpgate.testkit;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.spi.Node;
import io.jumpgate.testkit.LocalNode.Role;
import io.jumpgate.testkit.internal.Binaries;
import io.jumpgate.testkit.internal.InitialMap;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyKeys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A whole Jumpgate cluster on this machine, for tests: one etcd and a number of redis-server
 * leaders, each with its replica servers ({@code --replicaof}), all real processes on free ports of
 * 127.0.0.1 with their data and logs in a temp dir, and the shard map written to etcd through the
 * public admin API ({@link TopologyAdmin}, init protocol). The planner spreads the leaderships
 * evenly over the leaders; each shard's replicas are the servers that replicate its leader.
 *
 * <pre>{@code
 * try (LocalCluster cluster = LocalCluster.builder().nodes(3).replicasPerNode(1).start();
 *     JumpgateClient client = cluster.newClient()) {
 *   client.connect().sync().set("user:42", "Ada");
 * }
 * }</pre>
 *
 * <p><b>Defaults:</b> {@value #DEFAULT_NODES} leaders, {@value #DEFAULT_REPLICAS_PER_NODE} replicas
 * per leader, {@value #DEFAULT_SHARDS} shards, cluster {@value #DEFAULT_CLUSTER}, no Redis ACL user
 * (the default user, no password), etcd without auth and over plain HTTP ({@link Builder#etcdUser}
 * and {@link Builder#etcdTls} turn them on). {@code etcd} and {@code redis-server} are found as
 * {@link LocalServer.Program} says (an environment variable, the {@code PATH}, or a Docker image);
 * when one is missing, {@link Builder#start()} fails with the Debian package and apt-get command
 * that install it.
 *
 * <p><b>Servers added later:</b> {@link #startNode} (a leader the map does not list yet, to add
 * live) and {@link #startReplica} (a server that replicates one of them); {@link #leaveRunning()}
 * lets every process outlive the JVM.
 *
 * <p><b>Bounds:</b> each process must be ready within 20 s (etcd answers {@code GET /health},
 * redis-server answers PING, a replica's first sync is done), or the start fails with the end of
 * its log. Stopping sends SIGTERM, then SIGKILL after 10 s.
 *
 * <p><b>Cleanup:</b> {@link #close()} stops every process and deletes the temp dir. A start that
 * fails half-way stops what it had started before it throws, and a shutdown hook stops the
 * processes of a cluster that was never closed when the JVM exits (not when it is killed with
 * SIGKILL).
 *
 * <p><b>Threads:</b> thread-safe. Starting and the faults block the calling thread (bounded); no
 * background thread runs besides the shutdown hook.
 */
public final class LocalCluster implements AutoCloseable {

  /** Leaders when the builder is not told. */
  public static final int DEFAULT_NODES = 3;

  /** Replica servers per leader when the builder is not told. */
  public static final int DEFAULT_REPLICAS_PER_NODE = 0;

  /** Shards when the builder is not told: the driver's default. */
  public static final int DEFAULT_SHARDS = 1024;

  /** The cluster name when the builder is not told. */
  public static final String DEFAULT_CLUSTER = "test";

  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);
  private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(20);
  private static final int START_ATTEMPTS = 3;
  private static final String ETCD_ROOT_PASSWORD = "jumpgate-testkit-root";

  private final Path directory;
  private final String cluster;
  private final int shards;
  private final String redisUsername;
  private final String redisPassword;
  private final String etcdUsername;
  private final String etcdPassword;
  private final boolean etcdTls;
  private final boolean etcdClientCertificates;
  private final List<String> etcdArguments;
  private final Map<String, String> binaryEnvironment;
  private final Map<String, LocalNode> nodes = new LinkedHashMap<>();
  private final Thread shutdownHook;
  private TestCertificates certificates;
  private TestCertificates.CertificateFiles clientCertificate;
  private EtcdServers etcd;
  private boolean closed;

  private LocalCluster(Builder builder, Path directory) {
    this.directory = directory;
    this.cluster = builder.cluster;
    this.shards = builder.shards;
    this.redisUsername = builder.redisUsername;
    this.redisPassword = builder.redisPassword;
    this.etcdUsername = builder.etcdUsername;
    this.etcdPassword = builder.etcdPassword;
    this.etcdTls = builder.etcdTls;
    this.etcdClientCertificates = builder.etcdClientCertificates;
    this.etcdArguments = List.copyOf(builder.etcdArguments);
    this.binaryEnvironment = builder.binaryEnvironment;
    this.shutdownHook = new Thread(this::stopProcesses, "jumpgate-testkit-stop-" + cluster);
  }

  /** A builder with the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  // ---- accessors -----------------------------------------------------------------------------

  /** The cluster name: the map is under {@code /jumpgate/<cluster>/}. */
  public String cluster() {
    return cluster;
  }

  /** The number of shards of the map. */
  public int shards() {
    return shards;
  }

  /** etcd's client URL, {@code http://127.0.0.1:<port>} ({@code https://} with TLS). */
  public String etcdEndpoint() {
    return etcd.member(0).endpoint();
  }

  /** etcd's client URLs (one member). */
  public List<String> etcdEndpoints() {
    return List.of(etcdEndpoint());
  }

  /** The pid of the etcd process. */
  public long etcdPid() {
    return etcd.member(0).pid();
  }

  /** Whether etcd runs. */
  public boolean etcdRunning() {
    return etcd.member(0).isRunning();
  }

  /** The etcd server itself (one member), for etcdctl and what the methods here do not cover. */
  public EtcdServers etcd() {
    return etcd;
  }

  /**
   * The test CA of etcd's TLS ({@link Builder#etcdTls}): trust its {@link
   * TestCertificates#caCertificate()}; empty without TLS.
   */
  public Optional<TestCertificates> certificates() {
    return Optional.ofNullable(certificates);
  }

  /** The etcd user clients log in as ({@link Builder#etcdUser}), when one was set. */
  public Optional<String> etcdUsername() {
    return Optional.ofNullable(etcdUsername);
  }

  /** Every redis-server by node id, leaders first, in the order they were started. */
  public synchronized Map<String, LocalNode> nodes() {
    return Map.copyOf(nodes);
  }

  /** The leaders, {@code leader-0} first. */
  public synchronized List<LocalNode> leaders() {
    return nodes.values().stream().filter(node -> node.role() == Role.LEADER).toList();
  }

  /** The replicas of leader {@code leaderId}, in order. */
  public synchronized List<LocalNode> replicasOf(String leaderId) {
    return nodes.values().stream()
        .filter(node -> node.leaderId().map(leaderId::equals).orElse(false))
        .toList();
  }

  /**
   * The node of that id.
   *
   * @throws IllegalArgumentException naming the id and the ids there are
   */
  public synchronized LocalNode node(String nodeId) {
    LocalNode node = nodes.get(nodeId);
    if (node == null) {
      throw new IllegalArgumentException(
          "no node '"
              + nodeId
              + "' in local cluster '"
              + cluster
              + "'; there are "
              + nodes.keySet());
    }
    return node;
  }

  /** The Redis ACL user the servers require, when one was set. */
  public Optional<String> redisUsername() {
    return Optional.ofNullable(redisUsername);
  }

  /** The temp dir that holds each server's data and log ({@code <name>.log}). */
  public Path directory() {
    return directory;
  }

  /**
   * Topology options for this cluster: its etcd endpoint and cluster name, and, when they were
   * asked for, the etcd user and password, the CA to trust and the client certificate; other
   * options at their defaults.
   */
  public EtcdTopologyOptions etcdOptions() {
    EtcdTopologyOptions.Builder builder =
        EtcdTopologyOptions.builder().endpoints(etcdEndpoint()).cluster(cluster);
    if (etcdUsername != null) {
      builder.credentials(etcdUsername, etcdPassword);
    }
    if (certificates != null) {
      builder.caCertificate(certificates.caCertificate());
    }
    if (clientCertificate != null) {
      builder.clientCertificate(clientCertificate.certificate(), clientCertificate.key());
    }
    return builder.build();
  }

  /**
   * Driver options for this cluster: {@link #etcdOptions()} and, when an ACL user was set, its
   * credentials; every other option at the driver's default. Use {@link JumpgateOptions#mutate()}
   * to change one.
   */
  public JumpgateOptions jumpgateOptions() {
    JumpgateOptions.Builder builder = JumpgateOptions.builder().etcd(etcdOptions());
    if (redisUsername != null) {
      builder.redisCredentials(redisUsername, redisPassword);
    }
    return builder.build();
  }

  /**
   * A new client with {@link #jumpgateOptions()}, ready (it has read the map); the caller closes
   * it.
   */
  public JumpgateClient newClient() {
    return JumpgateClient.create(jumpgateOptions());
  }

  /** A new admin of this cluster's map; the caller closes it. */
  public TopologyAdmin newAdmin() {
    return TopologyAdmin.create(etcdOptions());
  }

  // ---- faults --------------------------------------------------------------------------------

  /**
   * Stops etcd (SIGTERM, then SIGKILL after 10 s): clients keep their last map and report the
   * topology source as unavailable. Its data stays, so {@link #restartEtcd()} brings the map back.
   */
  public void stopEtcd() {
    if (etcd.member(0).isRunning()) {
      etcd.member(0).stop();
    }
  }

  /** SIGKILL to etcd. */
  public void killEtcd() {
    if (etcd.member(0).isRunning()) {
      etcd.member(0).kill9();
    }
  }

  /** Starts etcd again (stopping it first if it runs) on the same port with the same data. */
  public void restartEtcd() {
    etcd.member(0).restart();
  }

  /**
   * Compacts etcd's history to its current revision (a client whose watch is older must read the
   * map again) and returns that revision.
   */
  public long compactEtcd() {
    return etcd.compact();
  }

  // ---- servers started after the cluster ----------------------------------------------------

  /**
   * Starts one more leader redis-server, with the settings of the others, that the map does not
   * list: a node to add live (for example with {@code TopologyAdmin.planAddNode(node.node())} or
   * the migration module's {@code MapChange.addNode}). Blocks until it answers PING (at most 20 s);
   * {@link #close()} stops it with the rest.
   *
   * @param nodeId its node id, not yet taken in this cluster
   * @throws IllegalArgumentException if the id is blank or taken (naming it)
   * @throws LocalClusterException if it does not start, with the end of its log
   */
  public LocalNode startNode(String nodeId) {
    checkNewNodeId(nodeId);
    return startRedis(nodeId, Role.LEADER, null);
  }

  /**
   * Starts one more redis-server that replicates the server {@code leaderId} ({@code --replicaof}),
   * and waits (at most 20 s each) until it answers PING and has finished its first sync. The map
   * does not list it: write its replica slots yourself. {@link #close()} stops it with the rest.
   *
   * @param nodeId its node id, not yet taken in this cluster
   * @param leaderId the server it replicates
   * @throws IllegalArgumentException if the id is blank or taken, or there is no server {@code
   *     leaderId} (naming it)
   * @throws LocalClusterException if it does not start or sync, with the end of its log
   */
  public LocalNode startReplica(String nodeId, String leaderId) {
    checkNewNodeId(nodeId);
    LocalNode leader = node(leaderId);
    LocalNode replica = startRedis(nodeId, Role.REPLICA, leader);
    awaitFirstSync(replica);
    return replica;
  }

  private void requireBinary(LocalServer.Program program) {
    if (Binaries.findLocal(program, binaryEnvironment).isEmpty()) {
      throw new LocalClusterException(
          program.binary()
              + " was not found on the PATH ("
              + binaryEnvironment.getOrDefault("PATH", "")
              + ") and "
              + program.environmentVariable()
              + " is not set. On Debian or Ubuntu install it with: "
              + Binaries.installCommand(program)
              + " (or set "
              + program.environmentVariable()
              + "=/path/to/"
              + program.binary()
              + ")");
    }
  }

  private synchronized void checkNewNodeId(String nodeId) {
    Objects.requireNonNull(nodeId, "nodeId");
    if (nodeId.isBlank() || nodeId.contains("/") || nodeId.contains(" ")) {
      throw new IllegalArgumentException(
          "a node id must be a non-blank word without '/', was '" + nodeId + "'");
    }
    if (closed) {
      throw new IllegalStateException("local cluster '" + cluster + "' is closed");
    }
    if (nodes.containsKey(nodeId)) {
      throw new IllegalArgumentException(
          "local cluster '" + cluster + "' already has a node '" + nodeId + "'");
    }
  }

  /**
   * Leaves every process running when this JVM exits: removes the shutdown hook, and {@link
   * #close()} does nothing from now on. The caller stops the processes (their pids: {@link
   * #etcdPid()}, {@link LocalNode#pid()}) and deletes {@link #directory()}. For a cluster that
   * should outlive the program that started it, such as {@code jumpgate demo --keep}.
   */
  public void leaveRunning() {
    synchronized (this) {
      closed = true;
      if (etcd != null) {
        etcd.members().forEach(LocalServer::leaveRunning);
      }
      nodes.values().forEach(node -> node.server().leaveRunning());
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is exiting: the hook runs (or ran) stopProcesses; nothing can keep them now
    }
  }

  // ---- lifecycle -----------------------------------------------------------------------------

  /**
   * Stops every process (SIGCONT first, so paused ones stop too; SIGTERM; SIGKILL after 5 s) and
   * deletes the temp dir. Idempotent.
   *
   * @throws LocalClusterException if a process survives SIGKILL (its pid is named)
   */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is exiting: the hook runs (or ran) stopProcesses itself
    }
    List<String> survivors = stopProcesses();
    if (!survivors.isEmpty()) {
      throw new LocalClusterException(
          "processes survived SIGKILL: " + survivors + "; their logs are in " + directory);
    }
    deleteRecursively(directory);
  }

  private List<String> stopProcesses() {
    List<AutoCloseable> all = new ArrayList<>();
    synchronized (this) {
      nodes.values().forEach(node -> all.add(node.server()));
      if (etcd != null) {
        all.add(etcd);
      }
    }
    List<String> survivors = new ArrayList<>();
    for (AutoCloseable process : all) {
      try {
        process.close();
      } catch (Exception e) {
        survivors.add(process + ": " + e.getMessage());
      }
    }
    return survivors;
  }

  // ---- starting ------------------------------------------------------------------------------

  private void startAll(int leaderCount, int replicasPerLeader) {
    if (binaryEnvironment != null) {
      requireBinary(LocalServer.Program.ETCD);
      requireBinary(LocalServer.Program.REDIS_SERVER);
    }
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    startEtcd();
    Map<String, Node> leaderNodes = new TreeMap<>();
    Map<String, Node> replicaNodes = new TreeMap<>();
    Map<String, List<String>> replicasOf = new TreeMap<>();
    for (int leader = 0; leader < leaderCount; leader++) {
      LocalNode leaderNode = startRedis("leader-" + leader, Role.LEADER, null);
      leaderNodes.put(leaderNode.id(), leaderNode.node());
      List<String> replicaIds = new ArrayList<>();
      for (int replica = 0; replica < replicasPerLeader; replica++) {
        LocalNode replicaNode =
            startRedis("replica-" + leader + "-" + replica, Role.REPLICA, leaderNode);
        replicaNodes.put(replicaNode.id(), replicaNode.node());
        replicaIds.add(replicaNode.id());
      }
      replicasOf.put(leaderNode.id(), replicaIds);
    }
    for (LocalNode node : nodes().values()) {
      if (node.role() == Role.REPLICA) {
        awaitFirstSync(node);
      }
    }
    try (TopologyAdmin admin = newAdmin()) {
      InitialMap.write(admin, shards, leaderNodes, replicasOf, replicaNodes);
    } catch (RuntimeException e) {
      throw new LocalClusterException(
          "cannot write the map of cluster '" + cluster + "' to etcd: " + e.getMessage(), e);
    }
  }

  private void startEtcd() {
    EtcdServers.Builder builder = EtcdServers.builder(directory);
    builder.config(etcdArguments.toArray(String[]::new));
    if (etcdTls) {
      TestCertificates authority =
          TestCertificates.create(directory.resolve("tls"), "jumpgate-testkit-ca");
      builder.tls(authority, etcdClientCertificates);
      synchronized (this) {
        certificates = authority;
        if (etcdClientCertificates) {
          clientCertificate = authority.client(etcdUsername == null ? "root" : etcdUsername);
        }
      }
    }
    EtcdServers started = builder.start();
    synchronized (this) {
      etcd = started;
    }
    if (etcdUsername != null) {
      started.enableAuth(
          etcdUsername.equals("root") ? etcdPassword : ETCD_ROOT_PASSWORD,
          etcdUsername,
          etcdPassword);
    }
  }

  private LocalNode startRedis(String id, Role role, LocalNode leader) {
    RedisServer server =
        LocalServer.startOnFreePorts(
            START_ATTEMPTS,
            () -> {
              RedisServer.Builder builder = RedisServer.builder(directory).name(id);
              if (redisUsername != null) {
                builder.user(redisUsername, redisPassword);
              }
              if (leader != null) {
                builder.replicaOf(leader.port());
              }
              RedisServer built = builder.build();
              synchronized (this) {
                nodes.put(
                    id,
                    new LocalNode(
                        id,
                        role,
                        leader == null ? null : leader.id(),
                        built,
                        redisUsername,
                        redisPassword));
              }
              return built;
            });
    return node(id);
  }

  private void awaitFirstSync(LocalNode replica) {
    String[] last = {""};
    BoundedWait.until(
        SYNC_TIMEOUT,
        replica.id() + " to finish its first sync with " + replica.leaderId().orElse("?"),
        () -> {
          last[0] = String.valueOf(replica.server().call(PROBE_TIMEOUT, "INFO", "replication"));
          return last[0].contains("master_link_status:up");
        },
        () ->
            "last INFO replication: "
                + last[0].strip()
                + System.lineSeparator()
                + replica.server().describe(25));
  }

  private static void deleteRecursively(Path path) {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(path)) {
      for (Path each : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(each);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "LocalCluster '"
        + cluster
        + "' (etcd "
        + (etcd == null ? "not started" : etcdEndpoint())
        + ", "
        + nodes().size()
        + " redis servers)";
  }

  /**
   * Settings of a {@link LocalCluster}; {@link #start()} starts it. Not thread-safe; each setter
   * checks its value at once and throws {@link IllegalArgumentException} naming it.
   */
  public static final class Builder {
    private int nodes = DEFAULT_NODES;
    private int replicasPerNode = DEFAULT_REPLICAS_PER_NODE;
    private int shards = DEFAULT_SHARDS;
    private String cluster = DEFAULT_CLUSTER;
    private String redisUsername;
    private String redisPassword;
    private String etcdUsername;
    private String etcdPassword;
    private boolean etcdTls;
    private boolean etcdClientCertificates;
    private final List<String> etcdArguments = new ArrayList<>();
    private Map<String, String> binaryEnvironment;

    private Builder() {}

    /** Leader redis-servers, 1 to 64; default {@value LocalCluster#DEFAULT_NODES}. */
    public Builder nodes(int nodes) {
      if (nodes < 1 || nodes > 64) {
        throw new IllegalArgumentException("nodes must be between 1 and 64, was " + nodes);
      }
      this.nodes = nodes;
      return this;
    }

    /**
     * Replica servers per leader ({@code --replicaof} it), 0 to 8; default {@value
     * LocalCluster#DEFAULT_REPLICAS_PER_NODE}.
     */
    public Builder replicasPerNode(int replicas) {
      if (replicas < 0 || replicas > 8) {
        throw new IllegalArgumentException(
            "replicasPerNode must be between 0 and 8, was " + replicas);
      }
      this.replicasPerNode = replicas;
      return this;
    }

    /** Shards of the map, 1 to 65536; default {@value LocalCluster#DEFAULT_SHARDS}. */
    public Builder shards(int shards) {
      if (shards < 1 || shards > 65_536) {
        throw new IllegalArgumentException("shards must be between 1 and 65536, was " + shards);
      }
      this.shards = shards;
      return this;
    }

    /**
     * The cluster name ({@code [a-z0-9][a-z0-9_-]{0,62}}); default {@value
     * LocalCluster#DEFAULT_CLUSTER}.
     */
    public Builder cluster(String cluster) {
      Objects.requireNonNull(cluster, "cluster");
      if (!TopologyKeys.CLUSTER_PATTERN.matcher(cluster).matches()) {
        throw new IllegalArgumentException(
            "cluster must match "
                + TopologyKeys.CLUSTER_PATTERN.pattern()
                + ", was '"
                + cluster
                + "'");
      }
      this.cluster = cluster;
      return this;
    }

    /**
     * Every redis-server requires this ACL user (all keys, channels and commands) and turns the
     * default user off; replicas authenticate to their leader with it, and {@link
     * LocalCluster#jumpgateOptions()} carries it. Default: none.
     */
    public Builder redisUser(String username, String password) {
      Objects.requireNonNull(username, "username");
      Objects.requireNonNull(password, "password");
      if (username.isBlank() || username.contains(" ") || username.equals("default")) {
        throw new IllegalArgumentException(
            "redis username must be a non-blank word other than 'default', was '" + username + "'");
      }
      if (password.isEmpty() || password.contains(" ")) {
        throw new IllegalArgumentException("redis password must be a non-empty word");
      }
      this.redisUsername = username;
      this.redisPassword = password;
      return this;
    }

    /**
     * etcd requires this user: etcd's {@code root} user is added (with this password when {@code
     * username} is {@code root}, else a password of the testkit's), then this user with the {@code
     * root} role, and auth is turned on; {@link LocalCluster#etcdOptions()} and {@link
     * LocalCluster#jumpgateOptions()} carry the credentials. Default: no auth.
     */
    public Builder etcdUser(String username, String password) {
      if (username == null || username.isBlank() || username.contains(" ")) {
        throw new IllegalArgumentException(
            "etcd username must be a non-blank word, was '" + username + "'");
      }
      if (password == null || password.isEmpty() || password.contains(" ")) {
        throw new IllegalArgumentException("etcd password must be a non-empty word");
      }
      this.etcdUsername = username;
      this.etcdPassword = password;
      return this;
    }

    /**
     * Command-line options added to etcd's own (each a whole {@code --name=value}), such as {@code
     * --max-txn-ops=4096} for a test that writes more than etcd's default 128 operations in one
     * transaction. Default: none. Each call adds to the previous ones.
     *
     * @throws IllegalArgumentException naming an argument that does not start with {@code --}
     */
    public Builder etcdArguments(String... arguments) {
      for (String argument : arguments) {
        Objects.requireNonNull(argument, "etcd argument");
        if (!argument.startsWith("--") || argument.contains(" ")) {
          throw new IllegalArgumentException(
              "an etcd argument must be one --option=value without spaces, was '" + argument + "'");
        }
      }
      etcdArguments.addAll(List.of(arguments));
      return this;
    }

    /**
     * etcd serves clients over TLS only, with a certificate of a test CA made in the cluster's temp
     * dir ({@link LocalCluster#certificates()}); with {@code clientCertificates}, etcd also
     * requires a client certificate of that CA ({@code --client-cert-auth}), whose common name is
     * the {@link #etcdUser} (else {@code root}). {@link LocalCluster#etcdOptions()} trusts the CA
     * and presents the client certificate. Default: plain HTTP.
     */
    public Builder etcdTls(boolean clientCertificates) {
      this.etcdTls = true;
      this.etcdClientCertificates = clientCertificates;
      return this;
    }

    /**
     * Before anything starts, checks that {@code etcd} and {@code redis-server} are found in this
     * environment ({@code JUMPGATE_ETCD_BIN} and {@code JUMPGATE_REDIS_BIN} when set, else its
     * {@code PATH}), and fails with the Debian package that installs the missing one; the servers
     * are then run as {@link LocalServer.Program} finds them in this process. Default: no check
     * beyond that lookup (which may also fall back to a Docker image).
     */
    public Builder binariesFrom(Map<String, String> environment) {
      this.binaryEnvironment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
      return this;
    }

    /**
     * Starts etcd and the redis-servers, waits until they are ready and the replicas have synced,
     * and writes the map. On failure, stops what it started before it throws.
     *
     * @throws LocalClusterException naming what failed (a missing binary with its install command,
     *     a process with the end of its log, the map write)
     */
    public LocalCluster start() {
      Path directory;
      try {
        directory = Files.createTempDirectory("jumpgate-testkit-");
      } catch (IOException e) {
        throw new LocalClusterException("cannot make a temp dir: " + e.getMessage(), e);
      }
      LocalCluster local = new LocalCluster(this, directory);
      try {
        local.startAll(nodes, replicasPerNode);
        return local;
      } catch (RuntimeException | Error e) {
        try {
          local.close();
        } catch (RuntimeException closing) {
          e.addSuppressed(closing);
        }
        throw e;
      }
    }
  }
}
