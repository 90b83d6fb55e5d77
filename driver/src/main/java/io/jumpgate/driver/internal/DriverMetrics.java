package io.jumpgate.driver.internal;

import io.lettuce.core.protocol.ProtocolKeyword;

/**
 * What the driver reports about its work. The default does nothing; the Micrometer binding records
 * it. Called on hot paths (event loops included): implementations must not block and should not
 * allocate per call.
 */
public interface DriverMetrics {

  /** A command ended: its type, whether it succeeded, and how long it took in all. */
  default void commandEnded(ProtocolKeyword type, boolean success, long nanos) {}

  /** A try is about to be sent again, for this reason. */
  default void retry(FailureKind reason) {}

  /** A MOVED answer was followed to the node it named. */
  default void redirect() {}

  /** A multi-key or broadcast command went to this many nodes. */
  default void fanOut(int nodes) {}

  /** A new topology was applied. */
  default void topologyApplied(long revision, int invalidEntries) {}

  /** The number of open node connections changed. */
  default void connections(int open) {}

  DriverMetrics NONE = new DriverMetrics() {};
}
