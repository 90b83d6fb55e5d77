package io.jumpgate.spring.internal;

import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.driver.RetryOptions;
import io.jumpgate.spring.JumpgateClientCustomizer;
import io.jumpgate.spring.JumpgateProperties;
import io.jumpgate.topology.EtcdTopologyOptions;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.context.properties.source.MutuallyExclusiveConfigurationPropertiesException;

/**
 * Turns {@link JumpgateProperties} into {@link JumpgateOptions}. Every bad or conflicting value
 * fails with Spring Boot's {@link InvalidConfigurationPropertyValueException} (or {@link
 * MutuallyExclusiveConfigurationPropertiesException}) naming the {@code jumpgate.*} property, so
 * the application's start fails with Boot's "Invalid value ... for configuration property ..."
 * report. The driver's own builders do the checks; this class only says which property a failed
 * check came from.
 */
public final class JumpgateOptionsFactory {

  static final String ENDPOINTS = "jumpgate.etcd.endpoints";
  static final String TOPOLOGY_FILE = "jumpgate.topology-file";

  private JumpgateOptionsFactory() {}

  /**
   * Options from {@code properties}, then changed by {@code customizers} in their order.
   *
   * @throws InvalidConfigurationPropertyValueException naming the property with a bad value, or
   *     {@code jumpgate.etcd.endpoints} when no topology source is set at all
   * @throws MutuallyExclusiveConfigurationPropertiesException when both etcd endpoints and a
   *     topology file are set
   */
  public static JumpgateOptions create(
      JumpgateProperties properties, Stream<JumpgateClientCustomizer> customizers) {
    JumpgateOptions.Builder builder = fromProperties(properties);
    customizers.forEachOrdered(customizer -> customizer.customize(builder));
    try {
      return builder.build();
    } catch (IllegalArgumentException e) {
      if (!hasEtcd(properties) && properties.getTopologyFile() == null) {
        throw new InvalidConfigurationPropertyValueException(
            ENDPOINTS,
            properties.getEtcd().getEndpoints(),
            "no topology source is configured: set "
                + ENDPOINTS
                + " (e.g. http://127.0.0.1:2379) or "
                + TOPOLOGY_FILE
                + ", or give a source in a JumpgateClientCustomizer ("
                + e.getMessage()
                + ")");
      }
      throw new IllegalStateException(
          "the Jumpgate options after the JumpgateClientCustomizers are invalid: " + e.getMessage(),
          e);
    }
  }

  /** A builder with every property applied, not yet built. */
  public static JumpgateOptions.Builder fromProperties(JumpgateProperties properties) {
    JumpgateOptions.Builder builder = JumpgateOptions.builder();
    boolean etcd = hasEtcd(properties);
    if (etcd && properties.getTopologyFile() != null) {
      throw new MutuallyExclusiveConfigurationPropertiesException(
          List.of(ENDPOINTS, TOPOLOGY_FILE), List.of(ENDPOINTS, TOPOLOGY_FILE));
    }
    if (etcd) {
      EtcdTopologyOptions etcdOptions = etcdOptions(properties);
      builder.etcd(etcdOptions);
      builder.registration(properties.getRegistration().isEnabled());
    } else if (properties.getTopologyFile() != null) {
      builder.topologyFile(properties.getTopologyFile());
    }
    set("jumpgate.read-policy", properties.getReadPolicy(), builder::readPolicy);
    set("jumpgate.fan-out-grouping", properties.getFanOutGrouping(), builder::fanOutGrouping);
    set(
        "jumpgate.timeout",
        positive("jumpgate.timeout", properties.getTimeout()),
        builder::commandTimeout);
    set(
        "jumpgate.connect-timeout",
        positive("jumpgate.connect-timeout", properties.getConnectTimeout()),
        builder::connectTimeout);
    set(
        "jumpgate.start-timeout",
        positive("jumpgate.start-timeout", properties.getStartTimeout()),
        builder::startTimeout);
    set("jumpgate.request-queue-size", properties.getRequestQueueSize(), builder::requestQueueSize);
    JumpgateProperties.Freeze freeze = properties.getFreeze();
    Duration freezeWait = positive("jumpgate.freeze.max-wait", freeze.getMaxWait());
    set(
        "jumpgate.freeze.max-requests",
        freeze.getMaxRequests(),
        maxRequests -> builder.freezeBuffer(maxRequests, freezeWait));
    set("jumpgate.zone", properties.getZone(), builder::zone);
    set("jumpgate.client-id", properties.getClientId(), builder::clientId);
    builder.warmUp(properties.isWarmUp());
    builder.retry(retryOptions(properties.getRetry()));
    applyRedis(properties.getRedis(), builder);
    return builder;
  }

  private static boolean hasEtcd(JumpgateProperties properties) {
    List<String> endpoints = properties.getEtcd().getEndpoints();
    return endpoints != null && endpoints.stream().anyMatch(e -> e != null && !e.isBlank());
  }

  private static EtcdTopologyOptions etcdOptions(JumpgateProperties properties) {
    JumpgateProperties.Etcd etcd = properties.getEtcd();
    EtcdTopologyOptions.Builder builder = EtcdTopologyOptions.builder();
    set(ENDPOINTS, String.join(",", etcd.getEndpoints()), builder::endpoints);
    set("jumpgate.cluster", properties.getCluster(), builder::cluster);
    if (etcd.getUsername() != null || etcd.getPassword() != null) {
      String missing =
          etcd.getUsername() == null ? "jumpgate.etcd.username" : "jumpgate.etcd.password";
      require(
          missing,
          null,
          etcd.getUsername() != null && etcd.getPassword() != null,
          "the etcd user and password are set together");
      set(
          "jumpgate.etcd.username",
          etcd.getUsername(),
          user -> builder.credentials(user, etcd.getPassword()));
    }
    JumpgateProperties.EtcdTls tls = etcd.getTls();
    builder.caCertificate(tls.getCaCertificate());
    if (tls.getClientCertificate() != null || tls.getClientKey() != null) {
      String missing =
          tls.getClientCertificate() == null
              ? "jumpgate.etcd.tls.client-certificate"
              : "jumpgate.etcd.tls.client-key";
      require(
          missing,
          null,
          tls.getClientCertificate() != null && tls.getClientKey() != null,
          "the etcd client certificate and key are set together");
      builder.clientCertificate(tls.getClientCertificate(), tls.getClientKey());
    }
    set(
        "jumpgate.start-timeout",
        positive("jumpgate.start-timeout", properties.getStartTimeout()),
        builder::startTimeout);
    set(
        "jumpgate.etcd.request-timeout",
        positive("jumpgate.etcd.request-timeout", etcd.getRequestTimeout()),
        builder::requestTimeout);
    Duration progress = positive("jumpgate.etcd.progress-interval", etcd.getProgressInterval());
    Duration silence = positive("jumpgate.etcd.silence-timeout", etcd.getSilenceTimeout());
    require(
        "jumpgate.etcd.progress-interval",
        progress,
        progress.compareTo(silence) < 0,
        "must be shorter than jumpgate.etcd.silence-timeout (" + silence + "), was " + progress);
    builder.progressInterval(progress).silenceTimeout(silence);
    Duration min = positive("jumpgate.etcd.retry-backoff.min", etcd.getRetryBackoff().getMin());
    Duration max = positive("jumpgate.etcd.retry-backoff.max", etcd.getRetryBackoff().getMax());
    require(
        "jumpgate.etcd.retry-backoff.max",
        max,
        max.compareTo(min) >= 0,
        "must not be below jumpgate.etcd.retry-backoff.min (" + min + "), was " + max);
    builder.retryBackoff(min, max);
    set("jumpgate.etcd.expected-shards", etcd.getExpectedShards(), builder::expectedShards);
    return get(ENDPOINTS, etcd.getEndpoints(), builder::build);
  }

  private static RetryOptions retryOptions(JumpgateProperties.Retry retry) {
    RetryOptions.Builder builder = RetryOptions.builder();
    set("jumpgate.retry.max-attempts", retry.getMaxAttempts(), builder::maxAttempts);
    Duration base = notNegative("jumpgate.retry.backoff.base", retry.getBackoff().getBase());
    Duration max = notNegative("jumpgate.retry.backoff.max", retry.getBackoff().getMax());
    require(
        "jumpgate.retry.backoff.max",
        max,
        max.compareTo(base) >= 0,
        "must not be below jumpgate.retry.backoff.base (" + base + "), was " + max);
    builder.backoff(base, max);
    set(
        "jumpgate.retry.topology-wait",
        notNegative("jumpgate.retry.topology-wait", retry.getTopologyWait()),
        builder::topologyWait);
    builder.acceptSecondRunReplies(retry.isAcceptSecondRunReplies());
    return builder.build();
  }

  private static void applyRedis(JumpgateProperties.Redis redis, JumpgateOptions.Builder builder) {
    if (redis.getUsername() != null) {
      require(
          "jumpgate.redis.password",
          null,
          redis.getPassword() != null,
          "is required with jumpgate.redis.username");
      builder.redisCredentials(redis.getUsername(), redis.getPassword());
    } else if (redis.getPassword() != null) {
      builder.redisPassword(redis.getPassword());
    }
    builder.connectionNames(redis.isConnectionNames());
    builder.writeCoalescing(redis.isWriteCoalescing());
    JumpgateProperties.RedisTls tls = redis.getTls();
    builder.redisTls(tls.isEnabled(), tls.getCaCertificate());
    if (tls.getClientCertificate() != null || tls.getClientKey() != null) {
      String missing =
          tls.getClientCertificate() == null
              ? "jumpgate.redis.tls.client-certificate"
              : "jumpgate.redis.tls.client-key";
      require(
          missing,
          null,
          tls.getClientCertificate() != null && tls.getClientKey() != null,
          "the redis client certificate and key are set together");
      builder.redisClientCertificate(tls.getClientCertificate(), tls.getClientKey());
    }
  }

  private static Duration positive(String property, Duration value) {
    require(property, value, value != null, "must be set");
    require(
        property, value, !value.isZero() && !value.isNegative(), "must be positive, was " + value);
    return value;
  }

  private static Duration notNegative(String property, Duration value) {
    require(property, value, value != null, "must be set");
    require(property, value, !value.isNegative(), "must not be negative, was " + value);
    return value;
  }

  private static void require(String property, Object value, boolean condition, String reason) {
    if (!condition) {
      throw new InvalidConfigurationPropertyValueException(property, value, reason);
    }
  }

  /** Applies {@code value}; a refusal by the driver's builder names {@code property}. */
  private static <T> void set(String property, T value, Consumer<T> setter) {
    if (value == null) {
      return;
    }
    try {
      setter.accept(value);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new InvalidConfigurationPropertyValueException(property, value, e.getMessage());
    }
  }

  private static <T> T get(String property, Object value, Supplier<T> supplier) {
    try {
      return Objects.requireNonNull(supplier.get(), property);
    } catch (IllegalArgumentException e) {
      throw new InvalidConfigurationPropertyValueException(property, value, e.getMessage());
    }
  }
}
