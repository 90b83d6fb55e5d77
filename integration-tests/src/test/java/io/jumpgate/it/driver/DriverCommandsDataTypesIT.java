package io.jumpgate.it.driver;

import static io.jumpgate.it.driver.DriverCommandsCluster.bool;
import static io.jumpgate.it.driver.DriverCommandsCluster.decimal;
import static io.jumpgate.it.driver.DriverCommandsCluster.hash;
import static io.jumpgate.it.driver.DriverCommandsCluster.keyValues;
import static io.jumpgate.it.driver.DriverCommandsCluster.scored;
import static io.jumpgate.it.driver.DriverCommandsCluster.set;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateReactiveCommands;
import io.jumpgate.it.fixture.ProcessFixture;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.Range.Boundary;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.ZAddArgs;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Hash, list, set and sorted-set commands against real nodes: each answers as a plain Redis does,
 * and the data lands on the key's leader only. Then the three views give the same answers.
 */
class DriverCommandsDataTypesIT {

  @RegisterExtension static final ProcessFixture fixture = new ProcessFixture();

  private static DriverCommandsCluster c;
  private static JumpgateCommands<String, String> redis;

  @BeforeAll
  static void start() throws Exception {
    c = DriverCommandsCluster.start(fixture);
    redis = c.sync;
  }

  @Test
  void should_run_hash_commands_as_redis_does_on_the_leader_of_the_key() throws Exception {
    String key = "hash:1";
    assertThat(redis.hset(key, "a", "1")).isEqualTo(bool(c.plain("HSET", key, "a", "1"))).isTrue();
    assertThat(redis.hset(key, "a", "2")).isEqualTo(bool(c.plain("HSET", key, "a", "2"))).isFalse();
    Map<String, String> more = new LinkedHashMap<>();
    more.put("a", "3");
    more.put("b", "4");
    more.put("n", "10");
    assertThat(redis.hset(key, more))
        .isEqualTo(c.plain("HSET", key, "a", "3", "b", "4", "n", "10"))
        .isEqualTo(2L);

    assertThat(redis.hget(key, "b")).isEqualTo(c.plain("HGET", key, "b")).isEqualTo("4");
    assertThat(redis.hget(key, "missing")).isEqualTo(c.plain("HGET", key, "missing")).isNull();
    assertThat(redis.hget("hash:missing", "a")).isNull();
    assertThat(redis.hmget(key, "b", "missing", "a"))
        .isEqualTo(
            keyValues(List.of("b", "missing", "a"), c.plain("HMGET", key, "b", "missing", "a")));
    assertThat(redis.hmget(key, "b", "missing").get(1).hasValue()).isFalse();
    assertThat(redis.hgetall(key)).isEqualTo(hash(c.plain("HGETALL", key)));
    assertThat(redis.hgetall("hash:missing")).isEmpty();
    assertThat(redis.hkeys(key)).isEqualTo(c.plain("HKEYS", key));
    assertThat(redis.hvals(key)).isEqualTo(c.plain("HVALS", key));
    assertThat(redis.hexists(key, "a")).isEqualTo(bool(c.plain("HEXISTS", key, "a"))).isTrue();
    assertThat(redis.hexists(key, "z")).isEqualTo(bool(c.plain("HEXISTS", key, "z"))).isFalse();
    assertThat(redis.hincrby(key, "n", 5))
        .isEqualTo(c.plain("HINCRBY", key, "n", "5"))
        .isEqualTo(15L);
    assertThat(redis.hincrby(key, "new", -2)).isEqualTo(c.plain("HINCRBY", key, "new", "-2"));
    assertThat(redis.hlen(key)).isEqualTo(c.plain("HLEN", key)).isEqualTo(4L);
    c.assertOnlyOnOwner(key);

    assertThat(redis.hdel(key, "a", "missing"))
        .isEqualTo(c.plain("HDEL", key, "a", "missing"))
        .isEqualTo(1L);
    assertThat(redis.hlen("hash:missing")).isZero();
    c.assertOnlyOnOwner(key);

    // a server error is the caller's answer, as on a plain Redis
    redis.set("hash:string", "x");
    c.plain("SET", "hash:string", "x");
    String wrongType = c.plainError("HGET", "hash:string", "a");
    assertThatThrownBy(() -> redis.hget("hash:string", "a"))
        .isInstanceOf(RedisCommandExecutionException.class)
        .hasMessage(wrongType);
  }

  @Test
  void should_run_list_commands_as_redis_does_on_the_leader_of_the_key() throws Exception {
    String key = "list:1";
    assertThat(redis.lpush(key, "a", "b", "c"))
        .isEqualTo(c.plain("LPUSH", key, "a", "b", "c"))
        .isEqualTo(3L);
    assertThat(redis.rpush(key, "d", "e", "f", "g"))
        .isEqualTo(c.plain("RPUSH", key, "d", "e", "f", "g"))
        .isEqualTo(7L);
    assertThat(redis.lrange(key, 0, -1))
        .isEqualTo(c.plain("LRANGE", key, "0", "-1"))
        .containsExactly("c", "b", "a", "d", "e", "f", "g");
    assertThat(redis.lrange(key, 1, 2)).isEqualTo(c.plain("LRANGE", key, "1", "2"));
    assertThat(redis.lrange("list:missing", 0, -1)).isEmpty();
    assertThat(redis.llen(key)).isEqualTo(c.plain("LLEN", key)).isEqualTo(7L);
    assertThat(redis.lindex(key, 1)).isEqualTo(c.plain("LINDEX", key, "1")).isEqualTo("b");
    assertThat(redis.lindex(key, -1)).isEqualTo(c.plain("LINDEX", key, "-1")).isEqualTo("g");
    assertThat(redis.lindex(key, 99)).isEqualTo(c.plain("LINDEX", key, "99")).isNull();
    c.assertOnlyOnOwner(key);

    assertThat(redis.lpop(key)).isEqualTo(c.plain("LPOP", key)).isEqualTo("c");
    assertThat(redis.rpop(key)).isEqualTo(c.plain("RPOP", key)).isEqualTo("g");
    assertThat(redis.lpop(key, 2)).isEqualTo(c.plain("LPOP", key, "2")).containsExactly("b", "a");
    assertThat(redis.rpop(key, 2)).isEqualTo(c.plain("RPOP", key, "2")).containsExactly("f", "e");
    c.assertOnlyOnOwner(key);
    assertThat(redis.rpop(key, 5)).isEqualTo(c.plain("RPOP", key, "5")).containsExactly("d");
    c.assertNowhere(key);

    assertThat(redis.lpop("list:missing")).isEqualTo(c.plain("LPOP", "list:missing")).isNull();
    assertThat(redis.rpop("list:missing")).isNull();
    assertThat(c.plain("LPOP", "list:missing", "2")).isNull();
    assertThat(redis.lpop("list:missing", 2)).isEmpty();
    assertThat(redis.rpop("list:missing", 2)).isEmpty();
    assertThat(redis.llen("list:missing")).isZero();
  }

  @Test
  void should_run_set_commands_as_redis_does_on_the_leader_of_the_key() throws Exception {
    String key = "set:1";
    assertThat(redis.sadd(key, "a", "b", "c", "a"))
        .isEqualTo(c.plain("SADD", key, "a", "b", "c", "a"))
        .isEqualTo(3L);
    assertThat(redis.sadd(key, "c", "d")).isEqualTo(c.plain("SADD", key, "c", "d")).isEqualTo(1L);
    assertThat(redis.smembers(key))
        .isEqualTo(set(c.plain("SMEMBERS", key)))
        .containsOnly("a", "b", "c", "d");
    assertThat(redis.smembers("set:missing")).isEmpty();
    assertThat(redis.sismember(key, "b")).isEqualTo(bool(c.plain("SISMEMBER", key, "b"))).isTrue();
    assertThat(redis.sismember(key, "z")).isEqualTo(bool(c.plain("SISMEMBER", key, "z"))).isFalse();
    assertThat(redis.scard(key)).isEqualTo(c.plain("SCARD", key)).isEqualTo(4L);
    assertThat(redis.srem(key, "a", "z")).isEqualTo(c.plain("SREM", key, "a", "z")).isEqualTo(1L);
    assertThat(redis.scard("set:missing")).isZero();
    c.assertOnlyOnOwner(key);
  }

  @Test
  void should_run_sorted_set_commands_as_redis_does_on_the_leader_of_the_key() throws Exception {
    String key = "zset:1";
    assertThat(redis.zadd(key, 1.0, "a")).isEqualTo(c.plain("ZADD", key, "1", "a")).isEqualTo(1L);
    assertThat(
            redis.zadd(
                key,
                ScoredValue.just(2, "b"),
                ScoredValue.just(3.5, "c"),
                ScoredValue.just(1, "a")))
        .isEqualTo(c.plain("ZADD", key, "2", "b", "3.5", "c", "1", "a"))
        .isEqualTo(2L);
    assertThat(redis.zadd(key, ZAddArgs.Builder.nx(), 10, "a"))
        .isEqualTo(c.plain("ZADD", key, "NX", "10", "a"))
        .isZero();
    assertThat(
            redis.zadd(
                key,
                ZAddArgs.Builder.xx().ch(),
                ScoredValue.just(5, "b"),
                ScoredValue.just(6, "new")))
        .isEqualTo(c.plain("ZADD", key, "XX", "CH", "5", "b", "6", "new"))
        .isEqualTo(1L);
    assertThat(redis.zadd(key, -7.25, "d")).isEqualTo(c.plain("ZADD", key, "-7.25", "d"));

    assertThat(redis.zscore(key, "c"))
        .isEqualTo(decimal(c.plain("ZSCORE", key, "c")))
        .isEqualTo(3.5);
    assertThat(redis.zscore(key, "missing"))
        .isEqualTo(decimal(c.plain("ZSCORE", key, "missing")))
        .isNull();
    assertThat(redis.zincrby(key, 1.5, "a"))
        .isEqualTo(decimal(c.plain("ZINCRBY", key, "1.5", "a")))
        .isEqualTo(2.5);
    assertThat(redis.zcard(key)).isEqualTo(c.plain("ZCARD", key)).isEqualTo(4L);
    assertThat(redis.zrank(key, "a")).isEqualTo(c.plain("ZRANK", key, "a")).isEqualTo(1L);
    assertThat(redis.zrank(key, "missing")).isEqualTo(c.plain("ZRANK", key, "missing")).isNull();

    assertThat(redis.zrange(key, 0, -1))
        .isEqualTo(c.plain("ZRANGE", key, "0", "-1"))
        .containsExactly("d", "a", "c", "b");
    assertThat(redis.zrange(key, 1, 2)).isEqualTo(c.plain("ZRANGE", key, "1", "2"));
    assertThat(redis.zrangeWithScores(key, 0, -1))
        .isEqualTo(scored(c.plain("ZRANGE", key, "0", "-1", "WITHSCORES")))
        .first()
        .isEqualTo(ScoredValue.just(-7.25, "d"));
    assertThat(redis.zrange("zset:missing", 0, -1)).isEmpty();

    assertThat(redis.zrangebyscore(key, Range.create(2, 5)))
        .isEqualTo(c.plain("ZRANGEBYSCORE", key, "2", "5"))
        .containsExactly("a", "c", "b");
    assertThat(redis.zrangebyscore(key, Range.from(Boundary.excluding(2.5), Boundary.unbounded())))
        .isEqualTo(c.plain("ZRANGEBYSCORE", key, "(2.5", "+inf"))
        .containsExactly("c", "b");
    assertThat(redis.zrangebyscore(key, Range.create(Double.NEGATIVE_INFINITY, 3.5)))
        .isEqualTo(c.plain("ZRANGEBYSCORE", key, "-inf", "3.5"))
        .containsExactly("d", "a", "c");
    assertThat(redis.zrangebyscore(key, Range.unbounded(), Limit.create(1, 2)))
        .isEqualTo(c.plain("ZRANGEBYSCORE", key, "-inf", "+inf", "LIMIT", "1", "2"))
        .containsExactly("a", "c");
    assertThat(redis.zrangebyscore(key, Range.create(-100L, 100L), Limit.unlimited())).hasSize(4);
    c.assertOnlyOnOwner(key);

    assertThat(redis.zrem(key, "a", "missing"))
        .isEqualTo(c.plain("ZREM", key, "a", "missing"))
        .isEqualTo(1L);
    c.assertOnlyOnOwner(key);
  }

  @Test
  void should_give_the_same_answers_through_the_three_views() throws Exception {
    JumpgateAsyncCommands<String, String> async = c.async;
    JumpgateReactiveCommands<String, String> reactive = c.connection.reactive();
    redis.hset("views:h", Map.of("a", "1", "b", "2"));
    redis.rpush("views:l", "x", "y", "z");
    redis.sadd("views:s", "p", "q");
    redis.zadd("views:z", ScoredValue.just(1, "m"), ScoredValue.just(2, "n"));
    redis.set("{views}.1", "one");
    redis.set("{views}.2", "two");
    String[] several = {"views:h", "views:l", "views:s", "views:z", "views:missing"};

    assertSame(redis.hgetall("views:h"), async.hgetall("views:h"), reactive.hgetall("views:h"));
    assertSame(
        redis.hget("views:h", "zz"), async.hget("views:h", "zz"), reactive.hget("views:h", "zz"));
    assertSame(
        redis.hmget("views:h", "a", "zz"),
        async.hmget("views:h", "a", "zz"),
        reactive.hmget("views:h", "a", "zz"));
    assertSame(
        redis.lrange("views:l", 0, -1),
        async.lrange("views:l", 0, -1),
        reactive.lrange("views:l", 0, -1));
    assertSameSet(
        redis.smembers("views:s"), async.smembers("views:s"), reactive.smembers("views:s"));
    assertSame(
        redis.zrangeWithScores("views:z", 0, -1),
        async.zrangeWithScores("views:z", 0, -1),
        reactive.zrangeWithScores("views:z", 0, -1));
    assertSame(
        redis.zscore("views:z", "n"),
        async.zscore("views:z", "n"),
        reactive.zscore("views:z", "n"));
    assertSame(redis.exists(several), async.exists(several), reactive.exists(several));
    assertSame(redis.type("views:z"), async.type("views:z"), reactive.type("views:z"));
    String script = "return redis.call('GET', KEYS[1]) .. redis.call('GET', KEYS[2])";
    String[] tagged = {"{views}.1", "{views}.2"};
    assertSame(
        redis.<String>eval(script, ScriptOutputType.VALUE, tagged),
        async.<String>eval(script, ScriptOutputType.VALUE, tagged),
        reactive.<String>eval(script, ScriptOutputType.VALUE, tagged));
    assertThat(redis.<String>eval(script, ScriptOutputType.VALUE, tagged)).isEqualTo("onetwo");

    // a write through each view
    assertThat(redis.del("views:h")).isEqualTo(1L);
    assertThat(async.del("views:l").toCompletableFuture().get(5, TimeUnit.SECONDS)).isEqualTo(1L);
    assertThat(reactive.del("views:s", "views:z", "views:missing").block(Duration.ofSeconds(5)))
        .isEqualTo(2L);
    assertThat(redis.exists(several)).isZero();
  }

  private static <T> void assertSame(T blocking, CompletionStage<T> async, Mono<T> reactive)
      throws Exception {
    assertThat(async.toCompletableFuture().get(5, TimeUnit.SECONDS)).isEqualTo(blocking);
    assertThat(reactive.block(Duration.ofSeconds(5))).isEqualTo(blocking);
  }

  private static <T> void assertSame(
      List<T> blocking, CompletionStage<List<T>> async, Flux<T> reactive) throws Exception {
    assertThat(async.toCompletableFuture().get(5, TimeUnit.SECONDS)).isEqualTo(blocking);
    assertThat(reactive.collectList().block(Duration.ofSeconds(5))).isEqualTo(blocking);
  }

  private static <T> void assertSameSet(
      Set<T> blocking, CompletionStage<Set<T>> async, Flux<T> reactive) throws Exception {
    assertThat(async.toCompletableFuture().get(5, TimeUnit.SECONDS)).isEqualTo(blocking);
    assertThat(new HashSet<>(reactive.collectList().block(Duration.ofSeconds(5))))
        .isEqualTo(blocking);
  }
}
