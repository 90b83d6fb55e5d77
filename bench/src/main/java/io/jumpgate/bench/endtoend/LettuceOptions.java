package io.jumpgate.bench.endtoend;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.MaintNotificationsConfig;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.protocol.ProtocolVersion;

/**
 * The Lettuce settings every compared system shares with Jumpgate's own node connections: RESP2, no
 * maintenance notifications, TCP_NODELAY, no PING on connect, and an empty library name and version
 * (so no CLIENT SETINFO). Twemproxy closes the connection on HELLO, CLIENT SETINFO and CLIENT
 * MAINT_NOTIFICATIONS; the others get the same handshake so that only routing differs.
 */
final class LettuceOptions {
  private LettuceOptions() {}

  static ClientOptions client() {
    return ClientOptions.builder()
        .protocolVersion(ProtocolVersion.RESP2)
        .maintNotificationsConfig(MaintNotificationsConfig.disabled())
        .pingBeforeActivateConnection(false)
        .socketOptions(SocketOptions.builder().tcpNoDelay(true).build())
        .build();
  }

  static ClusterClientOptions cluster() {
    return ClusterClientOptions.builder(client()).build();
  }

  static RedisURI uri(String host, int port) {
    return RedisURI.builder()
        .withHost(host)
        .withPort(port)
        .withLibraryName("")
        .withLibraryVersion("")
        .build();
  }
}
