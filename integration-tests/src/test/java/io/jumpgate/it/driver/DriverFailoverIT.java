package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.CommandFailedException;
import io.jumpgate.driver.CommandTimeoutException;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.driver.NodeUnavailableException;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.JumpgateException;
import io.jumpgate.testkit.Resp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The driver while the map moves and nodes fail, against real etcd and redis-server processes:
 * moves, graceful and crash failover with exact INCR accounting, a frozen node, etcd down, AUTH.
 */
// Runs alone (the "alone" run in integration-tests/pom.xml): a leader switch within 100 ms
@Tag("timing-sensitive")
class DriverFailoverIT {

  private static final int SHARDS = 16;

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  private final ExecutorService load = Executors.newCachedThreadPool();

  private JumpgateClient client(LocalCluster cluster, JumpgateOptions.Builder extra) {
    JumpgateOptions options = extra.etcd(cluster.etcdOptions()).build();
    return fixture.register(JumpgateClient.create(options));
  }

  /** A key of the given shard: "{tag}:suffix" with a tag found by search. */
  private static String keyOfShard(int shard, String suffix) {
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(SHARDS);
    for (int candidate = 0; ; candidate++) {
      String tag = "t" + candidate;
      if (router.shardOfUtf8(tag) == shard) {
        return "{" + tag + "}:" + suffix;
      }
    }
  }

  private static List<Integer> shardsLedBy(int leader, int leaders) {
    List<Integer> shards = new ArrayList<>();
    for (int shard = 0; shard < SHARDS; shard++) {
      if (shard % leaders == leader) {
        shards.add(shard);
      }
    }
    return shards;
  }

  @Test
  void should_send_new_writes_to_the_new_leader_soon_after_a_move() throws Exception {
    // Given a writer appending sequence numbers to a string on shard 0 (led by leader-0)
    LocalCluster cluster = LocalCluster.start(fixture, "it", SHARDS, 3, 0);
    JumpgateCommands<String, String> redis =
        client(cluster, JumpgateOptions.builder()).connect().sync();
    String key = keyOfShard(0, "log");
    Map<Long, Long> sentAt = new ConcurrentHashMap<>();
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicLong sequence = new AtomicLong();
    Future<?> writer =
        load.submit(
            () -> {
              while (running.get()) {
                long next = sequence.incrementAndGet();
                sentAt.put(next, System.nanoTime());
                redis.append(key, next + ",");
              }
              return null;
            });
    Poll.until(Duration.ofSeconds(10), "the writer to get going", () -> sequence.get() > 200);
    // When shard 0 moves to leader-1 in etcd
    long movedAt = System.nanoTime();
    cluster.putValue(
        LocalCluster.shardKey(0),
        LocalCluster.assignmentJson(LocalCluster.leaderId(1), List.of(), 1));
    long putReturned = System.nanoTime();
    Poll.until(
        Duration.ofSeconds(10),
        "writes to reach leader-1",
        () -> sequenceNumbers(cluster.leader(1), key).size() > 100);
    running.set(false);
    writer.get(10, TimeUnit.SECONDS);
    // Then the first write that reached leader-1 was sent soon after the revision
    List<String> onNewLeader = sequenceNumbers(cluster.leader(1), key);
    long first = Long.parseLong(onNewLeader.get(0));
    double switchMillis = (sentAt.get(first) - putReturned) / 1e6;
    System.out.printf(
        "move: first write on the new leader was sent %.2f ms after the etcd put returned"
            + " (put took %.2f ms)%n",
        switchMillis, (putReturned - movedAt) / 1e6);
    assertThat(switchMillis).isLessThan(100);
    // And nothing was lost or doubled: every sequence number is on exactly one of the two leaders
    List<String> both = new ArrayList<>(sequenceNumbers(cluster.leader(0), key));
    both.addAll(sequenceNumbers(cluster.leader(1), key));
    assertThat(both).doesNotHaveDuplicates().hasSize((int) sequence.get());
  }

  @Test
  void should_count_every_increment_exactly_through_a_graceful_failover() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", SHARDS, 2, 1);
    JumpgateCommands<String, String> redis =
        client(cluster, JumpgateOptions.builder()).connect().sync();
    List<Integer> shards = shardsLedBy(0, 2);
    IncrementLoad counters = new IncrementLoad(redis, shards);
    counters.start(load, 4);
    Poll.until(Duration.ofSeconds(10), "increments to flow", () -> counters.acked() > 500);
    // When leader-0 hands over to its replica (Redis FAILOVER), then the map follows
    RedisProcess oldLeader = cluster.leader(0);
    RedisProcess replica = cluster.replicasOf(0).get(0);
    assertThat(oldLeader.call("FAILOVER")).isEqualTo("OK");
    Poll.until(
        Duration.ofSeconds(10),
        "the replica to become master",
        () -> ((List<?>) replica.call("ROLE")).get(0).equals("master"));
    long switchedAt = System.nanoTime();
    Map<String, String> moves = new java.util.LinkedHashMap<>();
    for (int shard : shards) {
      moves.put(
          LocalCluster.shardKey(shard),
          LocalCluster.assignmentJson(
              LocalCluster.replicaId(0, 0), List.of(LocalCluster.leaderId(0)), 1));
    }
    cluster.putValues(moves);
    long firstAfter = counters.acked();
    Poll.until(
        Duration.ofSeconds(10),
        "increments to flow again",
        () -> counters.acked() > firstAfter + 500);
    System.out.printf(
        "graceful failover: increments flowing again %.1f ms after the roles switched%n",
        (counters.lastAckNanos() - switchedAt) / 1e6);
    counters.stop();
    // Then every acknowledged increment is counted once, and none that failed was applied
    long total = counters.totalOn(replica);
    System.out.printf(
        "graceful failover: acked %d, counted %d, failures %s%n",
        counters.acked(), total, counters.failures());
    assertThat(counters.unknownOutcomes()).isZero();
    assertThat(total).isEqualTo(counters.acked());
  }

  @Test
  void should_recover_from_a_killed_leader_without_applying_an_increment_twice() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", SHARDS, 2, 1);
    JumpgateCommands<String, String> redis =
        client(cluster, JumpgateOptions.builder().commandTimeout(Duration.ofMillis(500)))
            .connect()
            .sync();
    List<Integer> shards = shardsLedBy(0, 2);
    IncrementLoad counters = new IncrementLoad(redis, shards);
    counters.start(load, 4);
    Poll.until(Duration.ofSeconds(10), "increments to flow", () -> counters.acked() > 500);
    // When leader-0 is killed, its replica promoted, and the map updated
    RedisProcess replica = cluster.replicasOf(0).get(0);
    cluster.leader(0).kill9();
    long killedAt = System.nanoTime();
    assertThat(replica.call("REPLICAOF", "NO", "ONE")).isEqualTo("OK");
    Map<String, String> moves = new java.util.LinkedHashMap<>();
    for (int shard : shards) {
      moves.put(
          LocalCluster.shardKey(shard),
          LocalCluster.assignmentJson(LocalCluster.replicaId(0, 0), List.of(), 1));
    }
    cluster.putValues(moves);
    long before = counters.acked();
    Poll.until(
        Duration.ofSeconds(15), "the service to recover", () -> counters.acked() > before + 500);
    System.out.printf(
        "crash failover: increments flowing again %.1f ms after kill -9%n",
        (counters.firstAckAfter(killedAt) - killedAt) / 1e6);
    counters.stop();
    long total = counters.totalOn(replica);
    System.out.printf(
        "crash failover: acked %d, counted %d, unknown outcome %d, failures %s%n",
        counters.acked(), total, counters.unknownOutcomes(), counters.failures());
    // Then no increment was applied twice: at most acked + unknown-outcome ones are counted
    assertThat(total).isLessThanOrEqualTo(counters.acked() + counters.unknownOutcomes());
    assertThat(counters.untypedFailures()).isZero();
  }

  @Test
  void should_fail_with_a_typed_timeout_within_the_deadline_when_a_node_is_frozen()
      throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", SHARDS, 2, 0);
    Duration timeout = Duration.ofMillis(400);
    JumpgateCommands<String, String> redis =
        client(cluster, JumpgateOptions.builder().commandTimeout(timeout)).connect().sync();
    String key = keyOfShard(0, "frozen");
    redis.set(key, "x");
    cluster.leader(0).pause();
    try {
      for (int round = 0; round < 5; round++) {
        long start = System.nanoTime();
        assertThatThrownBy(() -> redis.incr(key)).isInstanceOf(CommandTimeoutException.class);
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(tookMillis).isLessThan(timeout.toMillis() + 250);
        // A read of another shard's key is unaffected
        assertThat(redis.set(keyOfShard(1, "fine"), "ok")).isEqualTo("OK");
      }
    } finally {
      cluster.leader(0).resume();
    }
    assertThat(redis.get(key)).isEqualTo("x");
  }

  @Test
  void should_keep_serving_commands_while_etcd_is_down() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", SHARDS, 2, 0);
    JumpgateClient client = client(cluster, JumpgateOptions.builder());
    JumpgateCommands<String, String> redis = client.connect().sync();
    cluster.etcd().member(0).kill9();
    Poll.until(
        Duration.ofSeconds(20), "the client to notice", () -> !client.topologyStatus().connected());
    for (int index = 0; index < 500; index++) {
      assertThat(redis.set("down:" + index, "v")).isEqualTo("OK");
      assertThat(redis.get("down:" + index)).isEqualTo("v");
    }
  }

  @Test
  void should_authenticate_with_a_password_and_an_acl_user_and_refuse_a_wrong_one()
      throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "it", SHARDS, 2, 0);
    for (RedisProcess node : cluster.leaders()) {
      assertThat(node.call("ACL", "SETUSER", "app", "on", ">app-secret", "~*", "+@all"))
          .isEqualTo("OK");
      assertThat(node.call("CONFIG", "SET", "requirepass", "default-secret")).isEqualTo("OK");
    }
    JumpgateCommands<String, String> withPassword =
        client(cluster, JumpgateOptions.builder().redisPassword("default-secret")).connect().sync();
    assertThat(withPassword.set("auth:a", "1")).isEqualTo("OK");
    JumpgateCommands<String, String> withUser =
        client(cluster, JumpgateOptions.builder().redisCredentials("app", "app-secret"))
            .connect()
            .sync();
    assertThat(withUser.get("auth:a")).isEqualTo("1");
    JumpgateCommands<String, String> wrong =
        client(cluster, JumpgateOptions.builder().redisCredentials("app", "not-the-secret"))
            .connect()
            .sync();
    assertThatThrownBy(() -> wrong.get("auth:a"))
        .isInstanceOf(NodeUnavailableException.class)
        .hasMessageContaining("127.0.0.1:")
        .hasMessageNotContaining("not-the-secret");
  }

  private static List<String> sequenceNumbers(RedisProcess node, String key) throws Exception {
    Object value = node.call("GET", key);
    if (value == null) {
      return List.of();
    }
    List<String> numbers = new ArrayList<>();
    for (String part : ((String) value).split(",")) {
      if (!part.isEmpty()) {
        numbers.add(part);
      }
    }
    return numbers;
  }

  /** INCR on a set of counters from several threads, with exact accounting of each outcome. */
  private static final class IncrementLoad {
    private final JumpgateCommands<String, String> redis;
    private final List<String> keys = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong acked = new AtomicLong();
    private final AtomicLong unknown = new AtomicLong();
    private final AtomicLong untyped = new AtomicLong();
    private final AtomicLong lastAck = new AtomicLong();
    private final List<Long> ackTimes = java.util.Collections.synchronizedList(new ArrayList<>());
    private final Map<String, AtomicLong> failures = new ConcurrentHashMap<>();
    private final List<Future<?>> workers = new ArrayList<>();
    private CountDownLatch started;

    IncrementLoad(JumpgateCommands<String, String> redis, List<Integer> shards) {
      this.redis = redis;
      for (int shard : shards) {
        keys.add(keyOfShard(shard, "counter"));
      }
    }

    void start(ExecutorService pool, int threads) {
      started = new CountDownLatch(threads);
      for (int thread = 0; thread < threads; thread++) {
        int offset = thread;
        workers.add(
            pool.submit(
                () -> {
                  started.countDown();
                  int next = offset;
                  while (running.get()) {
                    String key = keys.get(next++ % keys.size());
                    try {
                      redis.incr(key);
                      acked.incrementAndGet();
                      long now = System.nanoTime();
                      lastAck.set(now);
                      ackTimes.add(now);
                    } catch (CommandFailedException e) {
                      failures
                          .computeIfAbsent(e.getClass().getSimpleName(), name -> new AtomicLong())
                          .incrementAndGet();
                      if (e.mayHaveRun()) {
                        unknown.incrementAndGet();
                      }
                    } catch (JumpgateException e) {
                      failures
                          .computeIfAbsent(e.getClass().getSimpleName(), name -> new AtomicLong())
                          .incrementAndGet();
                    } catch (RuntimeException e) {
                      untyped.incrementAndGet();
                      unknown.incrementAndGet();
                      failures
                          .computeIfAbsent(e.getClass().getSimpleName(), name -> new AtomicLong())
                          .incrementAndGet();
                    }
                  }
                  return null;
                }));
      }
    }

    void stop() throws Exception {
      running.set(false);
      for (Future<?> worker : workers) {
        worker.get(10, TimeUnit.SECONDS);
      }
    }

    long acked() {
      return acked.get();
    }

    long unknownOutcomes() {
      return unknown.get();
    }

    long untypedFailures() {
      return untyped.get();
    }

    long lastAckNanos() {
      return lastAck.get();
    }

    long firstAckAfter(long nanos) {
      synchronized (ackTimes) {
        return ackTimes.stream().filter(time -> time > nanos).min(Long::compare).orElse(nanos);
      }
    }

    Map<String, AtomicLong> failures() {
      return failures;
    }

    long totalOn(RedisProcess node) throws Exception {
      long total = 0;
      try (Resp.Connection connection = node.connect()) {
        for (String key : keys) {
          Object value = connection.call("GET", key);
          total += value == null ? 0 : Long.parseLong((String) value);
        }
      }
      return total;
    }
  }
}
