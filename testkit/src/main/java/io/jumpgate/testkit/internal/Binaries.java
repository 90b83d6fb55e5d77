package io.jumpgate.testkit.internal;

import io.jumpgate.testkit.LocalClusterException;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Finds {@code etcd} and {@code redis-server}: the executable that {@value #ETCD_VARIABLE} or
 * {@value #REDIS_VARIABLE} names when set, else on the {@code PATH}. Stateless, thread-safe.
 */
public final class Binaries {

  /** Names the etcd binary to run instead of {@code etcd} on the {@code PATH}. */
  public static final String ETCD_VARIABLE = "JUMPGATE_ETCD_BIN";

  /** Names the redis-server binary to run instead of {@code redis-server} on the {@code PATH}. */
  public static final String REDIS_VARIABLE = "JUMPGATE_REDIS_BIN";

  private Binaries() {}

  /** {@code etcd} as {@value #ETCD_VARIABLE} or the {@code PATH} of {@code environment} say. */
  public static Path etcd(Map<String, String> environment) {
    return find("etcd", ETCD_VARIABLE, "etcd-server", environment);
  }

  /**
   * {@code redis-server} as {@value #REDIS_VARIABLE} or the {@code PATH} of {@code environment}
   * say.
   */
  public static Path redisServer(Map<String, String> environment) {
    return find("redis-server", REDIS_VARIABLE, "redis-server", environment);
  }

  /**
   * The executable that {@code variable} of {@code environment} names when it is set, else {@link
   * #find(String, String, Map) command on the PATH}.
   *
   * @throws LocalClusterException when the variable names no executable file (naming both), or when
   *     there is none on the {@code PATH} (with the install command, and the variable)
   */
  public static Path find(
      String command, String variable, String debianPackage, Map<String, String> environment) {
    String override = environment.get(variable);
    if (override != null && !override.isBlank()) {
      Path path = Path.of(override);
      if (Files.isRegularFile(path) && Files.isExecutable(path)) {
        return path;
      }
      throw new LocalClusterException(
          variable + "=" + override + " is not an executable file; point it at " + command);
    }
    try {
      return find(command, debianPackage, environment);
    } catch (LocalClusterException e) {
      throw new LocalClusterException(
          e.getMessage() + "; or set " + variable + "=/path/to/" + command);
    }
  }

  /**
   * The executable {@code command} in a folder of {@code environment}'s {@code PATH}.
   *
   * @throws LocalClusterException naming the command, the Debian package and the apt-get command
   *     when there is none
   */
  public static Path find(String command, String debianPackage, Map<String, String> environment) {
    String path = environment.getOrDefault("PATH", "");
    for (String folder : path.split(File.pathSeparator)) {
      if (!folder.isEmpty()) {
        Path candidate = Path.of(folder, command);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return candidate;
        }
      }
    }
    throw new LocalClusterException(
        command
            + " was not found on the PATH ("
            + path
            + "): the Jumpgate testkit starts real "
            + command
            + " processes. On Debian or Ubuntu install the "
            + debianPackage
            + " package: sudo apt-get update && sudo apt-get install -y "
            + debianPackage);
  }
}
