package io.jumpgate.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The picocli mixin of {@code --topology-file FILE}: read the topology from a file written by
 * {@code jumpgate topology export} instead of etcd.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from the thread that runs the
 * verb.
 */
final class TopologyFileOption {

  @Option(
      names = "--topology-file",
      paramLabel = "FILE",
      description =
          "Read the topology from FILE (as written by 'jumpgate topology export') instead of"
              + " etcd.")
  private Path file;

  /** The file, or null when the option is not given. */
  Path file() {
    return file;
  }

  @Override
  public String toString() {
    return "TopologyFileOption{" + file + "}";
  }
}
