package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ExceptionTranslation.translate;

import io.jumpgate.driver.JumpgateCommands;
import io.lettuce.core.KeyScanArgs;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import org.springframework.data.redis.core.KeyScanOptions;
import org.springframework.data.redis.core.ScanCursor;
import org.springframework.data.redis.core.ScanIteration;
import org.springframework.data.redis.core.ScanOptions;

/**
 * {@code RedisTemplate.scan} over the whole cluster: Spring's {@link ScanCursor} driven by the
 * driver's cluster-wide SCAN, which walks the leaders one after the other in node id order. The
 * cursor id is the driver's {@code <node id>:<node cursor>} text ({@code 0} at the start and the
 * end), so every key the leaders hold from start to end is returned once when the map does not
 * change (see docs/driver-broadcast.md for a map that changes).
 *
 * <p>Not thread-safe, like every Spring cursor: one thread iterates it.
 */
final class ClusterKeyScanCursor extends ScanCursor<byte[]> {

  private final JumpgateCommands<byte[], byte[]> redis;
  private final ScanArgs arguments;

  ClusterKeyScanCursor(JumpgateCommands<byte[], byte[]> redis, ScanOptions options) {
    super(options);
    this.redis = redis;
    this.arguments = scanArguments(options);
  }

  @Override
  protected ScanIteration<byte[]> doScan(CursorId cursorId, ScanOptions options) {
    try {
      KeyScanCursor<byte[]> page =
          cursorId.isInitial()
              ? redis.scan(arguments)
              : redis.scan(io.lettuce.core.ScanCursor.of(cursorId.getCursorId()), arguments);
      CursorId next = page.isFinished() ? CursorId.initial() : CursorId.of(page.getCursor());
      return new ScanIteration<>(next, page.getKeys());
    } catch (RuntimeException failure) {
      throw translate(failure);
    }
  }

  private static ScanArgs scanArguments(ScanOptions options) {
    KeyScanArgs arguments = new KeyScanArgs();
    if (options == null) {
      return arguments;
    }
    byte[] pattern = options.getBytePattern();
    if (pattern != null) {
      arguments.match(pattern);
    }
    if (options.getCount() != null) {
      arguments.limit(options.getCount());
    }
    if (options instanceof KeyScanOptions keyOptions && keyOptions.getType() != null) {
      arguments.type(keyOptions.getType());
    }
    return arguments;
  }
}
