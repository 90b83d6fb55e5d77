package io.jumpgate.spring.internal;

import io.jumpgate.spi.TopologyUnavailableException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Explains a start that failed because of Jumpgate, in Spring Boot's "APPLICATION FAILED TO START"
 * report: dependencies the driver cannot run with (Spring Boot 3.5's Netty 4.1 and Lettuce 6), or
 * no topology within the start timeout. Other failures are left to Boot's own analyzers (bad {@code
 * jumpgate.*} values come as Boot's {@code InvalidConfigurationPropertyValueException}).
 */
public final class JumpgateFailureAnalyzer implements FailureAnalyzer {

  @Override
  public FailureAnalysis analyze(Throwable failure) {
    IncompatibleDependenciesException dependencies =
        findCause(failure, IncompatibleDependenciesException.class);
    if (dependencies != null) {
      return new FailureAnalysis(
          String.join(System.lineSeparator(), dependencies.problems()),
          "Use Spring Boot 4.1, whose dependency management gives Netty 4.2 and Lettuce 7. On"
              + " Spring Boot 3.5 (Netty 4.1, Lettuce 6.6), raise both versions in the build:"
              + " Maven <netty.version>4.2.19.Final</netty.version> and"
              + " <lettuce.version>7.7.0.RELEASE</lettuce.version>, Gradle"
              + " ext['netty.version'] and ext['lettuce.version'] (see docs/spring.md for what"
              + " that changes for the rest of the application).",
          dependencies);
    }
    TopologyUnavailableException topology = findCause(failure, TopologyUnavailableException.class);
    if (topology != null) {
      return new FailureAnalysis(
          "The Jumpgate client could not load a valid topology: " + topology.getMessage(),
          "Check that etcd answers at jumpgate.etcd.endpoints and that the cluster named by"
              + " jumpgate.cluster has a topology ('jumpgate topology init'), or that"
              + " jumpgate.topology-file is readable. jumpgate.start-timeout bounds the wait.",
          topology);
    }
    return null;
  }

  private static <T extends Throwable> T findCause(Throwable failure, Class<T> type) {
    Throwable cause = failure;
    while (cause != null) {
      if (type.isInstance(cause)) {
        return type.cast(cause);
      }
      cause = cause.getCause();
    }
    return null;
  }
}
