package io.jumpgate.topology;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One driver instance's registration, {@code <root>/clients/<client-id>}: the key's client id,
 * lease and mod revision, and its {@link RegistrationValue value} ({@code
 * {"host":"app-3","pid":4242,"revision":1234,"since":"...","drained":1230}}, decoded with the one
 * registry codec), bound to the client's etcd lease.
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
 * <p>Immutable and thread-safe. Decoded by {@link #decode}; the driver writes the value with {@link
 * RegistrationValue#encode()}.
 *
 * @param clientId the id from the key
 * @param value the decoded value, or null when it does not decode ({@link #invalidReason()} says
 *     why)
 * @param lease the etcd lease of the key (0: none)
 * @param modRevision the mod revision of the key
 * @param invalidReason why the value does not decode, or null
 */
public record RegisteredClient(
    String clientId, RegistrationValue value, long lease, long modRevision, String invalidReason) {

  /** What a driver's connection names start with: {@code jumpgate:}. */
  public static final String CONNECTION_NAME_PREFIX = "jumpgate:";

  /**
   * @throws IllegalArgumentException unless exactly one of {@code value} and {@code invalidReason}
   *     is set
   */
  public RegisteredClient {
    Objects.requireNonNull(clientId, "clientId");
    if ((value == null) == (invalidReason == null)) {
      throw new IllegalArgumentException(
          "a registration has either a value or an invalid reason, not "
              + (value == null ? "neither" : "both"));
    }
  }

  /** The host the client runs on, or null (also when the value is invalid). */
  public String host() {
    return value == null ? null : value.host();
  }

  /** Its process id, or -1 when not given or the value is invalid. */
  public long pid() {
    return value == null ? -1 : value.pid();
  }

  /** The map revision it has applied, or -1 when the value is invalid. */
  public long revision() {
    return value == null ? -1 : value.revision();
  }

  /** When it registered, as written, or null. */
  public String since() {
    return value == null ? null : value.since();
  }

  /** The driver version, or null. */
  public String version() {
    return value == null ? null : value.version();
  }

  /** Its acknowledgement, empty when it does not take part (or the value is invalid). */
  public OptionalLong drained() {
    return value == null ? OptionalLong.empty() : value.drained();
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
    OptionalLong drained = drained();
    return drained.isPresent() && drained.getAsLong() >= frozenAt;
  }

  /**
   * Decodes a registration with {@link RegistrationValue#decode}. Never throws on the value: one
   * that does not decode gives a registration with {@link #invalidReason()} set (the codec's
   * message) and no {@code drained}.
   */
  public static RegisteredClient decode(
      String clientId, byte[] value, long lease, long modRevision) {
    try {
      return new RegisteredClient(
          clientId, RegistrationValue.decode(value), lease, modRevision, null);
    } catch (TopologyEntryException e) {
      return new RegisteredClient(clientId, null, lease, modRevision, e.getMessage());
    }
  }
}
