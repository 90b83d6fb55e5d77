package io.jumpgate.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.internal.CommandFlags;
import io.jumpgate.spi.InMemoryTopologySource;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.ShardState;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import io.lettuce.core.CompareCondition;
import io.lettuce.core.FlushMode;
import io.lettuce.core.GetExArgs;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.ZAddArgs;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.netty.util.HashedWheelTimer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every command the driver sends, with its class (docs/driver.md, "Retries"), checked against what
 * the driver really does after a try whose outcome is unknown.
 *
 * <p>Each command goes through the public asynchronous API to a shard with a leader and a replica
 * that are both {@link FirstRunLostNode}s: the first run of a command there loses its connection
 * after the write (outcome unknown), a second run gets an error answer that ends it. The class is
 * read from what the nodes saw: a read goes to the replica (read policy REPLICA), a write to the
 * leader; a command run twice by the default client was retried after the unknown outcome, one run
 * twice only by the client with {@link RetryOptions#acceptSecondRunReplies()} is a "same state,
 * different reply" write, one run once by both is never retried. Broadcasts and SCAN pin their
 * node, so for them only "retried or not" can be seen, not "read or write".
 */
class CommandRetryClassTest {

  enum Retry {
    READ_ONLY,
    IDEMPOTENT,
    SAME_STATE_DIFFERENT_REPLY,
    NEVER_RETRIED
  }

  private record Row(
      String label,
      String sent,
      Retry expected,
      boolean pinned,
      Function<JumpgateAsyncCommands<String, String>, CompletionStage<?>> call) {}

  private static final List<Row> ROWS = new ArrayList<>();

  private static void row(
      String label,
      String sent,
      Retry expected,
      Function<JumpgateAsyncCommands<String, String>, CompletionStage<?>> call) {
    ROWS.add(new Row(label, sent, expected, false, call));
  }

  private static void pinned(
      String label,
      String sent,
      Retry expected,
      Function<JumpgateAsyncCommands<String, String>, CompletionStage<?>> call) {
    ROWS.add(new Row(label, sent, expected, true, call));
  }

  static {
    Retry read = Retry.READ_ONLY;
    Retry idempotent = Retry.IDEMPOTENT;
    Retry sameState = Retry.SAME_STATE_DIFFERENT_REPLY;
    Retry never = Retry.NEVER_RETRIED;
    // strings
    row("GET", "GET", read, r -> r.get("k"));
    row("SET", "SET", idempotent, r -> r.set("k", "v"));
    row("SET EX", "SET", idempotent, r -> r.set("k", "v", SetArgs.Builder.ex(10)));
    row("SET PX KEEPTTL", "SET", idempotent, r -> r.set("k", "v", SetArgs.Builder.keepttl()));
    row("SET NX", "SET", sameState, r -> r.set("k", "v", SetArgs.Builder.nx()));
    row("SET XX EX", "SET", sameState, r -> r.set("k", "v", SetArgs.Builder.xx().ex(10)));
    row("SET ... GET", "SET", sameState, r -> r.setGet("k", "v"));
    row("SET NX GET", "SET", sameState, r -> r.setGet("k", "v", SetArgs.Builder.nx()));
    row("SETNX", "SETNX", sameState, r -> r.setnx("k", "v"));
    row("SETEX", "SETEX", idempotent, r -> r.setex("k", 10, "v"));
    row("GETSET", "GETSET", sameState, r -> r.getset("k", "v"));
    row("GETDEL", "GETDEL", sameState, r -> r.getdel("k"));
    row("GETEX", "GETEX", sameState, r -> r.getex("k", GetExArgs.Builder.ex(10)));
    row("INCR", "INCR", never, r -> r.incr("k"));
    row("INCRBY", "INCRBY", never, r -> r.incrby("k", 2));
    row("INCRBYFLOAT", "INCRBYFLOAT", never, r -> r.incrbyfloat("k", 0.5));
    row("DECR", "DECR", never, r -> r.decr("k"));
    row("DECRBY", "DECRBY", never, r -> r.decrby("k", 2));
    row("APPEND", "APPEND", never, r -> r.append("k", "v"));
    row("STRLEN", "STRLEN", read, r -> r.strlen("k"));
    row("GETRANGE", "GETRANGE", read, r -> r.getrange("k", 0, 3));
    row("SETRANGE", "SETRANGE", idempotent, r -> r.setrange("k", 2, "v"));
    row("MGET", "MGET", read, r -> r.mget("{k}a", "{k}b"));
    row("MSET", "MSET", idempotent, r -> r.mset(Map.of("{k}a", "1", "{k}b", "2")));
    // keys
    row("DEL", "DEL", sameState, r -> r.del("k"));
    row("DEL of keys", "DEL", sameState, r -> r.del("{k}a", "{k}b"));
    row("UNLINK", "UNLINK", sameState, r -> r.unlink("k"));
    row("UNLINK of keys", "UNLINK", sameState, r -> r.unlink("{k}a", "{k}b"));
    row("EXISTS", "EXISTS", read, r -> r.exists("k"));
    row("EXISTS of keys", "EXISTS", read, r -> r.exists("{k}a", "{k}b"));
    row("TOUCH", "TOUCH", idempotent, r -> r.touch("k"));
    row("TOUCH of keys", "TOUCH", idempotent, r -> r.touch("{k}a", "{k}b"));
    row("EXPIRE", "EXPIRE", sameState, r -> r.expire("k", 10));
    row("PEXPIRE", "PEXPIRE", sameState, r -> r.pexpire("k", 10_000));
    row("EXPIREAT", "EXPIREAT", sameState, r -> r.expireat("k", 4_000_000_000L));
    row("PERSIST", "PERSIST", sameState, r -> r.persist("k"));
    row("TTL", "TTL", read, r -> r.ttl("k"));
    row("PTTL", "PTTL", read, r -> r.pttl("k"));
    row("TYPE", "TYPE", read, r -> r.type("k"));
    // hashes
    row("HSET field", "HSET", sameState, r -> r.hset("k", "f", "v"));
    row("HSET map", "HSET", sameState, r -> r.hset("k", Map.of("f", "v")));
    row("HGET", "HGET", read, r -> r.hget("k", "f"));
    row("HMGET", "HMGET", read, r -> r.hmget("k", "f", "g"));
    row("HGETALL", "HGETALL", read, r -> r.hgetall("k"));
    row("HDEL", "HDEL", sameState, r -> r.hdel("k", "f"));
    row("HEXISTS", "HEXISTS", read, r -> r.hexists("k", "f"));
    row("HINCRBY", "HINCRBY", never, r -> r.hincrby("k", "f", 1));
    row("HLEN", "HLEN", read, r -> r.hlen("k"));
    row("HKEYS", "HKEYS", read, r -> r.hkeys("k"));
    row("HVALS", "HVALS", read, r -> r.hvals("k"));
    // lists
    row("LPUSH", "LPUSH", never, r -> r.lpush("k", "v"));
    row("RPUSH", "RPUSH", never, r -> r.rpush("k", "v"));
    row("LPOP", "LPOP", never, r -> r.lpop("k"));
    row("LPOP count", "LPOP", never, r -> r.lpop("k", 2));
    row("RPOP", "RPOP", never, r -> r.rpop("k"));
    row("RPOP count", "RPOP", never, r -> r.rpop("k", 2));
    row("LRANGE", "LRANGE", read, r -> r.lrange("k", 0, -1));
    row("LLEN", "LLEN", read, r -> r.llen("k"));
    row("LINDEX", "LINDEX", read, r -> r.lindex("k", 0));
    // sets
    row("SADD", "SADD", sameState, r -> r.sadd("k", "m"));
    row("SREM", "SREM", sameState, r -> r.srem("k", "m"));
    row("SMEMBERS", "SMEMBERS", read, r -> r.smembers("k"));
    row("SISMEMBER", "SISMEMBER", read, r -> r.sismember("k", "m"));
    row("SCARD", "SCARD", read, r -> r.scard("k"));
    // sorted sets
    row("ZADD", "ZADD", sameState, r -> r.zadd("k", 1.0, "m"));
    row("ZADD scored values", "ZADD", sameState, r -> r.zadd("k", ScoredValue.just(1.0, "m")));
    row("ZADD NX", "ZADD", sameState, r -> r.zadd("k", ZAddArgs.Builder.nx(), 1.0, "m"));
    row(
        "ZADD GT CH scored values",
        "ZADD",
        sameState,
        r -> r.zadd("k", ZAddArgs.Builder.gt().ch(), ScoredValue.just(1.0, "m")));
    row("ZREM", "ZREM", sameState, r -> r.zrem("k", "m"));
    row("ZSCORE", "ZSCORE", read, r -> r.zscore("k", "m"));
    row("ZINCRBY", "ZINCRBY", never, r -> r.zincrby("k", 1.0, "m"));
    row("ZRANGE", "ZRANGE", read, r -> r.zrange("k", 0, -1));
    row("ZRANGE WITHSCORES", "ZRANGE", read, r -> r.zrangeWithScores("k", 0, -1));
    row("ZRANGEBYSCORE", "ZRANGEBYSCORE", read, r -> r.zrangebyscore("k", Range.create(0, 9)));
    row(
        "ZRANGEBYSCORE LIMIT",
        "ZRANGEBYSCORE",
        read,
        r -> r.zrangebyscore("k", Range.create(0, 9), Limit.create(0, 5)));
    row("ZCARD", "ZCARD", read, r -> r.zcard("k"));
    row("ZRANK", "ZRANK", read, r -> r.zrank("k", "m"));
    // scripts and dispatch
    row("EVAL", "EVAL", never, r -> r.eval("return 1", ScriptOutputType.INTEGER, "k"));
    row(
        "EVAL with arguments",
        "EVAL",
        never,
        r -> r.eval("return 1", ScriptOutputType.INTEGER, new String[] {"k"}, "a"));
    row(
        "EVAL bytes",
        "EVAL",
        never,
        r -> r.eval("return 1".getBytes(), ScriptOutputType.INTEGER, "k"));
    row(
        "EVAL bytes with arguments",
        "EVAL",
        never,
        r -> r.eval("return 1".getBytes(), ScriptOutputType.INTEGER, new String[] {"k"}, "a"));
    row("EVALSHA", "EVALSHA", never, r -> r.evalsha("0123abcd", ScriptOutputType.INTEGER, "k"));
    row(
        "EVALSHA with arguments",
        "EVALSHA",
        never,
        r -> r.evalsha("0123abcd", ScriptOutputType.INTEGER, new String[] {"k"}, "a"));
    row(
        "dispatch",
        "SET",
        never,
        r ->
            r.dispatch(
                "k",
                CommandType.SET,
                new StatusOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).addKey("k").addValue("v")));
    // broadcasts and SCAN: the node is chosen by the command, whatever its flags
    pinned("PING", "PING", read, JumpgateServerAsyncCommands::ping);
    pinned("DBSIZE", "DBSIZE", read, JumpgateServerAsyncCommands::dbsize);
    pinned("FLUSHDB", "FLUSHDB", idempotent, JumpgateServerAsyncCommands::flushdb);
    pinned("FLUSHDB ASYNC", "FLUSHDB", idempotent, r -> r.flushdb(FlushMode.ASYNC));
    pinned("FLUSHALL", "FLUSHALL", idempotent, JumpgateServerAsyncCommands::flushall);
    pinned("FLUSHALL SYNC", "FLUSHALL", idempotent, r -> r.flushall(FlushMode.SYNC));
    pinned("KEYS", "KEYS", read, r -> r.keys("*"));
    pinned("INFO", "INFO", read, JumpgateServerAsyncCommands::info);
    pinned("INFO section", "INFO", read, r -> r.info("server"));
    pinned("SCAN", "SCAN", read, JumpgateServerAsyncCommands::scan);
    pinned("SCAN MATCH", "SCAN", read, r -> r.scan(ScanArgs.Builder.matches("k*")));
  }

  private static FirstRunLostNode leader;
  private static FirstRunLostNode replica;
  private static HashedWheelTimer timer;
  private static ClientResources resources;
  private static JumpgateClient byDefault;
  private static JumpgateClient acceptingSecondRunReplies;

  @BeforeAll
  static void start() {
    leader = new FirstRunLostNode();
    replica = new FirstRunLostNode();
    // Each first run closes a connection: reconnect at once, not after Lettuce's growing delay on
    // its timer's 100 ms ticks.
    timer = new HashedWheelTimer(1, TimeUnit.MILLISECONDS);
    resources =
        DefaultClientResources.builder()
            .timer(timer)
            .reconnectDelay(Delay.constant(Duration.ofMillis(1)))
            .build();
    RetryOptions retry =
        RetryOptions.builder()
            .maxAttempts(10)
            .backoff(Duration.ofMillis(5), Duration.ofMillis(10))
            .build();
    byDefault = client(retry);
    acceptingSecondRunReplies = client(retry.mutate().acceptSecondRunReplies(true).build());
  }

  private static JumpgateClient client(RetryOptions retry) {
    return JumpgateClient.create(
        JumpgateOptions.builder()
            .topologySource(oneShardGroup(leader.port(), replica.port()))
            .readPolicy(ReadPolicy.REPLICA)
            .retry(retry)
            .commandTimeout(Duration.ofSeconds(5))
            .clientResources(resources)
            .build());
  }

  @AfterAll
  static void stop() {
    try {
      if (byDefault != null) {
        byDefault.close();
      }
      if (acceptingSecondRunReplies != null) {
        acceptingSecondRunReplies.close();
      }
    } finally {
      resources.shutdown();
      timer.stop();
      leader.close();
      replica.close();
    }
  }

  @Test
  void should_retry_each_command_after_an_unknown_outcome_as_its_class_says() throws Exception {
    JumpgateAsyncCommands<String, String> plain = byDefault.connect().async();
    JumpgateAsyncCommands<String, String> accepting = acceptingSecondRunReplies.connect().async();
    Map<String, String> expected = new LinkedHashMap<>();
    Map<String, String> observed = new LinkedHashMap<>();
    for (Row row : ROWS) {
      Runs first = run(row, plain);
      Runs second = run(row, accepting);
      expected.put(row.label(), describe(row.expected(), row.pinned()));
      observed.put(row.label(), classOf(row, first, second));
    }
    assertThat(observed)
        .as("class of each command, as seen after an unknown outcome")
        .containsExactlyEntriesOf(expected);
  }

  @Test
  void should_class_set_by_its_options() {
    assertThat(setFlags(new SetArgs().ex(10).px(5))).isEqualTo(CommandFlags.IDEMPOTENT_WRITE);
    assertThat(setFlags(new SetArgs().exAt(Instant.ofEpochSecond(4_000_000_000L)).keepttl()))
        .isEqualTo(CommandFlags.IDEMPOTENT_WRITE);
    assertThat(setFlags(new SetArgs().nx().ex(10))).isEqualTo(CommandFlags.SAME_STATE_WRITE);
    assertThat(setFlags(new SetArgs().xx())).isEqualTo(CommandFlags.SAME_STATE_WRITE);
    assertThat(setFlags(new SetArgs().compareCondition(CompareCondition.valueEq("a NX"))))
        .isEqualTo(CommandFlags.SAME_STATE_WRITE);
    CommandArgs<String, String> unknown = new CommandArgs<>(StringCodec.UTF8).add("FUTURE");
    assertThat(CommandFlags.ofSetOptions(unknown)).isEqualTo(CommandFlags.NON_IDEMPOTENT_WRITE);
  }

  private static int setFlags(SetArgs setArgs) {
    CommandArgs<String, String> options = new CommandArgs<>(StringCodec.UTF8);
    setArgs.build(options);
    return CommandFlags.ofSetOptions(options);
  }

  /** How many times the leader and the replica ran one call of the row's command. */
  private record Runs(int onLeader, int onReplica) {
    int most() {
      return Math.max(onLeader, onReplica);
    }
  }

  private static Runs run(Row row, JumpgateAsyncCommands<String, String> redis) throws Exception {
    leader.forget();
    replica.forget();
    CompletableFuture<?> call = row.call().apply(redis).toCompletableFuture();
    // it ends either way: failed after the lost first run, or with the second run's error answer
    try {
      call.handle((answer, error) -> null).get(10, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError(row.label() + " did not end within 10 s", e);
    }
    return new Runs(leader.runs(row.sent()), replica.runs(row.sent()));
  }

  private static String classOf(Row row, Runs byDefault, Runs accepting) {
    if (byDefault.most() == 0 || accepting.most() == 0) {
      return "never reached a node";
    }
    boolean retried = byDefault.most() >= 2;
    boolean retriedWhenAccepting = accepting.most() >= 2;
    if (!retried && !retriedWhenAccepting) {
      return describe(Retry.NEVER_RETRIED, row.pinned());
    }
    if (!retried) {
      return describe(Retry.SAME_STATE_DIFFERENT_REPLY, row.pinned());
    }
    if (!retriedWhenAccepting) {
      return "retried only without acceptSecondRunReplies";
    }
    if (row.pinned()) {
      return describe(Retry.READ_ONLY, true);
    }
    // A read's first try goes to the replica (a fan-out part's retry may go to the leader).
    boolean read = byDefault.onReplica() > 0 && accepting.onReplica() > 0;
    return describe(read ? Retry.READ_ONLY : Retry.IDEMPOTENT, false);
  }

  /** The class as it can be seen: for a pinned command, reads and idempotent writes look alike. */
  private static String describe(Retry retry, boolean pinned) {
    if (pinned && (retry == Retry.READ_ONLY || retry == Retry.IDEMPOTENT)) {
      return "retried (read-only or idempotent; node pinned)";
    }
    return switch (retry) {
      case READ_ONLY -> "read-only (replica), retried";
      case IDEMPOTENT -> "idempotent write (leader), retried";
      case SAME_STATE_DIFFERENT_REPLY -> "same state, different reply: retried only if accepted";
      case NEVER_RETRIED -> "never retried";
    };
  }

  /** Every shard led by one node with one replica: the two {@link FirstRunLostNode}s. */
  private static InMemoryTopologySource oneShardGroup(int leaderPort, int replicaPort) {
    int shards = 16;
    Node leaderNode = Node.of("leader", "127.0.0.1", leaderPort);
    Node replicaNode = Node.of("replica", "127.0.0.1", replicaPort);
    Map<String, Node> nodes = new LinkedHashMap<>();
    nodes.put(leaderNode.id(), leaderNode);
    nodes.put(replicaNode.id(), replicaNode);
    ShardRoute[] routes = new ShardRoute[shards];
    for (int shard = 0; shard < shards; shard++) {
      routes[shard] =
          ShardRoute.of(shard, leaderNode, List.of(replicaNode), 0, ShardState.ACTIVE, 1);
    }
    return InMemoryTopologySource.of(
        TopologySnapshot.create(
            "unit", 1, TopologyMetadata.of(shards), nodes, routes, List.of(), Instant.now()),
        "one leader and one replica for every shard");
  }
}
