package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.spi.Node;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisCredentialsProvider;
import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class NodeConnectorTest {

  private static final Node NODE = Node.of("n0", "127.0.0.1", 7000);
  private static ClientResources resources;

  @BeforeAll
  static void start() {
    resources = DefaultClientResources.builder().ioThreadPoolSize(1).build();
  }

  @AfterAll
  static void stop() {
    resources.shutdown();
  }

  @Test
  void should_give_lettuce_immediate_credentials_when_an_acl_user_is_set() {
    // Lettuce continues the handshake on another thread for any other provider, and may then hand
    // out the connection before it is active: its first command fails as "not connected".
    RedisURI uri =
        uri(
            JumpgateOptions.builder()
                .topologySource(DispatcherHarness.unusedSource())
                .redisCredentials("app", "secret"));

    RedisCredentialsProvider provider = uri.getCredentialsProvider();
    assertThat(provider)
        .isInstanceOf(RedisCredentialsProvider.ImmediateRedisCredentialsProvider.class);
    RedisCredentials credentials =
        ((RedisCredentialsProvider.ImmediateRedisCredentialsProvider) provider)
            .resolveCredentialsNow();
    assertThat(credentials.getUsername()).isEqualTo("app");
    assertThat(credentials.getPassword()).containsExactly("secret".toCharArray());
  }

  @Test
  void should_give_lettuce_immediate_credentials_when_only_a_password_is_set() {
    RedisURI uri =
        uri(
            JumpgateOptions.builder()
                .topologySource(DispatcherHarness.unusedSource())
                .redisPassword("secret"));

    RedisCredentialsProvider provider = uri.getCredentialsProvider();
    assertThat(provider)
        .isInstanceOf(RedisCredentialsProvider.ImmediateRedisCredentialsProvider.class);
    RedisCredentials credentials =
        ((RedisCredentialsProvider.ImmediateRedisCredentialsProvider) provider)
            .resolveCredentialsNow();
    assertThat(credentials.hasUsername()).isFalse();
    assertThat(credentials.getPassword()).containsExactly("secret".toCharArray());
  }

  @Test
  void should_name_the_connection_and_send_no_library_name() {
    NodeConnector connector =
        new NodeConnector(
            resources,
            JumpgateOptions.builder().topologySource(DispatcherHarness.unusedSource()).build(),
            "jumpgate:c1");

    RedisURI uri = connector.uri(NODE);

    assertThat(uri.getClientName()).isEqualTo("jumpgate:c1");
    assertThat(uri.getHost()).isEqualTo("127.0.0.1");
    assertThat(uri.getPort()).isEqualTo(7000);
    assertThat(uri.getLibraryName()).isEmpty();
    assertThat(uri.getCredentialsProvider())
        .isInstanceOf(RedisCredentialsProvider.ImmediateRedisCredentialsProvider.class);
  }

  private static RedisURI uri(JumpgateOptions.Builder options) {
    return new NodeConnector(resources, options.build()).uri(NODE);
  }
}
