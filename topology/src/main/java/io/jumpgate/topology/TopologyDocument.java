package io.jumpgate.topology;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jumpgate.spi.InvalidEntry;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.TopologySnapshot;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A whole topology in one JSON file: what {@code jumpgate topology export} writes, {@code topology
 * show --json} prints and {@link FileTopologySource} reads.
 *
 * <pre>
 * {
 *   "format": 1,
 *   "cluster": "default",
 *   "revision": 1234,
 *   "shards": 1024,
 *   "routing": "xxh64-jump",
 *   "migrationLock": {"migration":"m1","owner":"app-1:4242","since":"2026-11-24T10:00:00Z"},
 *   "nodes": {
 *     "node-a": {"host":"10.0.0.5","port":6379,"zone":"az1"}
 *   },
 *   "assignments": [
 *     {"shard":0,"leader":"node-a","replicas":[],"epoch":7,"state":"active"},
 *     {"shard":1,"leader":"node-a","replicas":[],"epoch":2,"state":"frozen",
 *      "migration":{"id":"m1","to":"node-b"}}
 *   ],
 *   "invalid": [
 *     {"key":"/jumpgate/default/shards/0001","reason":"\"leader\" is required"}
 *   ]
 * }
 * </pre>
 *
 * <p>{@code format}, {@code shards} and {@code routing} are the cluster's meta; {@code
 * migrationLock}, present only while a mover holds it, is the value of {@code
 * <root>/migration-lock} (a file source takes the revision of the load that first read it as its
 * create revision); each node value and each assignment (without its {@code shard}) is the value of
 * the etcd key it stands for, in the contract's JSON. {@link #entries()} gives those keys and
 * values, so a file goes through exactly the validation of an etcd listing: an invalid node or
 * assignment is reported per key and does not make the whole document fail. {@code invalid} is
 * informational (written from a snapshot, ignored when a source reads the file).
 *
 * <p>{@link #parse} fails only when the document's own structure is wrong: not one JSON object,
 * {@code cluster} missing or not a cluster name, {@code revision} not an integer >= 0, {@code
 * nodes} not an object or with an empty id, {@code assignments} not an array of objects with an
 * integer {@code shard} >= 0, a shard listed twice. {@code cluster} is required, {@code revision}
 * defaults to 0, {@code nodes}, {@code assignments} and {@code invalid} to empty; unknown fields
 * are ignored. The JSON rules of {@link TopologyCodec} apply (UTF-8, no duplicate field names).
 *
 * <p>{@link #toJson()} writes the fields in the order above, nodes sorted by id and assignments by
 * shard, one node or assignment per line. Immutable and thread-safe.
 */
public final class TopologyDocument {

  /** The largest document {@link #parse} accepts, in bytes: 64 MiB. */
  public static final int MAX_DOCUMENT_BYTES = 64 << 20;

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final List<String> META_FIELDS = List.of("format", "shards", "routing");

  private final String cluster;
  private final long revision;
  private final ObjectNode meta;
  private final JsonNode migrationLock;
  private final SortedMap<String, JsonNode> nodes;
  private final SortedMap<Integer, ObjectNode> assignments;
  private final List<InvalidEntry> invalidEntries;

  private TopologyDocument(
      String cluster,
      long revision,
      ObjectNode meta,
      JsonNode migrationLock,
      SortedMap<String, JsonNode> nodes,
      SortedMap<Integer, ObjectNode> assignments,
      List<InvalidEntry> invalidEntries) {
    this.cluster = cluster;
    this.revision = revision;
    this.meta = meta;
    this.migrationLock = migrationLock;
    this.nodes = nodes;
    this.assignments = assignments;
    this.invalidEntries = List.copyOf(invalidEntries);
  }

  /**
   * The document of a snapshot: its meta, its node table, the assignment in force of every
   * available shard and its invalid entries. A node that a route still names after it left the node
   * table is written too, with its last known address, so that the file loads the same routes.
   */
  public static TopologyDocument fromSnapshot(TopologySnapshot snapshot) {
    Objects.requireNonNull(snapshot, "snapshot");
    SortedMap<String, Node> nodeTable = new TreeMap<>(snapshot.nodes());
    SortedMap<Integer, ObjectNode> assignments = new TreeMap<>();
    for (ShardRoute route : snapshot.routes()) {
      if (!route.isAvailable()) {
        continue;
      }
      nodeTable.putIfAbsent(route.leader().id(), route.leader());
      List<String> replicas = new ArrayList<>(route.replicas().size());
      for (Node replica : route.replicas()) {
        nodeTable.putIfAbsent(replica.id(), replica);
        replicas.add(replica.id());
      }
      ShardAssignment.Migration migration = null;
      if (route.migration() != null) {
        nodeTable.putIfAbsent(route.migration().to().id(), route.migration().to());
        migration =
            new ShardAssignment.Migration(route.migration().id(), route.migration().to().id());
      }
      ShardAssignment assignment =
          new ShardAssignment(
              route.shard(),
              route.leader().id(),
              replicas,
              route.epoch(),
              route.state(),
              migration);
      assignments.put(route.shard(), tree(TopologyCodec.encodeAssignment(assignment)));
    }
    SortedMap<String, JsonNode> nodes = new TreeMap<>();
    for (Node node : nodeTable.values()) {
      nodes.put(node.id(), tree(TopologyCodec.encodeNode(node)));
    }
    return new TopologyDocument(
        snapshot.cluster(),
        snapshot.revision(),
        tree(TopologyCodec.encodeMetadata(snapshot.metadata())),
        snapshot.migrationLock().map(lock -> tree(MigrationCodec.encodeLock(lock))).orElse(null),
        nodes,
        assignments,
        snapshot.invalidEntries());
  }

  /**
   * Reads a document.
   *
   * @throws TopologyEntryException naming what is wrong with the document's structure
   */
  public static TopologyDocument parse(byte[] json) {
    JsonNode root = TopologyJson.readObject(json, MAX_DOCUMENT_BYTES, MAPPER::readTree);
    try {
      return TopologyDocumentReader.read((ObjectNode) root);
    } catch (TopologyEntryException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new TopologyEntryException("not a valid topology document: " + e, e);
    }
  }

  static TopologyDocument of(
      String cluster,
      long revision,
      ObjectNode meta,
      JsonNode migrationLock,
      SortedMap<String, JsonNode> nodes,
      SortedMap<Integer, ObjectNode> assignments,
      List<InvalidEntry> invalidEntries) {
    return new TopologyDocument(
        cluster, revision, meta, migrationLock, nodes, assignments, invalidEntries);
  }

  /** The cluster name. */
  public String cluster() {
    return cluster;
  }

  /** The revision the document was exported at (for a hand-written file: any counter), or 0. */
  public long revision() {
    return revision;
  }

  /**
   * The etcd keys and values this document stands for: meta (when the document has any of its
   * fields), the migration lock (when it has one), one key per node and one per assignment
   * (zero-padded shard id), values in compact UTF-8 JSON. A new map with new arrays on every call,
   * sorted by key.
   */
  public SortedMap<String, byte[]> entries() {
    TopologyKeys keys = TopologyKeys.forCluster(cluster);
    SortedMap<String, byte[]> entries = new TreeMap<>();
    if (meta != null) {
      entries.put(keys.meta(), bytes(meta));
    }
    if (migrationLock != null) {
      entries.put(keys.migrationLock(), bytes(migrationLock));
    }
    for (Map.Entry<String, JsonNode> node : nodes.entrySet()) {
      entries.put(keys.node(node.getKey()), bytes(node.getValue()));
    }
    for (Map.Entry<Integer, ObjectNode> assignment : assignments.entrySet()) {
      entries.put(keys.shard(assignment.getKey()), bytes(assignment.getValue()));
    }
    return Collections.unmodifiableSortedMap(entries);
  }

  /** The {@code invalid} list of the document: informational, never read back as topology. */
  public List<InvalidEntry> invalidEntries() {
    return invalidEntries;
  }

  /** The document as pretty-printed UTF-8 JSON, in a stable order (see the class comment). */
  public byte[] toJson() {
    StringBuilder out = new StringBuilder(128 + 96 * (nodes.size() + assignments.size()));
    out.append("{\n");
    JsonNode format = meta == null ? null : meta.get("format");
    if (format != null) {
      field(out, "format", format).append(",\n");
    }
    field(out, "cluster", MAPPER.getNodeFactory().textNode(cluster)).append(",\n");
    field(out, "revision", MAPPER.getNodeFactory().numberNode(revision)).append(",\n");
    for (String name : META_FIELDS.subList(1, META_FIELDS.size())) {
      JsonNode value = meta == null ? null : meta.get(name);
      if (value != null) {
        field(out, name, value).append(",\n");
      }
    }
    if (migrationLock != null) {
      field(out, "migrationLock", migrationLock).append(",\n");
    }
    out.append("  \"nodes\": {");
    String separator = "\n";
    for (Map.Entry<String, JsonNode> node : nodes.entrySet()) {
      out.append(separator).append("    ").append(compact(text(node.getKey()))).append(": ");
      out.append(compact(node.getValue()));
      separator = ",\n";
    }
    out.append(nodes.isEmpty() ? "},\n" : "\n  },\n");
    out.append("  \"assignments\": [");
    separator = "\n";
    for (Map.Entry<Integer, ObjectNode> assignment : assignments.entrySet()) {
      ObjectNode line = MAPPER.createObjectNode();
      line.put("shard", assignment.getKey());
      line.setAll(assignment.getValue());
      out.append(separator).append("    ").append(compact(line));
      separator = ",\n";
    }
    out.append(assignments.isEmpty() ? "],\n" : "\n  ],\n");
    out.append("  \"invalid\": [");
    separator = "\n";
    for (InvalidEntry entry : invalidEntries) {
      ObjectNode line = MAPPER.createObjectNode();
      line.put("key", entry.key());
      line.put("reason", entry.reason());
      if (entry.modRevision() > 0) {
        line.put("modRevision", entry.modRevision());
      }
      out.append(separator).append("    ").append(compact(line));
      separator = ",\n";
    }
    out.append(invalidEntries.isEmpty() ? "]\n" : "\n  ]\n");
    out.append("}\n");
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return "TopologyDocument{cluster="
        + cluster
        + ", revision="
        + revision
        + ", nodes="
        + nodes.size()
        + ", assignments="
        + assignments.size()
        + "}";
  }

  private static StringBuilder field(StringBuilder out, String name, JsonNode value) {
    return out.append("  ").append(compact(text(name))).append(": ").append(compact(value));
  }

  private static JsonNode text(String text) {
    return MAPPER.getNodeFactory().textNode(text);
  }

  private static String compact(JsonNode value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("writing a JSON tree to memory failed", e);
    }
  }

  private static byte[] bytes(JsonNode value) {
    return compact(value).getBytes(StandardCharsets.UTF_8);
  }

  private static ObjectNode tree(byte[] json) {
    return (ObjectNode) TopologyJson.readObject(json, MAX_DOCUMENT_BYTES, MAPPER::readTree);
  }
}
