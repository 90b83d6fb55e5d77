package io.jumpgate.testkit.internal;

import io.jumpgate.testkit.LocalClusterException;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Finds {@code etcd} and {@code redis-server} on the {@code PATH}. Stateless, thread-safe. */
public final class Binaries {

  private Binaries() {}

  /** {@code etcd} on the {@code PATH} of this process. */
  public static Path etcd() {
    return find("etcd", "etcd-server", System.getenv());
  }

  /** {@code redis-server} on the {@code PATH} of this process. */
  public static Path redisServer() {
    return find("redis-server", "redis-server", System.getenv());
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
