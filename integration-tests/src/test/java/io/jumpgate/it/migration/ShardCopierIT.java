package io.jumpgate.it.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.migration.ChangeCaptureLostException;
import io.jumpgate.migration.ChangeCaptureUnavailableException;
import io.jumpgate.migration.CleanupResult;
import io.jumpgate.migration.CopyMethod;
import io.jumpgate.migration.CopyProgress;
import io.jumpgate.migration.DrainResult;
import io.jumpgate.migration.ServerAddress;
import io.jumpgate.migration.ShardCopier;
import io.jumpgate.migration.ShardCopierOptions;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.testkit.Resp;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link ShardCopier} against real redis-server processes: a source under writes, an idle target.
 */
class ShardCopierIT {

  @RegisterExtension static final ProcessFixture fixture = new ProcessFixture();

  static final int SHARDS = 1024;
  static final Xxh64JumpRouter ROUTER = Xxh64JumpRouter.forShards(SHARDS);
  static final int KEYS = 80_000;
  static final long TTL_MARGIN_MILLIS = 2_000;

  /** A quarter of the shards (every fourth) and the shard of the hash tag {user1}. */
  static BitSet movedShards() {
    BitSet shards = new BitSet(SHARDS);
    for (int shard = 0; shard < SHARDS; shard += 4) {
      shards.set(shard);
    }
    shards.set(ROUTER.shardOfUtf8("{user1}:a"));
    return shards;
  }

  static ServerAddress address(RedisProcess server) {
    return ServerAddress.of("127.0.0.1", server.port());
  }

  @ParameterizedTest
  @EnumSource(CopyMethod.class)
  void should_leave_source_and_target_equal_for_the_moved_shards_when_a_writer_runs_during_the_copy(
      CopyMethod method) throws Exception {
    // Given a source holding 80,000 keys of five types, with notify-keyspace-events "Ex" set by
    // its operator, a target holding a leftover of an aborted try, and a writer on the source
    RedisProcess source = fixture.redis();
    RedisProcess target = fixture.redis();
    ServerData sourceData = fixture.register(new ServerData(source));
    ServerData targetData = fixture.register(new ServerData(target));
    sourceData.load("k", KEYS);
    sourceData.sync().set("{user1}:a", "alpha");
    sourceData.sync().hset("{user1}:b", "field", "beta");
    sourceData.sync().configSet("notify-keyspace-events", "Ex");
    String operatorSetting =
        sourceData.sync().configGet("notify-keyspace-events").get("notify-keyspace-events");
    BitSet moved = movedShards();
    String leftover = keyOfShardIn(moved, "leftover-");
    targetData.sync().set(leftover, "from an aborted try");

    Writer writer = new Writer(fixture.register(new ServerData(source)).sync());
    ShardCopier copier =
        fixture.register(
            ShardCopier.create(
                address(source),
                address(target),
                SHARDS,
                moved,
                ShardCopierOptions.builder().copyMethod(method).build()));
    writer.start();
    try {
      // When the shards are copied while the writer runs, then the writer stops and we drain
      copier.prepare();
      long writesBefore = writer.operations.get();
      CopyProgress afterCopy = copier.copy();
      assertThat(writer.operations.get())
          .as("the writer wrote during the copy")
          .isGreaterThan(writesBefore);
      assertThat(afterCopy.keysScanned()).isGreaterThanOrEqualTo(KEYS);
      Poll.until(
          Duration.ofSeconds(10),
          "the writer leaves changed keys of the moved shards pending after the copy",
          () -> copier.progress().keysPending() > 0);
    } finally {
      writer.stop();
    }
    DrainResult drain = copier.drain();

    // Then every key of the moved shards is on the target with its value and TTL, and nothing else
    assertThat(writer.failure.get()).as("writer failure").isNull();
    Set<String> expected = sourceData.keysOf(ROUTER, moved);
    Set<String> onTarget = new TreeSet<>(targetData.keys());
    assertThat(expected).hasSizeGreaterThan(19_000).contains("{user1}:a", "{user1}:b");
    assertThat(difference(expected, onTarget)).as("keys missing on the target").isEmpty();
    assertThat(difference(onTarget, expected))
        .as("keys on the target that are not keys of the moved shards on the source")
        .isEmpty();
    assertThat(onTarget).doesNotContain(leftover);
    assertSameValuesAndTtls(sourceData, targetData, new ArrayList<>(expected));

    CopyProgress progress = copier.progress();
    assertThat(progress.keysScanned()).isGreaterThanOrEqualTo(KEYS);
    assertThat(progress.keysCopied()).isGreaterThan(15_000);
    assertThat(progress.keysRecopied() + progress.keysDeleted())
        .as("changes captured during the copy")
        .isPositive();
    assertThat(progress.keysPending()).isZero();
    assertThat(progress.bytesCopied()).isPositive();
    assertThat(progress.changeCaptureLost()).isFalse();
    assertThat(drain.barrierTime()).isLessThan(Duration.ofSeconds(1));

    // And the operator's notify-keyspace-events comes back on close
    assertThat(sourceData.sync().configGet("notify-keyspace-events").get("notify-keyspace-events"))
        .contains("K");
    copier.close();
    assertThat(sourceData.sync().configGet("notify-keyspace-events").get("notify-keyspace-events"))
        .isEqualTo(operatorSetting);
  }

  @Test
  void should_fail_with_the_exact_setting_and_change_nothing_when_config_is_disabled()
      throws Exception {
    // Given a source whose CONFIG command is renamed away (only the test knows the new name)
    RedisProcess source = fixture.redis("--rename-command", "CONFIG", "HIDDENCONFIG");
    RedisProcess target = fixture.redis();
    ServerData sourceData = fixture.register(new ServerData(source));
    ServerData targetData = fixture.register(new ServerData(target));
    sourceData.load("k", 2_000);
    BitSet moved = movedShards();
    String leftover = keyOfShardIn(moved, "leftover-");
    targetData.sync().set(leftover, "from an aborted try");
    ShardCopier copier =
        fixture.register(
            ShardCopier.create(
                address(source), address(target), SHARDS, moved, ShardCopierOptions.defaults()));

    // When it is prepared, then it fails with the setting to make, and mentions the offline mode
    assertThatThrownBy(copier::prepare)
        .isInstanceOfSatisfying(
            ChangeCaptureUnavailableException.class,
            error -> assertThat(error.requiredSetting()).isEqualTo("KA"))
        .hasMessageContaining("notify-keyspace-events KA")
        .hasMessageContaining("CONFIG SET notify-keyspace-events KA")
        .hasMessageContaining("offline")
        .hasMessageContaining("127.0.0.1:" + source.port());

    // And nothing changed: the target still holds only its leftover, the setting is untouched
    assertThat(targetData.keys()).containsExactly(leftover);
    Object setting = source.call("HIDDENCONFIG", "GET", "notify-keyspace-events");
    assertThat(setting).isEqualTo(List.of("notify-keyspace-events", ""));
    assertThatThrownBy(copier::copy).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void should_restore_the_given_original_setting_on_close_when_a_dead_copier_left_capture_on()
      throws Exception {
    // Given a source whose change capture a killed copier left on ("KA"; it was "Ex" before)
    RedisProcess source = fixture.redis();
    RedisProcess target = fixture.redis();
    ServerData sourceData = fixture.register(new ServerData(source));
    sourceData.load("k", 1_000);
    sourceData.sync().configSet("notify-keyspace-events", "Ex");
    String original =
        sourceData.sync().configGet("notify-keyspace-events").get("notify-keyspace-events");
    sourceData.sync().configSet("notify-keyspace-events", "KA");
    String leftByTheDeadCopier =
        sourceData.sync().configGet("notify-keyspace-events").get("notify-keyspace-events");
    ShardCopier copier =
        fixture.register(
            ShardCopier.create(
                address(source),
                address(target),
                SHARDS,
                movedShards(),
                ShardCopierOptions.defaults()));

    // When a copier told the original value is prepared, copies and is closed
    copier.restoreNotifyKeyspaceEventsTo(original);
    copier.prepare();
    copier.copy();
    assertThat(copier.notifyKeyspaceEventsFound()).isEqualTo(leftByTheDeadCopier);
    copier.close();

    // Then the source has the original value back, not the one the copier found
    assertThat(source.call("CONFIG", "GET", "notify-keyspace-events"))
        .isEqualTo(List.of("notify-keyspace-events", original));
    assertThatThrownBy(() -> copier.restoreNotifyKeyspaceEventsTo(""))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void should_count_a_write_to_a_cut_over_shard_and_clean_up_exactly_the_moved_keys() {
    // Given shards copied, drained and marked cut over
    RedisProcess source = fixture.redis();
    RedisProcess target = fixture.redis();
    ServerData sourceData = fixture.register(new ServerData(source));
    sourceData.load("k", 8_000);
    BitSet moved = movedShards();
    Set<String> movedKeys = sourceData.keysOf(ROUTER, moved);
    Set<String> otherKeys = difference(sourceData.keys(), movedKeys);
    ShardCopier copier =
        fixture.register(
            ShardCopier.create(
                address(source),
                address(target),
                SHARDS,
                moved,
                ShardCopierOptions.builder().cleanupKeysPerSecond(20_000).build()));
    copier.prepare();
    copier.copy();
    copier.drain();
    assertThat(copier.markCutOver(moved)).isZero();
    assertThat(copier.writesAfterCutover()).isEmpty();

    // When a client writes a key of a cut-over shard on the source (and one of another shard)
    String late = movedKeys.iterator().next();
    int lateShard = ROUTER.shardOfUtf8(late);
    sourceData.sync().set(late, "written to the old leader");
    sourceData.sync().set(otherKeys.iterator().next(), "a shard that did not move");

    // Then it is counted for its shard
    Poll.until(
        Duration.ofSeconds(5),
        "the write after cutover is counted",
        () -> copier.writesAfterCutover().equals(Map.of(lateShard, 1L)));

    // When the source is cleaned up
    CleanupResult cleanup = copier.cleanup();

    // Then exactly the moved shards' keys are gone, and the cleanup's deletions are not counted
    assertThat(cleanup.keysDeleted()).isEqualTo(movedKeys.size());
    assertThat(sourceData.keys()).containsExactlyInAnyOrderElementsOf(otherKeys);
    assertThat(copier.progress().keysCleanedUp()).isEqualTo(movedKeys.size());
    assertThat(copier.writesAfterCutover()).isEqualTo(Map.of(lateShard, 1L));
    assertThat(copier.progress().writesAfterCutover()).isEqualTo(1);
  }

  @Test
  void should_report_the_loss_when_the_subscription_drops() throws Exception {
    // Given a prepared copier
    RedisProcess source = fixture.redis();
    RedisProcess target = fixture.redis();
    ServerData sourceData = fixture.register(new ServerData(source));
    sourceData.load("k", 1_000);
    BitSet moved = movedShards();
    ShardCopier copier =
        fixture.register(
            ShardCopier.create(
                address(source), address(target), SHARDS, moved, ShardCopierOptions.defaults()));
    copier.prepare();

    // When the source drops its pub/sub connection
    assertThat(sourceData.sync().clientKill(KillArgs.Builder.typePubsub())).isEqualTo(1L);

    // Then the copy and the drain report it, naming the shards to copy again
    Poll.until(Duration.ofSeconds(5), "the loss is seen", copier::changeCaptureLost);
    assertThatThrownBy(copier::copy)
        .isInstanceOfSatisfying(
            ChangeCaptureLostException.class, error -> assertThat(error.shards()).isEqualTo(moved))
        .hasMessageContaining("copy them again from scratch");
    assertThatThrownBy(copier::drain).isInstanceOf(ChangeCaptureLostException.class);
    assertThat(copier.progress().changeCaptureLost()).isTrue();
  }

  @Test
  void should_hold_every_change_made_before_drain_when_it_returns_while_other_shards_keep_changing()
      throws Exception {
    // Given copied shards, a group of them frozen, and a writer on the other moved shards
    RedisProcess source = fixture.redis();
    RedisProcess target = fixture.redis();
    ServerData sourceData = fixture.register(new ServerData(source));
    ServerData targetData = fixture.register(new ServerData(target));
    sourceData.load("k", 8_000);
    BitSet moved = movedShards();
    BitSet frozen = new BitSet();
    for (int shard = moved.nextSetBit(0);
        frozen.cardinality() < 32;
        shard = moved.nextSetBit(shard + 1)) {
      frozen.set(shard);
    }
    List<String> frozenKeys = new ArrayList<>(sourceData.keysOf(ROUTER, frozen));
    BitSet others = (BitSet) moved.clone();
    others.andNot(frozen);
    List<String> otherKeys = new ArrayList<>(sourceData.keysOf(ROUTER, others));
    ShardCopier copier =
        fixture.register(
            ShardCopier.create(
                address(source), address(target), SHARDS, moved, ShardCopierOptions.defaults()));
    copier.prepare();
    copier.copy();
    RedisCommands<String, String> writer = fixture.register(new ServerData(source)).sync();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> writerFailure = new AtomicReference<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                for (int index = 0; !stop.get(); index++) {
                  writer.set(otherKeys.get(index % otherKeys.size()), "other-" + index);
                }
              } catch (Throwable e) {
                writerFailure.set(e);
              }
            },
            "other-shards-writer");
    thread.start();
    try {
      String noiseTag = hashTagOutside(moved);
      for (int round = 0; round < 20; round++) {
        // When keys of the frozen shards change at the end of a burst of 20,000 notifications
        // (of a shard that does not move), and drain is called as soon as the burst has run
        List<String> changed = frozenKeys.subList(0, Math.min(50, frozenKeys.size()));
        sourceData
            .sync()
            .eval(
                "for i = 1, 20000 do redis.call('SET', ARGV[2] .. i, 'noise') end "
                    + "for _, key in ipairs(KEYS) do redis.call('SET', key, ARGV[1]) end "
                    + "return 1",
                ScriptOutputType.INTEGER,
                changed.toArray(String[]::new),
                "round-" + round,
                noiseTag + ":");
        DrainResult drain = copier.drain(frozen);

        // Then the target holds every one of those changes as soon as drain returns
        assertThat(drain.keysCopied()).as("round %d", round).isGreaterThanOrEqualTo(changed.size());
        for (String key : changed) {
          assertThat(targetData.sync().get(key))
              .as("%s in round %d", key, round)
              .isEqualTo("round-" + round);
        }
      }
    } finally {
      stop.set(true);
      thread.join(10_000);
    }
    assertThat(writerFailure.get()).isNull();
    assertThat(copier.progress().keysPending()).as("the other shards still change").isPositive();
  }

  @Test
  void should_copy_with_migrate_auth2_when_the_target_requires_an_acl_user() throws IOException {
    // Given a target whose default user is off and whose only user is "mover"
    RedisProcess source = fixture.redis();
    RedisProcess target =
        fixture.redis(
            "--user", "default", "off", "--user", "mover", "on", ">secret", "~*", "&*", "+@all");
    ServerData sourceData = fixture.register(new ServerData(source));
    sourceData.load("k", 4_000);
    BitSet moved = movedShards();
    Set<String> movedKeys = sourceData.keysOf(ROUTER, moved);
    ShardCopier copier =
        fixture.register(
            ShardCopier.create(
                address(source),
                address(target).withCredentials("mover", "secret"),
                SHARDS,
                moved,
                ShardCopierOptions.defaults()));

    // When the shards are copied (MIGRATE ... AUTH2 mover secret)
    copier.prepare();
    copier.copy();
    copier.drain();

    // Then the target holds exactly the moved keys
    assertThat(copier.progress().keysCopied()).isEqualTo(movedKeys.size());
    try (Resp.Connection connection = target.connect()) {
      assertThat(connection.call("AUTH", "mover", "secret")).isEqualTo("OK");
      assertThat(connection.call("DBSIZE")).isEqualTo((long) movedKeys.size());
    }
  }

  @Test
  void should_reject_shards_when_outside_the_shard_count_or_not_being_moved() {
    BitSet tooHigh = new BitSet();
    tooHigh.set(SHARDS);
    ServerAddress one = ServerAddress.of("127.0.0.1", 1);
    ServerAddress two = ServerAddress.of("127.0.0.1", 2);

    assertThatThrownBy(
            () -> ShardCopier.create(one, two, SHARDS, tooHigh, ShardCopierOptions.defaults()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("shard 1024");
    assertThatThrownBy(
            () ->
                ShardCopier.create(one, one, SHARDS, movedShards(), ShardCopierOptions.defaults()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("same server");
  }

  // ---- helpers ------------------------------------------------------------------------------

  private static void assertSameValuesAndTtls(
      ServerData source, ServerData target, List<String> keys) {
    List<String> mismatches = new ArrayList<>();
    for (int from = 0; from < keys.size(); from += 1000) {
      List<String> slice = keys.subList(from, Math.min(keys.size(), from + 1000));
      Map<String, ServerData.Dumped> onSource = source.dumps(slice);
      Map<String, ServerData.Dumped> onTarget = target.dumps(slice);
      for (String key : slice) {
        ServerData.Dumped expected = onSource.get(key);
        ServerData.Dumped actual = onTarget.get(key);
        boolean sameValue =
            Arrays.equals(expected.payload(), actual.payload())
                || (actual.payload() != null
                    && Objects.equals(source.valueOf(key), target.valueOf(key)));
        boolean sameTtl =
            (expected.pttl() < 0 && actual.pttl() == expected.pttl())
                || (expected.pttl() >= 0
                    && actual.pttl() >= 0
                    && Math.abs(expected.pttl() - actual.pttl()) <= TTL_MARGIN_MILLIS);
        if (!sameValue || !sameTtl) {
          mismatches.add(
              key
                  + " (value "
                  + (sameValue ? "same" : "differs")
                  + ", pttl "
                  + expected.pttl()
                  + " vs "
                  + actual.pttl()
                  + ")");
        }
      }
    }
    assertThat(mismatches).as("keys whose value or TTL differ").isEmpty();
  }

  private static Set<String> difference(Set<String> left, Set<String> right) {
    Set<String> difference = new TreeSet<>(left);
    difference.removeAll(right);
    return difference;
  }

  /** A hash tag whose shard is not in {@code shards}. */
  private static String hashTagOutside(BitSet shards) {
    for (int index = 0; ; index++) {
      String tag = "{noise" + index + "}";
      if (!shards.get(ROUTER.shardOfUtf8(tag))) {
        return tag;
      }
    }
  }

  private static String keyOfShardIn(BitSet shards, String prefix) {
    for (int index = 0; ; index++) {
      String key = prefix + index;
      if (shards.get(ROUTER.shardOfUtf8(key))) {
        return key;
      }
    }
  }

  /**
   * SET, DEL, EXPIRE, INCR, RENAME and HSET on random keys of every shard, as fast as one
   * connection goes, until stopped. Errors of the data (WRONGTYPE, no such key) are expected.
   */
  static final class Writer {
    final RedisCommands<String, String> commands;
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicLong operations = new AtomicLong();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final Thread thread;

    Writer(RedisCommands<String, String> commands) {
      this.commands = commands;
      this.thread = new Thread(this::run, "shard-copier-it-writer");
      thread.setDaemon(true);
    }

    void start() {
      thread.start();
    }

    void stop() throws InterruptedException {
      stop.set(true);
      thread.join(TimeUnit.SECONDS.toMillis(30));
      assertThat(thread.isAlive()).as("writer stopped within 30 s").isFalse();
    }

    private void run() {
      ThreadLocalRandom random = ThreadLocalRandom.current();
      Set<String> renamed = new HashSet<>();
      try {
        while (!stop.get()) {
          int index = random.nextInt(KEYS);
          String key = "k" + index;
          try {
            switch (random.nextInt(8)) {
              case 0 -> commands.set(key, "overwritten-" + random.nextLong());
              case 1 -> commands.del(key);
              case 2 -> commands.expire(key, 300 + random.nextInt(600));
              case 3 -> commands.incr("counter:" + random.nextInt(5_000));
              case 4 -> {
                if (renamed.add(key)) {
                  commands.rename(key, "renamed:" + index);
                }
              }
              case 5 -> commands.hset("hash:" + random.nextInt(5_000), "f", "v" + random.nextInt());
              case 6 -> commands.set("{user1}:a", "alpha-" + random.nextInt());
              default -> commands.hset("{user1}:b", "field", "beta-" + random.nextInt());
            }
          } catch (RedisCommandExecutionException expected) {
            // WRONGTYPE or ERR no such key: the data, not the test
          }
          operations.incrementAndGet();
        }
      } catch (Throwable e) {
        failure.set(e);
      }
    }
  }
}
