package io.jumpgate.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.spring.internal.JumpgateOptionsFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The TLS and credential properties reach the driver's options, and neither the options, the
 * properties nor a refusal shows a password.
 */
class JumpgateSecurityPropertiesTest {

  private static final String ETCD_PASSWORD = "etcd-Spring-Secret-9Fd2";
  private static final String REDIS_PASSWORD = "redis-Spring-Secret-4Kx7";

  private static JumpgateProperties properties() {
    JumpgateProperties properties = new JumpgateProperties();
    properties.getEtcd().getEndpoints().add("https://127.0.0.1:2379");
    properties.getEtcd().setUsername("app");
    properties.getEtcd().setPassword(ETCD_PASSWORD);
    properties.getEtcd().getTls().setCaCertificate(Path.of("/etc/jumpgate/etcd-ca.pem"));
    properties.getRedis().setUsername("app");
    properties.getRedis().setPassword(REDIS_PASSWORD);
    properties.getRedis().getTls().setEnabled(true);
    properties.getRedis().getTls().setCaCertificate(Path.of("/etc/jumpgate/redis-ca.pem"));
    return properties;
  }

  @Test
  void the_redis_client_certificate_reaches_the_options() {
    JumpgateProperties properties = properties();
    properties.getRedis().getTls().setClientCertificate(Path.of("/etc/jumpgate/app.pem"));
    properties.getRedis().getTls().setClientKey(Path.of("/etc/jumpgate/app-key.pem"));

    JumpgateOptions options = JumpgateOptionsFactory.fromProperties(properties).build();

    assertThat(options.redisTls()).isTrue();
    assertThat(options.redisCaCertificate()).contains(Path.of("/etc/jumpgate/redis-ca.pem"));
    assertThat(options.redisClientCertificate()).contains(Path.of("/etc/jumpgate/app.pem"));
    assertThat(options.redisClientKey()).contains(Path.of("/etc/jumpgate/app-key.pem"));
    assertThat(options.redisPassword()).contains(REDIS_PASSWORD);
    assertThat(options.etcd().orElseThrow().password()).contains(ETCD_PASSWORD);
    for (String shown :
        new String[] {
          options.toString(),
          options.etcd().orElseThrow().toString(),
          properties.toString(),
          properties.getEtcd().toString(),
          properties.getRedis().toString(),
          properties.getRedis().getTls().toString()
        }) {
      assertThat(shown).doesNotContain(ETCD_PASSWORD).doesNotContain(REDIS_PASSWORD);
    }
  }

  @Test
  void a_client_key_without_its_certificate_names_the_missing_property() {
    JumpgateProperties properties = properties();
    properties.getRedis().getTls().setClientKey(Path.of("/etc/jumpgate/app-key.pem"));

    assertThatThrownBy(() -> JumpgateOptionsFactory.fromProperties(properties).build())
        .hasMessageContaining("jumpgate.redis.tls.client-certificate")
        .hasMessageNotContaining(REDIS_PASSWORD)
        .hasMessageNotContaining(ETCD_PASSWORD);
  }

  @Test
  void a_redis_user_without_a_password_names_the_property() {
    JumpgateProperties properties = properties();
    properties.getRedis().setPassword(null);

    assertThatThrownBy(() -> JumpgateOptionsFactory.fromProperties(properties).build())
        .hasMessageContaining("jumpgate.redis.password")
        .hasMessageNotContaining(ETCD_PASSWORD);
  }
}
