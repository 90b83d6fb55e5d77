package io.jumpgate.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes topology documents (the format of {@code topology export}) by hand, as raw JSON, for tests
 * that read them with {@code --topology-file}.
 */
final class TopologyFileBuilder {

  private final String cluster;
  private final int shards;
  private long revision = 7;
  private final Map<String, String> nodes = new TreeMap<>();
  private final Map<Integer, String> assignments = new TreeMap<>();

  private TopologyFileBuilder(String cluster, int shards) {
    this.cluster = cluster;
    this.shards = shards;
  }

  /** An empty map of {@code shards} shards for {@code cluster}. */
  static TopologyFileBuilder cluster(String cluster, int shards) {
    return new TopologyFileBuilder(cluster, shards);
  }

  /**
   * Cluster "test" at revision 7, 8 shards, nodes n0..n2 on 10.0.0.1:7000..7002 (zones az1..az3),
   * shard i led by n(i % 3) with n((i + 1) % 3) as replica, epoch 0.
   */
  static TopologyFileBuilder standard() {
    TopologyFileBuilder builder = cluster("test", 8);
    for (int node = 0; node < 3; node++) {
      builder.node("n" + node, "10.0.0." + (node + 1), 7000 + node, "az" + (node + 1));
    }
    for (int shard = 0; shard < 8; shard++) {
      builder.assign(shard, "n" + (shard % 3), 0, "n" + ((shard + 1) % 3));
    }
    return builder;
  }

  TopologyFileBuilder revision(long value) {
    revision = value;
    return this;
  }

  TopologyFileBuilder node(String id, String host, int port, String zone) {
    nodes.put(
        id,
        "{\"host\":\""
            + host
            + "\",\"port\":"
            + port
            + (zone == null ? "" : ",\"zone\":\"" + zone + "\"")
            + "}");
    return this;
  }

  /** A node value written as is (it may be invalid). */
  TopologyFileBuilder rawNode(String id, String json) {
    nodes.put(id, json);
    return this;
  }

  TopologyFileBuilder withoutNode(String id) {
    nodes.remove(id);
    return this;
  }

  TopologyFileBuilder assign(int shard, String leader, long epoch, String... replicas) {
    List<String> quoted = new ArrayList<>();
    for (String replica : replicas) {
      quoted.add("\"" + replica + "\"");
    }
    return rawAssignment(
        shard,
        "\"leader\":\""
            + leader
            + "\",\"replicas\":["
            + String.join(",", quoted)
            + "],\"epoch\":"
            + epoch
            + ",\"state\":\"active\"");
  }

  /** An assignment's fields (without braces and shard) written as is (they may be invalid). */
  TopologyFileBuilder rawAssignment(int shard, String fields) {
    assignments.put(shard, fields);
    return this;
  }

  TopologyFileBuilder unassign(int shard) {
    assignments.remove(shard);
    return this;
  }

  String json() {
    StringBuilder json = new StringBuilder();
    json.append("{\"format\":1,\"cluster\":\"")
        .append(cluster)
        .append("\",\"revision\":")
        .append(revision)
        .append(",\"shards\":")
        .append(shards)
        .append(",\"routing\":\"xxh64-jump\",\"nodes\":{");
    List<String> parts = new ArrayList<>();
    nodes.forEach((id, value) -> parts.add("\"" + id + "\":" + value));
    json.append(String.join(",", parts)).append("},\"assignments\":[");
    parts.clear();
    assignments.forEach((shard, fields) -> parts.add("{\"shard\":" + shard + "," + fields + "}"));
    json.append(String.join(",\n", parts)).append("]}\n");
    return json.toString();
  }

  /** Writes the document to {@code file} (replacing it) and returns the file. */
  Path writeTo(Path file) {
    try {
      Files.writeString(file, json(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }
}
