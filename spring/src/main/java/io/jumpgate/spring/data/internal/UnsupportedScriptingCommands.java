// Generated once from Spring Data Redis 4.1.1's RedisScriptingCommands (one refusing method per
// abstract method); RoutedScriptingCommands overrides the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code RedisScriptingCommands} refused with {@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command, nothing sent: the
 * base of the routed implementation, so that a command Jumpgate does not route yet fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedScriptingCommands
    implements org.springframework.data.redis.connection.RedisScriptingCommands {

  @Override
  public <T> T eval(
      byte[] script,
      org.springframework.data.redis.connection.ReturnType returnType,
      int numKeys,
      byte[]... keysAndArgs) {
    throw Refusals.unsupported("EVAL");
  }

  @Override
  public <T> T evalSha(
      byte[] scriptSha,
      org.springframework.data.redis.connection.ReturnType returnType,
      int numKeys,
      byte[]... keysAndArgs) {
    throw Refusals.unsupported("EVALSHA");
  }

  @Override
  public <T> T evalSha(
      java.lang.String scriptSha,
      org.springframework.data.redis.connection.ReturnType returnType,
      int numKeys,
      byte[]... keysAndArgs) {
    throw Refusals.unsupported("EVALSHA");
  }

  @Override
  public java.util.List<java.lang.Boolean> scriptExists(java.lang.String... scriptShas) {
    throw Refusals.unsupported("SCRIPT EXISTS");
  }

  @Override
  public void scriptFlush() {
    throw Refusals.unsupported("SCRIPT FLUSH");
  }

  @Override
  public void scriptKill() {
    throw Refusals.unsupported("SCRIPT KILL");
  }

  @Override
  public java.lang.String scriptLoad(byte[] script) {
    throw Refusals.unsupported("SCRIPT LOAD");
  }
}
