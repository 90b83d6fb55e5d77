package io.jumpgate.spring.data.internal;

import java.nio.ByteBuffer;
import java.util.Collection;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.util.ByteUtils;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What the reactive families share: Spring's {@link ByteBuffer} keys and values as the byte arrays
 * of the driver's byte-array view (copied, the buffer's position untouched), and the driver's
 * errors as Spring's ({@link ExceptionTranslation#translate}). Stateless.
 */
final class ReactiveConversions {

  private ReactiveConversions() {}

  /** The buffer's remaining bytes, copied; its position is not moved. */
  static byte[] bytes(ByteBuffer buffer) {
    return ByteUtils.getBytes(buffer);
  }

  /** Every buffer's remaining bytes, in order. */
  static byte[][] bytes(Collection<ByteBuffer> buffers) {
    byte[][] copies = new byte[buffers.size()][];
    int index = 0;
    for (ByteBuffer buffer : buffers) {
      copies[index++] = bytes(buffer);
    }
    return copies;
  }

  /** A buffer over the driver's answer (not copied); {@code null} stays {@code null}. */
  static ByteBuffer buffer(byte[] bytes) {
    return bytes == null ? null : ByteBuffer.wrap(bytes);
  }

  /** The first index of an index range (LRANGE, GETRANGE, ZRANGE): its lower bound, else 0. */
  static long firstIndex(Range<Long> range) {
    return range.getLowerBound().getValue().orElse(0L);
  }

  /** The last index of an index range: its upper bound, else -1 (the last element). */
  static long lastIndex(Range<Long> range) {
    return range.getUpperBound().getValue().orElse(-1L);
  }

  /** The driver's failures as Spring's {@code DataAccessException}s. */
  static <T> Mono<T> translated(Mono<T> answer) {
    return answer.onErrorMap(RuntimeException.class, ExceptionTranslation::translate);
  }

  /** The driver's failures as Spring's {@code DataAccessException}s. */
  static <T> Flux<T> translated(Flux<T> answers) {
    return answers.onErrorMap(RuntimeException.class, ExceptionTranslation::translate);
  }
}
