// Generated once from Spring Data Redis 4.1.1's RedisKeyCommands (one refusing method per
// abstract method); RoutedKeyCommands overrides the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code RedisKeyCommands} refused with {@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command, nothing sent: the
 * base of the routed implementation, so that a command Jumpgate does not route yet fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedKeyCommands
    implements org.springframework.data.redis.connection.RedisKeyCommands {

  @Override
  public java.lang.Boolean copy(byte[] sourceKey, byte[] targetKey, boolean replace) {
    throw Refusals.unsupported("COPY");
  }

  @Override
  public java.lang.Long del(byte[]... keys) {
    throw Refusals.unsupported("DEL");
  }

  @Override
  public java.lang.Boolean delex(
      byte[] key, org.springframework.data.redis.connection.CompareCondition condition) {
    throw Refusals.unsupported("DELEX");
  }

  @Override
  public java.lang.String digest(byte[] key) {
    throw Refusals.unsupported("DIGEST");
  }

  @Override
  public byte[] dump(byte[] key) {
    throw Refusals.unsupported("DUMP");
  }

  @Override
  public org.springframework.data.redis.connection.ValueEncoding encodingOf(byte[] key) {
    throw Refusals.unsupported("OBJECT ENCODING");
  }

  @Override
  public java.lang.Long exists(byte[]... keys) {
    throw Refusals.unsupported("EXISTS");
  }

  @Override
  public java.lang.Boolean expire(
      byte[] key,
      long seconds,
      org.springframework.data.redis.connection.ExpirationOptions.Condition condition) {
    throw Refusals.unsupported("EXPIRE");
  }

  @Override
  public java.lang.Boolean expireAt(
      byte[] key,
      long unixTime,
      org.springframework.data.redis.connection.ExpirationOptions.Condition condition) {
    throw Refusals.unsupported("EXPIREAT");
  }

  @Override
  public java.time.Duration idletime(byte[] key) {
    throw Refusals.unsupported("OBJECT IDLETIME");
  }

  @Override
  public java.util.Set<byte[]> keys(byte[] pattern) {
    throw Refusals.unsupported("KEYS");
  }

  @Override
  public java.lang.Boolean move(byte[] key, int dbIndex) {
    throw Refusals.unsupported("MOVE");
  }

  @Override
  public java.lang.Boolean pExpire(
      byte[] key,
      long millis,
      org.springframework.data.redis.connection.ExpirationOptions.Condition condition) {
    throw Refusals.unsupported("PEXPIRE");
  }

  @Override
  public java.lang.Boolean pExpireAt(
      byte[] key,
      long unixTimeInMillis,
      org.springframework.data.redis.connection.ExpirationOptions.Condition condition) {
    throw Refusals.unsupported("PEXPIREAT");
  }

  @Override
  public java.lang.Long pTtl(byte[] key, java.util.concurrent.TimeUnit timeUnit) {
    throw Refusals.unsupported("PTTL");
  }

  @Override
  public java.lang.Long pTtl(byte[] key) {
    throw Refusals.unsupported("PTTL");
  }

  @Override
  public java.lang.Boolean persist(byte[] key) {
    throw Refusals.unsupported("PERSIST");
  }

  @Override
  public byte[] randomKey() {
    throw Refusals.unsupported("RANDOMKEY");
  }

  @Override
  public java.lang.Long refcount(byte[] key) {
    throw Refusals.unsupported("OBJECT REFCOUNT");
  }

  @Override
  public void rename(byte[] oldKey, byte[] newKey) {
    throw Refusals.unsupported("RENAME");
  }

  @Override
  public java.lang.Boolean renameNX(byte[] oldKey, byte[] newKey) {
    throw Refusals.unsupported("RENAMENX");
  }

  @Override
  public void restore(byte[] key, long ttlInMillis, byte[] serializedValue, boolean replace) {
    throw Refusals.unsupported("RESTORE");
  }

  @Override
  public org.springframework.data.redis.core.Cursor<byte[]> scan(
      org.springframework.data.redis.core.ScanOptions options) {
    throw Refusals.unsupported("SCAN");
  }

  @Override
  public java.lang.Long sort(
      byte[] key,
      org.springframework.data.redis.connection.SortParameters params,
      byte[] storeKey) {
    throw Refusals.unsupported("SORT");
  }

  @Override
  public java.util.List<byte[]> sort(
      byte[] key, org.springframework.data.redis.connection.SortParameters params) {
    throw Refusals.unsupported("SORT");
  }

  @Override
  public java.lang.Long touch(byte[]... keys) {
    throw Refusals.unsupported("TOUCH");
  }

  @Override
  public java.lang.Long ttl(byte[] key, java.util.concurrent.TimeUnit timeUnit) {
    throw Refusals.unsupported("TTL");
  }

  @Override
  public java.lang.Long ttl(byte[] key) {
    throw Refusals.unsupported("TTL");
  }

  @Override
  public org.springframework.data.redis.connection.DataType type(byte[] key) {
    throw Refusals.unsupported("TYPE");
  }

  @Override
  public java.lang.Long unlink(byte[]... keys) {
    throw Refusals.unsupported("UNLINK");
  }
}
