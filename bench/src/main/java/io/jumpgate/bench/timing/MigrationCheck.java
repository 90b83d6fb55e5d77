package io.jumpgate.bench.timing;

import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.ShardState;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyAdminState;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The end check of {@link MigrationRun}, reading every server directly (not through the driver):
 *
 * <ul>
 *   <li>the map is settled: every shard {@code active}, none under a migration;
 *   <li>every key on every server (SCAN) is on the node that leads its shard in the final map;
 *   <li>every expected key is on its owner with its value (MGET) and its TTL (PTTL: positive for a
 *       key written with one, -1 for the others);
 *   <li>the servers hold no other key: the sum of their DBSIZE is the number of expected keys (plus
 *       at most the keys whose last write had an unknown outcome).
 * </ul>
 *
 * Not thread-safe; one check per instance.
 */
final class MigrationCheck {

  private static final int BATCH = 500;
  private static final int EXAMPLES = 5;
  private static final String PTTL_OF_EACH =
      "local answers = {} for index, key in ipairs(KEYS) do"
          + " answers[index] = redis.call('PTTL', key) end return answers";

  /** A key the servers must hold: its value, and whether it has a TTL. */
  record Expected(String key, String value, boolean withTtl) {}

  private final TopologyAdminState map;
  private final Xxh64JumpRouter router;
  private final Map<String, StatefulRedisConnection<String, String>> servers;
  private long keysScanned;
  private long misplaced;
  private long missing;
  private long wrongValues;
  private long wrongTtls;
  private long keysChecked;
  private final List<String> examples = new ArrayList<>();

  /**
   * @param servers an open connection to every server, by node id
   */
  MigrationCheck(
      TopologyAdminState map,
      Xxh64JumpRouter router,
      Map<String, StatefulRedisConnection<String, String>> servers) {
    this.map = map;
    this.router = router;
    this.servers = servers;
  }

  /** Opens a connection to each server of {@code ports} (node id to port) on 127.0.0.1. */
  static Map<String, StatefulRedisConnection<String, String>> connect(
      RedisClient client, Map<String, Integer> ports) {
    Map<String, StatefulRedisConnection<String, String>> connections = new LinkedHashMap<>();
    ports.forEach((node, port) -> connections.put(node, client.connect(MigrationRun.uri(port))));
    return connections;
  }

  /**
   * Runs every check; {@code expected} are the keys that must be there with their values, {@code
   * uncertain} those that may or may not be.
   */
  Map<String, Object> run(List<Expected> expected, Set<String> uncertain) {
    long shardsNotSettled = 0;
    for (ShardAssignment assignment : map.assignments().values()) {
      if (assignment.state() != ShardState.ACTIVE || assignment.migration() != null) {
        shardsNotSettled++;
        example("shard " + assignment + " not settled");
      }
    }
    long databaseSize = 0;
    for (Map.Entry<String, StatefulRedisConnection<String, String>> server : servers.entrySet()) {
      RedisCommands<String, String> sync = server.getValue().sync();
      databaseSize += sync.dbsize();
      scan(server.getKey(), sync);
    }
    Map<String, List<Expected>> byOwner = new HashMap<>();
    for (Expected key : expected) {
      byOwner.computeIfAbsent(ownerOf(key.key()), owner -> new ArrayList<>()).add(key);
    }
    for (Map.Entry<String, List<Expected>> owner : byOwner.entrySet()) {
      RedisCommands<String, String> sync = servers.get(owner.getKey()).sync();
      List<Expected> keys = owner.getValue();
      for (int first = 0; first < keys.size(); first += BATCH) {
        verify(sync, keys.subList(first, Math.min(first + BATCH, keys.size())));
      }
    }
    boolean sizeMatches =
        databaseSize >= expected.size() && databaseSize <= expected.size() + uncertain.size();
    if (!sizeMatches) {
      example(
          "the servers hold "
              + databaseSize
              + " keys in all, "
              + expected.size()
              + " expected (+ "
              + uncertain.size()
              + " uncertain)");
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put(
        "passed",
        shardsNotSettled == 0
            && misplaced == 0
            && missing == 0
            && wrongValues == 0
            && wrongTtls == 0
            && sizeMatches);
    json.put("keysChecked", keysChecked);
    json.put("keysScanned", keysScanned);
    json.put("keysOnServers", databaseSize);
    json.put("keysExpected", (long) expected.size());
    json.put("keysUncertain", (long) uncertain.size());
    json.put("shardsNotSettled", shardsNotSettled);
    json.put("misplaced", misplaced);
    json.put("missing", missing);
    json.put("wrongValues", wrongValues);
    json.put("wrongTtls", wrongTtls);
    json.put("examples", List.copyOf(examples));
    return json;
  }

  private String ownerOf(String key) {
    return map.assignments().get(router.shardOfUtf8(key)).leader();
  }

  private void scan(String node, RedisCommands<String, String> sync) {
    ScanArgs pageSize = ScanArgs.Builder.limit(1000);
    KeyScanCursor<String> page = sync.scan(pageSize);
    while (true) {
      for (String key : page.getKeys()) {
        keysScanned++;
        String owner = ownerOf(key);
        if (!owner.equals(node)) {
          misplaced++;
          example("key " + key + " on " + node + ", its shard is led by " + owner);
        }
      }
      if (page.isFinished()) {
        return;
      }
      page = sync.scan(ScanCursor.of(page.getCursor()), pageSize);
    }
  }

  private void verify(RedisCommands<String, String> sync, List<Expected> batch) {
    String[] names = new String[batch.size()];
    for (int index = 0; index < names.length; index++) {
      names[index] = batch.get(index).key();
    }
    List<KeyValue<String, String>> values = sync.mget(names);
    List<Long> ttls = sync.eval(PTTL_OF_EACH, ScriptOutputType.MULTI, names);
    for (int index = 0; index < names.length; index++) {
      Expected key = batch.get(index);
      keysChecked++;
      KeyValue<String, String> found = values.get(index);
      if (!found.hasValue()) {
        missing++;
        example("key " + key.key() + " missing on its owner " + ownerOf(key.key()));
        continue;
      }
      if (!key.value().equals(found.getValue())) {
        wrongValues++;
        example("key " + key.key() + " holds " + found.getValue() + ", expected " + key.value());
      }
      long ttl = ttls.get(index);
      if (key.withTtl() ? ttl <= 0 : ttl != -1) {
        wrongTtls++;
        example("key " + key.key() + " has PTTL " + ttl + (key.withTtl() ? ", expected > 0" : ""));
      }
    }
  }

  private void example(String text) {
    if (examples.size() < EXAMPLES) {
      examples.add(text);
    }
  }
}
