package io.jumpgate.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The conformance test of the routing contract: {@code routing-vectors.tsv} holds 2000 vectors from
 * an independent implementation (key bytes, shard count, routing key, XXH64, shard). Every one must
 * pass, whichever way the key is handed in.
 */
class RoutingVectorsTest {

  private static final HexFormat HEX = HexFormat.of();

  record Vector(int line, byte[] key, int shards, byte[] routingKey, long hash, int shard) {
    @Override
    public String toString() {
      return "line " + line + " key=" + HEX.formatHex(key) + " shards=" + shards;
    }
  }

  private static List<Vector> vectors;

  @BeforeAll
  static void readVectors() throws IOException {
    vectors = new ArrayList<>();
    try (InputStream in =
            Objects.requireNonNull(
                RoutingVectorsTest.class.getResourceAsStream("/routing-vectors.tsv"),
                "routing-vectors.tsv missing from test resources");
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      int number = 0;
      while ((line = reader.readLine()) != null) {
        number++;
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        String[] fields = line.split("\t", -1);
        assertThat(fields).as("line %d", number).hasSize(5);
        vectors.add(
            new Vector(
                number,
                HEX.parseHex(fields[0]),
                Integer.parseInt(fields[1]),
                HEX.parseHex(fields[2]),
                Long.parseUnsignedLong(fields[3]),
                Integer.parseInt(fields[4])));
      }
    }
  }

  @Test
  void should_hold_all_2000_vectors() {
    assertThat(vectors).hasSize(2000);
  }

  @Test
  void should_find_the_routing_key_of_every_vector() {
    for (Vector vector : vectors) {
      assertThat(Xxh64JumpRouter.routingKey(vector.key()))
          .as("%s", vector)
          .isEqualTo(vector.routingKey());
    }
  }

  @Test
  void should_hash_the_routing_key_of_every_vector_with_xxh64_seed_0() {
    for (Vector vector : vectors) {
      assertThat(Long.toUnsignedString(Xxh64JumpRouter.routingHash(vector.key())))
          .as("%s", vector)
          .isEqualTo(Long.toUnsignedString(vector.hash()));
    }
  }

  @Test
  void should_jump_every_vector_hash_to_its_shard() {
    for (Vector vector : vectors) {
      assertThat(JumpHash.bucket(vector.hash(), vector.shards()))
          .as("%s", vector)
          .isEqualTo(vector.shard());
    }
  }

  @Test
  void should_route_every_vector_from_a_whole_array() {
    for (Vector vector : vectors) {
      assertThat(Xxh64JumpRouter.forShards(vector.shards()).shardOf(vector.key()))
          .as("%s", vector)
          .isEqualTo(vector.shard());
    }
  }

  @Test
  void should_route_every_vector_from_a_slice_of_a_larger_array() {
    for (Vector vector : vectors) {
      // Braces around the slice must not be seen: the slice is the whole key.
      byte[] padded = new byte[vector.key().length + 7];
      padded[0] = '{';
      padded[1] = 'x';
      padded[2] = '}';
      padded[padded.length - 1] = '}';
      System.arraycopy(vector.key(), 0, padded, 3, vector.key().length);
      assertThat(Xxh64JumpRouter.forShards(vector.shards()).shardOf(padded, 3, vector.key().length))
          .as("%s", vector)
          .isEqualTo(vector.shard());
    }
  }

  @Test
  void should_route_every_vector_from_heap_and_direct_buffers_without_moving_them() {
    for (Vector vector : vectors) {
      Xxh64JumpRouter router = Xxh64JumpRouter.forShards(vector.shards());
      byte[] padded = new byte[vector.key().length + 4];
      System.arraycopy(vector.key(), 0, padded, 2, vector.key().length);
      padded[0] = '{';
      padded[padded.length - 1] = '}';

      ByteBuffer heap = ByteBuffer.wrap(padded, 2, vector.key().length).slice();
      ByteBuffer direct = ByteBuffer.allocateDirect(padded.length).put(padded);
      direct.position(2).limit(2 + vector.key().length);

      assertThat(router.shardOf(heap)).as("heap %s", vector).isEqualTo(vector.shard());
      assertThat(router.shardOf(direct)).as("direct %s", vector).isEqualTo(vector.shard());
      assertThat(heap.position()).isZero();
      assertThat(direct.position()).isEqualTo(2);
      assertThat(direct.limit()).isEqualTo(2 + vector.key().length);
    }
  }
}
