package io.jumpgate.driver.internal;

/**
 * Hears of each map revision the client has drained for a migration's freeze (the client
 * registration, which writes {@code "drained"} to the client's registry key). Called in revision
 * order, from the thread that completed the acknowledgement (a Netty event loop or the topology
 * thread); must not block.
 */
@FunctionalInterface
public interface DrainListener {

  /**
   * @param revision the map revision drained
   * @param urgent whether a mover waits for it (the revision froze shards, or lifted a freeze): to
   *     be published at once; otherwise it may wait for the next periodic update
   */
  void drained(long revision, boolean urgent);
}
