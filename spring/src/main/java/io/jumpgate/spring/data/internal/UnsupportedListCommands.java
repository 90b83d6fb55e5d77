// Generated once from Spring Data Redis 4.1.1's RedisListCommands (one refusing method per
// abstract method); RoutedListCommands overrides the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code RedisListCommands} refused with {@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command, nothing sent: the
 * base of the routed implementation, so that a command Jumpgate does not route yet fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedListCommands
    implements org.springframework.data.redis.connection.RedisListCommands {

  @Override
  public byte[] bLMove(
      byte[] sourceKey,
      byte[] destinationKey,
      org.springframework.data.redis.connection.RedisListCommands.Direction from,
      org.springframework.data.redis.connection.RedisListCommands.Direction to,
      double timeout) {
    throw Refusals.unsupported("BLMOVE");
  }

  @Override
  public java.util.List<byte[]> bLPop(int timeout, byte[]... keys) {
    throw Refusals.unsupported("BLPOP");
  }

  @Override
  public java.util.List<byte[]> bRPop(int timeout, byte[]... keys) {
    throw Refusals.unsupported("BRPOP");
  }

  @Override
  public byte[] bRPopLPush(int timeout, byte[] srcKey, byte[] dstKey) {
    throw Refusals.unsupported("BRPOPLPUSH");
  }

  @Override
  public byte[] lIndex(byte[] key, long index) {
    throw Refusals.unsupported("LINDEX");
  }

  @Override
  public java.lang.Long lInsert(
      byte[] key,
      org.springframework.data.redis.connection.RedisListCommands.Position where,
      byte[] pivot,
      byte[] value) {
    throw Refusals.unsupported("LINSERT");
  }

  @Override
  public java.lang.Long lLen(byte[] key) {
    throw Refusals.unsupported("LLEN");
  }

  @Override
  public byte[] lMove(
      byte[] sourceKey,
      byte[] destinationKey,
      org.springframework.data.redis.connection.RedisListCommands.Direction from,
      org.springframework.data.redis.connection.RedisListCommands.Direction to) {
    throw Refusals.unsupported("LMOVE");
  }

  @Override
  public java.util.List<byte[]> lPop(byte[] key, long count) {
    throw Refusals.unsupported("LPOP");
  }

  @Override
  public byte[] lPop(byte[] key) {
    throw Refusals.unsupported("LPOP");
  }

  @Override
  public java.util.List<java.lang.Long> lPos(
      byte[] key, byte[] element, java.lang.Integer rank, java.lang.Integer count) {
    throw Refusals.unsupported("LPOS");
  }

  @Override
  public java.lang.Long lPush(byte[] key, byte[]... values) {
    throw Refusals.unsupported("LPUSH");
  }

  @Override
  public java.lang.Long lPushX(byte[] key, byte[] value) {
    throw Refusals.unsupported("LPUSHX");
  }

  @Override
  public java.util.List<byte[]> lRange(byte[] key, long start, long end) {
    throw Refusals.unsupported("LRANGE");
  }

  @Override
  public java.lang.Long lRem(byte[] key, long count, byte[] value) {
    throw Refusals.unsupported("LREM");
  }

  @Override
  public void lSet(byte[] key, long index, byte[] value) {
    throw Refusals.unsupported("LSET");
  }

  @Override
  public void lTrim(byte[] key, long start, long end) {
    throw Refusals.unsupported("LTRIM");
  }

  @Override
  public java.util.List<byte[]> rPop(byte[] key, long count) {
    throw Refusals.unsupported("RPOP");
  }

  @Override
  public byte[] rPop(byte[] key) {
    throw Refusals.unsupported("RPOP");
  }

  @Override
  public byte[] rPopLPush(byte[] srcKey, byte[] dstKey) {
    throw Refusals.unsupported("RPOPLPUSH");
  }

  @Override
  public java.lang.Long rPush(byte[] key, byte[]... values) {
    throw Refusals.unsupported("RPUSH");
  }

  @Override
  public java.lang.Long rPushX(byte[] key, byte[] value) {
    throw Refusals.unsupported("RPUSHX");
  }
}
