package io.jumpgate.testkit;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.spi.Node;
import io.jumpgate.testkit.LocalNode.Role;
import io.jumpgate.testkit.internal.Binaries;
import io.jumpgate.testkit.internal.EtcdHealth;
import io.jumpgate.testkit.internal.FreePorts;
import io.jumpgate.testkit.internal.InitialMap;
import io.jumpgate.testkit.internal.Resp;
import io.jumpgate.testkit.internal.ServerProcess;
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
import java.util.function.BooleanSupplier;
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
 * (the default user, no password), no extra etcd arguments. {@code etcd} and {@code redis-server}
 * are those that {@code JUMPGATE_ETCD_BIN} and {@code JUMPGATE_REDIS_BIN} name, else taken from the
 * {@code PATH} (of this process, or {@link Builder#binariesFrom}); when one is missing, {@link
 * Builder#start()} fails with the Debian package and apt-get command that install it.
 *
 * <p><b>Servers added later:</b> {@link #startNode} (a leader the map does not list yet, to add
 * live) and {@link #startReplica} (a server that replicates one of them); {@link #leaveRunning()}
 * lets every process outlive the JVM.
 *
 * <p><b>Bounds:</b> each process must be ready within 20 s (etcd answers {@code GET /health},
 * redis-server answers PING, a replica's first sync is done), or the start fails with the end of
 * its log. Stopping sends SIGTERM, then SIGKILL after 5 s.
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

  private final Path directory;
  private final String cluster;
  private final int shards;
  private final String redisUsername;
  private final String redisPassword;
  private final List<String> etcdArguments;
  private final Map<String, String> environment;
  private Path redisBinary;
  private final Map<String, LocalNode> nodes = new LinkedHashMap<>();
  private final Thread shutdownHook;
  private ServerProcess etcd;
  private int etcdPort;
  private boolean closed;

  private LocalCluster(Builder builder, Path directory) {
    this.directory = directory;
    this.cluster = builder.cluster;
    this.shards = builder.shards;
    this.redisUsername = builder.redisUsername;
    this.redisPassword = builder.redisPassword;
    this.etcdArguments = List.copyOf(builder.etcdArguments);
    this.environment = builder.environment;
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

  /** etcd's client URL, {@code http://127.0.0.1:<port>}. */
  public String etcdEndpoint() {
    return "http://127.0.0.1:" + etcdPort;
  }

  /** etcd's client URLs (one member). */
  public List<String> etcdEndpoints() {
    return List.of(etcdEndpoint());
  }

  /** The pid of the etcd process. */
  public long etcdPid() {
    return etcd.pid();
  }

  /** Whether etcd runs. */
  public boolean etcdRunning() {
    return etcd.isAlive();
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

  /** Topology options for this cluster: its etcd endpoint and cluster name, other defaults. */
  public EtcdTopologyOptions etcdOptions() {
    return EtcdTopologyOptions.builder().endpoints(etcdEndpoint()).cluster(cluster).build();
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
   * Stops etcd (SIGTERM, then SIGKILL after 5 s): clients keep their last map and report the
   * topology source as unavailable. Its data stays, so {@link #restartEtcd()} brings the map back.
   */
  public void stopEtcd() {
    if (!etcd.stop()) {
      throw new LocalClusterException("etcd (pid " + etcd.pid() + ") survived SIGKILL");
    }
  }

  /** SIGKILL to etcd. */
  public void killEtcd() {
    etcd.kill();
  }

  /** Starts etcd again (stopping it first if it runs) on the same port with the same data. */
  public void restartEtcd() {
    etcd.stop();
    if (!etcd.start(() -> EtcdHealth.healthy(etcdPort, PROBE_TIMEOUT), "answer GET /health")) {
      throw new LocalClusterException("etcd could not restart: port " + etcdPort + " is taken");
    }
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
    return startRedis(redisBinary(), nodeId, Role.LEADER, null);
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
    LocalNode replica = startRedis(redisBinary(), nodeId, Role.REPLICA, leader);
    awaitFirstSync(replica);
    return replica;
  }

  private synchronized Path redisBinary() {
    return redisBinary;
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
   * @throws LocalClusterException if a process survives SIGKILL (its pid is named; the temp dir is
   *     kept)
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
    List<ServerProcess> all = new ArrayList<>();
    synchronized (this) {
      nodes.values().forEach(node -> all.add(node.process()));
      if (etcd != null) {
        all.add(etcd);
      }
    }
    List<String> survivors = new ArrayList<>();
    for (ServerProcess process : all) {
      if (!process.stop()) {
        survivors.add(process.name() + " (pid " + process.pid() + ")");
      }
    }
    return survivors;
  }

  // ---- starting ------------------------------------------------------------------------------

  private void startAll(int leaderCount, int replicasPerLeader) {
    Path etcdBinary = Binaries.etcd(environment);
    synchronized (this) {
      redisBinary = Binaries.redisServer(environment);
    }
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    startEtcd(etcdBinary);
    Map<String, Node> leaderNodes = new TreeMap<>();
    Map<String, Node> replicaNodes = new TreeMap<>();
    Map<String, List<String>> replicasOf = new TreeMap<>();
    for (int leader = 0; leader < leaderCount; leader++) {
      LocalNode leaderNode = startRedis(redisBinary, "leader-" + leader, Role.LEADER, null);
      leaderNodes.put(leaderNode.id(), leaderNode.node());
      List<String> replicaIds = new ArrayList<>();
      for (int replica = 0; replica < replicasPerLeader; replica++) {
        LocalNode replicaNode =
            startRedis(redisBinary, "replica-" + leader + "-" + replica, Role.REPLICA, leaderNode);
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

  private void startEtcd(Path binary) {
    for (int attempt = 1; ; attempt++) {
      int clientPort = FreePorts.next();
      String client = "http://127.0.0.1:" + clientPort;
      String peer = "http://127.0.0.1:" + FreePorts.next();
      Path data = directory.resolve("etcd");
      List<String> command =
          new ArrayList<>(
              List.of(
                  binary.toString(),
                  "--name=etcd",
                  "--data-dir=" + data.resolve("member-data"),
                  "--listen-client-urls=" + client,
                  "--advertise-client-urls=" + client,
                  "--listen-peer-urls=" + peer,
                  "--initial-advertise-peer-urls=" + peer,
                  "--initial-cluster=etcd=" + peer,
                  "--initial-cluster-state=new",
                  "--logger=zap",
                  "--log-outputs=stderr"));
      command.addAll(etcdArguments);
      ServerProcess process =
          new ServerProcess("etcd", command, data, directory.resolve("etcd.log"));
      synchronized (this) {
        etcd = process;
        etcdPort = clientPort;
      }
      if (process.start(
          () -> EtcdHealth.healthy(clientPort, PROBE_TIMEOUT), "answer GET /health")) {
        return;
      }
      if (attempt == START_ATTEMPTS) {
        throw new LocalClusterException(
            "etcd found its ports taken " + START_ATTEMPTS + " times; " + process.logTail(5));
      }
    }
  }

  private LocalNode startRedis(Path binary, String id, Role role, LocalNode leader) {
    for (int attempt = 1; ; attempt++) {
      int port = FreePorts.next();
      Path data = directory.resolve(id);
      List<String> command = new ArrayList<>();
      command.add(binary.toString());
      command.addAll(List.of("--port", Integer.toString(port), "--bind", "127.0.0.1"));
      command.addAll(List.of("--save", "", "--appendonly", "no", "--dir", data.toString()));
      command.addAll(List.of("--protected-mode", "no", "--daemonize", "no", "--logfile", ""));
      // Redis waits 5 s by default before a diskless full sync; replicas must sync at once.
      command.addAll(List.of("--repl-diskless-sync-delay", "0"));
      if (redisUsername != null) {
        command.addAll(
            List.of("--user", redisUsername, "on", ">" + redisPassword, "~*", "&*", "+@all"));
        command.addAll(List.of("--user", "default", "off"));
      }
      if (leader != null) {
        command.addAll(List.of("--replicaof", "127.0.0.1", Integer.toString(leader.port())));
        if (redisUsername != null) {
          command.addAll(List.of("--masteruser", redisUsername, "--masterauth", redisPassword));
        }
      }
      ServerProcess process = new ServerProcess(id, command, data, directory.resolve(id + ".log"));
      BooleanSupplier ready = () -> answersPing(port);
      LocalNode node =
          new LocalNode(id, role, leader == null ? null : leader.id(), port, process, ready);
      synchronized (this) {
        nodes.put(id, node);
      }
      if (process.start(ready, "answer PING on 127.0.0.1:" + port)) {
        return node;
      }
      synchronized (this) {
        nodes.remove(id);
      }
      if (attempt == START_ATTEMPTS) {
        throw new LocalClusterException(
            id + " found its port taken " + START_ATTEMPTS + " times; " + process.logTail(5));
      }
    }
  }

  private boolean answersPing(int port) {
    try {
      return "PONG"
          .equals(
              Resp.call(
                  port, PROBE_TIMEOUT, redisUsername, redisPassword, List.of(List.of("PING"))));
    } catch (IOException e) {
      return false;
    }
  }

  private void awaitFirstSync(LocalNode replica) {
    long deadline = System.nanoTime() + SYNC_TIMEOUT.toNanos();
    String last = "";
    while (System.nanoTime() - deadline < 0) {
      try {
        last =
            Resp.call(
                replica.port(),
                PROBE_TIMEOUT,
                redisUsername,
                redisPassword,
                List.of(List.of("INFO", "replication")));
        if (last.contains("master_link_status:up")) {
          return;
        }
      } catch (IOException e) {
        last = e.toString();
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LocalClusterException("interrupted while waiting for " + replica.id(), e);
      }
    }
    throw new LocalClusterException(
        replica.id()
            + " did not finish its first sync with "
            + replica.leaderId().orElse("?")
            + " within "
            + SYNC_TIMEOUT.toSeconds()
            + " s; last INFO replication: "
            + last.strip()
            + System.lineSeparator()
            + "the last lines of its log:"
            + System.lineSeparator()
            + replica.logTail(25));
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
        + etcdEndpoint()
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
    private final List<String> etcdArguments = new ArrayList<>();
    private Map<String, String> environment = System.getenv();

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
     * The environment in which {@code etcd} and {@code redis-server} are looked up: {@code
     * JUMPGATE_ETCD_BIN} and {@code JUMPGATE_REDIS_BIN} (an executable each, when set), else the
     * {@code PATH}. Default: this process's environment.
     */
    public Builder binariesFrom(Map<String, String> environment) {
      this.environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
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
