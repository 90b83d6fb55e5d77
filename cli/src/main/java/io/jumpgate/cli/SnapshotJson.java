package io.jumpgate.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.jumpgate.spi.InvalidEntry;
import io.jumpgate.spi.MigrationLock;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.topology.TopologyDiff;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The JSON that the topology verbs print, written with a {@link JsonGenerator} (see {@link
 * JsonOutput}).
 *
 * <ul>
 *   <li>{@link #writeSnapshot}: {@code topology show --json}, one document: {@code
 *       {"cluster":..,"revision":..,"shards":N,"nodes":{"<id>":{"host":..,"port":..,"zone":..}},
 *       "assignments":[{"shard":0,"leader":..,"replicas":[..],"epoch":..,"state":..}],
 *       "invalid":[{"key":..,"reason":..,"modRevision":..}]}}. Every shard has an assignment, in
 *       shard order; an unavailable shard has {@code "leader":null} and {@code
 *       "unavailable":"<reason>"}. A migrating or frozen shard has {@code
 *       "migration":{"id":..,"to":..}} after its {@code state} (the contract's spelling); while a
 *       mover holds the migration lock, {@code "migrationLock":{"migration":..,"owner":..,
 *       "since":..,"createRevision":..}} follows {@code shards}. A node that routes still name
 *       after it left the node table is listed with {@code "removed":true}.
 *   <li>{@link #writeDiff}: one object per {@link TopologyDiff}, for {@code topology watch --json}
 *       and {@code topology diff --json}.
 * </ul>
 *
 * <p>Stateless and thread-safe.
 */
final class SnapshotJson {

  private SnapshotJson() {}

  /** The whole map, as {@code topology show --json} prints it. */
  static void writeSnapshot(JsonGenerator generator, TopologySnapshot snapshot) throws IOException {
    generator.writeStartObject();
    generator.writeStringField("cluster", snapshot.cluster());
    generator.writeNumberField("revision", snapshot.revision());
    generator.writeNumberField("shards", snapshot.shardCount());
    if (snapshot.migrationLock().isPresent()) {
      MigrationLock lock = snapshot.migrationLock().get();
      generator.writeObjectFieldStart("migrationLock");
      generator.writeStringField("migration", lock.migrationId());
      generator.writeStringField("owner", lock.owner());
      generator.writeStringField("since", lock.since());
      generator.writeNumberField("createRevision", lock.createRevision());
      generator.writeEndObject();
    }
    generator.writeObjectFieldStart("nodes");
    for (Map.Entry<String, NodeLoad.Load> entry : NodeLoad.of(snapshot).entrySet()) {
      generator.writeFieldName(entry.getKey());
      writeNode(generator, entry.getValue().node(), !entry.getValue().inNodeTable());
    }
    generator.writeEndObject();
    generator.writeArrayFieldStart("assignments");
    for (ShardRoute route : snapshot.routes()) {
      writeAssignment(generator, route, true);
    }
    generator.writeEndArray();
    generator.writeArrayFieldStart("invalid");
    for (InvalidEntry entry : snapshot.invalidEntries()) {
      writeInvalid(generator, entry);
    }
    generator.writeEndArray();
    generator.writeEndObject();
  }

  /**
   * A node: {@code {"host":..,"port":..,"zone":..}} ({@code zone} null when not set), with {@code
   * tags} when it has any, {@code "tls":true} when set, {@code "removed":true} when asked.
   */
  static void writeNode(JsonGenerator generator, Node node, boolean removed) throws IOException {
    generator.writeStartObject();
    generator.writeStringField("host", node.host());
    generator.writeNumberField("port", node.port());
    generator.writeStringField("zone", node.zone());
    if (!node.tags().isEmpty()) {
      generator.writeObjectFieldStart("tags");
      for (Map.Entry<String, String> tag : node.tags().entrySet()) {
        generator.writeStringField(tag.getKey(), tag.getValue());
      }
      generator.writeEndObject();
    }
    if (node.tls()) {
      generator.writeBooleanField("tls", true);
    }
    if (removed) {
      generator.writeBooleanField("removed", true);
    }
    generator.writeEndObject();
  }

  /**
   * One shard's assignment: {@code {"shard":..,"leader":..,"replicas":[..],"epoch":..,"state":..}},
   * or for an unavailable shard {@code "leader":null,"replicas":[],"epoch":null,"state":null} and
   * {@code "unavailable":"<reason>"}.
   */
  static void writeAssignment(JsonGenerator generator, ShardRoute route, boolean withShard)
      throws IOException {
    generator.writeStartObject();
    if (withShard) {
      generator.writeNumberField("shard", route.shard());
    }
    writeAssignmentFields(generator, route);
    generator.writeEndObject();
  }

  /** The fields of {@link #writeAssignment} without the braces and the shard. */
  static void writeAssignmentFields(JsonGenerator generator, ShardRoute route) throws IOException {
    generator.writeStringField("leader", route.isAvailable() ? route.leader().id() : null);
    writeReplicas(generator, route.replicas());
    if (route.isAvailable()) {
      generator.writeNumberField("epoch", route.epoch());
      generator.writeStringField("state", route.state().wireName());
      if (route.migration() != null) {
        generator.writeObjectFieldStart("migration");
        generator.writeStringField("id", route.migration().id());
        generator.writeStringField("to", route.migration().to().id());
        generator.writeEndObject();
      }
    } else {
      generator.writeNullField("epoch");
      generator.writeNullField("state");
      generator.writeStringField("unavailable", route.unavailableReason());
    }
  }

  /** {@code "replicas":["n1","n2"]}. */
  static void writeReplicas(JsonGenerator generator, List<Node> replicas) throws IOException {
    generator.writeArrayFieldStart("replicas");
    for (Node replica : replicas) {
      generator.writeString(replica.id());
    }
    generator.writeEndArray();
  }

  private static void writeInvalid(JsonGenerator generator, InvalidEntry entry) throws IOException {
    generator.writeStartObject();
    generator.writeStringField("key", entry.key());
    generator.writeStringField("reason", entry.reason());
    generator.writeNumberField("modRevision", entry.modRevision());
    generator.writeEndObject();
  }

  /**
   * One diff: {@code {"revision":R,"previousRevision":P,"cluster":..,"changes":["<line>",..],
   * "nodes":[{"node":..,"change":"added|removed|changed","before":{..}|null,"after":{..}|null}],
   * "shards":[{"shard":..,"before":{..}|null,"after":{..}|null}],"invalid":[..],"fixed":[..]}},
   * with {@code "meta":{"before":..,"after":..}} and {@code "previousCluster"} only when they
   * changed. {@code changes} holds {@link TopologyDiff#lines()}.
   */
  static void writeDiff(JsonGenerator generator, TopologyDiff diff) throws IOException {
    writeDiff(generator, Map.of(), diff);
  }

  /**
   * A change of the migration lock at the same map revision: {@code {"revision":R,
   * "mapChanged":false,"cluster":..,"changes":["migration lock .. -> .."]}}, without {@code
   * previousRevision}: the map's revision did not move.
   */
  static void writeLockChange(JsonGenerator generator, TopologyDiff diff) throws IOException {
    generator.writeStartObject();
    generator.writeNumberField("revision", diff.revisionAfter());
    generator.writeBooleanField("mapChanged", false);
    generator.writeStringField("cluster", diff.clusterAfter());
    generator.writeArrayFieldStart("changes");
    for (String line : diff.lines()) {
      generator.writeString(line);
    }
    generator.writeEndArray();
    generator.writeEndObject();
  }

  /** {@link #writeDiff(JsonGenerator, TopologyDiff)} with string fields first, in map order. */
  static void writeDiff(JsonGenerator generator, Map<String, String> first, TopologyDiff diff)
      throws IOException {
    generator.writeStartObject();
    for (Map.Entry<String, String> field : first.entrySet()) {
      generator.writeStringField(field.getKey(), field.getValue());
    }
    generator.writeNumberField("revision", diff.revisionAfter());
    generator.writeNumberField("previousRevision", diff.revisionBefore());
    generator.writeStringField("cluster", diff.clusterAfter());
    if (diff.clusterChanged()) {
      generator.writeStringField("previousCluster", diff.clusterBefore());
    }
    if (diff.metadataChanged()) {
      generator.writeObjectFieldStart("meta");
      generator.writeFieldName("before");
      writeMetadata(generator, diff.metadataBefore());
      generator.writeFieldName("after");
      writeMetadata(generator, diff.metadataAfter());
      generator.writeEndObject();
    }
    generator.writeArrayFieldStart("changes");
    for (String line : diff.lines()) {
      generator.writeString(line);
    }
    generator.writeEndArray();
    generator.writeArrayFieldStart("nodes");
    for (TopologyDiff.NodeChange change : diff.nodeChanges()) {
      generator.writeStartObject();
      generator.writeStringField("node", change.id());
      generator.writeStringField("change", change.kind().name().toLowerCase(Locale.ROOT));
      writeNodeOrNull(generator, "before", change.before());
      writeNodeOrNull(generator, "after", change.after());
      generator.writeEndObject();
    }
    generator.writeEndArray();
    generator.writeArrayFieldStart("shards");
    for (TopologyDiff.ShardChange change : diff.shardChanges()) {
      generator.writeStartObject();
      generator.writeNumberField("shard", change.shard());
      writeRouteOrNull(generator, "before", change.before());
      writeRouteOrNull(generator, "after", change.after());
      generator.writeEndObject();
    }
    generator.writeEndArray();
    generator.writeArrayFieldStart("invalid");
    for (InvalidEntry entry : diff.invalidAppeared()) {
      writeInvalid(generator, entry);
    }
    generator.writeEndArray();
    generator.writeArrayFieldStart("fixed");
    for (InvalidEntry entry : diff.invalidFixed()) {
      writeInvalid(generator, entry);
    }
    generator.writeEndArray();
    generator.writeEndObject();
  }

  /**
   * The first line of {@code topology watch --json}: {@code {"revision":R,"current":true,
   * "cluster":..,"shards":N,"nodes":N,"unavailable":N,"invalid":N}}.
   */
  static void writeCurrent(JsonGenerator generator, TopologySnapshot snapshot) throws IOException {
    generator.writeStartObject();
    generator.writeNumberField("revision", snapshot.revision());
    generator.writeBooleanField("current", true);
    generator.writeStringField("cluster", snapshot.cluster());
    generator.writeNumberField("shards", snapshot.shardCount());
    generator.writeNumberField("nodes", snapshot.nodes().size());
    generator.writeNumberField("unavailable", snapshot.unavailableShardCount());
    generator.writeNumberField("invalid", snapshot.invalidEntries().size());
    generator.writeEndObject();
  }

  private static void writeMetadata(JsonGenerator generator, TopologyMetadata metadata)
      throws IOException {
    generator.writeStartObject();
    generator.writeNumberField("format", metadata.format());
    generator.writeNumberField("shards", metadata.shards());
    generator.writeStringField("routing", metadata.routing());
    generator.writeEndObject();
  }

  private static void writeNodeOrNull(JsonGenerator generator, String field, Node node)
      throws IOException {
    generator.writeFieldName(field);
    if (node == null) {
      generator.writeNull();
    } else {
      writeNode(generator, node, false);
    }
  }

  private static void writeRouteOrNull(JsonGenerator generator, String field, ShardRoute route)
      throws IOException {
    generator.writeFieldName(field);
    if (route == null) {
      generator.writeNull();
    } else {
      writeAssignment(generator, route, false);
    }
  }
}
