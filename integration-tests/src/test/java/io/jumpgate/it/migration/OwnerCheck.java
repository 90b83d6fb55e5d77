package io.jumpgate.it.migration;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.ShardState;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyAdminState;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** The end check of the migration tests: every key on exactly its owner, value and TTL intact. */
final class OwnerCheck {

  private OwnerCheck() {}

  /**
   * Asserts that the map in etcd is settled (every shard active, none migrating), that each key of
   * {@code servers} (node id to server) is on the leader of its shard and on no other server, and
   * that every key the load and {@code data} expect is there with its value and TTL.
   *
   * @param load the load that ran, stopped; null while it runs: then only where the keys are, and
   *     the values of {@code data}, are checked
   * @param data keys written before the load, with their values
   * @param dataTtl for each of those keys, whether it has a TTL
   */
  static void assertEveryKeyOnItsOwner(
      EtcdTopologyOptions etcd,
      Map<String, RedisProcess> servers,
      Xxh64JumpRouter router,
      MoverLoad load,
      Map<String, String> data,
      Map<String, Boolean> dataTtl)
      throws Exception {
    TopologyAdminState map;
    try (TopologyAdmin admin = TopologyAdmin.create(etcd)) {
      map = admin.read();
    }
    for (ShardAssignment assignment : map.assignments().values()) {
      assertThat(assignment.state()).isEqualTo(ShardState.ACTIVE);
      assertThat(assignment.migration()).isNull();
    }
    Map<String, String> expected = new TreeMap<>();
    Map<String, Boolean> ttl = new HashMap<>();
    if (load != null) {
      load.increments.forEach((key, count) -> expected.put(key, Long.toString(count.get())));
      expected.putAll(load.lastValues);
      ttl.putAll(load.withTtl);
    }
    expected.putAll(data);
    ttl.putAll(dataTtl);
    Map<String, String> foundOn = new HashMap<>();
    for (Map.Entry<String, RedisProcess> server : servers.entrySet()) {
      try (ServerData serverData = new ServerData(server.getValue())) {
        Set<String> keys = serverData.keys();
        for (String key : keys) {
          String earlier = foundOn.put(key, server.getKey());
          assertThat(earlier).as("key %s on two servers", key).isNull();
          String owner = map.assignments().get(router.shardOfUtf8(key)).leader();
          assertThat(server.getKey()).as("server holding key %s", key).isEqualTo(owner);
        }
        for (Map.Entry<String, String> entry : expected.entrySet()) {
          if (!keys.contains(entry.getKey())) {
            continue;
          }
          assertThat(serverData.sync().get(entry.getKey()))
              .as(entry.getKey())
              .isEqualTo(entry.getValue());
          long pttl = serverData.pttl(entry.getKey());
          if (ttl.getOrDefault(entry.getKey(), false)) {
            assertThat(pttl).as("TTL of %s", entry.getKey()).isPositive();
          } else {
            assertThat(pttl).as("TTL of %s", entry.getKey()).isEqualTo(-1);
          }
        }
      }
    }
    assertThat(foundOn.keySet()).containsAll(expected.keySet());
    if (load != null) {
      assertThat(foundOn.keySet()).hasSize(expected.size());
    }
  }
}
