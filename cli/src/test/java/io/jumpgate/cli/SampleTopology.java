package io.jumpgate.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A small map with every case the topology verbs show: 8 shards over n0..n2 (n2 without zone),
 * shards 0-2 with the same leader and replicas but different epochs, a shard without replicas, a
 * shard without assignment (4), a frozen shard migrating to n0 (5), a shard that names an unknown
 * node (6).
 */
final class SampleTopology {

  static final String JSON =
      """
      {"format":1,"cluster":"test","revision":7,"shards":8,"routing":"xxh64-jump",
       "nodes":{"n0":{"host":"10.0.0.1","port":7000,"zone":"az1"},
                "n1":{"host":"10.0.0.2","port":7001,"zone":"az2"},
                "n2":{"host":"10.0.0.3","port":7002}},
       "assignments":[
        {"shard":0,"leader":"n0","replicas":["n1"],"epoch":0},
        {"shard":1,"leader":"n0","replicas":["n1"],"epoch":3},
        {"shard":2,"leader":"n0","replicas":["n1"],"epoch":1},
        {"shard":3,"leader":"n1","replicas":[],"epoch":0},
        {"shard":5,"leader":"n2","replicas":["n0","n1"],"epoch":2,"state":"frozen","migration":{"id":"m1","to":"n0"}},
        {"shard":6,"leader":"n9","replicas":[],"epoch":0},
        {"shard":7,"leader":"n2","replicas":["n0"],"epoch":0}]}
      """;

  private SampleTopology() {}

  /** Writes {@link #JSON} to {@code dir/sample.json}. */
  static Path writeTo(Path dir) {
    return write(dir.resolve("sample.json"), JSON);
  }

  /** Writes {@code json} to {@code file}. */
  static Path write(Path file, String json) {
    try {
      return Files.writeString(file, json, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
