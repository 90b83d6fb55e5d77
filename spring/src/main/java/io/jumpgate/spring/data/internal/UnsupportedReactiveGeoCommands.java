// Generated once from Spring Data Redis 4.1.1's ReactiveGeoCommands (one refusing method per
// abstract method); the routed reactive families override the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code ReactiveGeoCommands} answered with an error ({@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command), nothing sent:
 * the base of the routed reactive implementation, so that a command Jumpgate does not route yet
 * fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedReactiveGeoCommands
    implements org.springframework.data.redis.connection.ReactiveGeoCommands {

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveGeoCommands.GeoAddCommand,
              java.lang.Long>>
      geoAdd(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveGeoCommands.GeoAddCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("GEOADD"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveGeoCommands.GeoDistCommand,
              org.springframework.data.geo.Distance>>
      geoDist(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveGeoCommands.GeoDistCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("GEODIST"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.MultiValueResponse<
              org.springframework.data.redis.connection.ReactiveGeoCommands.GeoHashCommand,
              java.lang.String>>
      geoHash(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveGeoCommands.GeoHashCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("GEOHASH"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.MultiValueResponse<
              org.springframework.data.redis.connection.ReactiveGeoCommands.GeoPosCommand,
              org.springframework.data.geo.Point>>
      geoPos(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveGeoCommands.GeoPosCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("GEOPOS"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveGeoCommands.GeoRadiusCommand,
              reactor.core.publisher.Flux<
                  org.springframework.data.geo.GeoResult<
                      org.springframework.data.redis.connection.RedisGeoCommands.GeoLocation<
                          java.nio.ByteBuffer>>>>>
      geoRadius(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveGeoCommands.GeoRadiusCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("GEORADIUS"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveGeoCommands
                  .GeoRadiusByMemberCommand,
              reactor.core.publisher.Flux<
                  org.springframework.data.geo.GeoResult<
                      org.springframework.data.redis.connection.RedisGeoCommands.GeoLocation<
                          java.nio.ByteBuffer>>>>>
      geoRadiusByMember(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveGeoCommands
                      .GeoRadiusByMemberCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("GEORADIUSBYMEMBER"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.CommandResponse<
              org.springframework.data.redis.connection.ReactiveGeoCommands.GeoSearchCommand,
              reactor.core.publisher.Flux<
                  org.springframework.data.geo.GeoResult<
                      org.springframework.data.redis.connection.RedisGeoCommands.GeoLocation<
                          java.nio.ByteBuffer>>>>>
      geoSearch(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveGeoCommands.GeoSearchCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("GEOSEARCH"));
  }

  @Override
  public reactor.core.publisher.Flux<
          org.springframework.data.redis.connection.ReactiveRedisConnection.NumericResponse<
              org.springframework.data.redis.connection.ReactiveGeoCommands.GeoSearchStoreCommand,
              java.lang.Long>>
      geoSearchStore(
          org.reactivestreams.Publisher<
                  org.springframework.data.redis.connection.ReactiveGeoCommands
                      .GeoSearchStoreCommand>
              commands) {
    return reactor.core.publisher.Flux.error(ReactiveRefusals.unsupported("GEOSEARCHSTORE"));
  }
}
