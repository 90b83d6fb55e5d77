// Generated once from Spring Data Redis 4.1.1's RedisHashCommands (one refusing method per
// abstract method); RoutedHashCommands overrides the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code RedisHashCommands} refused with {@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command, nothing sent: the
 * base of the routed implementation, so that a command Jumpgate does not route yet fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedHashCommands
    implements org.springframework.data.redis.connection.RedisHashCommands {

  @Override
  public java.lang.Long hDel(byte[] key, byte[]... fields) {
    throw Refusals.unsupported("HDEL");
  }

  @Override
  public java.lang.Boolean hExists(byte[] key, byte[] field) {
    throw Refusals.unsupported("HEXISTS");
  }

  @Override
  public java.util.List<java.lang.Long> hExpire(
      byte[] key,
      long seconds,
      org.springframework.data.redis.connection.ExpirationOptions.Condition condition,
      byte[]... fields) {
    throw Refusals.unsupported("HEXPIRE");
  }

  @Override
  public java.util.List<java.lang.Long> hExpireAt(
      byte[] key,
      long unixTime,
      org.springframework.data.redis.connection.ExpirationOptions.Condition condition,
      byte[]... fields) {
    throw Refusals.unsupported("HEXPIREAT");
  }

  @Override
  public byte[] hGet(byte[] key, byte[] field) {
    throw Refusals.unsupported("HGET");
  }

  @Override
  public java.util.Map<byte[], byte[]> hGetAll(byte[] key) {
    throw Refusals.unsupported("HGETALL");
  }

  @Override
  public java.util.List<byte[]> hGetDel(byte[] key, byte[]... fields) {
    throw Refusals.unsupported("HGETDEL");
  }

  @Override
  public java.util.List<byte[]> hGetEx(
      byte[] key,
      org.springframework.data.redis.core.types.Expiration expiration,
      byte[]... fields) {
    throw Refusals.unsupported("HGETEX");
  }

  @Override
  public java.lang.Double hIncrBy(byte[] key, byte[] field, double delta) {
    throw Refusals.unsupported("HINCRBY");
  }

  @Override
  public java.lang.Long hIncrBy(byte[] key, byte[] field, long delta) {
    throw Refusals.unsupported("HINCRBY");
  }

  @Override
  public java.util.Set<byte[]> hKeys(byte[] key) {
    throw Refusals.unsupported("HKEYS");
  }

  @Override
  public java.lang.Long hLen(byte[] key) {
    throw Refusals.unsupported("HLEN");
  }

  @Override
  public java.util.List<byte[]> hMGet(byte[] key, byte[]... fields) {
    throw Refusals.unsupported("HMGET");
  }

  @Override
  public void hMSet(byte[] key, java.util.Map<byte[], byte[]> hashes) {
    throw Refusals.unsupported("HMSET");
  }

  @Override
  public java.util.List<java.lang.Long> hPersist(byte[] key, byte[]... fields) {
    throw Refusals.unsupported("HPERSIST");
  }

  @Override
  public java.util.List<byte[]> hRandField(byte[] key, long count) {
    throw Refusals.unsupported("HRANDFIELD");
  }

  @Override
  public byte[] hRandField(byte[] key) {
    throw Refusals.unsupported("HRANDFIELD");
  }

  @Override
  public java.util.List<java.util.Map.Entry<byte[], byte[]>> hRandFieldWithValues(
      byte[] key, long count) {
    throw Refusals.unsupported("HRANDFIELDWITHVALUES");
  }

  @Override
  public java.util.Map.Entry<byte[], byte[]> hRandFieldWithValues(byte[] key) {
    throw Refusals.unsupported("HRANDFIELDWITHVALUES");
  }

  @Override
  public org.springframework.data.redis.core.Cursor<java.util.Map.Entry<byte[], byte[]>> hScan(
      byte[] key, org.springframework.data.redis.core.ScanOptions options) {
    throw Refusals.unsupported("HSCAN");
  }

  @Override
  public java.lang.Boolean hSet(byte[] key, byte[] field, byte[] value) {
    throw Refusals.unsupported("HSET");
  }

  @Override
  public java.lang.Boolean hSetEx(
      byte[] key,
      java.util.Map<byte[], byte[]> hashes,
      org.springframework.data.redis.connection.RedisHashCommands.HashFieldSetOption
          hashFieldSetOption,
      org.springframework.data.redis.core.types.Expiration expiration) {
    throw Refusals.unsupported("HSETEX");
  }

  @Override
  public java.lang.Boolean hSetNX(byte[] key, byte[] field, byte[] value) {
    throw Refusals.unsupported("HSETNX");
  }

  @Override
  public java.lang.Long hStrLen(byte[] key, byte[] field) {
    throw Refusals.unsupported("HSTRLEN");
  }

  @Override
  public java.util.List<java.lang.Long> hTtl(byte[] key, byte[]... fields) {
    throw Refusals.unsupported("HTTL");
  }

  @Override
  public java.util.List<java.lang.Long> hTtl(
      byte[] key, java.util.concurrent.TimeUnit timeUnit, byte[]... fields) {
    throw Refusals.unsupported("HTTL");
  }

  @Override
  public java.util.List<byte[]> hVals(byte[] key) {
    throw Refusals.unsupported("HVALS");
  }

  @Override
  public java.util.List<java.lang.Long> hpExpire(
      byte[] key,
      long millis,
      org.springframework.data.redis.connection.ExpirationOptions.Condition condition,
      byte[]... fields) {
    throw Refusals.unsupported("HPEXPIRE");
  }

  @Override
  public java.util.List<java.lang.Long> hpExpireAt(
      byte[] key,
      long unixTimeInMillis,
      org.springframework.data.redis.connection.ExpirationOptions.Condition condition,
      byte[]... fields) {
    throw Refusals.unsupported("HPEXPIREAT");
  }

  @Override
  public java.util.List<java.lang.Long> hpTtl(byte[] key, byte[]... fields) {
    throw Refusals.unsupported("HPTTL");
  }
}
