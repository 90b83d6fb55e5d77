package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code route --json --hex} against the contract's vectors (routing-vectors.tsv, from an
 * independent implementation): key, routing key, unsigned hash and shard of every vector.
 */
class RoutingVectorsTest {

  /** One line of the vector file. */
  private record Vector(String keyHex, int shards, String routingKeyHex, String hash, int shard) {

    String expectedJsonTail() {
      String hashHex = String.format("%016x", Long.parseUnsignedLong(hash));
      return String.format(
          "\"keyHex\":\"%s\",\"routingKeyHex\":\"%s\",\"hash\":\"%s\",\"hashHex\":\"%s\","
              + "\"shard\":%d}",
          keyHex, routingKeyHex, hash, hashHex, shard);
    }
  }

  @Test
  void everyVectorRoutesAsTheContractSays() throws IOException {
    Map<Integer, List<Vector>> vectorsByShards = new LinkedHashMap<>();
    for (Vector vector : readVectors()) {
      vectorsByShards.computeIfAbsent(vector.shards(), shards -> new ArrayList<>()).add(vector);
    }
    assertThat(vectorsByShards.values().stream().mapToInt(List::size).sum()).isEqualTo(2000);

    vectorsByShards.forEach(
        (shards, vectors) -> {
          List<String> arguments =
              new ArrayList<>(List.of("route", "--json", "--hex", "--shards", "" + shards));
          vectors.forEach(vector -> arguments.add(vector.keyHex()));

          CliRunner.Result result = CliRunner.run(arguments.toArray(String[]::new));

          assertThat(result.exitCode()).isZero();
          List<String> lines = result.out().lines().toList();
          assertThat(lines).hasSameSizeAs(vectors);
          for (int index = 0; index < vectors.size(); index++) {
            assertThat(lines.get(index)).endsWith(vectors.get(index).expectedJsonTail());
          }
        });
  }

  private static List<Vector> readVectors() throws IOException {
    List<Vector> vectors = new ArrayList<>();
    // The one copy of the contract's vectors lives in the routing module's test resources.
    Path file = Path.of("..", "routing", "src", "test", "resources", "routing-vectors.tsv");
    assertThat(file).as("routing-vectors.tsv").isRegularFile();
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        String[] fields = line.split("\t", -1);
        vectors.add(
            new Vector(
                fields[0],
                Integer.parseInt(fields[1]),
                fields[2],
                fields[3],
                Integer.parseInt(fields[4])));
      }
    }
    return vectors;
  }
}
