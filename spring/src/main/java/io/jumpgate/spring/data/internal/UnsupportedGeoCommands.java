// Generated once from Spring Data Redis 4.1.1's RedisGeoCommands (one refusing method per
// abstract method); RoutedGeoCommands overrides the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code RedisGeoCommands} refused with {@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command, nothing sent: the
 * base of the routed implementation, so that a command Jumpgate does not route yet fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedGeoCommands
    implements org.springframework.data.redis.connection.RedisGeoCommands {

  @Override
  public java.lang.Long geoAdd(
      byte[] key, org.springframework.data.geo.Point point, byte[] member) {
    throw Refusals.unsupported("GEOADD");
  }

  @Override
  public java.lang.Long geoAdd(
      byte[] key,
      java.lang.Iterable<
              org.springframework.data.redis.connection.RedisGeoCommands.GeoLocation<byte[]>>
          locations) {
    throw Refusals.unsupported("GEOADD");
  }

  @Override
  public java.lang.Long geoAdd(
      byte[] key, java.util.Map<byte[], org.springframework.data.geo.Point> memberCoordinateMap) {
    throw Refusals.unsupported("GEOADD");
  }

  @Override
  public org.springframework.data.geo.Distance geoDist(
      byte[] key, byte[] member1, byte[] member2, org.springframework.data.geo.Metric metric) {
    throw Refusals.unsupported("GEODIST");
  }

  @Override
  public org.springframework.data.geo.Distance geoDist(byte[] key, byte[] member1, byte[] member2) {
    throw Refusals.unsupported("GEODIST");
  }

  @Override
  public java.util.List<java.lang.String> geoHash(byte[] key, byte[]... members) {
    throw Refusals.unsupported("GEOHASH");
  }

  @Override
  public java.util.List<org.springframework.data.geo.Point> geoPos(byte[] key, byte[]... members) {
    throw Refusals.unsupported("GEOPOS");
  }

  @Override
  public org.springframework.data.geo.GeoResults<
          org.springframework.data.redis.connection.RedisGeoCommands.GeoLocation<byte[]>>
      geoRadius(
          byte[] key,
          org.springframework.data.geo.Circle within,
          org.springframework.data.redis.connection.RedisGeoCommands.GeoRadiusCommandArgs args) {
    throw Refusals.unsupported("GEORADIUS");
  }

  @Override
  public org.springframework.data.geo.GeoResults<
          org.springframework.data.redis.connection.RedisGeoCommands.GeoLocation<byte[]>>
      geoRadius(byte[] key, org.springframework.data.geo.Circle within) {
    throw Refusals.unsupported("GEORADIUS");
  }

  @Override
  public org.springframework.data.geo.GeoResults<
          org.springframework.data.redis.connection.RedisGeoCommands.GeoLocation<byte[]>>
      geoRadiusByMember(
          byte[] key,
          byte[] member,
          org.springframework.data.geo.Distance radius,
          org.springframework.data.redis.connection.RedisGeoCommands.GeoRadiusCommandArgs args) {
    throw Refusals.unsupported("GEORADIUSBYMEMBER");
  }

  @Override
  public org.springframework.data.geo.GeoResults<
          org.springframework.data.redis.connection.RedisGeoCommands.GeoLocation<byte[]>>
      geoRadiusByMember(byte[] key, byte[] member, org.springframework.data.geo.Distance radius) {
    throw Refusals.unsupported("GEORADIUSBYMEMBER");
  }

  @Override
  public java.lang.Long geoRemove(byte[] key, byte[]... members) {
    throw Refusals.unsupported("GEOREMOVE");
  }

  @Override
  public org.springframework.data.geo.GeoResults<
          org.springframework.data.redis.connection.RedisGeoCommands.GeoLocation<byte[]>>
      geoSearch(
          byte[] key,
          org.springframework.data.redis.domain.geo.GeoReference<byte[]> reference,
          org.springframework.data.redis.domain.geo.GeoShape predicate,
          org.springframework.data.redis.connection.RedisGeoCommands.GeoSearchCommandArgs args) {
    throw Refusals.unsupported("GEOSEARCH");
  }

  @Override
  public java.lang.Long geoSearchStore(
      byte[] destKey,
      byte[] key,
      org.springframework.data.redis.domain.geo.GeoReference<byte[]> reference,
      org.springframework.data.redis.domain.geo.GeoShape predicate,
      org.springframework.data.redis.connection.RedisGeoCommands.GeoSearchStoreCommandArgs args) {
    throw Refusals.unsupported("GEOSEARCHSTORE");
  }
}
