package io.jumpgate.migration.internal;

import io.jumpgate.migration.ServerAddress;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts back, at the end of a run or of an abort, the {@code notify-keyspace-events} each source had
 * before the migration's first mover switched on change capture (the record's {@code
 * notifyKeyspaceEvents}). A mover killed after prepare leaves its change capture flags on its
 * sources, and the copiers of the next mover only restore what they find; a source cleaned up
 * without a copier is not touched by any. Best effort: a failure is logged with the value to set by
 * hand, never thrown.
 *
 * <p>Not thread-safe: the mover's thread.
 */
public final class OriginalNotifyKeyspaceEvents {

  private static final Logger LOG = LoggerFactory.getLogger(OriginalNotifyKeyspaceEvents.class);

  private OriginalNotifyKeyspaceEvents() {}

  /**
   * Sets every source of {@code originals} whose current value differs back to its original.
   *
   * @param originals each source's original value, by node id
   * @param addresses each source's address, by node id; a source without one is logged and skipped
   */
  public static void restore(
      String migrationId,
      Map<String, String> originals,
      Map<String, ServerAddress> addresses,
      ServerConnections connections,
      Duration commandTimeout) {
    for (Map.Entry<String, String> entry : originals.entrySet()) {
      String nodeId = entry.getKey();
      String original = entry.getValue();
      ServerAddress address = addresses.get(nodeId);
      if (address == null) {
        LOG.warn(
            "migration '{}': source '{}' has no address in the map: its notify-keyspace-events is"
                + " not checked; set it back by hand if needed (CONFIG SET notify-keyspace-events"
                + " \"{}\")",
            migrationId,
            nodeId,
            original);
        continue;
      }
      try {
        StatefulRedisConnection<byte[], byte[]> connection =
            connections.connect(address, "notify-keyspace-events");
        String current =
            Await.result(
                    connection.async().configGet(KeyspaceEvents.PARAMETER),
                    commandTimeout,
                    "CONFIG GET " + KeyspaceEvents.PARAMETER + " on source " + address)
                .getOrDefault(KeyspaceEvents.PARAMETER, "");
        if (current.equals(original)) {
          continue;
        }
        Await.result(
            connection.async().configSet(KeyspaceEvents.PARAMETER, original),
            commandTimeout,
            "CONFIG SET " + KeyspaceEvents.PARAMETER + " on source " + address);
        LOG.info(
            "migration '{}': source '{}' ({}): notify-keyspace-events '{}' -> '{}', its value"
                + " before the migration",
            migrationId,
            nodeId,
            address,
            current,
            original);
      } catch (RuntimeException e) {
        LOG.warn(
            "migration '{}': could not set notify-keyspace-events on source '{}' ({}) back to"
                + " '{}', its value before the migration: {}; set it by hand (CONFIG SET"
                + " notify-keyspace-events \"{}\")",
            migrationId,
            nodeId,
            address,
            original,
            e.getMessage(),
            original);
      }
    }
  }
}
