package io.jumpgate.cli;

import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.TopologyKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The picocli mixin of the options that say how to reach etcd: {@code --etcd}, {@code --cluster},
 * {@code --user}, {@code --password}, {@code --cacert}, {@code --cert}, {@code --key}, and {@code
 * --timeout} (which also bounds the wait for a topology file).
 *
 * <p>An option left out falls back to its environment variable ({@code JUMPGATE_ETCD}, {@code
 * JUMPGATE_CLUSTER}, {@code JUMPGATE_ETCD_USER}, {@code JUMPGATE_ETCD_PASSWORD}), read from the
 * environment of the CLI ({@link JumpgateCli#environment}). Values are checked when a verb resolves
 * them, with usage errors (exit code 2) that name the option or variable.
 *
 * <p>The password is never shown: not in {@link #toString()}, not in any message.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from the thread that runs the
 * verb.
 */
final class EtcdOptions {

  /** Default endpoints. */
  static final String ENDPOINTS_VARIABLE = "JUMPGATE_ETCD";

  /** Default cluster name. */
  static final String CLUSTER_VARIABLE = "JUMPGATE_CLUSTER";

  /** Default etcd user. */
  static final String USER_VARIABLE = "JUMPGATE_ETCD_USER";

  /** Default etcd password. */
  static final String PASSWORD_VARIABLE = "JUMPGATE_ETCD_PASSWORD";

  /** The password option's name, which error messages are scrubbed of the value of. */
  static final String PASSWORD_OPTION = "--password";

  /** How long a verb waits for its first topology unless {@code --timeout} says otherwise. */
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  @Option(
      names = "--etcd",
      paramLabel = "URL[,URL...]",
      description =
          "etcd client URLs, comma-separated, e.g. http://127.0.0.1:2379 (env "
              + ENDPOINTS_VARIABLE
              + ").")
  private String endpoints;

  @Option(
      names = "--cluster",
      paramLabel = "NAME",
      description =
          "Cluster name: the map is read from /jumpgate/NAME (env "
              + CLUSTER_VARIABLE
              + "; default: "
              + TopologyKeys.DEFAULT_CLUSTER
              + "). With --topology-file: the cluster the file must hold.")
  private String cluster;

  @Option(
      names = "--user",
      paramLabel = "NAME",
      description = "etcd user (env " + USER_VARIABLE + "); needs a password.")
  private String user;

  @Option(
      names = PASSWORD_OPTION,
      paramLabel = "PASSWORD",
      description =
          "etcd password (env "
              + PASSWORD_VARIABLE
              + ", preferred: other users can see a command line). Never printed.")
  private String password;

  @Option(
      names = "--cacert",
      paramLabel = "FILE",
      description = "PEM file of the CA that signed etcd's certificates (https endpoints).")
  private Path caCertificate;

  @Option(
      names = "--cert",
      paramLabel = "FILE",
      description = "PEM client certificate for etcd; with --key.")
  private Path clientCertificate;

  @Option(names = "--key", paramLabel = "FILE", description = "PKCS#8 PEM private key of --cert.")
  private Path clientKey;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      description =
          "How long to wait for the topology before failing, e.g. 500ms, 5s, 1m (default: 5s).")
  private String timeout;

  /** Whether {@code --etcd} is on the command line. */
  boolean endpointsGiven() {
    return endpoints != null;
  }

  /** Whether {@code --cluster} is on the command line. */
  boolean clusterGiven() {
    return cluster != null;
  }

  /** {@code --cluster} as given, or null. */
  String clusterOption() {
    return cluster;
  }

  /** The options on the command line other than {@code --etcd}, by name, in a fixed order. */
  List<String> givenOptions() {
    List<String> given = new ArrayList<>();
    addIf(given, cluster != null, "--cluster");
    addIf(given, user != null, "--user");
    addIf(given, password != null, PASSWORD_OPTION);
    addIf(given, caCertificate != null, "--cacert");
    addIf(given, clientCertificate != null, "--cert");
    addIf(given, clientKey != null, "--key");
    addIf(given, timeout != null, "--timeout");
    return given;
  }

  /** The options on the command line that only make sense with etcd, by name. */
  List<String> givenEtcdOnlyOptions() {
    List<String> given = new ArrayList<>(givenOptions());
    given.remove("--cluster");
    given.remove("--timeout");
    return given;
  }

  private static void addIf(List<String> names, boolean given, String name) {
    if (given) {
      names.add(name);
    }
  }

  /** Whether endpoints are set, on the command line or in {@code JUMPGATE_ETCD}. */
  boolean hasEndpoints(Map<String, String> environment) {
    String value = endpoints != null ? endpoints : environment.get(ENDPOINTS_VARIABLE);
    return value != null && !value.isBlank();
  }

  /** {@code --timeout}, checked, or {@link #DEFAULT_TIMEOUT}. */
  Duration timeout(CommandSpec spec) {
    return timeout == null
        ? DEFAULT_TIMEOUT
        : OptionValues.positiveDuration(spec, "--timeout", timeout);
  }

  /**
   * The etcd options of these flags and their variables, for a source that waits {@link #timeout}
   * for its first snapshot.
   *
   * @throws ParameterException naming the option or variable, if the endpoints are missing or
   *     wrong, the cluster name is wrong, user and password are not both set, a TLS file does not
   *     exist, or the timeout is wrong
   */
  EtcdTopologyOptions toOptions(CommandSpec spec, Map<String, String> environment) {
    Duration wait = timeout(spec);
    EtcdTopologyOptions.Builder builder =
        EtcdTopologyOptions.builder()
            .startTimeout(wait)
            // Shorter than the start timeout, so a failed call is retried (and named) in time.
            .requestTimeout(wait.dividedBy(2).isZero() ? wait : wait.dividedBy(2));
    String urls = setting(endpoints, environment, ENDPOINTS_VARIABLE);
    String urlsName = endpoints != null ? "--etcd" : ENDPOINTS_VARIABLE;
    if (urls == null || urls.isBlank()) {
      throw new ParameterException(
          spec.commandLine(),
          "no etcd endpoint: give --etcd URL[,URL...] or set " + ENDPOINTS_VARIABLE);
    }
    try {
      builder.endpoints(urls);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), urlsName + ": " + e.getMessage());
    }
    String name = setting(cluster, environment, CLUSTER_VARIABLE);
    if (name != null) {
      builder.cluster(checkedCluster(spec, name, cluster != null ? "--cluster" : CLUSTER_VARIABLE));
    }
    builder.credentials(
        checkedUser(spec, environment), setting(password, environment, PASSWORD_VARIABLE));
    if (caCertificate != null) {
      builder.caCertificate(existingFile(spec, "--cacert", caCertificate));
    }
    if ((clientCertificate == null) != (clientKey == null)) {
      throw new ParameterException(spec.commandLine(), "--cert and --key must be given together");
    }
    if (clientCertificate != null) {
      builder.clientCertificate(
          existingFile(spec, "--cert", clientCertificate), existingFile(spec, "--key", clientKey));
    }
    return builder.build();
  }

  private String checkedUser(CommandSpec spec, Map<String, String> environment) {
    String name = setting(user, environment, USER_VARIABLE);
    String secret = setting(password, environment, PASSWORD_VARIABLE);
    if (name != null && secret == null) {
      throw new ParameterException(
          spec.commandLine(),
          (user != null ? "--user" : USER_VARIABLE)
              + " needs a password: give "
              + PASSWORD_OPTION
              + " or set "
              + PASSWORD_VARIABLE);
    }
    if (name == null && secret != null) {
      throw new ParameterException(
          spec.commandLine(),
          (password != null ? PASSWORD_OPTION : PASSWORD_VARIABLE)
              + " needs a user: give --user or set "
              + USER_VARIABLE);
    }
    if (name != null && name.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(), (user != null ? "--user" : USER_VARIABLE) + " must not be empty");
    }
    return name;
  }

  /**
   * A cluster name, checked.
   *
   * @param source the option or variable it came from, for the error
   */
  static String checkedCluster(CommandSpec spec, String name, String source) {
    if (!TopologyKeys.CLUSTER_PATTERN.matcher(name).matches()) {
      throw new ParameterException(
          spec.commandLine(),
          source
              + " must match "
              + TopologyKeys.CLUSTER_PATTERN.pattern()
              + " (lower-case letters, digits, '_' and '-'), was '"
              + name
              + "'");
    }
    return name;
  }

  /** A file option's value, checked to be a readable regular file. */
  static Path existingFile(CommandSpec spec, String option, Path file) {
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw new ParameterException(
          spec.commandLine(),
          option
              + ": "
              + (Files.exists(file) ? "cannot read" : "no such file")
              + " '"
              + file
              + "'");
    }
    return file;
  }

  private static String setting(String option, Map<String, String> environment, String variable) {
    return option != null ? option : environment.get(variable);
  }

  /** The settings on the command line; the password as {@code ***}. */
  @Override
  public String toString() {
    return "EtcdOptions{etcd="
        + endpoints
        + ", cluster="
        + cluster
        + ", user="
        + user
        + ", password="
        + (password == null ? "none" : "***")
        + ", cacert="
        + caCertificate
        + ", cert="
        + clientCertificate
        + ", key="
        + clientKey
        + ", timeout="
        + timeout
        + "}";
  }
}
