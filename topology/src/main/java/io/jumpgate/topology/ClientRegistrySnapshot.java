package io.jumpgate.topology;

import io.etcd.jetcd.KeyValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The registry ({@code <root>/clients/}) at one etcd revision: every registration that exists, by
 * client id. What a mover checks before a cutover: {@link #notDrained(long)} must be empty.
 *
 * <p>Immutable and thread-safe.
 *
 * @param revision the etcd revision the registry is read at
 * @param clients every registration by client id; copied into an unmodifiable sorted map
 */
public record ClientRegistrySnapshot(long revision, SortedMap<String, RegisteredClient> clients) {

  public ClientRegistrySnapshot {
    clients = Collections.unmodifiableSortedMap(new TreeMap<>(clients));
  }

  /**
   * The registrations that have not acknowledged revision {@code frozenAt} ({@code drained} below
   * it, absent, or a value that does not decode), in client id order: the cutover of a shard frozen
   * at {@code frozenAt} waits while this is not empty.
   */
  public List<RegisteredClient> notDrained(long frozenAt) {
    List<RegisteredClient> waiting = new ArrayList<>();
    for (RegisteredClient client : clients.values()) {
      if (!client.hasDrained(frozenAt)) {
        waiting.add(client);
      }
    }
    return waiting;
  }

  /** Whether every registration has acknowledged {@code frozenAt}. */
  public boolean allDrained(long frozenAt) {
    return notDrained(frozenAt).isEmpty();
  }

  static ClientRegistrySnapshot of(TopologyKeys keys, long revision, List<KeyValue> values) {
    Map<String, RegisteredClient> clients = new TreeMap<>();
    for (KeyValue value : values) {
      RegisteredClient client = decode(keys, value);
      if (client != null) {
        clients.put(client.clientId(), client);
      }
    }
    return new ClientRegistrySnapshot(revision, new TreeMap<>(clients));
  }

  /** The registration a key holds, or null when the key is not {@code clients/<id>}. */
  static RegisteredClient decode(TopologyKeys keys, KeyValue value) {
    String key = value.getKey().toString(StandardCharsets.UTF_8);
    if (!key.startsWith(keys.clientsPrefix()) || key.length() == keys.clientsPrefix().length()) {
      return null;
    }
    return RegisteredClient.decode(
        key.substring(keys.clientsPrefix().length()),
        value.getValue().getBytes(),
        value.getLease(),
        value.getModRevision());
  }
}
