package io.jumpgate.topology;

import static io.jumpgate.topology.TopologyFixtures.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Mutated values never make a decoder throw anything but {@link TopologyEntryException}. */
class TopologyCodecFuzzTest {

  private static final int ITERATIONS = 30_000;

  private static final List<byte[]> SEEDS =
      List.of(
          utf8("{\"format\":1,\"shards\":1024,\"routing\":\"xxh64-jump\"}"),
          utf8(
              "{\"host\":\"10.0.0.5\",\"port\":6379,\"zone\":\"az1\",\"tags\":{\"a\":\"b\"},"
                  + "\"tls\":true}"),
          utf8(
              "{\"leader\":\"node-a\",\"replicas\":[\"node-b\"],\"epoch\":7,\"state\":\"active\"}"));

  private static final byte[] INTERESTING = utf8("{}[]\",:0123456789-+.eE\\ntrufalsn \u00e9\u20ac");

  @Test
  void should_only_ever_throw_topology_entry_exceptions_on_mutated_values() {
    SplittableRandom random = new SplittableRandom(20261122L);
    int decoded = 0;
    for (int i = 0; i < ITERATIONS; i++) {
      byte[] value = mutate(SEEDS.get(random.nextInt(SEEDS.size())), random);
      decoded += attempt(value, v -> TopologyCodec.decodeMetadata(v));
      decoded += attempt(value, v -> TopologyCodec.decodeNode("node-a", v));
      decoded += attempt(value, v -> TopologyCodec.decodeAssignment(3, v));
    }
    assertThat(decoded).isPositive();
  }

  private static int attempt(byte[] value, Consumer<byte[]> decoder) {
    try {
      decoder.accept(value);
      return 1;
    } catch (TopologyEntryException expected) {
      if (expected.getMessage() == null || expected.getMessage().isBlank()) {
        throw new AssertionError("no message", expected);
      }
      return 0;
    } catch (RuntimeException | StackOverflowError e) {
      throw new AssertionError(
          "decoding " + new String(value, StandardCharsets.ISO_8859_1) + " threw " + e, e);
    }
  }

  private static byte[] mutate(byte[] seed, SplittableRandom random) {
    byte[] value = seed.clone();
    int mutations = 1 + random.nextInt(4);
    for (int m = 0; m < mutations; m++) {
      int kind = random.nextInt(4);
      if (value.length == 0) {
        return new byte[] {(byte) random.nextInt(256)};
      }
      int at = random.nextInt(value.length);
      switch (kind) {
        case 0 -> value[at] = (byte) random.nextInt(256);
        case 1 -> value[at] = INTERESTING[random.nextInt(INTERESTING.length)];
        case 2 -> {
          byte[] shorter = new byte[value.length - 1];
          System.arraycopy(value, 0, shorter, 0, at);
          System.arraycopy(value, at + 1, shorter, at, value.length - at - 1);
          value = shorter;
        }
        default -> {
          int length = 1 + random.nextInt(Math.min(8, value.length - at));
          byte[] longer = new byte[value.length + length];
          System.arraycopy(value, 0, longer, 0, at + length);
          System.arraycopy(value, at, longer, at + length, value.length - at);
          value = longer;
        }
      }
    }
    return value;
  }
}
