package io.jumpgate.driver.internal;

import io.jumpgate.spi.Node;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.concurrent.CompletableFuture;

/**
 * Opens a connection to a node ({@link NodeConnector} with Lettuce; a fake in tests). Thread-safe;
 * never blocks.
 */
public interface ConnectionOpener {

  /** Starts connecting; the future fails with the reason when the node cannot be reached. */
  CompletableFuture<StatefulRedisConnection<byte[], byte[]>> connect(Node node);
}
