package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.BroadcastFailedException;
import io.jumpgate.driver.CommandFailedException;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateConnection;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.lettuce.core.FlushMode;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The broadcast commands and the cluster-wide SCAN against real etcd and redis-server nodes: three
 * leaders, each with one replica.
 */
class DriverBroadcastIT {

  private static final int KEYS = 1000;
  private static final Duration REPLICATION = Duration.ofSeconds(20);

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  private JumpgateClient client(LocalCluster cluster) {
    return fixture.register(JumpgateClient.create(cluster.clientOptions().build()));
  }

  /**
   * Waits until every node answers PING: the first commands of a client open its connections, which
   * in a cold JVM may take longer than a command's deadline.
   */
  private static void awaitEveryNode(JumpgateCommands<String, String> redis, int nodes) {
    Poll.until(
        Duration.ofSeconds(20), "every node to answer PING", () -> redis.ping().size() == nodes);
  }

  private static Set<String> writeKeys(JumpgateCommands<String, String> redis) {
    Map<String, String> values = new LinkedHashMap<>();
    for (int index = 0; index < KEYS; index++) {
      values.put("k:" + index, "v" + index);
    }
    assertThat(redis.mset(values)).isEqualTo("OK");
    return values.keySet();
  }

  private static long dbsizeOf(RedisProcess node) throws Exception {
    return (Long) node.call("DBSIZE");
  }

  /** Waits until every replica holds as many keys as its leader. */
  private static void awaitReplication(LocalCluster cluster, int leaders) {
    for (int leader = 0; leader < leaders; leader++) {
      RedisProcess owner = cluster.leader(leader);
      for (RedisProcess replica : cluster.replicasOf(leader)) {
        Poll.until(
            REPLICATION,
            "replica " + replica.address() + " to catch up with " + owner.address(),
            () -> dbsizeOf(replica) == dbsizeOf(owner));
      }
    }
  }

  /** Runs a scan to its end, one page per call, and returns every key in the order returned. */
  private static List<String> scanAll(
      Function<ScanCursor, KeyScanCursor<String>> page, List<String> cursors) {
    List<String> keys = new ArrayList<>();
    ScanCursor cursor = ScanCursor.INITIAL;
    for (int pages = 0; pages < 10_000; pages++) {
      KeyScanCursor<String> answer = page.apply(cursor);
      keys.addAll(answer.getKeys());
      cursors.add(answer.getCursor());
      if (answer.isFinished()) {
        return keys;
      }
      cursor = answer;
    }
    throw new AssertionError("the scan did not finish in 10 000 pages: " + cursors);
  }

  @Test
  void should_count_list_and_scan_every_key_exactly_once() throws Exception {
    // Given 1000 keys over 3 leaders, each copied to its replica
    LocalCluster cluster = LocalCluster.start(fixture, "it", 1024, 3, 1);
    JumpgateConnection<String, String> connection = client(cluster).connect();
    JumpgateCommands<String, String> redis = connection.sync();
    Set<String> written = writeKeys(redis);
    awaitReplication(cluster, 3);
    long onLeaders = 0;
    for (RedisProcess leader : cluster.leaders()) {
      long size = dbsizeOf(leader);
      assertThat(size).as("keys on %s", leader.address()).isPositive();
      onLeaders += size;
    }
    assertThat(onLeaders).isEqualTo(KEYS);

    // Then DBSIZE counts the leaders only, in every view
    assertThat(redis.dbsize()).isEqualTo(KEYS);
    assertThat(connection.async().dbsize().toCompletableFuture().get()).isEqualTo(KEYS);
    assertThat(connection.reactive().dbsize().block()).isEqualTo(KEYS);

    // And KEYS * lists each key once
    List<String> listed = redis.keys("*");
    assertThat(listed).hasSize(KEYS);
    assertThat(new HashSet<>(listed)).isEqualTo(written);
    assertThat(connection.reactive().keys("k:1*").collectList().block())
        .containsExactlyInAnyOrderElementsOf(
            written.stream().filter(key -> key.startsWith("k:1")).toList());

    // And a SCAN with COUNT 50 returns each key exactly once, leader after leader
    ScanArgs count50 = ScanArgs.Builder.limit(50);
    List<String> cursors = new ArrayList<>();
    List<String> scanned = scanAll(cursor -> redis.scan(cursor, count50), cursors);
    assertThat(scanned).hasSize(KEYS).doesNotHaveDuplicates();
    assertThat(new HashSet<>(scanned)).isEqualTo(written);
    assertThat(cursors.size()).isGreaterThan(KEYS / 50);
    assertThat(cursors.get(cursors.size() - 1)).isEqualTo("0");
    Set<String> nodesInOrder = new LinkedHashSet<>();
    for (String cursor : cursors.subList(0, cursors.size() - 1)) {
      assertThat(cursor).matches("(leader-[0-2]):\\d+");
      nodesInOrder.add(cursor.substring(0, cursor.indexOf(':')));
    }
    assertThat(nodesInOrder).containsExactly("leader-0", "leader-1", "leader-2");

    // And the other views scan the same keys
    List<String> reactive =
        scanAll(cursor -> connection.reactive().scan(cursor, count50).block(), new ArrayList<>());
    assertThat(reactive).hasSize(KEYS).doesNotHaveDuplicates();
    assertThat(new HashSet<>(reactive)).isEqualTo(written);
    List<String> async =
        scanAll(
            cursor -> connection.async().scan(cursor).toCompletableFuture().join(),
            new ArrayList<>());
    assertThat(new HashSet<>(async)).isEqualTo(written);
    assertThat(async).hasSize(KEYS);

    // And MATCH is applied by each leader
    List<String> matched =
        scanAll(cursor -> redis.scan(cursor, ScanArgs.Builder.matches("k:99*")), new ArrayList<>());
    assertThat(matched)
        .containsExactlyInAnyOrder(
            "k:99", "k:990", "k:991", "k:992", "k:993", "k:994", "k:995", "k:996", "k:997", "k:998",
            "k:999");
    // scan() and scan(ScanArgs) start a scan
    assertThat(redis.scan().getCursor()).startsWith("leader-");
    assertThat(redis.scan(ScanArgs.Builder.limit(5000)).getCursor()).isEqualTo("leader-1:0");
  }

  @Test
  void should_empty_every_leader_and_replica_on_flushdb() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", 1024, 3, 1);
    JumpgateConnection<String, String> connection = client(cluster).connect();
    JumpgateCommands<String, String> redis = connection.sync();
    writeKeys(redis);
    assertThat(redis.dbsize()).isEqualTo(KEYS);

    assertThat(redis.flushdb()).isEqualTo("OK");

    for (RedisProcess leader : cluster.leaders()) {
      assertThat(dbsizeOf(leader)).as("keys on %s", leader.address()).isZero();
    }
    awaitReplication(cluster, 3);
    for (int leader = 0; leader < 3; leader++) {
      for (RedisProcess replica : cluster.replicasOf(leader)) {
        assertThat(dbsizeOf(replica)).as("keys on %s", replica.address()).isZero();
      }
    }
    assertThat(redis.dbsize()).isZero();
    assertThat(redis.keys("*")).isEmpty();
    KeyScanCursor<String> empty = redis.scan(ScanArgs.Builder.limit(1000));
    assertThat(empty.getKeys()).isEmpty();

    // The other forms, in the other views
    writeKeys(redis);
    assertThat(connection.async().flushdb(FlushMode.ASYNC).toCompletableFuture().get())
        .isEqualTo("OK");
    assertThat(redis.dbsize()).isZero();
    writeKeys(redis);
    assertThat(connection.reactive().flushall().block()).isEqualTo("OK");
    assertThat(redis.dbsize()).isZero();
    writeKeys(redis);
    assertThat(redis.flushall(FlushMode.SYNC)).isEqualTo("OK");
    for (RedisProcess leader : cluster.leaders()) {
      assertThat(dbsizeOf(leader)).isZero();
    }
    assertThat(redis.flushdb(FlushMode.SYNC)).isEqualTo("OK");
  }

  @Test
  void should_ping_and_read_info_of_every_node() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", 1024, 3, 1);
    JumpgateConnection<String, String> connection = client(cluster).connect();
    JumpgateCommands<String, String> redis = connection.sync();
    List<String> everyNode =
        List.of("leader-0", "leader-1", "leader-2", "replica-0-0", "replica-1-0", "replica-2-0");
    awaitEveryNode(redis, everyNode.size());

    Map<String, String> pongs = redis.ping();
    assertThat(pongs).containsOnlyKeys(everyNode);
    assertThat(pongs.values()).containsOnly("PONG");
    assertThat(new ArrayList<>(pongs.keySet())).containsExactlyElementsOf(everyNode);
    assertThat(connection.reactive().ping().block()).isEqualTo(pongs);

    Map<String, String> replication = redis.info("replication");
    assertThat(replication).containsOnlyKeys(everyNode);
    for (String node : everyNode) {
      assertThat(replication.get(node))
          .as("INFO replication of %s", node)
          .contains(node.startsWith("leader") ? "role:master" : "role:slave")
          .doesNotContain("redis_version");
    }
    for (int leader = 0; leader < 3; leader++) {
      assertThat(replication.get("replica-" + leader + "-0"))
          .contains("master_port:" + cluster.leader(leader).port());
    }
    Map<String, String> everything = connection.async().info().toCompletableFuture().get();
    assertThat(everything).containsOnlyKeys(everyNode);
    for (RedisProcess leader : cluster.leaders()) {
      assertThat(everything.values())
          .anySatisfy(text -> assertThat(text).contains("tcp_port:" + leader.port()));
    }
    assertThat(everything.get("leader-0")).contains("redis_version");
  }

  @Test
  void should_name_the_node_that_did_not_answer_and_keep_the_other_answers() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", 1024, 3, 1);
    JumpgateCommands<String, String> redis = client(cluster).connect().sync();
    awaitEveryNode(redis, 6);

    cluster.replicasOf(1).get(0).stop();

    assertThatThrownBy(redis::ping)
        .isInstanceOfSatisfying(
            BroadcastFailedException.class,
            failure -> {
              assertThat(failure.command()).isEqualTo("PING");
              assertThat(failure.failures()).containsOnlyKeys("replica-1-0");
              // the driver's own exception for that node, unchanged
              assertThat(failure.failures().get("replica-1-0"))
                  .isInstanceOf(CommandFailedException.class);
              assertThat(failure.answers())
                  .containsOnlyKeys(
                      "leader-0", "leader-1", "leader-2", "replica-0-0", "replica-2-0");
              assertThat(failure.getMessage())
                  .startsWith("PING failed on 1 of 6 nodes: replica-1-0 (127.0.0.1:");
            });
    // leaders only: DBSIZE and SCAN do not need the replica
    assertThat(redis.dbsize()).isZero();
    cluster.leader(2).stop();
    assertThatThrownBy(redis::dbsize)
        .isInstanceOfSatisfying(
            BroadcastFailedException.class,
            failure -> {
              assertThat(failure.failures()).containsOnlyKeys("leader-2");
              assertThat(failure.answers()).containsOnlyKeys("leader-0", "leader-1");
              assertThat(failure.getMessage()).startsWith("DBSIZE failed on 1 of 3 leaders");
            });
  }

  @Test
  void should_go_on_with_the_next_leader_when_the_scanned_one_left_the_map() throws Exception {
    // Given 64 shards over 3 leaders without replicas, and keys on each
    LocalCluster cluster = LocalCluster.start(fixture, "it", 64, 3, 0);
    JumpgateClient client = client(cluster);
    JumpgateCommands<String, String> redis = client.connect().sync();
    Set<String> written = writeKeys(redis);
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(64);
    Set<String> onLeader0 = new HashSet<>();
    Set<String> onLeader2 = new HashSet<>();
    String onLeader1 = null;
    for (String key : written) {
      int leader = router.shardOfUtf8(key) % 3;
      if (leader == 0) {
        onLeader0.add(key);
      } else if (leader == 2) {
        onLeader2.add(key);
      } else {
        onLeader1 = key;
      }
    }
    String movedKey = onLeader1;

    // When a scan is halfway through leader-1
    ScanArgs count10 = ScanArgs.Builder.limit(10);
    List<String> scanned = new ArrayList<>();
    KeyScanCursor<String> page = redis.scan(count10);
    scanned.addAll(page.getKeys());
    while (!page.getCursor().startsWith("leader-1:") || page.getCursor().equals("leader-1:0")) {
      assertThat(page.isFinished()).isFalse();
      page = redis.scan(page, count10);
      scanned.addAll(page.getKeys());
    }
    // and the map gives every shard of leader-1 to leader-2
    Map<String, String> moves = new LinkedHashMap<>();
    for (int shard = 1; shard < 64; shard += 3) {
      moves.put(
          LocalCluster.shardKey(shard), LocalCluster.assignmentJson("leader-2", List.of(), 1));
    }
    cluster.putValues(moves);
    // the driver routes by the new map once a key of leader-1 is read from leader-2, which lacks it
    Poll.until(
        Duration.ofSeconds(10),
        "the driver to route " + movedKey + " to leader-2",
        () -> redis.get(movedKey) == null);

    // Then the scan goes on with leader-2 from its start, and ends
    Set<String> onLeader1Scanned = new HashSet<>(scanned);
    onLeader1Scanned.removeAll(onLeader0);
    List<String> afterChange = new ArrayList<>();
    do {
      page = redis.scan(page, count10);
      afterChange.addAll(page.getKeys());
      assertThat(page.getCursor()).matches("leader-2:\\d+|0");
    } while (!page.isFinished());
    assertThat(afterChange).containsExactlyInAnyOrderElementsOf(onLeader2);
    assertThat(scanned).containsAll(onLeader0).doesNotHaveDuplicates();
    assertThat(onLeader1Scanned).isNotEmpty().doesNotContainAnyElementsOf(onLeader2);
    assertThat(scanned.size() + afterChange.size()).isLessThan(KEYS);
  }

  @Test
  void should_reject_a_bad_or_finished_cursor_before_sending() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", 64, 3, 0);
    JumpgateCommands<String, String> redis = client(cluster).connect().sync();
    assertThatThrownBy(() -> redis.scan(ScanCursor.of("1234")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'1234'");
    assertThatThrownBy(() -> redis.scan(ScanCursor.FINISHED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("finished");
    assertThatThrownBy(() -> redis.scan((ScanCursor) null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("scanCursor");
    assertThatThrownBy(() -> redis.keys(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("pattern");
    // a cursor whose node sorts after every leader: nothing is left to scan
    KeyScanCursor<String> past = redis.scan(ScanCursor.of("zzz:42"));
    assertThat(past.isFinished()).isTrue();
    assertThat(past.getKeys()).isEmpty();
    assertThat(past.getCursor()).isEqualTo("0");
  }
}
