// Generated once from Spring Data Redis 4.1.1's ReactiveZSetCommands (one refusing method per
// abstract method); the routed reactive families override the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code ReactiveZSetCommands} answered with an error ({@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command), nothing sent:
 * the base of the routed reactive implementation, so that a command Jumpgate does not route yet
 * fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedReactiveZSetCommands
    implements org.springframework.data.redis.connection.ReactiveZSetCommands {

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.BZPopCommand,
              reactor.core.publisher.Flux<org.springframework.data.redis.connection.zset.Tuple>>>
      bZPop(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands.BZPopCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("BZPOPMIN/BZPOPMAX"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZAddCommand,
              java.lang.Number>>
      zAdd(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands.ZAddCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZADD"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              java.lang.Long>>
      zCard(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZCARD"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZCountCommand,
              java.lang.Long>>
      zCount(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands.ZCountCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZCOUNT"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZDiffCommand,
              reactor.core.publisher.Flux<java.nio.ByteBuffer>>>
      zDiff(
          org.reactivestreams.Publisher<
                  ? extends
                      org.springframework.data.redis.connection.ReactiveZSetCommands.ZDiffCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZDIFF"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZDiffStoreCommand,
              java.lang.Long>>
      zDiffStore(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands.ZDiffStoreCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZDIFFSTORE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZDiffCommand,
              reactor.core.publisher.Flux<org.springframework.data.redis.connection.zset.Tuple>>>
      zDiffWithScores(
          org.reactivestreams.Publisher<
                  ? extends
                      org.springframework.data.redis.connection.ReactiveZSetCommands.ZDiffCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZDIFF"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZIncrByCommand,
              java.lang.Double>>
      zIncrBy(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands.ZIncrByCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZINCRBY"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZAggregateCommand,
              reactor.core.publisher.Flux<java.nio.ByteBuffer>>>
      zInter(
          org.reactivestreams.Publisher<
                  ? extends
                      org.springframework.data.redis.connection.ReactiveZSetCommands
                          .ZAggregateCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZINTER"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZAggregateStoreCommand,
              java.lang.Long>>
      zInterStore(
          org.reactivestreams.Publisher<
                  ? extends
                      org.springframework.data.redis.connection.ReactiveZSetCommands
                          .ZAggregateStoreCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZINTERSTORE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZAggregateCommand,
              reactor.core.publisher.Flux<org.springframework.data.redis.connection.zset.Tuple>>>
      zInterWithScores(
          org.reactivestreams.Publisher<
                  ? extends
                      org.springframework.data.redis.connection.ReactiveZSetCommands
                          .ZAggregateCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZINTER"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZLexCountCommand,
              java.lang.Long>>
      zLexCount(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands.ZLexCountCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZLEXCOUNT"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.MultiValueResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZMScoreCommand,
              java.lang.Double>>
      zMScore(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands.ZMScoreCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZMSCORE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZPopCommand,
              reactor.core.publisher.Flux<org.springframework.data.redis.connection.zset.Tuple>>>
      zPop(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands.ZPopCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZPOPMIN/ZPOPMAX"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZRandMemberCommand,
              reactor.core.publisher.Flux<java.nio.ByteBuffer>>>
      zRandMember(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands.ZRandMemberCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZRANDMEMBER"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZRandMemberCommand,
              reactor.core.publisher.Flux<org.springframework.data.redis.connection.zset.Tuple>>>
      zRandMemberWithScore(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands.ZRandMemberCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZRANDMEMBER"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZRangeCommand,
              reactor.core.publisher.Flux<org.springframework.data.redis.connection.zset.Tuple>>>
      zRange(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands.ZRangeCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZRANGE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZRangeByLexCommand,
              reactor.core.publisher.Flux<java.nio.ByteBuffer>>>
      zRangeByLex(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands.ZRangeByLexCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZRANGEBYLEX"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZRangeByScoreCommand,
              reactor.core.publisher.Flux<org.springframework.data.redis.connection.zset.Tuple>>>
      zRangeByScore(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands
                      .ZRangeByScoreCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZRANGEBYSCORE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZRangeStoreCommand,
              reactor.core.publisher.Mono<java.lang.Long>>>
      zRangeStore(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands.ZRangeStoreCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZRANGESTORE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZRankCommand,
              java.lang.Long>>
      zRank(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands.ZRankCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZRANK"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZRemCommand,
              java.lang.Long>>
      zRem(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands.ZRemCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZREM"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZRemRangeByLexCommand,
              java.lang.Long>>
      zRemRangeByLex(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands
                      .ZRemRangeByLexCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZREMRANGEBYLEX"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZRemRangeByRankCommand,
              java.lang.Long>>
      zRemRangeByRank(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands
                      .ZRemRangeByRankCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZREMRANGEBYRANK"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands
                  .ZRemRangeByScoreCommand,
              java.lang.Long>>
      zRemRangeByScore(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands
                      .ZRemRangeByScoreCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZREMRANGEBYSCORE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveRedisConnection.KeyCommand,
              reactor.core.publisher.Flux<org.springframework.data.redis.connection.zset.Tuple>>>
      zScan(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveRedisConnection.KeyScanCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZSCAN"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZScoreCommand,
              java.lang.Double>>
      zScore(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveZSetCommands.ZScoreCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZSCORE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZAggregateCommand,
              reactor.core.publisher.Flux<java.nio.ByteBuffer>>>
      zUnion(
          org.reactivestreams.Publisher<
                  ? extends
                      org.springframework.data.redis.connection.ReactiveZSetCommands
                          .ZAggregateCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZUNION"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZAggregateStoreCommand,
              java.lang.Long>>
      zUnionStore(
          org.reactivestreams.Publisher<
                  ? extends
                      org.springframework.data.redis.connection.ReactiveZSetCommands
                          .ZAggregateStoreCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZUNIONSTORE"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveZSetCommands.ZAggregateCommand,
              reactor.core.publisher.Flux<org.springframework.data.redis.connection.zset.Tuple>>>
      zUnionWithScores(
          org.reactivestreams.Publisher<
                  ? extends
                      org.springframework.data.redis.connection.ReactiveZSetCommands
                          .ZAggregateCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("ZUNION"));
  }
}
