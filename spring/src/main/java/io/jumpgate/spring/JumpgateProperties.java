package io.jumpgate.spring;

import io.jumpgate.driver.FanOutGrouping;
import io.jumpgate.driver.ReadPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code jumpgate.*} properties: every option of the driver ({@code JumpgateOptions}) that an
 * application sets in its configuration. Set exactly one topology source: {@code
 * jumpgate.etcd.endpoints} or {@code jumpgate.topology-file}.
 *
 * <p>The defaults written here are the driver's own ({@code JumpgateOptions}, {@code RetryOptions},
 * {@code EtcdTopologyOptions}); a test keeps them equal. Values are checked when the client is
 * made: a bad or conflicting value stops the application with a message that names the property.
 * What these properties do not cover (shared Lettuce {@code ClientResources}, a custom topology
 * source) goes through a {@link JumpgateClientCustomizer} bean.
 */
@ConfigurationProperties("jumpgate")
public class JumpgateProperties {

  /** Whether to auto-configure a Jumpgate client. */
  private boolean enabled = true;

  /** Where the shard map is read and watched: etcd. */
  private final Etcd etcd = new Etcd();

  /**
   * The cluster's name in etcd: its keys are under /jumpgate/{cluster}/. Used with
   * jumpgate.etcd.endpoints.
   */
  private String cluster = "default";

  /**
   * A topology file (as written by 'jumpgate topology export'), instead of etcd: read at start and
   * reloaded when it changes. For development, tests and deployments without etcd.
   */
  private Path topologyFile;

  /** Which node of a shard serves reads. Writes always go to the shard's leader. */
  private ReadPolicy readPolicy = ReadPolicy.LEADER;

  /** The client's zone, for the 'nearest' read policy. */
  private String zone;

  /** The deadline of a command, retries included. */
  private Duration timeout = Duration.ofSeconds(2);

  /** How long to wait for the TCP connection to a node. */
  private Duration connectTimeout = Duration.ofSeconds(2);

  /**
   * How long the application's start waits for the first valid topology before it fails (for the
   * etcd source, also its own start timeout).
   */
  private Duration startTimeout = Duration.ofSeconds(10);

  /** How failed commands are retried, when their failure allows it. */
  private final Retry retry = new Retry();

  /**
   * How multi-key commands (MGET, MSET, DEL, ...) are split: one sub-command per node, or one per
   * shard for servers that refuse multi-key commands spanning shards.
   */
  private FanOutGrouping fanOutGrouping = FanOutGrouping.BY_NODE;

  /** The bounded queue of commands per node connection. */
  private int requestQueueSize = 10_000;

  /** How requests to shards frozen for a migration's cutover are held. */
  private final Freeze freeze = new Freeze();

  /** Whether to connect to every leader when a topology is applied, instead of on first use. */
  private boolean warmUp = false;

  /** How the client talks to the Redis nodes. */
  private final Redis redis = new Redis();

  /**
   * The id the client registers under in etcd and tags its meters with ('client' tag); unique per
   * application instance, [A-Za-z0-9._:-]{1,128}. Default: {host}:{pid}:{random}, and no 'client'
   * tag.
   */
  private String clientId;

  /** The client's registration in etcd, which 'jumpgate clients' lists. */
  private final Registration registration = new Registration();

  /** The driver's Micrometer meters. */
  private final Metrics metrics = new Metrics();

  /** The 'jumpgate' actuator health indicator. */
  private final Health health = new Health();

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Etcd getEtcd() {
    return etcd;
  }

  public String getCluster() {
    return cluster;
  }

  public void setCluster(String cluster) {
    this.cluster = cluster;
  }

  public Path getTopologyFile() {
    return topologyFile;
  }

  public void setTopologyFile(Path topologyFile) {
    this.topologyFile = topologyFile;
  }

  public ReadPolicy getReadPolicy() {
    return readPolicy;
  }

  public void setReadPolicy(ReadPolicy readPolicy) {
    this.readPolicy = readPolicy;
  }

  public String getZone() {
    return zone;
  }

  public void setZone(String zone) {
    this.zone = zone;
  }

  public Duration getTimeout() {
    return timeout;
  }

  public void setTimeout(Duration timeout) {
    this.timeout = timeout;
  }

  public Duration getConnectTimeout() {
    return connectTimeout;
  }

  public void setConnectTimeout(Duration connectTimeout) {
    this.connectTimeout = connectTimeout;
  }

  public Duration getStartTimeout() {
    return startTimeout;
  }

  public void setStartTimeout(Duration startTimeout) {
    this.startTimeout = startTimeout;
  }

  public Retry getRetry() {
    return retry;
  }

  public FanOutGrouping getFanOutGrouping() {
    return fanOutGrouping;
  }

  public void setFanOutGrouping(FanOutGrouping fanOutGrouping) {
    this.fanOutGrouping = fanOutGrouping;
  }

  public Freeze getFreeze() {
    return freeze;
  }

  public int getRequestQueueSize() {
    return requestQueueSize;
  }

  public void setRequestQueueSize(int requestQueueSize) {
    this.requestQueueSize = requestQueueSize;
  }

  public boolean isWarmUp() {
    return warmUp;
  }

  public void setWarmUp(boolean warmUp) {
    this.warmUp = warmUp;
  }

  public Redis getRedis() {
    return redis;
  }

  public String getClientId() {
    return clientId;
  }

  public void setClientId(String clientId) {
    this.clientId = clientId;
  }

  public Registration getRegistration() {
    return registration;
  }

  public Metrics getMetrics() {
    return metrics;
  }

  public Health getHealth() {
    return health;
  }

  /** {@code jumpgate.etcd.*}: how the client reaches etcd. */
  public static class Etcd {

    /**
     * The etcd client URLs, http://host:port or https://host:port; a list or one comma-separated
     * value.
     */
    private List<String> endpoints = new ArrayList<>();

    /** The etcd user (with jumpgate.etcd.password). */
    private String username;

    /** The etcd user's password (with jumpgate.etcd.username). */
    private String password;

    /** TLS material for https endpoints. */
    private final EtcdTls tls = new EtcdTls();

    /** The deadline of every etcd call. */
    private Duration requestTimeout = Duration.ofSeconds(5);

    /** When the watch has been quiet this long, ask etcd for a progress notification. */
    private Duration progressInterval = Duration.ofSeconds(2);

    /**
     * A watch with no event and no progress notification for this long is presumed dead: list again
     * and watch again. Longer than jumpgate.etcd.progress-interval.
     */
    private Duration silenceTimeout = Duration.ofSeconds(10);

    /** The wait between attempts to reach etcd again, doubling from min to max. */
    private final RetryBackoff retryBackoff = new RetryBackoff();

    /** The shard count the client insists on: a cluster with another count is refused. 0: any. */
    private int expectedShards = 0;

    public List<String> getEndpoints() {
      return endpoints;
    }

    public void setEndpoints(List<String> endpoints) {
      this.endpoints = endpoints;
    }

    public String getUsername() {
      return username;
    }

    public void setUsername(String username) {
      this.username = username;
    }

    public String getPassword() {
      return password;
    }

    public void setPassword(String password) {
      this.password = password;
    }

    public EtcdTls getTls() {
      return tls;
    }

    public Duration getRequestTimeout() {
      return requestTimeout;
    }

    public void setRequestTimeout(Duration requestTimeout) {
      this.requestTimeout = requestTimeout;
    }

    public Duration getProgressInterval() {
      return progressInterval;
    }

    public void setProgressInterval(Duration progressInterval) {
      this.progressInterval = progressInterval;
    }

    public Duration getSilenceTimeout() {
      return silenceTimeout;
    }

    public void setSilenceTimeout(Duration silenceTimeout) {
      this.silenceTimeout = silenceTimeout;
    }

    public RetryBackoff getRetryBackoff() {
      return retryBackoff;
    }

    public int getExpectedShards() {
      return expectedShards;
    }

    public void setExpectedShards(int expectedShards) {
      this.expectedShards = expectedShards;
    }
  }

  /** {@code jumpgate.etcd.tls.*}: PEM files for etcd over https. */
  public static class EtcdTls {

    /** PEM file of the CA that signed etcd's server certificates. Default: the JDK's CAs. */
    private Path caCertificate;

    /** PEM client certificate, for client-certificate authentication (with client-key). */
    private Path clientCertificate;

    /** PKCS#8 PEM key of the client certificate (with client-certificate). */
    private Path clientKey;

    public Path getCaCertificate() {
      return caCertificate;
    }

    public void setCaCertificate(Path caCertificate) {
      this.caCertificate = caCertificate;
    }

    public Path getClientCertificate() {
      return clientCertificate;
    }

    public void setClientCertificate(Path clientCertificate) {
      this.clientCertificate = clientCertificate;
    }

    public Path getClientKey() {
      return clientKey;
    }

    public void setClientKey(Path clientKey) {
      this.clientKey = clientKey;
    }
  }

  /** {@code jumpgate.etcd.retry-backoff.*}. */
  public static class RetryBackoff {

    /** The first wait before reaching etcd again. */
    private Duration min = Duration.ofMillis(100);

    /** The longest wait before reaching etcd again. */
    private Duration max = Duration.ofSeconds(2);

    public Duration getMin() {
      return min;
    }

    public void setMin(Duration min) {
      this.min = min;
    }

    public Duration getMax() {
      return max;
    }

    public void setMax(Duration max) {
      this.max = max;
    }
  }

  /** {@code jumpgate.retry.*}: see docs/driver.md, "Retries". */
  public static class Retry {

    /** Tries in all, the first included (1 to 100): 1 disables retries. */
    private int maxAttempts = 3;

    /** The wait between tries: between half and all of base * 2^(try - 2), at most max. */
    private final Backoff backoff = new Backoff();

    /**
     * After READONLY or MOVED, how long to wait for a newer topology revision before trying again
     * anyway.
     */
    private Duration topologyWait = Duration.ofMillis(500);

    /**
     * Whether a write that leaves the same state when run twice but answers differently (SADD,
     * SREM, HSET, HDEL, ZADD, ZREM, DEL, UNLINK, EXPIRE, PERSIST, SETNX, SET NX, GETSET, GETDEL,
     * ...) is sent again after a try whose outcome is unknown; its reply may then be the second
     * run's (SADD answers 0 for a member the lost first run added).
     */
    private boolean acceptSecondRunReplies = false;

    public int getMaxAttempts() {
      return maxAttempts;
    }

    public void setMaxAttempts(int maxAttempts) {
      this.maxAttempts = maxAttempts;
    }

    public Backoff getBackoff() {
      return backoff;
    }

    public Duration getTopologyWait() {
      return topologyWait;
    }

    public void setTopologyWait(Duration topologyWait) {
      this.topologyWait = topologyWait;
    }

    public boolean isAcceptSecondRunReplies() {
      return acceptSecondRunReplies;
    }

    public void setAcceptSecondRunReplies(boolean acceptSecondRunReplies) {
      this.acceptSecondRunReplies = acceptSecondRunReplies;
    }
  }

  /** {@code jumpgate.retry.backoff.*}. */
  public static class Backoff {

    /** The backoff step before the first retry; doubles per try. */
    private Duration base = Duration.ofMillis(10);

    /** The largest backoff step. */
    private Duration max = Duration.ofMillis(200);

    public Duration getBase() {
      return base;
    }

    public void setBase(Duration base) {
      this.base = base;
    }

    public Duration getMax() {
      return max;
    }

    public void setMax(Duration max) {
      this.max = max;
    }
  }

  /** {@code jumpgate.redis.*}: authentication and TLS towards the nodes. */
  public static class Redis {

    /** The Redis ACL user (AUTH user password; with jumpgate.redis.password). */
    private String username;

    /** The Redis password: of jumpgate.redis.username, else of the default user. */
    private String password;

    /** TLS towards the nodes (also per node with "tls":true in the topology). */
    private final RedisTls tls = new RedisTls();

    /**
     * Whether every node connection is named jumpgate:{client-id} (CLIENT SETNAME), so that a
     * migration's mover can see this client's connections; turn off for RESP servers that refuse
     * CLIENT SETNAME (twemproxy).
     */
    private boolean connectionNames = true;

    /**
     * Whether the commands ready for one node within one turn of its connection's event loop leave
     * in one socket write instead of one write each (a command alone is not delayed); saves system
     * calls when many commands are in flight. On by default.
     */
    private boolean writeCoalescing = true;

    public boolean isConnectionNames() {
      return connectionNames;
    }

    public void setConnectionNames(boolean connectionNames) {
      this.connectionNames = connectionNames;
    }

    public boolean isWriteCoalescing() {
      return writeCoalescing;
    }

    public void setWriteCoalescing(boolean writeCoalescing) {
      this.writeCoalescing = writeCoalescing;
    }

    public String getUsername() {
      return username;
    }

    public void setUsername(String username) {
      this.username = username;
    }

    public String getPassword() {
      return password;
    }

    public void setPassword(String password) {
      this.password = password;
    }

    public RedisTls getTls() {
      return tls;
    }
  }

  /** {@code jumpgate.redis.tls.*}. */
  public static class RedisTls {

    /** Whether to connect to every node with TLS. */
    private boolean enabled = false;

    /** PEM file of the CA that signed the nodes' certificates. Default: the JDK's CAs. */
    private Path caCertificate;

    /**
     * PEM client certificate presented to nodes that require one (tls-auth-clients), with
     * client-key. Default: none.
     */
    private Path clientCertificate;

    /** Unencrypted PKCS#8 PEM key of the client certificate (with client-certificate). */
    private Path clientKey;

    public Path getClientCertificate() {
      return clientCertificate;
    }

    public void setClientCertificate(Path clientCertificate) {
      this.clientCertificate = clientCertificate;
    }

    public Path getClientKey() {
      return clientKey;
    }

    public void setClientKey(Path clientKey) {
      this.clientKey = clientKey;
    }

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    public Path getCaCertificate() {
      return caCertificate;
    }

    public void setCaCertificate(Path caCertificate) {
      this.caCertificate = caCertificate;
    }
  }

  /** {@code jumpgate.freeze.*}. */
  public static class Freeze {

    /**
     * How many requests to shards frozen for a migration's cutover the client holds at once; one
     * more fails at once with ShardFrozenException, never sent.
     */
    private int maxRequests = 1_000;

    /**
     * How long a request to a frozen shard is held at most; then it fails with
     * ShardFrozenException, never sent (its own deadline may end it sooner).
     */
    private Duration maxWait = Duration.ofSeconds(5);

    public int getMaxRequests() {
      return maxRequests;
    }

    public void setMaxRequests(int maxRequests) {
      this.maxRequests = maxRequests;
    }

    public Duration getMaxWait() {
      return maxWait;
    }

    public void setMaxWait(Duration maxWait) {
      this.maxWait = maxWait;
    }
  }

  /** {@code jumpgate.registration.*}. */
  public static class Registration {

    /**
     * Whether the client registers itself under /jumpgate/{cluster}/clients/{client-id} in etcd
     * (bound to a lease), so that 'jumpgate clients' lists it with its topology lag. Only with
     * etcd: ignored with jumpgate.topology-file.
     */
    private boolean enabled = true;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /** {@code jumpgate.metrics.*}. */
  public static class Metrics {

    /**
     * Whether the driver records its meters (jumpgate.commands, jumpgate.topology.age, ...) in the
     * application's MeterRegistry, when it has one.
     */
    private boolean enabled = true;

    public boolean isEnabled() {
      return enabled;
    }

    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }
  }

  /**
   * {@code jumpgate.health.*}: when the 'jumpgate' health indicator reports DOWN. Switch it off
   * with management.health.jumpgate.enabled=false.
   */
  public static class Health {

    /**
     * DOWN when the topology source has not confirmed its snapshot for longer than this (e.g. etcd
     * unreachable: the last snapshot keeps serving meanwhile).
     */
    private Duration maxTopologyAge = Duration.ofSeconds(30);

    /**
     * Whether to check that every shard's leader answers PING; DOWN when a shard has no reachable
     * leader.
     */
    private boolean checkLeaders = true;

    /**
     * How long a health check waits for PING answers when no earlier round has ended (the first
     * check), before it reports DOWN. Later checks answer from the last round that ended while a
     * new one is in flight.
     */
    private Duration pingTimeout = Duration.ofSeconds(1);

    /**
     * At most one PING round per interval, however often health is asked: answers are reused within
     * it.
     */
    private Duration pingInterval = Duration.ofSeconds(5);

    public Duration getMaxTopologyAge() {
      return maxTopologyAge;
    }

    public void setMaxTopologyAge(Duration maxTopologyAge) {
      this.maxTopologyAge = maxTopologyAge;
    }

    public boolean isCheckLeaders() {
      return checkLeaders;
    }

    public void setCheckLeaders(boolean checkLeaders) {
      this.checkLeaders = checkLeaders;
    }

    public Duration getPingTimeout() {
      return pingTimeout;
    }

    public void setPingTimeout(Duration pingTimeout) {
      this.pingTimeout = pingTimeout;
    }

    public Duration getPingInterval() {
      return pingInterval;
    }

    public void setPingInterval(Duration pingInterval) {
      this.pingInterval = pingInterval;
    }
  }
}
