package io.jumpgate.spring.data.internal;

import static io.jumpgate.spring.data.internal.ExceptionTranslation.translated;

import io.jumpgate.driver.JumpgateCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.BooleanOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.ValueSetOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.util.Set;

/**
 * Spring Data Redis's set commands on the driver: single-key commands go to the set key's shard;
 * SMOVE and the SINTER/SUNION/SDIFF family (with STORE, and SINTERCARD) run only when every key is
 * on one shard (else {@link org.springframework.dao.InvalidDataAccessApiUsageException} naming the
 * shards, nothing sent). Commands not listed here are refused by {@link UnsupportedSetCommands}.
 *
 * <p>Thread-safe: holds the shared driver view only.
 */
final class RoutedSetCommands extends UnsupportedSetCommands {

  private final JumpgateCommands<byte[], byte[]> redis;
  private final LeaderDispatch dispatch;

  RoutedSetCommands(JumpgateCommands<byte[], byte[]> redis, LeaderDispatch dispatch) {
    this.redis = redis;
    this.dispatch = dispatch;
  }

  @Override
  public Long sAdd(byte[] key, byte[]... values) {
    return translated(() -> redis.sadd(key, values));
  }

  @Override
  public Long sRem(byte[] key, byte[]... values) {
    return translated(() -> redis.srem(key, values));
  }

  @Override
  public Set<byte[]> sMembers(byte[] key) {
    return translated(() -> redis.smembers(key));
  }

  @Override
  public Boolean sIsMember(byte[] key, byte[] value) {
    return translated(() -> redis.sismember(key, value));
  }

  @Override
  public Long sCard(byte[] key) {
    return translated(() -> redis.scard(key));
  }

  @Override
  public Boolean sMove(byte[] srcKey, byte[] destKey, byte[] value) {
    var arguments = LeaderDispatch.arguments().addKey(srcKey).addKey(destKey).addValue(value);
    return dispatch.sendToOneShard(
        CommandType.SMOVE,
        new BooleanOutput<>(ByteArrayCodec.INSTANCE),
        arguments,
        srcKey,
        destKey);
  }

  @Override
  public Set<byte[]> sInter(byte[]... keys) {
    return members(CommandType.SINTER, keys);
  }

  @Override
  public Set<byte[]> sUnion(byte[]... keys) {
    return members(CommandType.SUNION, keys);
  }

  @Override
  public Set<byte[]> sDiff(byte[]... keys) {
    return members(CommandType.SDIFF, keys);
  }

  @Override
  public Long sInterStore(byte[] destKey, byte[]... keys) {
    return store(CommandType.SINTERSTORE, destKey, keys);
  }

  @Override
  public Long sUnionStore(byte[] destKey, byte[]... keys) {
    return store(CommandType.SUNIONSTORE, destKey, keys);
  }

  @Override
  public Long sDiffStore(byte[] destKey, byte[]... keys) {
    return store(CommandType.SDIFFSTORE, destKey, keys);
  }

  @Override
  public Long sInterCard(byte[]... keys) {
    CommandArgs<byte[], byte[]> arguments = LeaderDispatch.arguments().add(keys.length);
    arguments.addKeys(keys);
    return dispatch.sendToOneShard(
        CommandType.SINTERCARD, new IntegerOutput<>(ByteArrayCodec.INSTANCE), arguments, keys);
  }

  private Set<byte[]> members(CommandType type, byte[][] keys) {
    CommandArgs<byte[], byte[]> arguments = LeaderDispatch.arguments().addKeys(keys);
    return dispatch.sendToOneShard(
        type, new ValueSetOutput<>(ByteArrayCodec.INSTANCE), arguments, keys);
  }

  private Long store(CommandType type, byte[] destinationKey, byte[][] keys) {
    byte[][] every = new byte[keys.length + 1][];
    every[0] = destinationKey;
    System.arraycopy(keys, 0, every, 1, keys.length);
    CommandArgs<byte[], byte[]> arguments = LeaderDispatch.arguments().addKeys(every);
    return dispatch.sendToOneShard(
        type, new IntegerOutput<>(ByteArrayCodec.INSTANCE), arguments, every);
  }
}
