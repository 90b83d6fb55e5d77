package io.jumpgate.topology;

import io.jumpgate.spi.IncompatibleTopologyException;
import io.jumpgate.spi.TopologyException;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.internal.KeyChange;
import io.jumpgate.topology.internal.TopologyState;
import java.nio.file.Path;
import java.time.Clock;

/**
 * Turns the content of a topology file into snapshots: parses the {@link TopologyDocument}, checks
 * its cluster, and applies its entries with {@link TopologyState#reset} under the next revision.
 *
 * <p>Not thread-safe: confined to the thread of its {@link FileTopologySource}.
 */
final class FileTopologyLoader {

  private final Path path;
  private final int expectedShards;
  private final Clock clock;
  private String cluster;
  private TopologyState state;

  /**
   * @param expectedCluster the cluster the file must hold, or null for any
   */
  FileTopologyLoader(Path path, String expectedCluster, int expectedShards, Clock clock) {
    this.path = path;
    this.cluster = expectedCluster;
    this.expectedShards = expectedShards;
    this.clock = clock;
  }

  /**
   * The snapshot of {@code content}, at {@code previous.revision() + 1} or at the document's
   * revision if higher (at least 1 for the first).
   *
   * @throws TopologyException naming the file: {@link TopologyUnavailableException} when the
   *     document is not valid, holds another cluster or is not initialised, {@link
   *     IncompatibleTopologyException} when the cluster cannot be served
   */
  TopologySnapshot load(byte[] content, TopologySnapshot previous) {
    TopologyDocument document;
    try {
      document = TopologyDocument.parse(content);
    } catch (TopologyEntryException e) {
      throw new TopologyUnavailableException(
          "topology file " + path + " is not valid: " + e.getMessage(), e);
    }
    if (cluster != null && !cluster.equals(document.cluster())) {
      throw new TopologyUnavailableException(
          "topology file "
              + path
              + " holds cluster '"
              + document.cluster()
              + "', but this source serves cluster '"
              + cluster
              + "'");
    }
    if (state == null) {
      cluster = document.cluster();
      state = new TopologyState(TopologyKeys.forCluster(cluster), expectedShards, clock);
    }
    long revision = Math.max(previous == null ? 1 : previous.revision() + 1, document.revision());
    try {
      return state.reset(revision, KeyChange.puts(document.entries(), 0));
    } catch (IncompatibleTopologyException e) {
      throw new IncompatibleTopologyException("topology file " + path + ": " + e.getMessage(), e);
    } catch (TopologyException e) {
      throw new TopologyUnavailableException("topology file " + path + ": " + e.getMessage(), e);
    }
  }

  /** The cluster the file holds (or must hold), or null before the first load. */
  String cluster() {
    return cluster;
  }
}
