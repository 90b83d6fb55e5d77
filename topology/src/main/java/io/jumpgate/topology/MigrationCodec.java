package io.jumpgate.topology;

import static io.jumpgate.topology.TopologyJson.describe;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.jumpgate.spi.MigrationLock;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardMigration;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON values of the contract's Migration section: {@code <root>/migration-lock} ({@code
 * {"migration":"<migration-id>","owner":"host:pid","since":"..."}}) and {@code
 * <root>/migrations/<migration-id>} ({@link MigrationRecord}).
 *
 * <p>The JSON rules of {@link TopologyCodec} apply (UTF-8, one object, no duplicate field names,
 * unknown fields ignored, at most {@link TopologyCodec#MAX_ENTRY_BYTES}); every decoding failure is
 * a {@link TopologyEntryException} naming the field and the value.
 *
 * <p>Stateless and thread-safe.
 */
public final class MigrationCodec {

  private MigrationCodec() {}

  /** {@code {"migration":"m1","owner":"host:4242","since":"2026-11-24T10:00:00Z"}}. */
  public static byte[] encodeLock(MigrationLock lock) {
    return TopologyJson.write(
        generator -> {
          generator.writeStartObject();
          generator.writeStringField("migration", lock.migrationId());
          generator.writeStringField("owner", lock.owner());
          generator.writeStringField("since", lock.since());
          generator.writeEndObject();
        });
  }

  /**
   * Decodes the lock's value: {@code migration} (a migration id), {@code owner} and {@code since}
   * (strings, not blank) are required.
   *
   * @param createRevision the etcd create revision of the key, at least 0
   * @throws TopologyEntryException naming the field and value at fault
   */
  public static MigrationLock decodeLock(byte[] value, long createRevision) {
    return TopologyJson.readObject(
        value,
        TopologyCodec.MAX_ENTRY_BYTES,
        parser -> {
          String[] fields = new String[3];
          TopologyJson.forEachField(
              parser,
              name -> {
                switch (name) {
                  case "migration":
                    if (parser.currentToken() != JsonToken.VALUE_STRING
                        || !ShardMigration.ID_PATTERN.matcher(parser.getText()).matches()) {
                      throw new TopologyEntryException(
                          "\"migration\" must be a migration id matching "
                              + ShardMigration.ID_PATTERN.pattern()
                              + ", was "
                              + describe(parser));
                    }
                    fields[0] = parser.getText();
                    return true;
                  case "owner":
                    fields[1] = TopologyJson.nonBlankString(parser, "owner");
                    return true;
                  case "since":
                    fields[2] = TopologyJson.nonBlankString(parser, "since");
                    return true;
                  default:
                    return false;
                }
              });
          requirePresent(fields[0], "migration");
          requirePresent(fields[1], "owner");
          requirePresent(fields[2], "since");
          return new MigrationLock(fields[0], fields[1], fields[2], createRevision);
        });
  }

  /**
   * {@code {"shards":{"17":{"from":"node-a","to":"node-d","phase":"copying"}},"created":"...",
   * "mode":"online"}}, shards in ascending order, their ids without padding; then, only if the
   * record has any, {@code "notifyKeyspaceEvents":{"node-a":""}}, node ids in ascending order.
   */
  public static byte[] encodeRecord(MigrationRecord record) {
    return TopologyJson.write(
        generator -> {
          generator.writeStartObject();
          generator.writeObjectFieldStart("shards");
          for (Map.Entry<Integer, MigrationRecord.ShardMove> shard : record.shards().entrySet()) {
            generator.writeObjectFieldStart(Integer.toString(shard.getKey()));
            generator.writeStringField("from", shard.getValue().from());
            generator.writeStringField("to", shard.getValue().to());
            generator.writeStringField("phase", shard.getValue().phase());
            generator.writeEndObject();
          }
          generator.writeEndObject();
          generator.writeStringField("created", record.created());
          generator.writeStringField("mode", record.mode());
          if (!record.notifyKeyspaceEvents().isEmpty()) {
            generator.writeObjectFieldStart("notifyKeyspaceEvents");
            for (Map.Entry<String, String> source : record.notifyKeyspaceEvents().entrySet()) {
              generator.writeStringField(source.getKey(), source.getValue());
            }
            generator.writeEndObject();
          }
          generator.writeEndObject();
        });
  }

  /**
   * Decodes a record: {@code shards} (an object of shard id to {@code from}, {@code to}, {@code
   * phase}), {@code created} and {@code mode} are required; a shard id is a decimal number, any
   * number of leading zeros. {@code notifyKeyspaceEvents} (an object of node id to string, which
   * may be empty) is optional: absent, the record has none.
   *
   * @throws TopologyEntryException naming the field and value at fault
   */
  public static MigrationRecord decodeRecord(byte[] value) {
    return TopologyJson.readObject(
        value, TopologyCodec.MAX_ENTRY_BYTES, MigrationCodec::readRecord);
  }

  private static MigrationRecord readRecord(JsonParser parser) throws IOException {
    Map<Integer, MigrationRecord.ShardMove> shards = new TreeMap<>();
    Map<String, String> settings = new TreeMap<>();
    String[] fields = new String[2];
    boolean[] hasShards = new boolean[1];
    TopologyJson.forEachField(
        parser,
        name -> {
          switch (name) {
            case "shards":
              if (parser.currentToken() != JsonToken.START_OBJECT) {
                throw new TopologyEntryException(
                    "\"shards\" must be an object of shard id to move, was " + describe(parser));
              }
              hasShards[0] = true;
              TopologyJson.forEachField(
                  parser,
                  id -> {
                    int shard = shardId(id);
                    if (shards.put(shard, readMove(parser, shard)) != null) {
                      throw new TopologyEntryException("shard " + shard + " is listed twice");
                    }
                    return true;
                  });
              return true;
            case "created":
              fields[0] = TopologyJson.nonBlankString(parser, "created");
              return true;
            case "mode":
              fields[1] = TopologyJson.nonBlankString(parser, "mode");
              return true;
            case "notifyKeyspaceEvents":
              readSettings(parser, settings);
              return true;
            default:
              return false;
          }
        });
    if (!hasShards[0]) {
      throw new TopologyEntryException("\"shards\" is required");
    }
    requirePresent(fields[0], "created");
    requirePresent(fields[1], "mode");
    return new MigrationRecord(shards, fields[0], fields[1], settings);
  }

  private static void readSettings(JsonParser parser, Map<String, String> settings)
      throws IOException {
    if (parser.currentToken() != JsonToken.START_OBJECT) {
      throw new TopologyEntryException(
          "\"notifyKeyspaceEvents\" must be an object of node id to setting, was "
              + describe(parser));
    }
    TopologyJson.forEachField(
        parser,
        nodeId -> {
          String field = "notifyKeyspaceEvents." + nodeId;
          if (!Node.ID_PATTERN.matcher(nodeId).matches()) {
            throw new TopologyEntryException(
                "\"notifyKeyspaceEvents\" must be keyed by node ids matching "
                    + Node.ID_PATTERN.pattern()
                    + ", was "
                    + TopologyJson.quote(TopologyJson.excerpt(nodeId)));
          }
          if (parser.currentToken() != JsonToken.VALUE_STRING) {
            throw new TopologyEntryException(
                "\"" + field + "\" must be a string, was " + describe(parser));
          }
          settings.put(nodeId, parser.getText());
          return true;
        });
  }

  private static MigrationRecord.ShardMove readMove(JsonParser parser, int shard)
      throws IOException {
    if (parser.currentToken() != JsonToken.START_OBJECT) {
      throw new TopologyEntryException(
          "shard "
              + shard
              + " must be an object {\"from\":..,\"to\":..,\"phase\":..}, was "
              + describe(parser));
    }
    String[] fields = new String[3];
    TopologyJson.forEachField(
        parser,
        name -> {
          int index =
              name.equals("from") ? 0 : name.equals("to") ? 1 : name.equals("phase") ? 2 : -1;
          if (index < 0) {
            return false;
          }
          fields[index] = TopologyJson.nonBlankString(parser, "shards." + shard + "." + name);
          return true;
        });
    requirePresent(fields[0], "shards." + shard + ".from");
    requirePresent(fields[1], "shards." + shard + ".to");
    requirePresent(fields[2], "shards." + shard + ".phase");
    try {
      return new MigrationRecord.ShardMove(fields[0], fields[1], fields[2]);
    } catch (IllegalArgumentException e) {
      throw new TopologyEntryException("shard " + shard + ": " + e.getMessage(), e);
    }
  }

  private static int shardId(String id) {
    if (id.isEmpty() || !id.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new TopologyEntryException(
          "shard id must be a decimal number, was " + TopologyJson.quote(TopologyJson.excerpt(id)));
    }
    String digits = id.replaceFirst("^0+(?=.)", "");
    if (digits.length() > 10 || Long.parseLong(digits) > Integer.MAX_VALUE) {
      throw new TopologyEntryException("shard id " + TopologyJson.excerpt(id) + " is out of range");
    }
    return Integer.parseInt(digits);
  }

  private static void requirePresent(String value, String field) {
    if (value == null) {
      throw new TopologyEntryException("\"" + field + "\" is required");
    }
  }
}
