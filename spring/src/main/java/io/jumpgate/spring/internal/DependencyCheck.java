package io.jumpgate.spring.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks, before the client is made, that the class path has what the driver is built on: Netty 4.2
 * (Lettuce 7, and jetcd 0.8.7 through Vert.x 5 and grpc-netty) and Lettuce 7. Spring Boot 4 manages
 * both; Spring Boot 3.5 manages Netty 4.1 and Lettuce 6.6, with which the driver would fail deep
 * inside jetcd or Lettuce with a {@code NoClassDefFoundError}. This check fails first, with {@link
 * IncompatibleDependenciesException} saying what was found and what to set.
 */
public final class DependencyCheck {

  /** A class of Netty 4.2's new I/O API that Vert.x 5 (jetcd) and Lettuce 7 use. */
  static final String NETTY_42_CLASS = "io.netty.channel.MultiThreadIoEventLoopGroup";

  /** A class of Lettuce 7 that the driver uses (it turns maintenance notifications off). */
  static final String LETTUCE_7_CLASS = "io.lettuce.core.MaintNotificationsConfig";

  private DependencyCheck() {}

  /**
   * @throws IncompatibleDependenciesException when Netty 4.2 or Lettuce 7 is missing
   */
  public static void requireSupportedDependencies(ClassLoader loader) {
    List<String> problems = new ArrayList<>();
    if (!present(NETTY_42_CLASS, loader)) {
      problems.add(
          "Netty "
              + nettyVersion(loader)
              + " is on the class path; Jumpgate needs Netty 4.2 (Lettuce 7, and jetcd 0.8.7"
              + " through Vert.x 5, are built on it)");
    }
    if (!present(LETTUCE_7_CLASS, loader)) {
      problems.add(
          "Lettuce "
              + lettuceVersion(loader)
              + " is on the class path; Jumpgate needs Lettuce 7 (the driver uses its"
              + " MaintNotificationsConfig)");
    }
    if (!problems.isEmpty()) {
      throw new IncompatibleDependenciesException(problems);
    }
  }

  static boolean present(String className, ClassLoader loader) {
    try {
      Class.forName(className, false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private static String nettyVersion(ClassLoader loader) {
    try {
      var version = io.netty.util.Version.identify(loader).get("netty-common");
      return version == null ? "(version unknown)" : version.artifactVersion();
    } catch (RuntimeException | LinkageError e) {
      return "(version unknown)";
    }
  }

  private static String lettuceVersion(ClassLoader loader) {
    try {
      Package lettuce = Class.forName("io.lettuce.core.RedisClient", false, loader).getPackage();
      String version = lettuce == null ? null : lettuce.getImplementationVersion();
      return version == null ? "(version unknown)" : version.replaceFirst("/.*", "");
    } catch (ClassNotFoundException | LinkageError e) {
      return "(none)";
    }
  }
}
