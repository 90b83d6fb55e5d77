package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.CrossShardException;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.ValueListOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * EVAL, EVALSHA and dispatch against real nodes: scripts whose keys share a hash tag run on their
 * shard's leader and answer as on a plain Redis; keys of two shards are refused before anything is
 * sent; dispatched commands answer through the caller's output.
 */
class DriverCommandsScriptingIT {

  @RegisterExtension static final ProcessFixture fixture = new ProcessFixture();

  private static final String SET_BOTH =
      "redis.call('SET', KEYS[1], ARGV[1]) redis.call('SET', KEYS[2], ARGV[2])"
          + " return redis.call('GET', KEYS[1]) .. ':' .. redis.call('GET', KEYS[2])";

  private static DriverCommandsCluster c;
  private static JumpgateCommands<String, String> redis;

  @BeforeAll
  static void start() throws Exception {
    c = DriverCommandsCluster.start(fixture);
    redis = c.sync;
  }

  /** A key of another shard than {@code key}. */
  private static String keyOnAnotherShard(String key) {
    for (int index = 0; ; index++) {
      String other = "elsewhere:" + index;
      if (c.shardOf(other) != c.shardOf(key)) {
        return other;
      }
    }
  }

  @Test
  void should_run_a_script_over_keys_of_one_hash_tag_on_their_leader() throws Exception {
    String[] keys = {"{user42}.name", "{user42}.mail"};
    assertThat(c.shardOf(keys[0])).isEqualTo(c.shardOf(keys[1]));

    String answer = redis.eval(SET_BOTH, ScriptOutputType.VALUE, keys, "Ada", "ada@example.org");

    assertThat(answer)
        .isEqualTo(c.plain("EVAL", SET_BOTH, "2", keys[0], keys[1], "Ada", "ada@example.org"))
        .isEqualTo("Ada:ada@example.org");
    c.assertOnlyOnOwner(keys[0]);
    c.assertOnlyOnOwner(keys[1]);
    // the byte form runs the same script
    String again =
        redis.eval(
            SET_BOTH.getBytes(StandardCharsets.UTF_8), ScriptOutputType.VALUE, keys, "Bob", "b@x");
    assertThat(again).isEqualTo("Bob:b@x");
    assertThat(c.owner(keys[1]).call("GET", keys[1])).isEqualTo("b@x");
  }

  @Test
  void should_type_script_answers_as_lettuce_does() throws Exception {
    String key = "{typed}.k";
    Long integer = redis.eval("return 42", ScriptOutputType.INTEGER, key);
    assertThat(integer).isEqualTo(c.plain("EVAL", "return 42", "1", key)).isEqualTo(42L);
    String status =
        redis.eval("return redis.call('SET', KEYS[1], 'v')", ScriptOutputType.STATUS, key);
    assertThat(status).isEqualTo("OK");
    c.plain("SET", key, "v");
    c.assertOnlyOnOwner(key);
    Boolean yes = redis.eval("return 1", ScriptOutputType.BOOLEAN, key);
    assertThat(yes).isTrue();
    String multi = "return {1, 'two', {3, KEYS[1]}}";
    List<Object> nested = redis.eval(multi, ScriptOutputType.MULTI, key);
    assertThat(nested)
        .isEqualTo(c.plain("EVAL", multi, "1", key))
        .isEqualTo(List.of(1L, "two", List.of(3L, key)));
    // a script error is the caller's answer
    String failing = "return redis.call('INCR', KEYS[1])";
    String error = c.plainError("EVAL", failing, "1", key);
    assertThatThrownBy(() -> redis.eval(failing, ScriptOutputType.INTEGER, key))
        .isInstanceOf(RedisCommandExecutionException.class)
        .hasMessageContaining("not an integer");
    assertThat(error).contains("not an integer");
  }

  @Test
  void should_run_a_loaded_script_by_its_digest_on_the_leader_that_has_it() throws Exception {
    String[] keys = {"{sha}.a", "{sha}.b"};
    RedisProcess owner = c.owner(keys[0]);
    // a text of its own: EVAL caches its scripts, so the other tests' scripts are on other leaders
    String script = SET_BOTH + " -- loaded";
    String digest = (String) owner.call("SCRIPT", "LOAD", script);
    assertThat(digest).isEqualTo(c.plain("SCRIPT", "LOAD", script));

    String answer = redis.evalsha(digest, ScriptOutputType.VALUE, keys, "1", "2");
    assertThat(answer).isEqualTo(c.plain("EVALSHA", digest, "2", keys[0], keys[1], "1", "2"));
    assertThat(answer).isEqualTo("1:2");
    c.assertOnlyOnOwner(keys[0]);

    // another leader never loaded it: NOSCRIPT, as Redis says
    String elsewhere = keyOnAnotherOwner(keys[0]);
    assertThatThrownBy(() -> redis.evalsha(digest, ScriptOutputType.VALUE, elsewhere))
        .isInstanceOf(RedisNoScriptException.class)
        .hasMessageStartingWith("NOSCRIPT");
  }

  private static String keyOnAnotherOwner(String key) {
    for (int index = 0; ; index++) {
      String other = "other-owner:" + index;
      if (c.owner(other) != c.owner(key)) {
        return other;
      }
    }
  }

  @Test
  void should_refuse_a_script_over_two_shards_without_sending_it() throws Exception {
    String first = "{cross}.a";
    String other = keyOnAnotherShard(first);
    String[] keys = {first, "{cross}.b", other};
    String script = "redis.call('SET', KEYS[1], 'x') redis.call('SET', KEYS[3], 'x') return 1";

    assertThatThrownBy(() -> redis.eval(script, ScriptOutputType.INTEGER, keys))
        .isInstanceOfSatisfying(
            CrossShardException.class,
            e -> {
              assertThat(e.firstShard()).isEqualTo(c.shardOf(first));
              assertThat(e.otherShard()).isEqualTo(c.shardOf(other));
              assertThat(e.getMessage()).contains("key 2 on shard " + c.shardOf(other));
            });
    assertThatThrownBy(() -> c.async.eval(script, ScriptOutputType.INTEGER, keys))
        .isInstanceOf(CrossShardException.class);
    assertThatThrownBy(
            () -> c.connection.reactive().eval(script, ScriptOutputType.INTEGER, keys).block())
        .isInstanceOf(CrossShardException.class);
    // had the script run anywhere, it would have written its first key
    c.assertNowhere(first);
    c.assertNowhere(other);

    assertThatThrownBy(() -> redis.eval(script, ScriptOutputType.INTEGER))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void should_dispatch_a_command_to_the_leader_of_the_routing_key() throws Exception {
    String key = "dispatch:h";
    BooleanOutput<String, String> first = new BooleanOutput<>(StringCodec.UTF8);
    Boolean added =
        redis.dispatch(
            key, CommandType.HSETNX, first, args().addKey(key).addKey("f").addValue("v"));
    assertThat(added)
        .isEqualTo(DriverCommandsCluster.bool(c.plain("HSETNX", key, "f", "v")))
        .isTrue();
    assertThat(first.get()).isTrue();
    Boolean again =
        redis.dispatch(
            key,
            CommandType.HSETNX,
            new BooleanOutput<>(StringCodec.UTF8),
            args().addKey(key).addKey("f").addValue("w"));
    assertThat(again)
        .isEqualTo(DriverCommandsCluster.bool(c.plain("HSETNX", key, "f", "w")))
        .isFalse();
    c.assertOnlyOnOwner(key);

    Long length =
        redis.dispatch(
            key,
            CommandType.HSTRLEN,
            new IntegerOutput<>(StringCodec.UTF8),
            args().addKey(key).addKey("f"));
    assertThat(length).isEqualTo(c.plain("HSTRLEN", key, "f")).isEqualTo(1L);

    redis.rpush("dispatch:l", "a", "b", "c");
    ValueListOutput<String, String> list = new ValueListOutput<>(StringCodec.UTF8);
    List<String> range =
        c.async
            .dispatch(
                "dispatch:l", CommandType.LRANGE, list, args().addKey("dispatch:l").add(0).add(-1))
            .toCompletableFuture()
            .get();
    assertThat(range).containsExactly("a", "b", "c").isSameAs(list.get());

    // a server error fails the call and leaves the output as it was
    IntegerOutput<String, String> untouched = new IntegerOutput<>(StringCodec.UTF8);
    assertThatThrownBy(() -> redis.dispatch(key, CommandType.INCR, untouched, args().addKey(key)))
        .isInstanceOf(RedisCommandExecutionException.class)
        .hasMessageStartingWith("WRONGTYPE");
    assertThat(untouched.hasError()).isFalse();
    assertThat(untouched.get()).isNull();
  }

  private static CommandArgs<String, String> args() {
    return new CommandArgs<>(StringCodec.UTF8);
  }
}
