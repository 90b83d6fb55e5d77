// Generated once from Spring Data Redis 4.1.1's RedisServerCommands (one refusing method per
// abstract method); RoutedServerCommands overrides the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code RedisServerCommands} refused with {@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command, nothing sent: the
 * base of the routed implementation, so that a command Jumpgate does not route yet fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedServerCommands
    implements org.springframework.data.redis.connection.RedisServerCommands {

  @Override
  public void bgReWriteAof() {
    throw Refusals.unsupported("BGREWRITEAOF");
  }

  @Override
  public void bgSave() {
    throw Refusals.unsupported("BGSAVE");
  }

  @Override
  public java.lang.Long dbSize() {
    throw Refusals.unsupported("DBSIZE");
  }

  @Override
  public void flushAll() {
    throw Refusals.unsupported("FLUSHALL");
  }

  @Override
  public void flushAll(
      org.springframework.data.redis.connection.RedisServerCommands.FlushOption option) {
    throw Refusals.unsupported("FLUSHALL");
  }

  @Override
  public void flushDb() {
    throw Refusals.unsupported("FLUSHDB");
  }

  @Override
  public void flushDb(
      org.springframework.data.redis.connection.RedisServerCommands.FlushOption option) {
    throw Refusals.unsupported("FLUSHDB");
  }

  @Override
  public java.util.List<org.springframework.data.redis.core.types.RedisClientInfo> getClientList() {
    throw Refusals.unsupported("CLIENT LIST");
  }

  @Override
  public java.lang.String getClientName() {
    throw Refusals.unsupported("CLIENT GETNAME");
  }

  @Override
  public java.util.Properties getConfig(java.lang.String pattern) {
    throw Refusals.unsupported("CONFIG GET");
  }

  @Override
  public java.util.Properties info() {
    throw Refusals.unsupported("INFO");
  }

  @Override
  public java.util.Properties info(java.lang.String section) {
    throw Refusals.unsupported("INFO");
  }

  @Override
  public void killClient(java.lang.String host, int port) {
    throw Refusals.unsupported("CLIENT KILL");
  }

  @Override
  public java.lang.Long lastSave() {
    throw Refusals.unsupported("LASTSAVE");
  }

  @Override
  public void migrate(
      byte[] key,
      org.springframework.data.redis.connection.RedisNode target,
      int dbIndex,
      org.springframework.data.redis.connection.RedisServerCommands.MigrateOption option,
      long timeout) {
    throw Refusals.unsupported("MIGRATE");
  }

  @Override
  public void migrate(
      byte[] key,
      org.springframework.data.redis.connection.RedisNode target,
      int dbIndex,
      org.springframework.data.redis.connection.RedisServerCommands.MigrateOption option) {
    throw Refusals.unsupported("MIGRATE");
  }

  @Override
  public void replicaOf(java.lang.String host, int port) {
    throw Refusals.unsupported("REPLICAOF");
  }

  @Override
  public void replicaOfNoOne() {
    throw Refusals.unsupported("REPLICAOF NO ONE");
  }

  @Override
  public void resetConfigStats() {
    throw Refusals.unsupported("CONFIG RESETSTAT");
  }

  @Override
  public void rewriteConfig() {
    throw Refusals.unsupported("CONFIG REWRITE");
  }

  @Override
  public void save() {
    throw Refusals.unsupported("SAVE");
  }

  @Override
  public void setClientName(byte[] name) {
    throw Refusals.unsupported("CLIENT SETNAME");
  }

  @Override
  public void setConfig(java.lang.String param, java.lang.String value) {
    throw Refusals.unsupported("CONFIG SET");
  }

  @Override
  public void shutdown() {
    throw Refusals.unsupported("SHUTDOWN");
  }

  @Override
  public void shutdown(
      org.springframework.data.redis.connection.RedisServerCommands.ShutdownOption option) {
    throw Refusals.unsupported("SHUTDOWN");
  }

  @Override
  public java.lang.Long time(java.util.concurrent.TimeUnit timeUnit) {
    throw Refusals.unsupported("TIME");
  }
}
