package io.jumpgate.topology.internal;

import java.util.logging.Logger;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Routes gRPC's logging (java.util.logging, under the logger {@code io.grpc}) to SLF4J, where the
 * rest of Jumpgate logs, so that what gRPC says about the etcd connection (a {@code GOAWAY}, a
 * keepalive it doubled) reaches the application's log instead of stderr. Only the {@code io.grpc}
 * logger is touched (a jul-to-slf4j {@link SLF4JBridgeHandler} on it, and its records no longer
 * passed on to the root logger's handlers); java.util.logging's root logger and its other loggers
 * are left as they are. Its levels still decide what gRPC logs: {@code INFO} and up by default.
 *
 * <p>The system property {@value #DISABLE_PROPERTY}{@code =true} leaves gRPC's logging alone (for
 * an application that configures java.util.logging itself). Thread-safe; installs at most once per
 * class loader.
 */
public final class GrpcLogging {

  /** Set to {@code true} to keep gRPC's java.util.logging as it is. */
  public static final String DISABLE_PROPERTY = "jumpgate.grpcLogging.keepJul";

  /** The logger gRPC's classes log under. */
  public static final String GRPC_LOGGER = "io.grpc";

  // java.util.logging holds loggers weakly: this reference keeps the configured one alive.
  private static volatile Logger grpcLogger;

  private GrpcLogging() {}

  /** Installs the bridge on the {@code io.grpc} logger unless already done or disabled. */
  public static void routeToSlf4j() {
    if (grpcLogger != null || Boolean.getBoolean(DISABLE_PROPERTY)) {
      return;
    }
    synchronized (GrpcLogging.class) {
      if (grpcLogger != null) {
        return;
      }
      Logger logger = Logger.getLogger(GRPC_LOGGER);
      logger.addHandler(new SLF4JBridgeHandler());
      logger.setUseParentHandlers(false);
      grpcLogger = logger;
    }
  }

  /** Whether gRPC's logging goes to SLF4J in this class loader. */
  public static boolean routed() {
    return grpcLogger != null;
  }
}
