package io.jumpgate.topology;

import static io.jumpgate.topology.TopologyJson.describe;
import static io.jumpgate.topology.TopologyJson.quote;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardMigration;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyMetadata;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The streaming readers behind {@link TopologyCodec}'s decoders: each reads the fields of one
 * object the parser stands in, ignoring unknown fields, and throws {@link TopologyEntryException}
 * naming the field and value at fault. Stateless.
 */
final class TopologyValueReaders {

  private static final String NODE_ID_RULE = "a node id matching " + Node.ID_PATTERN.pattern();

  private TopologyValueReaders() {}

  static TopologyMetadata readMetadata(JsonParser parser) throws IOException {
    MetadataFields fields = new MetadataFields();
    TopologyJson.forEachField(
        parser,
        name -> {
          try {
            switch (name) {
              case "format":
                fields.format =
                    TopologyJson.integer(parser, "format", 1, Integer.MAX_VALUE, ">= 1");
                return true;
              case "shards":
                fields.shards =
                    TopologyJson.integer(
                        parser,
                        "shards",
                        1,
                        TopologyMetadata.MAX_SHARDS,
                        "between 1 and " + TopologyMetadata.MAX_SHARDS);
                return true;
              case "routing":
                fields.routing = TopologyJson.nonBlankString(parser, "routing");
                return true;
              default:
                return false;
            }
          } catch (TopologyEntryException e) {
            if (!name.equals("format") && fields.firstError == null) {
              fields.firstError = e; // decided after the format is known
              return false;
            }
            throw e;
          }
        });
    if (fields.format < 0) {
      throw new TopologyEntryException("\"format\" is required");
    }
    TopologyEntryException error = fields.firstError;
    if (error == null && fields.shards < 0) {
      error = new TopologyEntryException("\"shards\" is required");
    }
    if (error == null && fields.routing == null) {
      error = new TopologyEntryException("\"routing\" is required");
    }
    if (error != null) {
      if (fields.format > TopologyMetadata.CURRENT_FORMAT) {
        throw new TopologyEntryException(
            "format "
                + fields.format
                + " is newer than format "
                + TopologyMetadata.CURRENT_FORMAT
                + ", the newest this client reads ("
                + error.getMessage()
                + ")");
      }
      throw error;
    }
    return new TopologyMetadata((int) fields.format, (int) fields.shards, fields.routing);
  }

  static Node readNode(String nodeId, JsonParser parser) throws IOException {
    NodeFields fields = new NodeFields();
    TopologyJson.forEachField(
        parser,
        name -> {
          switch (name) {
            case "host":
              fields.host = TopologyJson.nonBlankString(parser, "host");
              return true;
            case "port":
              fields.port = TopologyJson.integer(parser, "port", 1, 65535, "between 1 and 65535");
              return true;
            case "zone":
              fields.zone = TopologyJson.optionalString(parser, "zone");
              return true;
            case "tags":
              fields.tags = readTags(parser);
              return true;
            case "tls":
              fields.tls = TopologyJson.bool(parser, "tls", false);
              return true;
            default:
              return false;
          }
        });
    if (fields.host == null) {
      throw new TopologyEntryException("\"host\" is required");
    }
    if (fields.port < 0) {
      throw new TopologyEntryException("\"port\" is required");
    }
    try {
      return new Node(nodeId, fields.host, (int) fields.port, fields.zone, fields.tags, fields.tls);
    } catch (IllegalArgumentException e) {
      throw new TopologyEntryException(e.getMessage(), e);
    }
  }

  private static Map<String, String> readTags(JsonParser parser) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return Map.of();
    }
    if (token != JsonToken.START_OBJECT) {
      throw new TopologyEntryException(
          "\"tags\" must be an object of strings, was " + describe(parser));
    }
    Map<String, String> tags = new TreeMap<>();
    TopologyJson.forEachField(
        parser,
        name -> {
          if (parser.currentToken() != JsonToken.VALUE_STRING) {
            throw new TopologyEntryException(
                "tag "
                    + quote(TopologyJson.excerpt(name))
                    + " must be a string, was "
                    + describe(parser));
          }
          tags.put(name, parser.getText());
          return true;
        });
    return tags;
  }

  static ShardAssignment readAssignment(int shard, JsonParser parser) throws IOException {
    AssignmentFields fields = new AssignmentFields();
    TopologyJson.forEachField(
        parser,
        name -> {
          switch (name) {
            case "leader":
              fields.leader = readNodeId(parser, "\"leader\"");
              return true;
            case "replicas":
              readReplicas(parser, fields.replicas);
              return true;
            case "epoch":
              if (parser.currentToken() != JsonToken.VALUE_NULL) {
                fields.epoch = TopologyJson.integer(parser, "epoch", 0, Long.MAX_VALUE, ">= 0");
              }
              return true;
            case "state":
              fields.state = readState(parser);
              return true;
            case "migration":
              try {
                fields.migration = readMigration(parser);
              } catch (TopologyEntryException e) {
                // Decided once the state is known: an active shard's migration is ignored.
                fields.migrationError = e;
              }
              return true;
            default:
              return false;
          }
        });
    if (fields.leader == null) {
      throw new TopologyEntryException("\"leader\" is required");
    }
    ShardAssignment.Migration migration = null;
    if (fields.state != ShardState.ACTIVE) {
      if (fields.migrationError != null) {
        throw fields.migrationError;
      }
      migration = fields.migration;
    }
    try {
      return new ShardAssignment(
          shard, fields.leader, fields.replicas, fields.epoch, fields.state, migration);
    } catch (IllegalArgumentException e) {
      throw new TopologyEntryException(e.getMessage(), e);
    }
  }

  /**
   * {@code {"id":"<migration-id>","to":"<node-id>"}}, or null for JSON null. Reads the whole value
   * before it throws, so that the caller may go on with the next field.
   */
  private static ShardAssignment.Migration readMigration(JsonParser parser) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return null;
    }
    if (token != JsonToken.START_OBJECT) {
      String found = describe(parser);
      parser.skipChildren();
      throw new TopologyEntryException(
          "\"migration\" must be an object {\"id\":..,\"to\":..}, was " + found);
    }
    String[] idAndTarget = new String[2];
    TopologyEntryException[] firstError = new TopologyEntryException[1];
    TopologyJson.forEachField(
        parser,
        name -> {
          int index = name.equals("id") ? 0 : name.equals("to") ? 1 : -1;
          if (index < 0) {
            return false;
          }
          boolean valid =
              parser.currentToken() == JsonToken.VALUE_STRING
                  && (index == 0 ? ShardMigration.ID_PATTERN : Node.ID_PATTERN)
                      .matcher(parser.getText())
                      .matches();
          if (valid) {
            idAndTarget[index] = parser.getText();
            return true;
          }
          if (firstError[0] == null) {
            firstError[0] =
                new TopologyEntryException(
                    "\"migration\".\""
                        + name
                        + "\" must be "
                        + (index == 0
                            ? "a migration id matching " + ShardMigration.ID_PATTERN.pattern()
                            : NODE_ID_RULE)
                        + ", was "
                        + describe(parser));
          }
          return false;
        });
    if (firstError[0] != null) {
      throw firstError[0];
    }
    if (idAndTarget[0] == null) {
      throw new TopologyEntryException("\"migration\".\"id\" is required");
    }
    if (idAndTarget[1] == null) {
      throw new TopologyEntryException("\"migration\".\"to\" is required");
    }
    return new ShardAssignment.Migration(idAndTarget[0], idAndTarget[1]);
  }

  private static void readReplicas(JsonParser parser, List<String> replicas) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return;
    }
    if (token != JsonToken.START_ARRAY) {
      throw new TopologyEntryException(
          "\"replicas\" must be an array of node ids, was " + describe(parser));
    }
    int index = 0;
    while (parser.nextToken() != JsonToken.END_ARRAY) {
      replicas.add(readNodeId(parser, "\"replicas\"[" + index + "]"));
      index++;
    }
  }

  private static String readNodeId(JsonParser parser, String what) throws IOException {
    if (parser.currentToken() != JsonToken.VALUE_STRING
        || !Node.ID_PATTERN.matcher(parser.getText()).matches()) {
      throw new TopologyEntryException(
          what + " must be " + NODE_ID_RULE + ", was " + describe(parser));
    }
    return parser.getText();
  }

  private static ShardState readState(JsonParser parser) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return ShardState.ACTIVE;
    }
    if (token == JsonToken.VALUE_STRING) {
      for (ShardState state : ShardState.values()) {
        if (state.wireName().equals(parser.getText())) {
          return state;
        }
      }
    }
    throw new TopologyEntryException(
        "\"state\" must be \"active\", \"migrating\" or \"frozen\", was " + describe(parser));
  }

  private static final class MetadataFields {
    long format = -1;
    long shards = -1;
    String routing;
    TopologyEntryException firstError;
  }

  private static final class NodeFields {
    String host;
    long port = -1;
    String zone;
    Map<String, String> tags = Map.of();
    boolean tls;
  }

  private static final class AssignmentFields {
    String leader;
    final List<String> replicas = new ArrayList<>();
    long epoch;
    ShardState state = ShardState.ACTIVE;
    ShardAssignment.Migration migration;
    TopologyEntryException migrationError;
  }
}
