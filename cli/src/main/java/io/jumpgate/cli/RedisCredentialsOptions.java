package io.jumpgate.cli;

import io.jumpgate.migration.ServerAddress;
import io.jumpgate.spi.Node;
import java.util.Map;
import java.util.function.Function;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --redis-user} and {@code --redis-password} of the verbs that move data (the mover logs in
 * to every source and target, and a MIGRATE carries the target's credentials): from the options,
 * else from {@value ExecCommand#REDIS_USER_VARIABLE} and {@value
 * ExecCommand#REDIS_PASSWORD_VARIABLE} (preferred: other users can see a command line). A password
 * alone logs in as the default user. The password is never printed: {@link ErrorReporter} scrubs
 * both sources. A picocli mixin: one per command, used on the command's thread.
 */
final class RedisCredentialsOptions {

  @Spec(Spec.Target.MIXEE)
  private picocli.CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--redis-user",
      paramLabel = "NAME",
      description =
          "Redis ACL user the mover logs in as on every node (env "
              + ExecCommand.REDIS_USER_VARIABLE
              + "); needs a password.")
  private String user;

  @Option(
      names = "--redis-password",
      paramLabel = "PASSWORD",
      description =
          "Redis password, of --redis-user or of the default user (env "
              + ExecCommand.REDIS_PASSWORD_VARIABLE
              + ", preferred: other users can see a command line). Never printed.")
  private String password;

  /**
   * How the mover reaches each node: its address, logged in with the credentials given, if any.
   *
   * @throws ParameterException if a user is given without a password, or an empty one
   */
  Function<Node, ServerAddress> serverAddresses() {
    Map<String, String> environment = JumpgateCli.environment(spec);
    String name = user != null ? user : environment.get(ExecCommand.REDIS_USER_VARIABLE);
    String secret =
        password != null ? password : environment.get(ExecCommand.REDIS_PASSWORD_VARIABLE);
    String userSource = user != null ? "--redis-user" : ExecCommand.REDIS_USER_VARIABLE;
    if (name != null && name.isEmpty()) {
      throw new ParameterException(spec.commandLine(), userSource + " must not be empty");
    }
    if (name != null && (secret == null || secret.isEmpty())) {
      throw new ParameterException(
          spec.commandLine(),
          userSource
              + " needs a password: give --redis-password or set "
              + ExecCommand.REDIS_PASSWORD_VARIABLE);
    }
    if (secret == null || secret.isEmpty()) {
      return node -> ServerAddress.of(node.host(), node.port());
    }
    return name == null
        ? node -> ServerAddress.of(node.host(), node.port()).withPassword(secret)
        : node -> ServerAddress.of(node.host(), node.port()).withCredentials(name, secret);
  }
}
