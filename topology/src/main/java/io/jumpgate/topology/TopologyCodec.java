package io.jumpgate.topology;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyMetadata;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON values of the topology contract: {@code <root>/meta}, {@code <root>/nodes/<id>} and
 * {@code <root>/shards/<shard>}.
 *
 * <p>Encoding writes compact UTF-8 JSON with the fields in a fixed order; a node omits a null zone,
 * empty tags and {@code tls: false}.
 *
 * <p>Decoding is strict about types and ranges and lenient about unknown fields, which are ignored
 * (forward compatibility). Its rules:
 *
 * <ul>
 *   <li>The value is UTF-8 (a leading byte order mark is skipped), at most {@link #MAX_ENTRY_BYTES}
 *       bytes, and exactly one JSON object: nothing but white space after it.
 *   <li>A field name given twice, at any level and even inside an unknown field, makes the value
 *       invalid: JSON parsers disagree on which of the two wins, and two clients must never route
 *       differently.
 *   <li>Integers are JSON integer literals: {@code 1.0}, {@code 1e3} and {@code "1"} are rejected,
 *       as is any integer outside the field's range (however many digits it has).
 *   <li>An optional field set to {@code null} counts as not set; a required field set to {@code
 *       null} is wrong.
 *   <li>Objects and arrays nest at most 64 deep.
 * </ul>
 *
 * <p>Every decoding failure, whatever the bytes, is a {@link TopologyEntryException} whose message
 * names the field and the value, e.g. {@code port must be between 1 and 65535, was 70000}. Whether
 * the node ids of an assignment exist is not checked here: that needs the node table.
 *
 * <p>Stateless and thread-safe.
 */
public final class TopologyCodec {

  /** The largest value the decoder accepts, in bytes: 1 MiB (etcd's own limit is 1.5 MiB). */
  public static final int MAX_ENTRY_BYTES = 1 << 20;

  private TopologyCodec() {}

  /** {@code {"format":1,"shards":1024,"routing":"xxh64-jump"}}. */
  public static byte[] encodeMetadata(TopologyMetadata metadata) {
    return TopologyJson.write(
        generator -> {
          generator.writeStartObject();
          generator.writeNumberField("format", metadata.format());
          generator.writeNumberField("shards", metadata.shards());
          generator.writeStringField("routing", metadata.routing());
          generator.writeEndObject();
        });
  }

  /**
   * Decodes a meta value. A format newer than {@link TopologyMetadata#CURRENT_FORMAT} is returned
   * as it is when its other fields fit (the caller refuses it); when they do not, the message says
   * that the format is newer.
   *
   * @throws TopologyEntryException naming the field and value at fault
   */
  public static TopologyMetadata decodeMetadata(byte[] value) {
    return TopologyJson.readObject(value, MAX_ENTRY_BYTES, TopologyValueReaders::readMetadata);
  }

  /** {@code {"host":"10.0.0.5","port":6379,"zone":"az1"}}, plus tags and tls when set. */
  public static byte[] encodeNode(Node node) {
    return TopologyJson.write(
        generator -> {
          generator.writeStartObject();
          generator.writeStringField("host", node.host());
          generator.writeNumberField("port", node.port());
          if (node.zone() != null) {
            generator.writeStringField("zone", node.zone());
          }
          if (!node.tags().isEmpty()) {
            generator.writeObjectFieldStart("tags");
            for (Map.Entry<String, String> tag : new TreeMap<>(node.tags()).entrySet()) {
              generator.writeStringField(tag.getKey(), tag.getValue());
            }
            generator.writeEndObject();
          }
          if (node.tls()) {
            generator.writeBooleanField("tls", true);
          }
          generator.writeEndObject();
        });
  }

  /**
   * Decodes a node value.
   *
   * @param nodeId the id from the key, {@code [A-Za-z0-9._-]{1,64}}
   * @throws TopologyEntryException naming the field and value at fault, or the id
   */
  public static Node decodeNode(String nodeId, byte[] value) {
    if (nodeId == null || !Node.ID_PATTERN.matcher(nodeId).matches()) {
      throw new TopologyEntryException(
          "node id must match "
              + Node.ID_PATTERN.pattern()
              + ", was "
              + (nodeId == null ? "null" : "'" + TopologyJson.excerpt(nodeId) + "'"));
    }
    return TopologyJson.readObject(
        value, MAX_ENTRY_BYTES, parser -> TopologyValueReaders.readNode(nodeId, parser));
  }

  /**
   * {@code {"leader":"node-a","replicas":["node-b"],"epoch":7,"state":"active"}}; a migrating or
   * frozen shard ends with its {@code "migration":{"id":..,"to":..}}.
   */
  public static byte[] encodeAssignment(ShardAssignment assignment) {
    return TopologyJson.write(
        generator -> {
          generator.writeStartObject();
          generator.writeStringField("leader", assignment.leader());
          generator.writeArrayFieldStart("replicas");
          for (String replica : assignment.replicas()) {
            generator.writeString(replica);
          }
          generator.writeEndArray();
          generator.writeNumberField("epoch", assignment.epoch());
          generator.writeStringField("state", assignment.state().wireName());
          if (assignment.migration() != null) {
            generator.writeObjectFieldStart("migration");
            generator.writeStringField("id", assignment.migration().id());
            generator.writeStringField("to", assignment.migration().to());
            generator.writeEndObject();
          }
          generator.writeEndObject();
        });
  }

  /**
   * Decodes a shard's assignment. Replicas default to none, epoch to 0, state to active.
   *
   * <p>Migration rules: a {@code migrating} or {@code frozen} shard needs a {@code migration} whose
   * {@code id} matches {@link io.jumpgate.spi.ShardMigration#ID_PATTERN} and whose {@code to} is a
   * node id other than the leader (whether that node exists is checked against the node table). An
   * {@code active} shard's {@code migration}, valid or not, is ignored: the contract has it only
   * while a shard is migrating or frozen, and the state is what clients act on; refusing the entry
   * would keep the previous assignment in force (after a cutover written with a stale {@code
   * migration} left in it, the old leader), which is worse than dropping a field that says nothing
   * about where an active shard is served.
   *
   * @param shard the shard id from the key, at least 0
   * @throws TopologyEntryException naming the field and value at fault
   */
  public static ShardAssignment decodeAssignment(int shard, byte[] value) {
    if (shard < 0) {
      throw new TopologyEntryException("shard must be at least 0, was " + shard);
    }
    return TopologyJson.readObject(
        value, MAX_ENTRY_BYTES, parser -> TopologyValueReaders.readAssignment(shard, parser));
  }
}
