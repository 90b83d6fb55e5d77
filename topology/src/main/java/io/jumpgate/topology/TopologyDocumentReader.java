package io.jumpgate.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jumpgate.spi.InvalidEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads the structure of a {@link TopologyDocument} from its JSON tree; the values of the entries
 * are left as they are, for per-key validation. Stateless.
 */
final class TopologyDocumentReader {

  private TopologyDocumentReader() {}

  static TopologyDocument read(ObjectNode root) {
    String cluster = cluster(root.get("cluster"));
    long revision = nonNegativeLong(root.get("revision"), "\"revision\"", 0);
    ObjectNode meta = JsonNodeFactory.instance.objectNode();
    for (String field : List.of("format", "shards", "routing")) {
      if (root.has(field)) {
        meta.set(field, root.get(field));
      }
    }
    return TopologyDocument.of(
        cluster,
        revision,
        meta.isEmpty() ? null : meta,
        migrationLock(root.get("migrationLock")),
        nodes(root.get("nodes")),
        assignments(root.get("assignments")),
        invalid(root.get("invalid")));
  }

  private static String cluster(JsonNode value) {
    if (value == null) {
      throw new TopologyEntryException("\"cluster\" is required");
    }
    if (!value.isTextual() || !TopologyKeys.CLUSTER_PATTERN.matcher(value.asText()).matches()) {
      throw new TopologyEntryException(
          "\"cluster\" must be a cluster name matching "
              + TopologyKeys.CLUSTER_PATTERN.pattern()
              + ", was "
              + describe(value));
    }
    return value.asText();
  }

  private static long nonNegativeLong(JsonNode value, String what, long defaultValue) {
    if (value == null || value.isNull()) {
      return defaultValue;
    }
    if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 0) {
      throw new TopologyEntryException(what + " must be an integer >= 0, was " + describe(value));
    }
    return value.asLong();
  }

  /** The lock's value, left as it is for the reader to decode (null or absent: no lock). */
  private static JsonNode migrationLock(JsonNode value) {
    return value == null || value.isNull() ? null : value;
  }

  private static SortedMap<String, JsonNode> nodes(JsonNode value) {
    SortedMap<String, JsonNode> nodes = new TreeMap<>();
    if (value == null || value.isNull()) {
      return nodes;
    }
    if (!value.isObject()) {
      throw new TopologyEntryException(
          "\"nodes\" must be an object of node id to node, was " + describe(value));
    }
    for (Map.Entry<String, JsonNode> node : value.properties()) {
      if (node.getKey().isEmpty()) {
        throw new TopologyEntryException("\"nodes\" has an empty node id");
      }
      nodes.put(node.getKey(), node.getValue());
    }
    return nodes;
  }

  private static SortedMap<Integer, ObjectNode> assignments(JsonNode value) {
    SortedMap<Integer, ObjectNode> assignments = new TreeMap<>();
    if (value == null || value.isNull()) {
      return assignments;
    }
    if (!value.isArray()) {
      throw new TopologyEntryException(
          "\"assignments\" must be an array of objects, was " + describe(value));
    }
    for (int index = 0; index < value.size(); index++) {
      JsonNode element = value.get(index);
      String where = "\"assignments\"[" + index + "]";
      if (!element.isObject()) {
        throw new TopologyEntryException(where + " must be an object, was " + describe(element));
      }
      JsonNode shardValue = element.get("shard");
      if (shardValue == null) {
        throw new TopologyEntryException(where + " has no \"shard\"");
      }
      long shard = nonNegativeLong(shardValue, where + ".shard", -1);
      if (shard < 0 || shard > Integer.MAX_VALUE) {
        throw new TopologyEntryException(
            where + ".shard must be an integer >= 0, was " + describe(shardValue));
      }
      ObjectNode assignment = ((ObjectNode) element).deepCopy();
      assignment.remove("shard");
      if (assignments.put((int) shard, assignment) != null) {
        throw new TopologyEntryException("shard " + shard + " is listed twice in \"assignments\"");
      }
    }
    return assignments;
  }

  private static List<InvalidEntry> invalid(JsonNode value) {
    List<InvalidEntry> entries = new ArrayList<>();
    if (value == null || value.isNull()) {
      return entries;
    }
    if (!value.isArray()) {
      throw new TopologyEntryException("\"invalid\" must be an array, was " + describe(value));
    }
    for (int index = 0; index < value.size(); index++) {
      JsonNode element = value.get(index);
      String where = "\"invalid\"[" + index + "]";
      JsonNode key = element.get("key");
      JsonNode reason = element.get("reason");
      if (key == null || !key.isTextual() || reason == null || !reason.isTextual()) {
        throw new TopologyEntryException(
            where + " must be an object with the strings \"key\" and \"reason\"");
      }
      long modRevision = nonNegativeLong(element.get("modRevision"), where + ".modRevision", 0);
      entries.add(new InvalidEntry(key.asText(), reason.asText(), modRevision));
    }
    return entries;
  }

  private static String describe(JsonNode value) {
    if (value.isTextual()) {
      return TopologyJson.quote(TopologyJson.excerpt(value.asText()));
    }
    if (value.isObject()) {
      return "an object";
    }
    if (value.isArray()) {
      return "an array";
    }
    return TopologyJson.excerpt(value.toString());
  }
}
