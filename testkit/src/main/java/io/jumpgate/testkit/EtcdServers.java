package io.jumpgate.testkit;

import io.jumpgate.testkit.internal.EtcdHealth;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * An etcd cluster of one or more members, each a process on its own client and peer ports of
 * 127.0.0.1 (see {@link LocalServer} for the lifecycle of one member), with a cluster token unique
 * to it. Made by {@link #builder(Path)}; {@link #close()} kills every member and deletes the dir.
 *
 * <p>Client TLS and auth on request: with {@link Builder#tls}, clients talk {@code https} with
 * server certificates of a {@link TestCertificates} authority (optionally requiring a client
 * certificate of it), and health is probed on a plain metrics URL of each member; {@link
 * #enableAuth(String)} adds etcd's {@code root} user and turns auth on. Peers talk plain HTTP.
 *
 * <p>Defaults: one member, no TLS, no auth, a 20 s ready timeout per member. Thread-safe: the
 * members are; the list of members never changes.
 */
public final class EtcdServers implements AutoCloseable {

  /** Overall time limit of one {@link #etcdctl} run. */
  public static final Duration ETCDCTL_TIMEOUT = Duration.ofSeconds(20);

  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static final Pattern REVISION = Pattern.compile("\"revision\":(\\d+)");

  /**
   * TLS of the client URLs: server certificates of {@code authority}; with {@code clientCertAuth},
   * a client certificate signed by it is required ({@code --client-cert-auth}). Immutable.
   */
  public record Tls(TestCertificates authority, boolean clientCertAuth) {
    /** Checks the authority is there. */
    public Tls {
      Objects.requireNonNull(authority, "authority");
    }
  }

  private final String name;
  private final String token;
  private final Path dir;
  private final List<String> extraArgs;
  private final List<Member> members = new ArrayList<>();
  private final Tls tls;
  private final TestCertificates.CertificateFiles etcdctlCertificate;
  private volatile String rootPassword;

  private EtcdServers(Builder builder) {
    int number = COUNTER.incrementAndGet();
    this.name = "etcd" + number;
    this.token = "jumpgate-" + number + "-" + UUID.randomUUID();
    this.dir = builder.parentDir.resolve(name);
    this.extraArgs = List.copyOf(builder.extraArgs);
    this.tls = builder.tls;
    this.etcdctlCertificate = tls == null ? null : tls.authority().client("root");
    for (int index = 0; index < builder.members; index++) {
      members.add(new Member(this, "m" + index, builder.readyTimeout));
    }
  }

  /** A builder of a cluster whose dir goes below {@code parentDir}. */
  public static Builder builder(Path parentDir) {
    return new Builder(parentDir);
  }

  /**
   * Starts every member, then waits until every member is healthy.
   *
   * @throws LocalServer.PortTakenException when a member found a port taken (close this cluster and
   *     build a new one)
   * @throws LocalClusterException when a member exits or is not healthy in time, with its log
   */
  public void start() {
    for (Member member : members) {
      member.startWithoutWaiting();
    }
    awaitHealthy();
  }

  /** A name for messages, e.g. {@code etcd3}. */
  public String name() {
    return name;
  }

  /** The {@code --initial-cluster-token}, unique to this cluster. */
  public String token() {
    return token;
  }

  /** The TLS settings, or null when clients talk plain HTTP. */
  public Tls tls() {
    return tls;
  }

  /** Every member's client URL, {@code http(s)://127.0.0.1:PORT}, in member order. */
  public List<String> endpoints() {
    return members.stream().map(Member::endpoint).toList();
  }

  /** The endpoints joined by commas (etcdctl's {@code --endpoints} form). */
  public String endpointList() {
    return String.join(",", endpoints());
  }

  /** The client URLs of the members that run and are not paused. */
  public List<String> liveEndpoints() {
    return members.stream()
        .filter(m -> m.isRunning() && !m.isPaused())
        .map(Member::endpoint)
        .toList();
  }

  /** Member {@code index}, from 0. */
  public Member member(int index) {
    return members.get(index);
  }

  /** The members in order. */
  public List<Member> members() {
    return List.copyOf(members);
  }

  /** The number of members. */
  public int size() {
    return members.size();
  }

  /**
   * Waits until every running member is healthy, then until they all answer healthy in one pass
   * (right after a quorum comes back, a member's {@code /health} can flip while the members elect a
   * leader); each wait bounded by the members' ready timeout.
   */
  public void awaitHealthy() {
    Duration timeout = LocalServer.DEFAULT_READY_TIMEOUT;
    for (Member member : members) {
      if (member.isRunning()) {
        member.awaitReady();
        timeout = member.readyTimeout();
      }
    }
    BoundedWait.until(
        timeout,
        name + ": every running member healthy at once",
        () -> members.stream().filter(Member::isRunning).allMatch(Member::isHealthy),
        () -> liveEndpoints().toString());
  }

  /**
   * Runs {@code etcdctl} (API v3, 2 s dial and 5 s command timeouts) against the {@link
   * #liveEndpoints()}; with TLS, with {@code --cacert} and the {@code root} client certificate
   * first, and after {@link #enableAuth}, as {@code root} (a later {@code --user}, {@code --cert}
   * or {@code --key} in {@code args} overrides them). Bounded by {@link #ETCDCTL_TIMEOUT}.
   */
  public CommandResult etcdctl(String... args) {
    return etcdctl(liveEndpoints(), args);
  }

  CommandResult etcdctl(List<String> endpoints, String... args) {
    List<String> all = new ArrayList<>();
    all.add("--endpoints=" + String.join(",", endpoints));
    all.add("--dial-timeout=2s");
    all.add("--command-timeout=5s");
    if (tls != null) {
      all.add("--cacert=" + tls.authority().caCertificate());
      all.add("--cert=" + etcdctlCertificate.certificate());
      all.add("--key=" + etcdctlCertificate.key());
    }
    if (rootPassword != null) {
      all.add("--user=root:" + rootPassword);
    }
    all.addAll(Arrays.asList(args));
    return LocalServer.Program.ETCDCTL.run(all, Map.of("ETCDCTL_API", "3"), ETCDCTL_TIMEOUT);
  }

  /**
   * Adds etcd's {@code root} user with this password (role {@code root}) and turns auth on; later
   * {@link #etcdctl} runs log in as root. Then {@code user} (when not null and not {@code root}) is
   * added with {@code password} and the {@code root} role, so that a client of it may read and
   * write everything.
   *
   * @throws LocalClusterException naming the etcdctl command that failed
   */
  public void enableAuth(String rootPassword, String user, String password) {
    Objects.requireNonNull(rootPassword, "rootPassword");
    ok(etcdctl("user", "add", "root:" + rootPassword));
    ok(etcdctl("user", "grant-role", "root", "root"));
    if (user != null && !user.equals("root")) {
      ok(etcdctl("user", "add", user + ":" + Objects.requireNonNull(password, "password")));
      ok(etcdctl("user", "grant-role", user, "root"));
    }
    ok(etcdctl("auth", "enable"));
    this.rootPassword = rootPassword;
  }

  /**
   * Compacts etcd's history up to its current revision (older revisions can no longer be read or
   * watched from) and returns that revision.
   */
  public long compact() {
    String json = ok(etcdctl("get", "/", "--prefix", "--keys-only", "--limit=1", "-w", "json"));
    Matcher revision = REVISION.matcher(json.replace(" ", ""));
    if (!revision.find()) {
      throw new LocalClusterException("no revision in etcdctl's answer: " + json);
    }
    long current = Long.parseLong(revision.group(1));
    ok(etcdctl("compaction", Long.toString(current)));
    return current;
  }

  private static String ok(CommandResult result) {
    if (result.exitCode() != 0) {
      throw new LocalClusterException(
          "etcdctl failed (exit "
              + result.exitCode()
              + "): "
              + result.command()
              + "\n"
              + result.output());
    }
    return result.stdout().trim();
  }

  String initialCluster() {
    return members.stream()
        .map(m -> m.memberName() + "=" + m.peerUrl())
        .collect(Collectors.joining(","));
  }

  /** Kills every member and deletes the cluster's dir. Idempotent. */
  @Override
  public void close() {
    RuntimeException failure = null;
    for (Member member : members) {
      try {
        member.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    LocalServer.deleteRecursively(dir);
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public String toString() {
    return name + " " + endpoints();
  }

  /**
   * One member: client URL {@code http(s)://127.0.0.1:clientPort}, peer URL {@code
   * http://127.0.0.1:peerPort}, data in {@code dir()/data}. Ready when {@code GET /health} answers
   * {@code "health":"true"}, which needs a cluster leader: a member of a 3-member cluster is only
   * ready once a quorum runs. Thread-safe like {@link LocalServer}.
   */
  public static final class Member extends LocalServer {
    private final EtcdServers cluster;
    private final String memberName;
    private final int clientPort;
    private final int peerPort;
    private final int metricsPort;
    private final TestCertificates.CertificateFiles serverCertificate;

    private Member(EtcdServers cluster, String memberName, Duration readyTimeout) {
      super(
          cluster.name + "-" + memberName,
          cluster.dir.resolve(memberName),
          Program.ETCD,
          readyTimeout);
      this.cluster = cluster;
      this.memberName = memberName;
      this.clientPort = FreePorts.next();
      this.peerPort = FreePorts.next();
      this.metricsPort = cluster.tls == null ? 0 : FreePorts.next();
      this.serverCertificate =
          cluster.tls == null
              ? null
              : cluster.tls.authority().server(cluster.name + "-" + memberName);
    }

    /** The etcd member name ({@code --name}), e.g. {@code m0}. */
    public String memberName() {
      return memberName;
    }

    /** The client port. */
    public int clientPort() {
      return clientPort;
    }

    /** The peer port. */
    public int peerPort() {
      return peerPort;
    }

    /** {@code http://127.0.0.1:<clientPort>}, {@code https://} when the cluster has TLS. */
    public String endpoint() {
      return (cluster.tls == null ? "http" : "https") + "://127.0.0.1:" + clientPort;
    }

    /** {@code http://127.0.0.1:<peerPort>} */
    public String peerUrl() {
      return "http://127.0.0.1:" + peerPort;
    }

    /** The etcd data dir (kept across restarts, deleted on close). */
    public Path dataDir() {
      return dir().resolve("data");
    }

    /** One {@code GET /health} with a 2 s timeout: true if it answered {@code "health":"true"}. */
    public boolean isHealthy() {
      return EtcdHealth.healthy(healthPort(), Duration.ofSeconds(2));
    }

    /** Where {@code /health} is asked: the client port, or with TLS the plain metrics port. */
    private int healthPort() {
      return cluster.tls == null ? clientPort : metricsPort;
    }

    /** Runs etcdctl against this member only (see {@link EtcdServers#etcdctl}). */
    public CommandResult etcdctl(String... args) {
      return cluster.etcdctl(List.of(endpoint()), args);
    }

    @Override
    protected List<String> args() {
      List<String> args = new ArrayList<>();
      args.add("--name=" + memberName);
      args.add("--data-dir=" + dataDir());
      args.add("--listen-client-urls=" + endpoint());
      args.add("--advertise-client-urls=" + endpoint());
      args.add("--listen-peer-urls=" + peerUrl());
      args.add("--initial-advertise-peer-urls=" + peerUrl());
      args.add("--initial-cluster=" + cluster.initialCluster());
      args.add("--initial-cluster-state=new");
      args.add("--initial-cluster-token=" + cluster.token);
      args.add("--enable-v2=false");
      args.add("--logger=zap");
      args.add("--log-outputs=stderr");
      if (cluster.tls != null) {
        args.add("--cert-file=" + serverCertificate.certificate());
        args.add("--key-file=" + serverCertificate.key());
        if (cluster.tls.clientCertAuth()) {
          // etcd 3.4 wants a client certificate from everyone once it has a trusted CA file.
          args.add("--trusted-ca-file=" + cluster.tls.authority().caCertificate());
          args.add("--client-cert-auth");
        }
        args.add("--listen-metrics-urls=http://127.0.0.1:" + metricsPort);
      }
      args.addAll(cluster.extraArgs);
      return args;
    }

    @Override
    protected boolean probeReady() {
      return isHealthy();
    }

    @Override
    protected String readiness() {
      return "answer GET http://127.0.0.1:" + healthPort() + "/health with \"health\":\"true\"";
    }
  }

  /**
   * Settings of an {@link EtcdServers}. Not thread-safe; setters check their value at once and
   * throw {@link IllegalArgumentException} naming it.
   */
  public static final class Builder {
    private final Path parentDir;
    private int members = 1;
    private final List<String> extraArgs = new ArrayList<>();
    private Duration readyTimeout = LocalServer.DEFAULT_READY_TIMEOUT;
    private Tls tls;

    private Builder(Path parentDir) {
      this.parentDir = Objects.requireNonNull(parentDir, "parentDir");
    }

    /** Number of members, 1 to 9; default 1. */
    public Builder members(int members) {
      if (members < 1 || members > 9) {
        throw new IllegalArgumentException("members must be between 1 and 9, was " + members);
      }
      this.members = members;
      return this;
    }

    /** Serve clients over TLS only, see {@link Tls}; default plain HTTP. */
    public Builder tls(TestCertificates authority, boolean clientCertAuth) {
      this.tls = new Tls(authority, clientCertAuth);
      return this;
    }

    /**
     * More etcd flags for every member, after the testkit's own (so they override them), e.g.
     * {@code "--auto-compaction-retention=1"}, {@code "--heartbeat-interval=50"}.
     */
    public Builder config(String... args) {
      extraArgs.addAll(Arrays.asList(args));
      return this;
    }

    /** How long a start or restart may take until a member is healthy; default 20 s. */
    public Builder readyTimeout(Duration timeout) {
      if (timeout == null || timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("ready timeout must be positive, was " + timeout);
      }
      this.readyTimeout = timeout;
      return this;
    }

    /** The cluster, not started yet ({@link EtcdServers#start()}); fresh free ports each time. */
    public EtcdServers build() {
      return new EtcdServers(this);
    }

    /**
     * Builds and starts a cluster, waiting until every member is healthy; on a taken port, closes
     * it and tries twice more on new ports.
     */
    public EtcdServers start() {
      return LocalServer.startOnFreePorts(
          3, " etcd", this::build, EtcdServers::start, EtcdServers::close);
    }
  }
}
