package io.jumpgate.testkit.internal;

import io.jumpgate.testkit.LocalClusterException;
import io.jumpgate.testkit.LocalServer.Program;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Finds how to run a {@link Program}: the path in its environment variable (e.g. {@code
 * JUMPGATE_REDIS_BIN}) if set, else the binary on the {@code PATH} (and in {@code /usr/sbin},
 * {@code /sbin}), or the binary itself when it is an absolute path; when it is missing and the
 * program has an image and a Docker engine answers, the image ({@link ContainerLauncher});
 * otherwise a {@link LocalClusterException} naming the binary, the variable and the install
 * command. Resolutions are cached per program; thread-safe.
 */
public final class Binaries {

  private static final Map<Program, Launcher> LAUNCHERS = new HashMap<>();
  private static Boolean dockerAvailable;

  private Binaries() {}

  /** How this JVM runs {@code program} (cached). */
  public static synchronized Launcher launcher(Program program) {
    Launcher launcher = LAUNCHERS.get(program);
    if (launcher == null) {
      launcher = resolve(program, System.getenv(), Binaries::dockerAvailable);
      LAUNCHERS.put(program, launcher);
    }
    return launcher;
  }

  private static synchronized boolean dockerAvailable() {
    if (dockerAvailable == null) {
      dockerAvailable = ContainerLauncher.dockerAvailable();
    }
    return dockerAvailable;
  }

  /** Resolution with the environment and the Docker check passed in. */
  public static Launcher resolve(
      Program program, Map<String, String> environment, BooleanSupplier docker) {
    Optional<Path> local = findLocal(program, environment);
    if (local.isPresent()) {
      return new LocalLauncher(local.get());
    }
    if (program.image() != null && docker.getAsBoolean()) {
      return new ContainerLauncher(program.image(), program.entrypoint());
    }
    throw new LocalClusterException(
        "Cannot run "
            + program.binary()
            + ": it is not on the PATH ("
            + environment.getOrDefault("PATH", "")
            + ") and "
            + program.environmentVariable()
            + " is not set, and "
            + (program.image() == null
                ? "it has no container fallback"
                : "no Docker engine answered for the Testcontainers fallback ("
                    + program.image()
                    + ")")
            + ". On Debian or Ubuntu install it with: "
            + installCommand(program)
            + " (or set "
            + program.environmentVariable()
            + "=/path/to/"
            + program.binary()
            + ").");
  }

  /** {@code sudo apt-get update && sudo apt-get install -y <package>}. */
  public static String installCommand(Program program) {
    return "sudo apt-get update && sudo apt-get install -y " + program.debianPackage();
  }

  /** The program's local binary: its environment variable's path, else the PATH's. */
  public static Optional<Path> findLocal(Program program, Map<String, String> environment) {
    Path direct = Path.of(program.binary());
    if (direct.isAbsolute()) {
      return Files.isRegularFile(direct) && Files.isExecutable(direct)
          ? Optional.of(direct)
          : Optional.empty();
    }
    String override = environment.get(program.environmentVariable());
    if (override != null && !override.isBlank()) {
      Path path = Path.of(override);
      if (Files.isRegularFile(path) && Files.isExecutable(path)) {
        return Optional.of(path);
      }
      throw new LocalClusterException(
          program.environmentVariable()
              + "="
              + override
              + " is not an executable file (it should point at the "
              + program.binary()
              + " binary). Unset it to use "
              + program.binary()
              + " from the PATH, or install it with: "
              + installCommand(program));
    }
    // Programs Debian installs for root only (nutcracker) are in sbin, often not on a user's PATH
    String path =
        environment.getOrDefault("PATH", "")
            + File.pathSeparator
            + "/usr/sbin"
            + File.pathSeparator
            + "/sbin";
    for (String folder : path.split(File.pathSeparator)) {
      if (!folder.isEmpty()) {
        Path candidate = Path.of(folder, program.binary());
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.empty();
  }
}
