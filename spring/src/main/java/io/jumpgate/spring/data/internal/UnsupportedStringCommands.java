// Generated once from Spring Data Redis 4.1.1's RedisStringCommands (one refusing method per
// abstract method); RoutedStringCommands overrides the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code RedisStringCommands} refused with {@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command, nothing sent: the
 * base of the routed implementation, so that a command Jumpgate does not route yet fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedStringCommands
    implements org.springframework.data.redis.connection.RedisStringCommands {

  @Override
  public java.lang.Long append(byte[] key, byte[] value) {
    throw Refusals.unsupported("APPEND");
  }

  @Override
  public java.lang.Long bitCount(byte[] key, long start, long end) {
    throw Refusals.unsupported("BITCOUNT");
  }

  @Override
  public java.lang.Long bitCount(byte[] key) {
    throw Refusals.unsupported("BITCOUNT");
  }

  @Override
  public java.util.List<java.lang.Long> bitField(
      byte[] key, org.springframework.data.redis.connection.BitFieldSubCommands subCommands) {
    throw Refusals.unsupported("BITFIELD");
  }

  @Override
  public java.lang.Long bitOp(
      org.springframework.data.redis.connection.RedisStringCommands.BitOperation op,
      byte[] destination,
      byte[]... keys) {
    throw Refusals.unsupported("BITOP");
  }

  @Override
  public java.lang.Long bitPos(
      byte[] key, boolean bit, org.springframework.data.domain.Range<java.lang.Long> range) {
    throw Refusals.unsupported("BITPOS");
  }

  @Override
  public java.lang.Long decr(byte[] key) {
    throw Refusals.unsupported("DECR");
  }

  @Override
  public java.lang.Long decrBy(byte[] key, long value) {
    throw Refusals.unsupported("DECRBY");
  }

  @Override
  public byte[] get(byte[] key) {
    throw Refusals.unsupported("GET");
  }

  @Override
  public java.lang.Boolean getBit(byte[] key, long offset) {
    throw Refusals.unsupported("GETBIT");
  }

  @Override
  public byte[] getDel(byte[] key) {
    throw Refusals.unsupported("GETDEL");
  }

  @Override
  public byte[] getEx(byte[] key, org.springframework.data.redis.core.types.Expiration expiration) {
    throw Refusals.unsupported("GETEX");
  }

  @Override
  public byte[] getRange(byte[] key, long start, long end) {
    throw Refusals.unsupported("GETRANGE");
  }

  @Override
  public byte[] getSet(byte[] key, byte[] value) {
    throw Refusals.unsupported("GETSET");
  }

  @Override
  public java.lang.Long incr(byte[] key) {
    throw Refusals.unsupported("INCR");
  }

  @Override
  public java.lang.Double incrBy(byte[] key, double value) {
    throw Refusals.unsupported("INCRBY");
  }

  @Override
  public java.lang.Long incrBy(byte[] key, long value) {
    throw Refusals.unsupported("INCRBY");
  }

  @Override
  public java.util.List<byte[]> mGet(byte[]... keys) {
    throw Refusals.unsupported("MGET");
  }

  @Override
  public java.lang.Boolean mSet(java.util.Map<byte[], byte[]> tuple) {
    throw Refusals.unsupported("MSET");
  }

  @Override
  public java.lang.Boolean mSetNX(java.util.Map<byte[], byte[]> tuple) {
    throw Refusals.unsupported("MSETNX");
  }

  @Override
  public java.lang.Boolean pSetEx(byte[] key, long milliseconds, byte[] value) {
    throw Refusals.unsupported("PSETEX");
  }

  @Override
  public java.lang.Boolean set(
      byte[] key,
      byte[] value,
      org.springframework.data.redis.connection.SetCondition condition,
      org.springframework.data.redis.core.types.Expiration expiration) {
    throw Refusals.unsupported("SET");
  }

  @Override
  public java.lang.Boolean set(byte[] key, byte[] value) {
    throw Refusals.unsupported("SET");
  }

  @Override
  public java.lang.Boolean setBit(byte[] key, long offset, boolean value) {
    throw Refusals.unsupported("SETBIT");
  }

  @Override
  public java.lang.Boolean setEx(byte[] key, long seconds, byte[] value) {
    throw Refusals.unsupported("SETEX");
  }

  @Override
  public byte[] setGet(
      byte[] key,
      byte[] value,
      org.springframework.data.redis.connection.SetCondition condition,
      org.springframework.data.redis.core.types.Expiration expiration) {
    throw Refusals.unsupported("SETGET");
  }

  @Override
  public java.lang.Boolean setNX(byte[] key, byte[] value) {
    throw Refusals.unsupported("SETNX");
  }

  @Override
  public void setRange(byte[] key, byte[] value, long offset) {
    throw Refusals.unsupported("SETRANGE");
  }

  @Override
  public java.lang.Long strLen(byte[] key) {
    throw Refusals.unsupported("STRLEN");
  }
}
