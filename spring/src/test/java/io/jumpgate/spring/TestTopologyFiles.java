package io.jumpgate.spring;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Topology files for tests that need a client but no etcd: nodes on 127.0.0.1 ports. */
final class TestTopologyFiles {

  private TestTopologyFiles() {}

  /**
   * Writes {@code topology.json} into {@code dir}: cluster {@code test}, {@code shards} shards led
   * round robin by {@code node-0}, {@code node-1}, ... on 127.0.0.1 at {@code ports}, no replicas.
   */
  static Path write(Path dir, int shards, List<Integer> ports) {
    StringBuilder json =
        new StringBuilder("{\"format\":1,\"cluster\":\"test\",\"revision\":7,\"shards\":")
            .append(shards)
            .append(",\"routing\":\"xxh64-jump\",\"nodes\":{");
    for (int node = 0; node < ports.size(); node++) {
      json.append(node == 0 ? "" : ",")
          .append("\"node-")
          .append(node)
          .append("\":{\"host\":\"127.0.0.1\",\"port\":")
          .append(ports.get(node))
          .append('}');
    }
    json.append("},\"assignments\":[");
    for (int shard = 0; shard < shards; shard++) {
      json.append(shard == 0 ? "" : ",")
          .append("{\"shard\":")
          .append(shard)
          .append(",\"leader\":\"node-")
          .append(shard % ports.size())
          .append("\",\"replicas\":[],\"epoch\":1,\"state\":\"active\"}");
    }
    json.append("]}");
    Path file = dir.resolve("topology.json");
    try {
      Files.writeString(file, json, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  /** A 127.0.0.1 port that nothing listens on (free when asked). */
  static int closedPort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
