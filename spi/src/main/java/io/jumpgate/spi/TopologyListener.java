package io.jumpgate.spi;

/**
 * Told of every new topology snapshot a source publishes.
 *
 * <p>Called on the source's single topology thread, in revision order, after the new snapshot is
 * already visible through {@link TopologySource#current()}. Implementations must return quickly and
 * never block: a slow listener delays every later revision. An exception thrown by a listener is
 * logged by the source and does not stop other listeners or later notifications.
 */
@FunctionalInterface
public interface TopologyListener {

  /**
   * @param previous the snapshot that was current before, or null for the first one
   * @param current the snapshot now in force
   */
  void onTopologyChange(TopologySnapshot previous, TopologySnapshot current);
}
