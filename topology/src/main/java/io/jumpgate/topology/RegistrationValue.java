package io.jumpgate.topology;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.OptionalLong;

/**
 * The value of a client registration, {@code <root>/clients/<client-id>}, and its one codec: the
 * driver {@link #encode() writes} it, the CLI ({@code jumpgate clients}) and the mover ({@link
 * RegisteredClient#decode}) {@link #decode(byte[]) read} it.
 *
 * <pre>{@code
 * {"host":"app-3","pid":4242,"revision":1234,"drained":1230,"since":"2026-11-21T10:00:00Z",
 *  "version":"0.1.0","cluster":"prod"}
 * }</pre>
 *
 * <p>{@code revision} is required (every registration says which map its client applied); the other
 * fields are optional: absent or JSON null. Readers ignore fields they do not know. Fields are
 * written in the order above, optional ones only when set.
 *
 * <p>Immutable and thread-safe.
 *
 * @param host the host the client runs on, or null
 * @param pid its process id, or -1 when not known
 * @param revision the map revision it has applied, at least 0
 * @param drained the highest map revision for which nothing it sent under an older map to a shard
 *     frozen there is still in flight; empty when the client does not take part in migrations (yet)
 * @param since when it registered, ISO-8601 as written, or null
 * @param version the driver version, or null
 * @param cluster the cluster name, or null
 */
public record RegistrationValue(
    String host,
    long pid,
    long revision,
    OptionalLong drained,
    String since,
    String version,
    String cluster) {

  /** The largest value accepted: the same bound as any topology entry. */
  public static final int MAX_BYTES = TopologyCodec.MAX_ENTRY_BYTES;

  /**
   * @throws IllegalArgumentException if {@code pid} is below -1, {@code revision} below 0 or {@code
   *     drained} below 0
   */
  public RegistrationValue {
    if (drained == null) {
      drained = OptionalLong.empty();
    }
    if (pid < -1) {
      throw new IllegalArgumentException("pid must be >= 0 (or -1: not known), was " + pid);
    }
    if (revision < 0) {
      throw new IllegalArgumentException("revision must be >= 0, was " + revision);
    }
    if (drained.isPresent() && drained.getAsLong() < 0) {
      throw new IllegalArgumentException("drained must be >= 0, was " + drained.getAsLong());
    }
  }

  /** The compact UTF-8 JSON of this value, as the driver puts it under the client's key. */
  public byte[] encode() {
    return TopologyJson.write(this::write);
  }

  private void write(JsonGenerator json) throws IOException {
    json.writeStartObject();
    if (host != null) {
      json.writeStringField("host", host);
    }
    if (pid >= 0) {
      json.writeNumberField("pid", pid);
    }
    json.writeNumberField("revision", revision);
    if (drained.isPresent()) {
      json.writeNumberField("drained", drained.getAsLong());
    }
    if (since != null) {
      json.writeStringField("since", since);
    }
    if (version != null) {
      json.writeStringField("version", version);
    }
    if (cluster != null) {
      json.writeStringField("cluster", cluster);
    }
    json.writeEndObject();
  }

  /**
   * Decodes a registration value.
   *
   * @throws TopologyEntryException naming what is wrong: not JSON or not an object, a field of the
   *     wrong type ({@code "pid" must be an integer >= 0, was "x"}), a number out of range ({@code
   *     drained must be >= 0, was -1}), a blank string, {@code "revision" is required}, more than
   *     {@link #MAX_BYTES}
   */
  public static RegistrationValue decode(byte[] value) {
    return TopologyJson.readObject(
        value,
        MAX_BYTES,
        parser -> {
          String[] text = new String[4]; // host, since, version, cluster
          long[] numbers = {-1, -1, -1}; // pid, revision, drained
          TopologyJson.forEachField(
              parser,
              name -> {
                int index = textIndex(name);
                if (index >= 0) {
                  text[index] = TopologyJson.optionalString(parser, name);
                  return true;
                }
                index = numberIndex(name);
                if (index >= 0) {
                  if (parser.currentToken() != JsonToken.VALUE_NULL) {
                    numbers[index] = TopologyJson.integer(parser, name, 0, Long.MAX_VALUE, ">= 0");
                  }
                  return true;
                }
                return false;
              });
          if (numbers[1] < 0) {
            throw new TopologyEntryException("\"revision\" is required");
          }
          return new RegistrationValue(
              text[0],
              numbers[0],
              numbers[1],
              numbers[2] < 0 ? OptionalLong.empty() : OptionalLong.of(numbers[2]),
              text[1],
              text[2],
              text[3]);
        });
  }

  private static int textIndex(String field) {
    return switch (field) {
      case "host" -> 0;
      case "since" -> 1;
      case "version" -> 2;
      case "cluster" -> 3;
      default -> -1;
    };
  }

  private static int numberIndex(String field) {
    return switch (field) {
      case "pid" -> 0;
      case "revision" -> 1;
      case "drained" -> 2;
      default -> -1;
    };
  }
}
