package io.jumpgate.it.migration;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.migration.MovePlan;
import io.jumpgate.migration.MoveResult;
import io.jumpgate.migration.Mover;
import io.jumpgate.migration.MoverOptions;
import io.lettuce.core.KeyValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hash-tagged groups of keys ({@code {user7}:a}, {@code {user7}:b}, {@code {user7}:c}) whose shards
 * move, against real etcd and redis-server processes: while the mover runs, two threads MSET each
 * group to one value and MGET it back through the driver (never an error, never a mix of values);
 * right after the move, without waiting for anything, MSET and MGET of the groups go to the new
 * leader, which holds every key of every group, the source none.
 */
class MoverHashTagIT {

  private static final int SHARDS = 64;
  private static final int TAGS = 300;
  private static final List<String> SUFFIXES = List.of(":a", ":b", ":c");
  private static final int WRITERS = 2;

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  private final ExecutorService writers = Executors.newFixedThreadPool(WRITERS);

  @AfterEach
  void stopWriters() {
    writers.shutdownNow();
  }

  private static List<String> keysOf(String tag) {
    return SUFFIXES.stream().map(suffix -> "{" + tag + "}" + suffix).toList();
  }

  private static Map<String, String> sameValue(String tag, String value) {
    Map<String, String> values = new LinkedHashMap<>();
    keysOf(tag).forEach(key -> values.put(key, value));
    return values;
  }

  private static List<String> valuesOf(List<KeyValue<String, String>> reply) {
    return reply.stream().map(entry -> entry.getValueOrElse(null)).toList();
  }

  /** The tags (user<n>) of {@code count} hash-tagged groups whose shard is in {@code plan}. */
  private static List<String> tagsMoving(MoveCluster setup, MovePlan plan, int count) {
    List<String> tags = new ArrayList<>();
    for (int index = 0; tags.size() < count; index++) {
      if (plan.moves().containsKey(setup.router.shardOfUtf8("{user" + index + "}"))) {
        tags.add("user" + index);
      }
    }
    return tags;
  }

  @Test
  void should_serve_mset_and_mget_of_hash_tagged_groups_from_the_new_leader_right_after_a_move()
      throws Exception {
    MoveCluster setup = MoveCluster.start(fixture, "tags", SHARDS);
    MovePlan plan = setup.halfOfSource("tags-1");
    // Given groups of three keys under one hash tag, each on a shard that moves, and a client
    // writing single keys meanwhile
    List<String> tags = tagsMoving(setup, plan, TAGS);
    JumpgateClient client = setup.client(Duration.ofSeconds(5));
    JumpgateCommands<String, String> redis = client.connect().sync();
    setup.awaitEveryShardAnswers(redis);
    Map<String, String> lastValue = new HashMap<>();
    for (String tag : tags) {
      redis.mset(sameValue(tag, "initial-" + tag));
      lastValue.put(tag, "initial-" + tag);
    }
    MoveResult result;
    try (MoverLoad load = new MoverLoad(redis, 1, client.connect().async(), 20);
        Mover mover =
            Mover.create(
                setup.etcd,
                MoverOptions.builder()
                    .groupSize(4)
                    .cleanupGrace(Duration.ofMillis(1500))
                    .build())) {
      Poll.until(Duration.ofSeconds(20), "500 operations first", () -> load.operations.get() > 500);
      // When their shards move
      result = mover.move(plan);
      load.stop(Duration.ofSeconds(30));
      assertThat(load.errors).isEmpty();
    }
    assertThat(result.shardsCutOver()).containsExactlyElementsOf(plan.moves().keySet());
    assertThat(result.writesAfterCutover()).isEmpty();

    // Then right after the move, with no wait, MGET over every group (many shards at once) gives
    // each group whole
    assertEveryGroupReadsWhole(redis, tags, lastValue);
    // and an MSET of each of ten groups lands whole on the new leader
    try (ServerData target = new ServerData(setup.newServer);
        ServerData source = new ServerData(setup.source())) {
      for (String tag : tags.subList(0, 10)) {
        redis.mset(sameValue(tag, "after-" + tag));
        lastValue.put(tag, "after-" + tag);
        assertThat(valuesOf(redis.mget(keysOf(tag).toArray(String[]::new))))
            .containsOnly("after-" + tag);
        assertThat(valuesOf(target.sync().mget(keysOf(tag).toArray(String[]::new))))
            .containsOnly("after-" + tag);
      }
      List<String> everyKey = tags.stream().flatMap(tag -> keysOf(tag).stream()).toList();
      assertThat(target.keys()).containsAll(everyKey);
      assertThat(source.keys()).doesNotContainAnyElementsOf(everyKey);
    }
    assertEveryKeyOnItsOwner(setup, tags, lastValue);
    setup.assertNoRecordAndNoLock();
  }

  @Test
  void should_keep_hash_tagged_groups_whole_when_mset_and_mget_run_during_the_move()
      throws Exception {
    MoveCluster setup = MoveCluster.start(fixture, "tags", SHARDS);
    MovePlan plan = setup.halfOfSource("tags-2");
    List<String> tags = tagsMoving(setup, plan, TAGS);
    JumpgateClient client = setup.client(Duration.ofSeconds(5));
    JumpgateCommands<String, String> redis = client.connect().sync();
    setup.awaitEveryShardAnswers(redis);
    Map<String, String> lastValue = new ConcurrentHashMap<>();
    for (String tag : tags) {
      redis.mset(sameValue(tag, "initial"));
      lastValue.put(tag, "initial");
    }

    // When the mover moves their shards while two threads MSET a group, then MGET it
    AtomicBoolean running = new AtomicBoolean(true);
    ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
    AtomicLong rounds = new AtomicLong();
    List<Future<?>> tasks = new ArrayList<>();
    for (int writer = 0; writer < WRITERS; writer++) {
      int owner = writer;
      tasks.add(
          writers.submit(
              () -> {
                for (long sequence = 0; running.get(); sequence++) {
                  // each thread owns every other tag: it knows the value each of its tags holds
                  String tag = tags.get((int) ((sequence * WRITERS + owner) % tags.size()));
                  String value = "w" + owner + "-" + sequence;
                  try {
                    redis.mset(sameValue(tag, value));
                    lastValue.put(tag, value);
                    List<String> read = valuesOf(redis.mget(keysOf(tag).toArray(String[]::new)));
                    if (!read.equals(List.of(value, value, value))) {
                      problems.add("MGET of " + tag + " after MSET " + value + " gave " + read);
                    }
                    rounds.incrementAndGet();
                  } catch (RuntimeException e) {
                    problems.add(tag + ": " + e);
                  }
                }
              }));
    }
    Poll.until(Duration.ofSeconds(20), "200 MSET/MGET rounds first", () -> rounds.get() > 200);
    MoveResult result;
    try (Mover mover =
        Mover.create(
            setup.etcd,
            MoverOptions.builder().groupSize(4).cleanupGrace(Duration.ofMillis(1500)).build())) {
      result = mover.move(plan);
    }
    long atMove = rounds.get();
    Poll.until(
        Duration.ofSeconds(20), "200 rounds after the move", () -> rounds.get() > atMove + 200);
    running.set(false);
    for (Future<?> task : tasks) {
      task.get(30, TimeUnit.SECONDS);
    }

    // Then no round saw an error or another value than the one it wrote, nothing reached the
    // source after a cutover, and every group is whole on the new leader
    assertThat(problems).isEmpty();
    assertThat(result.shardsCutOver()).containsExactlyElementsOf(plan.moves().keySet());
    assertThat(result.writesAfterCutover()).isEmpty();
    assertEveryGroupReadsWhole(redis, tags, lastValue);
    assertEveryKeyOnItsOwner(setup, tags, lastValue);
    setup.assertNoRecordAndNoLock();
  }

  private static void assertEveryGroupReadsWhole(
      JumpgateCommands<String, String> redis, List<String> tags, Map<String, String> lastValue) {
    List<String> everyKey = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    for (String tag : tags) {
      everyKey.addAll(keysOf(tag));
      String value = lastValue.get(tag);
      expected.addAll(List.of(value, value, value));
    }
    assertThat(valuesOf(redis.mget(everyKey.toArray(String[]::new)))).isEqualTo(expected);
  }

  private static void assertEveryKeyOnItsOwner(
      MoveCluster setup, List<String> tags, Map<String, String> lastValue) throws Exception {
    Map<String, String> data = new HashMap<>();
    Map<String, Boolean> withTtl = new HashMap<>();
    for (String tag : tags) {
      data.putAll(sameValue(tag, lastValue.get(tag)));
      keysOf(tag).forEach(key -> withTtl.put(key, false));
    }
    setup.assertEveryKeyOnItsOwner(null, new MoveCluster.Data(data, withTtl));
  }
}
