package io.jumpgate.migration.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.migration.ServerAddress;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisCredentialsProvider;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ServerConnectionsTest {

  @Test
  void should_give_lettuce_immediate_credentials_for_a_server_with_an_acl_user() {
    // Lettuce continues the handshake on another thread for any other provider, and may then hand
    // out the connection before it is active: its first command fails as "not connected" (seen in
    // CI as "SCAN on target mover@...: Currently not connected").
    try (ServerConnections connections =
        new ServerConnections(Duration.ofSeconds(1), Duration.ofSeconds(1), 100)) {
      RedisURI uri =
          connections.uri(ServerAddress.of("127.0.0.1", 7000).withCredentials("mover", "secret"));

      RedisCredentialsProvider provider = uri.getCredentialsProvider();
      assertThat(provider)
          .isInstanceOf(RedisCredentialsProvider.ImmediateRedisCredentialsProvider.class);
      RedisCredentials credentials =
          ((RedisCredentialsProvider.ImmediateRedisCredentialsProvider) provider)
              .resolveCredentialsNow();
      assertThat(credentials.getUsername()).isEqualTo("mover");
      assertThat(credentials.getPassword()).containsExactly("secret".toCharArray());
    }
  }

  @Test
  void should_give_lettuce_immediate_credentials_for_a_server_with_a_password_only() {
    try (ServerConnections connections =
        new ServerConnections(Duration.ofSeconds(1), Duration.ofSeconds(1), 100)) {
      RedisURI uri = connections.uri(ServerAddress.of("127.0.0.1", 7000).withPassword("secret"));

      RedisCredentialsProvider provider = uri.getCredentialsProvider();
      assertThat(provider)
          .isInstanceOf(RedisCredentialsProvider.ImmediateRedisCredentialsProvider.class);
      assertThat(
              ((RedisCredentialsProvider.ImmediateRedisCredentialsProvider) provider)
                  .resolveCredentialsNow()
                  .hasUsername())
          .isFalse();
    }
  }
}
