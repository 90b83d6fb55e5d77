package io.jumpgate.driver.internal;

import io.jumpgate.spi.TopologySnapshot;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.util.function.IntSupplier;

/**
 * What the driver reports about its work. The default ({@link #NONE}) does nothing; {@link
 * MicrometerMetrics} records it when the options carry a Micrometer registry.
 *
 * <p>The recording methods are called on hot paths (application threads, Netty event loops, the
 * retry scheduler, the topology thread): implementations must not block and must not allocate per
 * call. This interface names no Micrometer type, so the driver loads and runs without Micrometer on
 * the class path.
 */
public interface DriverMetrics {

  /**
   * A command ended.
   *
   * @param type the command
   * @param node the node of its last try, or null when it never got one (no route, client closed)
   * @param success whether it got an answer (a server error answer such as WRONGTYPE counts as a
   *     failure)
   * @param nanos how long it took in all, retries included
   */
  default void commandEnded(ProtocolKeyword type, NodeHandle node, boolean success, long nanos) {}

  /** A try is about to be sent again, for this reason. */
  default void retry(FailureKind reason) {}

  /** A MOVED answer was followed to the node it named. */
  default void redirect() {}

  /** A multi-key or broadcast command went to this many nodes. */
  default void fanOut(int nodes) {}

  /** A request was held because its shard is frozen for a migration's cutover. */
  default void requestHeld() {}

  /** A held request left the hold (sent on, or failed at its bound) after this long. */
  default void requestReleased(long heldNanos) {}

  /** A map froze shards this client had to acknowledge (a migration's cutover began). */
  default void freezeSeen() {}

  /** A new topology was applied (the first one included); called on the topology thread. */
  default void topologyApplied(TopologySnapshot snapshot) {}

  /**
   * Where to read the number of open node connections from; called once, when the client is built.
   */
  default void connectionCount(IntSupplier openConnections) {}

  /** The client closed: stop recording and withdraw every meter. Idempotent. */
  default void close() {}

  /** Records nothing. */
  DriverMetrics NONE = new DriverMetrics() {};
}
