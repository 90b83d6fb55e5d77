package io.jumpgate.topology.internal;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.topology.ShardAssignment;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The topology contract's value rules written a second time, for the fuzz test: a different
 * pipeline from the production decoder (a round trip through {@link String} for UTF-8, Jackson's
 * tree model with its own duplicate-key check, hand-written field rules), so that a mistake in one
 * is not repeated in the other. Each method returns the decoded value, or null when the value
 * breaks the contract.
 */
final class IndependentTopologyCheck {

  static final int MAX_BYTES = 1 << 20;
  static final int MAX_DEPTH = 64;

  private static final JsonMapper MAPPER =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  private IndependentTopologyCheck() {}

  /** The id syntax, checked without a regular expression. */
  static boolean validNodeId(String id) {
    if (id == null || id.isEmpty() || id.length() > 64) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '_'
              || c == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /**
   * The shard a key's shard part names, or -1 when it is not a decimal number below {@code shards};
   * any number of leading zeros is accepted.
   */
  static int shardId(String text, int shards) {
    if (text.isEmpty()) {
      return -1;
    }
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) < '0' || text.charAt(i) > '9') {
        return -1;
      }
    }
    BigInteger value = new BigInteger(text);
    return value.compareTo(BigInteger.valueOf(shards)) < 0 ? value.intValue() : -1;
  }

  /** The JSON object of a value, or null when the value is not one per the contract. */
  private static JsonNode object(byte[] value) {
    if (value == null || value.length == 0 || value.length > MAX_BYTES) {
      return null;
    }
    String text = new String(value, StandardCharsets.UTF_8);
    if (!Arrays.equals(text.getBytes(StandardCharsets.UTF_8), value)) {
      return null; // not valid UTF-8: the decoder replaced something
    }
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(text);
    } catch (Exception | StackOverflowError e) {
      return null;
    }
    if (root == null || !root.isObject() || depth(root) > MAX_DEPTH) {
      return null;
    }
    return root;
  }

  /** Nesting depth of objects and arrays; the root object is 1. */
  private static int depth(JsonNode root) {
    int max = 0;
    Deque<Object[]> stack = new ArrayDeque<>();
    stack.push(new Object[] {root, 1});
    while (!stack.isEmpty()) {
      Object[] top = stack.pop();
      JsonNode node = (JsonNode) top[0];
      int level = (Integer) top[1];
      if (node.isContainerNode()) {
        max = Math.max(max, level);
        for (JsonNode child : node) {
          stack.push(new Object[] {child, level + 1});
        }
      }
    }
    return max;
  }

  private static boolean absent(JsonNode field) {
    return field == null || field.isNull();
  }

  /** An integer literal in [min, max], or null. */
  private static Long integer(JsonNode field, long min, long max) {
    if (field == null || !field.isIntegralNumber()) {
      return null;
    }
    BigInteger value = field.bigIntegerValue();
    if (value.compareTo(BigInteger.valueOf(min)) < 0
        || value.compareTo(BigInteger.valueOf(max)) > 0
        || value.compareTo(LONG_MAX) > 0) {
      return null;
    }
    return value.longValue();
  }

  private static String text(JsonNode field) {
    return field != null && field.isTextual() && !field.textValue().isBlank()
        ? field.textValue()
        : null;
  }

  static TopologyMetadata metadata(byte[] value) {
    JsonNode root = object(value);
    if (root == null) {
      return null;
    }
    Long format = integer(root.get("format"), 1, Integer.MAX_VALUE);
    Long shards = integer(root.get("shards"), 1, TopologyMetadata.MAX_SHARDS);
    String routing = text(root.get("routing"));
    if (format == null || shards == null || routing == null) {
      return null;
    }
    return new TopologyMetadata(format.intValue(), shards.intValue(), routing);
  }

  static Node node(String id, byte[] value) {
    if (!validNodeId(id)) {
      return null;
    }
    JsonNode root = object(value);
    if (root == null) {
      return null;
    }
    String host = text(root.get("host"));
    Long port = integer(root.get("port"), 1, 65535);
    if (host == null || port == null) {
      return null;
    }
    String zone = null;
    if (!absent(root.get("zone"))) {
      zone = text(root.get("zone"));
      if (zone == null) {
        return null;
      }
    }
    Map<String, String> tags = new TreeMap<>();
    JsonNode tagsField = root.get("tags");
    if (!absent(tagsField)) {
      if (!tagsField.isObject()) {
        return null;
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = tagsField.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> tag = it.next();
        if (!tag.getValue().isTextual()) {
          return null;
        }
        tags.put(tag.getKey(), tag.getValue().textValue());
      }
    }
    boolean tls = false;
    JsonNode tlsField = root.get("tls");
    if (!absent(tlsField)) {
      if (!tlsField.isBoolean()) {
        return null;
      }
      tls = tlsField.booleanValue();
    }
    return new Node(id, host, port.intValue(), zone, tags, tls);
  }

  static ShardAssignment assignment(int shard, byte[] value) {
    JsonNode root = object(value);
    if (root == null) {
      return null;
    }
    JsonNode leaderField = root.get("leader");
    if (leaderField == null || !leaderField.isTextual() || !validNodeId(leaderField.textValue())) {
      return null;
    }
    String leader = leaderField.textValue();
    List<String> replicas = new ArrayList<>();
    JsonNode replicasField = root.get("replicas");
    if (!absent(replicasField)) {
      if (!replicasField.isArray()) {
        return null;
      }
      Set<String> seen = new HashSet<>();
      for (JsonNode replica : replicasField) {
        if (!replica.isTextual()
            || !validNodeId(replica.textValue())
            || replica.textValue().equals(leader)
            || !seen.add(replica.textValue())) {
          return null;
        }
        replicas.add(replica.textValue());
      }
    }
    long epoch = 0;
    JsonNode epochField = root.get("epoch");
    if (!absent(epochField)) {
      Long parsed = integer(epochField, 0, Long.MAX_VALUE);
      if (parsed == null) {
        return null;
      }
      epoch = parsed;
    }
    ShardState state = ShardState.ACTIVE;
    JsonNode stateField = root.get("state");
    if (!absent(stateField)) {
      if (!stateField.isTextual()) {
        return null;
      }
      switch (stateField.textValue()) {
        case "active" -> state = ShardState.ACTIVE;
        case "migrating" -> state = ShardState.MIGRATING;
        case "frozen" -> state = ShardState.FROZEN;
        default -> {
          return null;
        }
      }
    }
    if (state == ShardState.ACTIVE) {
      // An active shard's migration is ignored, whatever it holds.
      return new ShardAssignment(shard, leader, replicas, epoch, state, null);
    }
    JsonNode migrationField = root.get("migration");
    if (absent(migrationField) || !migrationField.isObject()) {
      return null;
    }
    JsonNode id = migrationField.get("id");
    JsonNode to = migrationField.get("to");
    if (id == null
        || !id.isTextual()
        || !validNodeId(id.textValue())
        || to == null
        || !to.isTextual()
        || !validNodeId(to.textValue())
        || to.textValue().equals(leader)) {
      return null; // a migration id has the syntax of a node id
    }
    return new ShardAssignment(
        shard,
        leader,
        replicas,
        epoch,
        state,
        new ShardAssignment.Migration(id.textValue(), to.textValue()));
  }
}
