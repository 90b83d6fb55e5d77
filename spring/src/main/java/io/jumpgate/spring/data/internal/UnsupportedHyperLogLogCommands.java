// Generated once from Spring Data Redis 4.1.1's RedisHyperLogLogCommands (one refusing method per
// abstract method); RoutedHyperLogLogCommands overrides the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code RedisHyperLogLogCommands} refused with {@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command, nothing sent: the
 * base of the routed implementation, so that a command Jumpgate does not route yet fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedHyperLogLogCommands
    implements org.springframework.data.redis.connection.RedisHyperLogLogCommands {

  @Override
  public java.lang.Long pfAdd(byte[] key, byte[]... values) {
    throw Refusals.unsupported("PFADD");
  }

  @Override
  public java.lang.Long pfCount(byte[]... keys) {
    throw Refusals.unsupported("PFCOUNT");
  }

  @Override
  public void pfMerge(byte[] destinationKey, byte[]... sourceKeys) {
    throw Refusals.unsupported("PFMERGE");
  }
}
