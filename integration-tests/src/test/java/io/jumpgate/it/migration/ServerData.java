package io.jumpgate.it.migration;

import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Test data on a redis-server through Lettuce: loading keys of every type, listing keys by shard,
 * and reading a key's value in a form that compares equal across servers whatever the encoding.
 * Close it (the fixture's {@code register}) to close the client.
 */
final class ServerData implements AutoCloseable {

  static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final RedisClient client;
  private final StatefulRedisConnection<String, String> connection;

  ServerData(RedisProcess server) {
    this.client =
        RedisClient.create(
            RedisURI.builder()
                .withHost("127.0.0.1")
                .withPort(server.port())
                .withTimeout(TIMEOUT)
                .build());
    this.connection = client.connect();
  }

  RedisCommands<String, String> sync() {
    return connection.sync();
  }

  /**
   * Loads {@code count} keys named {@code prefix + index}: strings, hashes, lists, sets and sorted
   * sets in turn, one in seven with a TTL of 10 to 20 minutes. Pipelined.
   */
  void load(String prefix, int count) {
    RedisAsyncCommands<String, String> async = connection.async();
    List<RedisFuture<?>> futures = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      String key = prefix + index;
      switch (index % 5) {
        case 0 -> futures.add(async.set(key, "value-" + index));
        case 1 -> futures.add(async.hset(key, Map.of("f1", "a" + index, "f2", "b", "f3", "c")));
        case 2 -> futures.add(async.rpush(key, "x" + index, "y", "z"));
        case 3 -> futures.add(async.sadd(key, "m" + index, "n", "o"));
        default ->
            futures.add(async.zadd(key, ScoredValue.just(index, "s"), ScoredValue.just(1, "t")));
      }
      if (index % 7 == 0) {
        futures.add(async.pexpire(key, 600_000 + index % 600_000));
      }
      if (futures.size() >= 2000) {
        await(futures);
      }
    }
    await(futures);
  }

  private static void await(List<RedisFuture<?>> futures) {
    if (!LettuceFutures.awaitAll(
        TIMEOUT.toMillis(), TimeUnit.MILLISECONDS, futures.toArray(RedisFuture[]::new))) {
      throw new AssertionError("loading keys took longer than " + TIMEOUT);
    }
    futures.clear();
  }

  /** Every key of the server. */
  Set<String> keys() {
    Set<String> keys = new HashSet<>();
    ScanIterator.scan(sync(), ScanArgs.Builder.limit(1000)).forEachRemaining(keys::add);
    return keys;
  }

  /** Every key of the server whose shard is in {@code shards}. */
  Set<String> keysOf(Xxh64JumpRouter router, BitSet shards) {
    Set<String> keys = new TreeSet<>();
    for (String key : keys()) {
      if (shards.get(router.shardOfUtf8(key))) {
        keys.add(key);
      }
    }
    return keys;
  }

  /** The key's type and content, comparable across servers; null if the key does not exist. */
  Object valueOf(String key) {
    RedisCommands<String, String> commands = sync();
    String type = commands.type(key);
    return switch (type) {
      case "none" -> null;
      case "string" -> List.of(type, commands.get(key));
      case "hash" -> List.of(type, new TreeMap<>(commands.hgetall(key)));
      case "list" -> List.of(type, commands.lrange(key, 0, -1));
      case "set" -> List.of(type, new TreeSet<>(commands.smembers(key)));
      case "zset" -> List.of(type, commands.zrangeWithScores(key, 0, -1).toString());
      default -> List.of(type, new String(commands.dump(key), StandardCharsets.ISO_8859_1));
    };
  }

  long pttl(String key) {
    return sync().pttl(key);
  }

  /** DUMP and PTTL of each key, pipelined; a missing key has a null dump. */
  Map<String, Dumped> dumps(List<String> keys) {
    RedisAsyncCommands<String, String> async = connection.async();
    List<RedisFuture<byte[]>> dumps = new ArrayList<>(keys.size());
    List<RedisFuture<Long>> ttls = new ArrayList<>(keys.size());
    for (String key : keys) {
      dumps.add(async.dump(key));
      ttls.add(async.pttl(key));
    }
    Map<String, Dumped> result = new TreeMap<>();
    try {
      for (int index = 0; index < keys.size(); index++) {
        result.put(
            keys.get(index),
            new Dumped(
                dumps.get(index).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS),
                ttls.get(index).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)));
      }
    } catch (Exception e) {
      throw new AssertionError("DUMP/PTTL of " + keys.size() + " keys failed", e);
    }
    return result;
  }

  /** A key's DUMP payload (null if missing) and PTTL. */
  record Dumped(byte[] payload, long pttl) {}

  @Override
  public void close() {
    connection.close();
    client.shutdown(Duration.ZERO, Duration.ofSeconds(5));
  }
}
