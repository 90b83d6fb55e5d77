package io.jumpgate.topology;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How an {@link EtcdTopologySource} reaches etcd and how patient it is.
 *
 * <p>Immutable and thread-safe; build with {@link #builder()}, derive variants with {@link
 * #mutate()}. The builder fails fast on a bad value with a message that names the option. Defaults:
 *
 * <ul>
 *   <li>{@code cluster}: {@value TopologyKeys#DEFAULT_CLUSTER}
 *   <li>{@code startTimeout}: {@link #DEFAULT_START_TIMEOUT} (10 s) for the first valid snapshot
 *   <li>{@code requestTimeout}: {@link #DEFAULT_REQUEST_TIMEOUT} (5 s) for every etcd call
 *   <li>{@code progressInterval}: {@link #DEFAULT_PROGRESS_INTERVAL} (2 s): when the watch has been
 *       quiet this long, ask etcd for a progress notification
 *   <li>{@code silenceTimeout}: {@link #DEFAULT_SILENCE_TIMEOUT} (10 s): a watch with no event and
 *       no progress notification for this long is presumed dead: list again and watch again
 *   <li>{@code retryBackoffMin}/{@code retryBackoffMax}: 100 ms / 2 s between attempts to reach
 *       etcd again, doubling
 *   <li>{@code expectedShards}: 0 (accept the cluster's shard count)
 *   <li>no credentials, no TLS material (an {@code https} endpoint then trusts the JDK's CAs)
 * </ul>
 *
 * <p>{@link #toString()} never shows the password.
 */
public final class EtcdTopologyOptions {

  public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(5);
  public static final Duration DEFAULT_PROGRESS_INTERVAL = Duration.ofSeconds(2);
  public static final Duration DEFAULT_SILENCE_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_RETRY_BACKOFF_MIN = Duration.ofMillis(100);
  public static final Duration DEFAULT_RETRY_BACKOFF_MAX = Duration.ofSeconds(2);

  private final List<URI> endpoints;
  private final String cluster;
  private final String username;
  private final String password;
  private final Path caCertificate;
  private final Path clientCertificate;
  private final Path clientKey;
  private final Duration startTimeout;
  private final Duration requestTimeout;
  private final Duration progressInterval;
  private final Duration silenceTimeout;
  private final Duration retryBackoffMin;
  private final Duration retryBackoffMax;
  private final int expectedShards;
  private final Clock clock;

  private EtcdTopologyOptions(Builder builder) {
    this.endpoints = List.copyOf(builder.endpoints);
    this.cluster = builder.cluster;
    this.username = builder.username;
    this.password = builder.password;
    this.caCertificate = builder.caCertificate;
    this.clientCertificate = builder.clientCertificate;
    this.clientKey = builder.clientKey;
    this.startTimeout = builder.startTimeout;
    this.requestTimeout = builder.requestTimeout;
    this.progressInterval = builder.progressInterval;
    this.silenceTimeout = builder.silenceTimeout;
    this.retryBackoffMin = builder.retryBackoffMin;
    this.retryBackoffMax = builder.retryBackoffMax;
    this.expectedShards = builder.expectedShards;
    this.clock = builder.clock;
  }

  /** A builder with every default set and no endpoint. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from these options. */
  public Builder mutate() {
    Builder builder = new Builder();
    builder.endpoints.addAll(endpoints);
    builder.cluster = cluster;
    builder.username = username;
    builder.password = password;
    builder.caCertificate = caCertificate;
    builder.clientCertificate = clientCertificate;
    builder.clientKey = clientKey;
    builder.startTimeout = startTimeout;
    builder.requestTimeout = requestTimeout;
    builder.progressInterval = progressInterval;
    builder.silenceTimeout = silenceTimeout;
    builder.retryBackoffMin = retryBackoffMin;
    builder.retryBackoffMax = retryBackoffMax;
    builder.expectedShards = expectedShards;
    builder.clock = clock;
    return builder;
  }

  /** The etcd client URLs, at least one. */
  public List<URI> endpoints() {
    return endpoints;
  }

  /** The endpoints as one comma-separated string, for messages. */
  public String endpointList() {
    return String.join(",", endpoints.stream().map(URI::toString).toList());
  }

  public String cluster() {
    return cluster;
  }

  public Optional<String> username() {
    return Optional.ofNullable(username);
  }

  /** The password; never logged or shown by {@link #toString()}. */
  public Optional<String> password() {
    return Optional.ofNullable(password);
  }

  public Optional<Path> caCertificate() {
    return Optional.ofNullable(caCertificate);
  }

  public Optional<Path> clientCertificate() {
    return Optional.ofNullable(clientCertificate);
  }

  public Optional<Path> clientKey() {
    return Optional.ofNullable(clientKey);
  }

  public Duration startTimeout() {
    return startTimeout;
  }

  public Duration requestTimeout() {
    return requestTimeout;
  }

  public Duration progressInterval() {
    return progressInterval;
  }

  public Duration silenceTimeout() {
    return silenceTimeout;
  }

  public Duration retryBackoffMin() {
    return retryBackoffMin;
  }

  public Duration retryBackoffMax() {
    return retryBackoffMax;
  }

  /** The shard count the client insists on, or 0 to accept the cluster's. */
  public int expectedShards() {
    return expectedShards;
  }

  public Clock clock() {
    return clock;
  }

  @Override
  public String toString() {
    return "EtcdTopologyOptions{endpoints="
        + endpointList()
        + ", cluster="
        + cluster
        + ", user="
        + (username == null ? "none" : username)
        + ", password="
        + (password == null ? "none" : "***")
        + ", tls="
        + (caCertificate != null || clientCertificate != null)
        + ", startTimeout="
        + startTimeout
        + ", requestTimeout="
        + requestTimeout
        + "}";
  }

  /** Builds {@link EtcdTopologyOptions}. Not thread-safe; fails fast on bad values. */
  public static final class Builder {
    private final List<URI> endpoints = new ArrayList<>();
    private String cluster = TopologyKeys.DEFAULT_CLUSTER;
    private String username;
    private String password;
    private Path caCertificate;
    private Path clientCertificate;
    private Path clientKey;
    private Duration startTimeout = DEFAULT_START_TIMEOUT;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private Duration progressInterval = DEFAULT_PROGRESS_INTERVAL;
    private Duration silenceTimeout = DEFAULT_SILENCE_TIMEOUT;
    private Duration retryBackoffMin = DEFAULT_RETRY_BACKOFF_MIN;
    private Duration retryBackoffMax = DEFAULT_RETRY_BACKOFF_MAX;
    private int expectedShards;
    private Clock clock = Clock.systemUTC();

    private Builder() {}

    /**
     * Replaces the endpoints with a comma-separated list of URLs, e.g. {@code
     * http://10.0.0.1:2379,http://10.0.0.2:2379}.
     */
    public Builder endpoints(String commaSeparated) {
      Objects.requireNonNull(commaSeparated, "endpoints");
      List<URI> parsed = new ArrayList<>();
      for (String part : commaSeparated.split(",")) {
        String trimmed = part.trim();
        if (!trimmed.isEmpty()) {
          parsed.add(parseEndpoint(trimmed));
        }
      }
      if (parsed.isEmpty()) {
        throw new IllegalArgumentException("endpoints must name at least one URL, was empty");
      }
      endpoints.clear();
      endpoints.addAll(parsed);
      return this;
    }

    /** Replaces the endpoints. */
    public Builder endpoints(List<URI> uris) {
      List<URI> checked = new ArrayList<>();
      for (URI uri : uris) {
        checked.add(parseEndpoint(uri.toString()));
      }
      endpoints.clear();
      endpoints.addAll(checked);
      return this;
    }

    private static URI parseEndpoint(String text) {
      URI uri;
      try {
        uri = URI.create(text);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("endpoint '" + text + "' is not a URL", e);
      }
      String scheme = uri.getScheme();
      if (scheme == null
          || !(scheme.equals("http") || scheme.equals("https"))
          || uri.getHost() == null
          || uri.getPort() < 1) {
        throw new IllegalArgumentException(
            "endpoint '" + text + "' must look like http://host:port or https://host:port");
      }
      return uri;
    }

    public Builder cluster(String cluster) {
      this.cluster = TopologyKeys.forCluster(cluster).cluster();
      return this;
    }

    /** etcd user and password; both or neither. */
    public Builder credentials(String username, String password) {
      if ((username == null) != (password == null)) {
        throw new IllegalArgumentException("etcd username and password must be given together");
      }
      if (username != null && username.isEmpty()) {
        throw new IllegalArgumentException("etcd username must not be empty");
      }
      this.username = username;
      this.password = password;
      return this;
    }

    /** PEM file of the CA that signed etcd's server certificates. */
    public Builder caCertificate(Path file) {
      this.caCertificate = file;
      return this;
    }

    /** PEM client certificate and PKCS#8 PEM key, for client-certificate authentication. */
    public Builder clientCertificate(Path certificate, Path key) {
      if ((certificate == null) != (key == null)) {
        throw new IllegalArgumentException(
            "etcd client certificate and key must be given together");
      }
      this.clientCertificate = certificate;
      this.clientKey = key;
      return this;
    }

    public Builder startTimeout(Duration timeout) {
      this.startTimeout = positive("startTimeout", timeout);
      return this;
    }

    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = positive("requestTimeout", timeout);
      return this;
    }

    public Builder progressInterval(Duration interval) {
      this.progressInterval = positive("progressInterval", interval);
      return this;
    }

    public Builder silenceTimeout(Duration timeout) {
      this.silenceTimeout = positive("silenceTimeout", timeout);
      return this;
    }

    public Builder retryBackoff(Duration min, Duration max) {
      positive("retryBackoff min", min);
      positive("retryBackoff max", max);
      if (max.compareTo(min) < 0) {
        throw new IllegalArgumentException(
            "retryBackoff max (" + max + ") must not be below min (" + min + ")");
      }
      this.retryBackoffMin = min;
      this.retryBackoffMax = max;
      return this;
    }

    /** Refuse a cluster whose shard count differs; 0 accepts any. */
    public Builder expectedShards(int shards) {
      if (shards < 0 || shards > io.jumpgate.spi.TopologyMetadata.MAX_SHARDS) {
        throw new IllegalArgumentException(
            "expectedShards must be 0 (any) or 1 to 65536, was " + shards);
      }
      this.expectedShards = shards;
      return this;
    }

    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * @throws IllegalArgumentException if no endpoint was given or the settings contradict
     */
    public EtcdTopologyOptions build() {
      if (endpoints.isEmpty()) {
        throw new IllegalArgumentException("at least one etcd endpoint is required");
      }
      if (progressInterval.compareTo(silenceTimeout) >= 0) {
        throw new IllegalArgumentException(
            "progressInterval ("
                + progressInterval
                + ") must be shorter than silenceTimeout ("
                + silenceTimeout
                + ")");
      }
      return new EtcdTopologyOptions(this);
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
