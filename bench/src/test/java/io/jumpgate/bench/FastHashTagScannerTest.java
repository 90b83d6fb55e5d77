package io.jumpgate.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.routing.HashTagScanner;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The prototype scan finds exactly the routing key that the shipped one finds. */
class FastHashTagScannerTest {

  private static final byte[] BYTES = "ab{}".getBytes(StandardCharsets.US_ASCII);

  @Test
  void contractExamples() {
    assertRoutingKey("{user1000}.following", "user1000");
    assertRoutingKey("foo{}{bar}", "foo{}{bar}");
    assertRoutingKey("foo{{bar}}zap", "{bar");
    assertRoutingKey("foo{bar}{zap}", "bar");
    assertRoutingKey("", "");
    assertRoutingKey("{", "{");
    assertRoutingKey("}{a", "}{a");
  }

  @Test
  void sameRangeAsTheShippedScannerOnRandomKeys() {
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 200_000; i++) {
      int size = random.nextInt(300);
      byte[] key = new byte[size];
      int braces = random.nextInt(4);
      for (int k = 0; k < size; k++) {
        // Mostly letters, a few braces: enough to hit every branch of the search.
        key[k] =
            random.nextInt(64) < braces ? BYTES[2 + random.nextInt(2)] : BYTES[random.nextInt(2)];
      }
      int offset = size == 0 ? 0 : random.nextInt(size + 1);
      int length = random.nextInt(size - offset + 1);
      assertThat(FastHashTagScanner.routingKey(key, offset, length))
          .as(
              "key %s, offset %d, length %d",
              new String(key, StandardCharsets.US_ASCII), offset, length)
          .isEqualTo(HashTagScanner.routingKey(key, offset, length));
    }
  }

  private static void assertRoutingKey(String key, String expected) {
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    long range = FastHashTagScanner.routingKey(bytes, 0, bytes.length);
    int start = HashTagScanner.start(range);
    assertThat(new String(bytes, start, HashTagScanner.length(range), StandardCharsets.UTF_8))
        .isEqualTo(expected);
    assertThat(range).isEqualTo(HashTagScanner.routingKey(bytes, 0, bytes.length));
  }
}
