package io.jumpgate.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.routing.Xxh64JumpRouter;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.ZAddArgs;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the commands check before sending anything: null arguments (named), empty argument lists,
 * keys of one script on two shards, a closed client. The client's nodes are ports where nothing
 * listens, so a command that does get sent fails to connect instead of answering.
 */
class CommandPreconditionsTest {

  private static final int SHARDS = 64;
  private static final Xxh64JumpRouter ROUTER = Xxh64JumpRouter.forShards(SHARDS);

  private static JumpgateClient client;
  private static JumpgateAsyncCommands<String, String> redis;

  @BeforeAll
  static void start() {
    client = JumpgateClient.create(options());
    redis = client.connect().async();
  }

  @AfterAll
  static void stop() {
    client.close();
  }

  private static JumpgateOptions options() {
    return JumpgateOptions.builder()
        .topologySource(StaticTopologySource.create(SHARDS, 3))
        .commandTimeout(Duration.ofSeconds(1))
        .connectTimeout(Duration.ofMillis(200))
        .build();
  }

  private static int shard(String key) {
    return ROUTER.shardOfUtf8(key);
  }

  /** A key on another shard than {@code key}. */
  private static String keyOnAnotherShard(String key) {
    for (int index = 0; ; index++) {
      String other = "other:" + index;
      if (shard(other) != shard(key)) {
        return other;
      }
    }
  }

  // ---- null arguments ---------------------------------------------------------------------------

  static Stream<Arguments> nullArguments() {
    String[] noKeys = null;
    Map<String, String> nullMap = null;
    Map<String, String> nullField = new HashMap<>();
    nullField.put(null, "v");
    Map<String, String> nullValue = new HashMap<>();
    nullValue.put("f", null);
    ScoredValue<String> empty = ScoredValue.empty();
    return Stream.of(
        call("keys[0]", r -> r.del((String) null)),
        call("keys", r -> r.del(noKeys)),
        call("keys[2]", r -> r.del("a", "b", null, "d")),
        call("keys[1]", r -> r.unlink("a", null)),
        call("keys[0]", r -> r.exists(null, "b")),
        call("keys[1]", r -> r.touch("a", null)),
        call("key", r -> r.expire(null, 10)),
        call("key", r -> r.pexpire(null, 10)),
        call("key", r -> r.expireat(null, 10)),
        call("key", r -> r.ttl(null)),
        call("key", r -> r.pttl(null)),
        call("key", r -> r.persist(null)),
        call("key", r -> r.type(null)),
        call("key", r -> r.hset(null, "f", "v")),
        call("field", r -> r.hset("h", null, "v")),
        call("value", r -> r.hset("h", "f", null)),
        call("map", r -> r.hset("h", nullMap)),
        call("map: a field is null", r -> r.hset("h", nullField)),
        call("map: the value of field f", r -> r.hset("h", nullValue)),
        call("field", r -> r.hget("h", null)),
        call("fields[1]", r -> r.hmget("h", "a", null)),
        call("key", r -> r.hgetall(null)),
        call("fields[0]", r -> r.hdel("h", (String) null)),
        call("field", r -> r.hexists("h", null)),
        call("field", r -> r.hincrby("h", null, 1)),
        call("key", r -> r.hlen(null)),
        call("key", r -> r.hkeys(null)),
        call("key", r -> r.hvals(null)),
        call("values[1]", r -> r.lpush("l", "a", null)),
        call("values[0]", r -> r.rpush("l", (String) null)),
        call("key", r -> r.lpop(null)),
        call("key", r -> r.rpop(null, 2)),
        call("key", r -> r.lrange(null, 0, -1)),
        call("key", r -> r.llen(null)),
        call("key", r -> r.lindex(null, 0)),
        call("members[1]", r -> r.sadd("s", "a", null)),
        call("members[0]", r -> r.srem("s", (String) null)),
        call("key", r -> r.smembers(null)),
        call("member", r -> r.sismember("s", null)),
        call("key", r -> r.scard(null)),
        call("member", r -> r.zadd("z", 1.0, null)),
        call("scoredValues[1]", r -> r.zadd("z", ScoredValue.just(1, "a"), null)),
        call("scoredValues[0]", r -> r.zadd("z", empty)),
        call("zAddArgs", r -> r.zadd("z", null, 1.0, "m")),
        call("members[0]", r -> r.zrem("z", (String) null)),
        call("member", r -> r.zscore("z", null)),
        call("member", r -> r.zincrby("z", 1, null)),
        call("key", r -> r.zrange(null, 0, -1)),
        call("key", r -> r.zrangeWithScores(null, 0, -1)),
        call("range", r -> r.zrangebyscore("z", null)),
        call("limit", r -> r.zrangebyscore("z", Range.create(1, 2), null)),
        call("key", r -> r.zcard(null)),
        call("member", r -> r.zrank("z", null)),
        call("script", r -> r.eval((String) null, ScriptOutputType.INTEGER, "k")),
        call("script", r -> r.eval((byte[]) null, ScriptOutputType.INTEGER, "k")),
        call("type", r -> r.eval("return 1", null, "k")),
        call("keys", r -> r.eval("return 1", ScriptOutputType.INTEGER, noKeys)),
        call("keys[1]", r -> r.eval("return 1", ScriptOutputType.INTEGER, "k", null)),
        call(
            "values[1]",
            r -> r.eval("return 1", ScriptOutputType.INTEGER, new String[] {"k"}, "a", null)),
        call("digest", r -> r.evalsha(null, ScriptOutputType.INTEGER, "k")),
        call(
            "routingKey",
            r -> r.dispatch(null, CommandType.PING, new StatusOutput<>(StringCodec.UTF8), args())),
        call("type", r -> r.dispatch("k", null, new StatusOutput<>(StringCodec.UTF8), args())),
        call("output", r -> r.dispatch("k", CommandType.PING, null, args())),
        call(
            "args",
            r -> r.dispatch("k", CommandType.PING, new StatusOutput<>(StringCodec.UTF8), null)));
  }

  private static CommandArgs<String, String> args() {
    return new CommandArgs<>(StringCodec.UTF8);
  }

  private static Arguments call(
      String message, Consumer<JumpgateAsyncCommands<String, String>> call) {
    return Arguments.of(message, call);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("nullArguments")
  void should_throw_a_null_pointer_exception_naming_the_argument_before_sending(
      String message, Consumer<JumpgateAsyncCommands<String, String>> call) {
    assertThatThrownBy(() -> call.accept(redis))
        .isInstanceOf(NullPointerException.class)
        .hasMessage(message);
  }

  @Test
  void should_throw_the_same_null_pointer_exception_from_the_blocking_and_reactive_views() {
    JumpgateConnection<String, String> connection = client.connect();
    assertThatThrownBy(() -> connection.sync().hset("h", null, "v"))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("field");
    assertThatThrownBy(() -> connection.reactive().del("a", null).block())
        .isInstanceOf(NullPointerException.class)
        .hasMessage("keys[1]");
  }

  // ---- empty argument lists ---------------------------------------------------------------------

  static Stream<Arguments> emptyArguments() {
    @SuppressWarnings("unchecked")
    ScoredValue<String>[] noScoredValues = new ScoredValue[0];
    return Stream.of(
        call("DEL needs at least one key", r -> r.del()),
        call("UNLINK needs at least one key", r -> r.unlink()),
        call("EXISTS needs at least one key", r -> r.exists()),
        call("TOUCH needs at least one key", r -> r.touch()),
        call("hset needs at least one field", r -> r.hset("h", Collections.emptyMap())),
        call("fields must not be empty", r -> r.hmget("h")),
        call("fields must not be empty", r -> r.hdel("h")),
        call("values must not be empty", r -> r.lpush("l")),
        call("values must not be empty", r -> r.rpush("l")),
        call("members must not be empty", r -> r.sadd("s")),
        call("members must not be empty", r -> r.srem("s")),
        call("members must not be empty", r -> r.zrem("z")),
        call("scoredValues must not be empty", r -> r.zadd("z", noScoredValues)),
        call(
            "scoredValues must not be empty",
            r -> r.zadd("z", ZAddArgs.Builder.nx(), noScoredValues)));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("emptyArguments")
  void should_refuse_an_empty_argument_list_before_sending(
      String message, Consumer<JumpgateAsyncCommands<String, String>> call) {
    assertThatThrownBy(() -> call.accept(redis))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  // ---- scripts --------------------------------------------------------------------------------

  @Test
  void should_refuse_a_script_whose_keys_are_on_two_shards_naming_both_shards_and_the_key() {
    String first = "{user42}.a";
    String other = keyOnAnotherShard(first);
    String[] keys = {first, "{user42}.b", other};

    assertThatThrownBy(
            () ->
                redis.eval("return redis.call('SET', KEYS[3], 'x')", ScriptOutputType.STATUS, keys))
        .isInstanceOfSatisfying(
            CrossShardException.class,
            e -> {
              assertThat(e.command()).isEqualTo("EVAL");
              assertThat(e.firstShard()).isEqualTo(shard(first));
              assertThat(e.otherShard()).isEqualTo(shard(other));
              assertThat(e.getMessage())
                  .contains("key 0 is on shard " + shard(first))
                  .contains("key 2 on shard " + shard(other));
            });
    assertThatThrownBy(
            () ->
                redis.eval(
                    "return 1".getBytes(StandardCharsets.UTF_8),
                    ScriptOutputType.INTEGER,
                    keys,
                    "argument"))
        .isInstanceOf(CrossShardException.class);
    assertThatThrownBy(
            () ->
                redis.evalsha(
                    "e0e1f9fabfc9d4800c877a703b823ac0578ff8db",
                    ScriptOutputType.INTEGER,
                    new String[] {other, first}))
        .isInstanceOfSatisfying(
            CrossShardException.class,
            e -> {
              assertThat(e.command()).isEqualTo("EVALSHA");
              assertThat(e.firstShard()).isEqualTo(shard(other));
              assertThat(e.otherShard()).isEqualTo(shard(first));
              assertThat(e.getMessage()).contains("key 1 on shard " + shard(first));
            });
  }

  @Test
  void should_refuse_a_script_without_keys() {
    assertThatThrownBy(() -> redis.eval("return 1", ScriptOutputType.INTEGER))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("EVAL needs at least one key");
    assertThatThrownBy(
            () -> redis.evalsha("e0e1f9fabfc9d4800c877a703b823ac0578ff8db", ScriptOutputType.VALUE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("EVALSHA needs at least one key");
  }

  @Test
  void should_send_a_script_whose_keys_share_a_hash_tag_to_the_node_of_their_shard() {
    // Nothing listens on the node: the script was routed and sent, and the connection failed.
    CompletionStage<Long> answer =
        redis.eval(
            "return 1", ScriptOutputType.INTEGER, new String[] {"{t}.a", "{t}.b", "{t}.c"}, "v");
    assertSentTo(answer, shard("{t}.a"));
  }

  // ---- dispatch --------------------------------------------------------------------------------

  @Test
  void should_leave_the_callers_output_untouched_when_dispatch_fails() {
    StatusOutput<String, String> output = new StatusOutput<>(StringCodec.UTF8);
    CompletionStage<String> answer =
        redis.dispatch("k", CommandType.PING, output, new CommandArgs<>(StringCodec.UTF8));
    assertSentTo(answer, shard("k"));
    assertThat(output.get()).isNull();
    assertThat(output.hasError()).isFalse();
  }

  // ---- closed client ---------------------------------------------------------------------------

  @Test
  void should_refuse_commands_after_the_client_was_closed() {
    JumpgateClient closing = JumpgateClient.create(options());
    JumpgateAsyncCommands<String, String> commands = closing.connect().async();
    closing.close();

    assertThatThrownBy(() -> commands.del("a"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the Jumpgate client is closed");
    assertThatThrownBy(() -> commands.exists("a", "b", "c", "d"))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> commands.hset("h", "f", "v"))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> commands.zrangebyscore("z", Range.create(1, 2), Limit.create(0, 1)))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> commands.eval("return 1", ScriptOutputType.INTEGER, "k"))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(
            () ->
                commands.dispatch(
                    "k",
                    CommandType.PING,
                    new StatusOutput<>(StringCodec.UTF8),
                    new CommandArgs<>(StringCodec.UTF8)))
        .isInstanceOf(IllegalStateException.class);
  }

  /** The command was sent to the node of the shard (where nothing listens) and failed there. */
  private static void assertSentTo(CompletionStage<?> answer, int shard) {
    assertThat(failureOf(answer))
        .isInstanceOfSatisfying(
            CommandFailedException.class,
            failure -> {
              assertThat(failure.attempts()).isNotEmpty();
              assertThat(failure.attempts().get(0).shard()).isEqualTo(shard);
              assertThat(failure.attempts().get(0).nodeId()).isEqualTo("node-" + shard % 3);
            });
  }

  private static Throwable failureOf(CompletionStage<?> stage) {
    try {
      stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError("the command did not fail within 10 s", e);
    }
    throw new AssertionError("the command answered, though nothing listens on its node");
  }
}
