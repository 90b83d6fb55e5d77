// Generated once from Spring Data Redis 4.1.1's RedisZSetCommands (one refusing method per
// abstract method); RoutedZSetCommands overrides the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code RedisZSetCommands} refused with {@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command, nothing sent: the
 * base of the routed implementation, so that a command Jumpgate does not route yet fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedZSetCommands
    implements org.springframework.data.redis.connection.RedisZSetCommands {

  @Override
  public org.springframework.data.redis.connection.zset.Tuple bZPopMax(
      byte[] key, long timeout, java.util.concurrent.TimeUnit unit) {
    throw Refusals.unsupported("BZPOPMAX");
  }

  @Override
  public org.springframework.data.redis.connection.zset.Tuple bZPopMin(
      byte[] key, long timeout, java.util.concurrent.TimeUnit unit) {
    throw Refusals.unsupported("BZPOPMIN");
  }

  @Override
  public java.lang.Boolean zAdd(
      byte[] key,
      double score,
      byte[] value,
      org.springframework.data.redis.connection.RedisZSetCommands.ZAddArgs args) {
    throw Refusals.unsupported("ZADD");
  }

  @Override
  public java.lang.Long zAdd(
      byte[] key,
      java.util.Set<org.springframework.data.redis.connection.zset.Tuple> tuples,
      org.springframework.data.redis.connection.RedisZSetCommands.ZAddArgs args) {
    throw Refusals.unsupported("ZADD");
  }

  @Override
  public java.lang.Long zCard(byte[] key) {
    throw Refusals.unsupported("ZCARD");
  }

  @Override
  public java.lang.Long zCount(
      byte[] key, org.springframework.data.domain.Range<? extends java.lang.Number> range) {
    throw Refusals.unsupported("ZCOUNT");
  }

  @Override
  public java.util.Set<byte[]> zDiff(byte[]... sets) {
    throw Refusals.unsupported("ZDIFF");
  }

  @Override
  public java.lang.Long zDiffStore(byte[] destKey, byte[]... sets) {
    throw Refusals.unsupported("ZDIFFSTORE");
  }

  @Override
  public java.util.Set<org.springframework.data.redis.connection.zset.Tuple> zDiffWithScores(
      byte[]... sets) {
    throw Refusals.unsupported("ZDIFFWITHSCORES");
  }

  @Override
  public java.lang.Double zIncrBy(byte[] key, double increment, byte[] value) {
    throw Refusals.unsupported("ZINCRBY");
  }

  @Override
  public java.util.Set<byte[]> zInter(byte[]... sets) {
    throw Refusals.unsupported("ZINTER");
  }

  @Override
  public java.lang.Long zInterStore(byte[] destKey, byte[]... sets) {
    throw Refusals.unsupported("ZINTERSTORE");
  }

  @Override
  public java.lang.Long zInterStore(
      byte[] destKey,
      org.springframework.data.redis.connection.zset.Aggregate aggregate,
      org.springframework.data.redis.connection.zset.Weights weights,
      byte[]... sets) {
    throw Refusals.unsupported("ZINTERSTORE");
  }

  @Override
  public java.util.Set<org.springframework.data.redis.connection.zset.Tuple> zInterWithScores(
      byte[]... sets) {
    throw Refusals.unsupported("ZINTERWITHSCORES");
  }

  @Override
  public java.util.Set<org.springframework.data.redis.connection.zset.Tuple> zInterWithScores(
      org.springframework.data.redis.connection.zset.Aggregate aggregate,
      org.springframework.data.redis.connection.zset.Weights weights,
      byte[]... sets) {
    throw Refusals.unsupported("ZINTERWITHSCORES");
  }

  @Override
  public java.lang.Long zLexCount(byte[] key, org.springframework.data.domain.Range<byte[]> range) {
    throw Refusals.unsupported("ZLEXCOUNT");
  }

  @Override
  public java.util.List<java.lang.Double> zMScore(byte[] key, byte[]... values) {
    throw Refusals.unsupported("ZMSCORE");
  }

  @Override
  public java.util.Set<org.springframework.data.redis.connection.zset.Tuple> zPopMax(
      byte[] key, long count) {
    throw Refusals.unsupported("ZPOPMAX");
  }

  @Override
  public org.springframework.data.redis.connection.zset.Tuple zPopMax(byte[] key) {
    throw Refusals.unsupported("ZPOPMAX");
  }

  @Override
  public java.util.Set<org.springframework.data.redis.connection.zset.Tuple> zPopMin(
      byte[] key, long count) {
    throw Refusals.unsupported("ZPOPMIN");
  }

  @Override
  public org.springframework.data.redis.connection.zset.Tuple zPopMin(byte[] key) {
    throw Refusals.unsupported("ZPOPMIN");
  }

  @Override
  public java.util.List<byte[]> zRandMember(byte[] key, long count) {
    throw Refusals.unsupported("ZRANDMEMBER");
  }

  @Override
  public byte[] zRandMember(byte[] key) {
    throw Refusals.unsupported("ZRANDMEMBER");
  }

  @Override
  public java.util.List<org.springframework.data.redis.connection.zset.Tuple> zRandMemberWithScore(
      byte[] key, long count) {
    throw Refusals.unsupported("ZRANDMEMBERWITHSCORE");
  }

  @Override
  public org.springframework.data.redis.connection.zset.Tuple zRandMemberWithScore(byte[] key) {
    throw Refusals.unsupported("ZRANDMEMBERWITHSCORE");
  }

  @Override
  public java.util.Set<byte[]> zRange(byte[] key, long start, long end) {
    throw Refusals.unsupported("ZRANGE");
  }

  @Override
  public java.util.Set<byte[]> zRangeByLex(
      byte[] key,
      org.springframework.data.domain.Range<byte[]> range,
      org.springframework.data.redis.connection.Limit limit) {
    throw Refusals.unsupported("ZRANGEBYLEX");
  }

  @Override
  public java.util.Set<byte[]> zRangeByScore(
      byte[] key, java.lang.String min, java.lang.String max, long offset, long count) {
    throw Refusals.unsupported("ZRANGEBYSCORE");
  }

  @Override
  public java.util.Set<byte[]> zRangeByScore(
      byte[] key,
      org.springframework.data.domain.Range<? extends java.lang.Number> range,
      org.springframework.data.redis.connection.Limit limit) {
    throw Refusals.unsupported("ZRANGEBYSCORE");
  }

  @Override
  public java.util.Set<org.springframework.data.redis.connection.zset.Tuple>
      zRangeByScoreWithScores(
          byte[] key,
          org.springframework.data.domain.Range<? extends java.lang.Number> range,
          org.springframework.data.redis.connection.Limit limit) {
    throw Refusals.unsupported("ZRANGEBYSCOREWITHSCORES");
  }

  @Override
  public java.lang.Long zRangeStoreByLex(
      byte[] dstKey,
      byte[] srcKey,
      org.springframework.data.domain.Range<byte[]> range,
      org.springframework.data.redis.connection.Limit limit) {
    throw Refusals.unsupported("ZRANGESTOREBYLEX");
  }

  @Override
  public java.lang.Long zRangeStoreByScore(
      byte[] dstKey,
      byte[] srcKey,
      org.springframework.data.domain.Range<? extends java.lang.Number> range,
      org.springframework.data.redis.connection.Limit limit) {
    throw Refusals.unsupported("ZRANGESTOREBYSCORE");
  }

  @Override
  public java.lang.Long zRangeStoreRevByLex(
      byte[] dstKey,
      byte[] srcKey,
      org.springframework.data.domain.Range<byte[]> range,
      org.springframework.data.redis.connection.Limit limit) {
    throw Refusals.unsupported("ZRANGESTOREREVBYLEX");
  }

  @Override
  public java.lang.Long zRangeStoreRevByScore(
      byte[] dstKey,
      byte[] srcKey,
      org.springframework.data.domain.Range<? extends java.lang.Number> range,
      org.springframework.data.redis.connection.Limit limit) {
    throw Refusals.unsupported("ZRANGESTOREREVBYSCORE");
  }

  @Override
  public java.util.Set<org.springframework.data.redis.connection.zset.Tuple> zRangeWithScores(
      byte[] key, long start, long end) {
    throw Refusals.unsupported("ZRANGEWITHSCORES");
  }

  @Override
  public java.lang.Long zRank(byte[] key, byte[] value) {
    throw Refusals.unsupported("ZRANK");
  }

  @Override
  public java.lang.Long zRem(byte[] key, byte[]... values) {
    throw Refusals.unsupported("ZREM");
  }

  @Override
  public java.lang.Long zRemRange(byte[] key, long start, long end) {
    throw Refusals.unsupported("ZREMRANGE");
  }

  @Override
  public java.lang.Long zRemRangeByLex(
      byte[] key, org.springframework.data.domain.Range<byte[]> range) {
    throw Refusals.unsupported("ZREMRANGEBYLEX");
  }

  @Override
  public java.lang.Long zRemRangeByScore(
      byte[] key, org.springframework.data.domain.Range<? extends java.lang.Number> range) {
    throw Refusals.unsupported("ZREMRANGEBYSCORE");
  }

  @Override
  public java.util.Set<byte[]> zRevRange(byte[] key, long start, long end) {
    throw Refusals.unsupported("ZREVRANGE");
  }

  @Override
  public java.util.Set<byte[]> zRevRangeByLex(
      byte[] key,
      org.springframework.data.domain.Range<byte[]> range,
      org.springframework.data.redis.connection.Limit limit) {
    throw Refusals.unsupported("ZREVRANGEBYLEX");
  }

  @Override
  public java.util.Set<byte[]> zRevRangeByScore(
      byte[] key,
      org.springframework.data.domain.Range<? extends java.lang.Number> range,
      org.springframework.data.redis.connection.Limit limit) {
    throw Refusals.unsupported("ZREVRANGEBYSCORE");
  }

  @Override
  public java.util.Set<org.springframework.data.redis.connection.zset.Tuple>
      zRevRangeByScoreWithScores(
          byte[] key,
          org.springframework.data.domain.Range<? extends java.lang.Number> range,
          org.springframework.data.redis.connection.Limit limit) {
    throw Refusals.unsupported("ZREVRANGEBYSCOREWITHSCORES");
  }

  @Override
  public java.util.Set<org.springframework.data.redis.connection.zset.Tuple> zRevRangeWithScores(
      byte[] key, long start, long end) {
    throw Refusals.unsupported("ZREVRANGEWITHSCORES");
  }

  @Override
  public java.lang.Long zRevRank(byte[] key, byte[] value) {
    throw Refusals.unsupported("ZREVRANK");
  }

  @Override
  public org.springframework.data.redis.core.Cursor<
          org.springframework.data.redis.connection.zset.Tuple>
      zScan(byte[] key, org.springframework.data.redis.core.ScanOptions options) {
    throw Refusals.unsupported("ZSCAN");
  }

  @Override
  public java.lang.Double zScore(byte[] key, byte[] value) {
    throw Refusals.unsupported("ZSCORE");
  }

  @Override
  public java.util.Set<byte[]> zUnion(byte[]... sets) {
    throw Refusals.unsupported("ZUNION");
  }

  @Override
  public java.lang.Long zUnionStore(byte[] destKey, byte[]... sets) {
    throw Refusals.unsupported("ZUNIONSTORE");
  }

  @Override
  public java.lang.Long zUnionStore(
      byte[] destKey,
      org.springframework.data.redis.connection.zset.Aggregate aggregate,
      org.springframework.data.redis.connection.zset.Weights weights,
      byte[]... sets) {
    throw Refusals.unsupported("ZUNIONSTORE");
  }

  @Override
  public java.util.Set<org.springframework.data.redis.connection.zset.Tuple> zUnionWithScores(
      byte[]... sets) {
    throw Refusals.unsupported("ZUNIONWITHSCORES");
  }

  @Override
  public java.util.Set<org.springframework.data.redis.connection.zset.Tuple> zUnionWithScores(
      org.springframework.data.redis.connection.zset.Aggregate aggregate,
      org.springframework.data.redis.connection.zset.Weights weights,
      byte[]... sets) {
    throw Refusals.unsupported("ZUNIONWITHSCORES");
  }
}
