package io.jumpgate.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.slf4j.bridge.SLF4JBridgeHandler;

class GrpcLoggingTest {

  @Test
  void grpcLoggerGoesToSlf4jOnlyAndOnce() {
    GrpcLogging.routeToSlf4j();
    GrpcLogging.routeToSlf4j();

    Logger grpc = Logger.getLogger(GrpcLogging.GRPC_LOGGER);
    assertThat(GrpcLogging.routed()).isTrue();
    assertThat(Arrays.stream(grpc.getHandlers()).filter(SLF4JBridgeHandler.class::isInstance))
        .as("bridge handlers on io.grpc")
        .hasSize(1);
    assertThat(grpc.getUseParentHandlers())
        .as("io.grpc records also to the root handlers")
        .isFalse();
    // the root logger and its console handler are left alone
    assertThat(Logger.getLogger("").getHandlers()).noneMatch(SLF4JBridgeHandler.class::isInstance);
  }
}
