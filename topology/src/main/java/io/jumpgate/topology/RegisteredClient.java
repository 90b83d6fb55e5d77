package io.jumpgate.topology;

import com.fasterxml.jackson.core.JsonToken;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One driver instance's registration, {@code <root>/clients/<client-id>}: {@code
 * {"host":"app-3","pid":4242,"revision":1234,"since":"...","drained":1230}} (the driver writes
 * {@code version} and {@code cluster} too), bound to the client's etcd lease.
 *
 * <p>{@link #drained()} is the contract's acknowledgement: the highest map revision R the client
 * has applied and for which no request it sent under an older map to a shard frozen at R is still
 * in flight. A mover cuts over a shard frozen at revision F only when every registration that
 * exists has {@code drained >= F}. A registration without {@code drained} (an older driver) does
 * not take part in migrations: the mover waits for it to leave, or gives up. So does one whose
 * value does not decode ({@link #invalidReason()}): it never acknowledges.
 *
 * <p>A driver names its connections {@link #connectionName(String) jumpgate:<client-id>}, so that a
 * mover can match {@code CLIENT LIST} entries to registrations.
 *
 * <p>Immutable and thread-safe. Decoded by {@link #decode}; the driver writes the value (this
 * module only reads it).
 *
 * @param clientId the id from the key
 * @param host the host the client runs on, or null
 * @param pid its process id, or -1 when not given
 * @param revision the map revision it has applied, or -1 when not given
 * @param since when it registered, as written, or null
 * @param drained its acknowledgement, empty when it does not take part (or the value is invalid)
 * @param lease the etcd lease of the key (0: none)
 * @param modRevision the mod revision of the key
 * @param invalidReason why the value does not decode, or null
 */
public record RegisteredClient(
    String clientId,
    String host,
    long pid,
    long revision,
    String since,
    OptionalLong drained,
    long lease,
    long modRevision,
    String invalidReason) {

  /** What a driver's connection names start with: {@code jumpgate:}. */
  public static final String CONNECTION_NAME_PREFIX = "jumpgate:";

  public RegisteredClient {
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(drained, "drained");
  }

  /** {@code jumpgate:<client-id>}: the name a driver gives every connection it opens to a node. */
  public static String connectionName(String clientId) {
    return CONNECTION_NAME_PREFIX + clientId;
  }

  /** The client id a connection name stands for, when it is a Jumpgate connection name. */
  public static Optional<String> clientIdOfConnectionName(String connectionName) {
    if (connectionName == null || !connectionName.startsWith(CONNECTION_NAME_PREFIX)) {
      return Optional.empty();
    }
    String id = connectionName.substring(CONNECTION_NAME_PREFIX.length());
    return TopologyKeys.CLIENT_ID_PATTERN.matcher(id).matches()
        ? Optional.of(id)
        : Optional.empty();
  }

  /** Whether the client has acknowledged revision {@code frozenAt}: {@code drained >= frozenAt}. */
  public boolean hasDrained(long frozenAt) {
    return drained.isPresent() && drained.getAsLong() >= frozenAt;
  }

  /**
   * Decodes a registration. Never throws on the value: one that does not decode gives a
   * registration with {@link #invalidReason()} set and no {@code drained}. Unknown fields are
   * ignored; {@code pid}, {@code revision} and {@code drained} are integers >= 0 when present.
   */
  public static RegisteredClient decode(
      String clientId, byte[] value, long lease, long modRevision) {
    try {
      return TopologyJson.readObject(
          value,
          TopologyCodec.MAX_ENTRY_BYTES,
          parser -> {
            String[] text = new String[2];
            long[] numbers = {-1, -1, -1};
            TopologyJson.forEachField(
                parser,
                name -> {
                  switch (name) {
                    case "host":
                      text[0] = TopologyJson.optionalString(parser, "host");
                      return true;
                    case "since":
                      text[1] = TopologyJson.optionalString(parser, "since");
                      return true;
                    case "pid":
                    case "revision":
                    case "drained":
                      if (parser.currentToken() != JsonToken.VALUE_NULL) {
                        int index = name.equals("pid") ? 0 : name.equals("revision") ? 1 : 2;
                        numbers[index] =
                            TopologyJson.integer(parser, name, 0, Long.MAX_VALUE, ">= 0");
                      }
                      return true;
                    default:
                      return false;
                  }
                });
            return new RegisteredClient(
                clientId,
                text[0],
                numbers[0],
                numbers[1],
                text[1],
                numbers[2] < 0 ? OptionalLong.empty() : OptionalLong.of(numbers[2]),
                lease,
                modRevision,
                null);
          });
    } catch (TopologyEntryException e) {
      return new RegisteredClient(
          clientId, null, -1, -1, null, OptionalLong.empty(), lease, modRevision, e.getMessage());
    }
  }
}
