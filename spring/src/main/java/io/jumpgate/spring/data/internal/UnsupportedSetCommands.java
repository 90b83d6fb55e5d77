// Generated once from Spring Data Redis 4.1.1's RedisSetCommands (one refusing method per
// abstract method); RoutedSetCommands overrides the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code RedisSetCommands} refused with {@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command, nothing sent: the
 * base of the routed implementation, so that a command Jumpgate does not route yet fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedSetCommands
    implements org.springframework.data.redis.connection.RedisSetCommands {

  @Override
  public java.lang.Long sAdd(byte[] key, byte[]... values) {
    throw Refusals.unsupported("SADD");
  }

  @Override
  public java.lang.Long sCard(byte[] key) {
    throw Refusals.unsupported("SCARD");
  }

  @Override
  public java.util.Set<byte[]> sDiff(byte[]... keys) {
    throw Refusals.unsupported("SDIFF");
  }

  @Override
  public java.lang.Long sDiffStore(byte[] destKey, byte[]... keys) {
    throw Refusals.unsupported("SDIFFSTORE");
  }

  @Override
  public java.util.Set<byte[]> sInter(byte[]... keys) {
    throw Refusals.unsupported("SINTER");
  }

  @Override
  public java.lang.Long sInterCard(byte[]... keys) {
    throw Refusals.unsupported("SINTERCARD");
  }

  @Override
  public java.lang.Long sInterStore(byte[] destKey, byte[]... keys) {
    throw Refusals.unsupported("SINTERSTORE");
  }

  @Override
  public java.lang.Boolean sIsMember(byte[] key, byte[] value) {
    throw Refusals.unsupported("SISMEMBER");
  }

  @Override
  public java.util.List<java.lang.Boolean> sMIsMember(byte[] key, byte[]... values) {
    throw Refusals.unsupported("SMISMEMBER");
  }

  @Override
  public java.util.Set<byte[]> sMembers(byte[] key) {
    throw Refusals.unsupported("SMEMBERS");
  }

  @Override
  public java.lang.Boolean sMove(byte[] srcKey, byte[] destKey, byte[] value) {
    throw Refusals.unsupported("SMOVE");
  }

  @Override
  public java.util.List<byte[]> sPop(byte[] key, long count) {
    throw Refusals.unsupported("SPOP");
  }

  @Override
  public byte[] sPop(byte[] key) {
    throw Refusals.unsupported("SPOP");
  }

  @Override
  public java.util.List<byte[]> sRandMember(byte[] key, long count) {
    throw Refusals.unsupported("SRANDMEMBER");
  }

  @Override
  public byte[] sRandMember(byte[] key) {
    throw Refusals.unsupported("SRANDMEMBER");
  }

  @Override
  public java.lang.Long sRem(byte[] key, byte[]... values) {
    throw Refusals.unsupported("SREM");
  }

  @Override
  public org.springframework.data.redis.core.Cursor<byte[]> sScan(
      byte[] key, org.springframework.data.redis.core.ScanOptions options) {
    throw Refusals.unsupported("SSCAN");
  }

  @Override
  public java.util.Set<byte[]> sUnion(byte[]... keys) {
    throw Refusals.unsupported("SUNION");
  }

  @Override
  public java.lang.Long sUnionStore(byte[] destKey, byte[]... keys) {
    throw Refusals.unsupported("SUNIONSTORE");
  }
}
