package io.jumpgate.spring.data.internal;

import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.TopologySnapshot;
import java.nio.charset.StandardCharsets;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.springframework.dao.InvalidDataAccessApiUsageException;

/**
 * The rule for commands whose keys Redis requires on one server (RENAME, SMOVE, SINTERSTORE, LMOVE,
 * ...): every key must hash to one shard of the current map, else the command is refused with
 * {@link InvalidDataAccessApiUsageException} naming the command, the shards, their leaders and a
 * key of each, before anything is sent. The shard of a key is computed on its bytes exactly as the
 * driver and {@code jumpgate route} compute it (XXH64 of the key or of its hash tag, jump hash).
 *
 * <p>Thread-safe and lock-free: the router for the map's shard count is kept in a volatile field
 * and replaced when the count changes.
 */
public final class OneShardRule {

  private static final int MAX_KEY_CHARS_SHOWN = 64;

  private final Supplier<TopologySnapshot> topology;
  private volatile Xxh64JumpRouter router;

  /**
   * @param topology the map in force, read on every check (the client's {@code topology()})
   */
  public OneShardRule(Supplier<TopologySnapshot> topology) {
    this.topology = topology;
  }

  /**
   * Returns the shard of all the keys, or throws when they are on more than one shard.
   *
   * @param command the command's name as the error should say it, e.g. {@code "RENAME"}
   * @param keys at least one key
   * @throws InvalidDataAccessApiUsageException when the keys are on two shards or more, or no key
   *     was given
   */
  public int requireOneShard(String command, byte[]... keys) {
    if (keys == null || keys.length == 0) {
      throw new InvalidDataAccessApiUsageException(command + " needs at least one key");
    }
    TopologySnapshot snapshot = topology.get();
    Xxh64JumpRouter shards = routerFor(snapshot.shardCount());
    int first = shards.shardOf(keys[0]);
    for (int index = 1; index < keys.length; index++) {
      if (shards.shardOf(keys[index]) != first) {
        throw crossShard(command, keys, shards, snapshot);
      }
    }
    return first;
  }

  private Xxh64JumpRouter routerFor(int shardCount) {
    Xxh64JumpRouter current = router;
    if (current == null || current.shardCount() != shardCount) {
      current = Xxh64JumpRouter.forShards(shardCount);
      router = current;
    }
    return current;
  }

  private static InvalidDataAccessApiUsageException crossShard(
      String command, byte[][] keys, Xxh64JumpRouter shards, TopologySnapshot snapshot) {
    TreeMap<Integer, byte[]> keyOfShard = new TreeMap<>();
    for (byte[] key : keys) {
      keyOfShard.putIfAbsent(shards.shardOf(key), key);
    }
    StringBuilder message =
        new StringBuilder(command)
            .append(" needs all its keys on one shard, but they are on ")
            .append(keyOfShard.size())
            .append(" shards: ");
    String separator = "";
    for (var entry : keyOfShard.entrySet()) {
      ShardRoute route = snapshot.route(entry.getKey());
      Node leader = route == null ? null : route.leader();
      message
          .append(separator)
          .append("shard ")
          .append(entry.getKey())
          .append(" (leader ")
          .append(leader == null ? "none" : leader.id())
          .append(", key '")
          .append(shown(entry.getValue()))
          .append("')");
      separator = ", ";
    }
    message.append(
        "; nothing was sent. Put the keys under one hash tag ({user42}.a, {user42}.b) to keep them"
            + " on one shard");
    return new InvalidDataAccessApiUsageException(message.toString());
  }

  private static String shown(byte[] key) {
    String text = new String(key, StandardCharsets.UTF_8);
    return text.length() <= MAX_KEY_CHARS_SHOWN
        ? text
        : text.substring(0, MAX_KEY_CHARS_SHOWN) + "...";
  }
}
