package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/** The source options shared by the topology verbs and route: flags, environment, errors. */
class TopologySourceOptionsTest {

  private static final String NEWLINE = System.lineSeparator();

  /** Nothing listens on port 1 of the loopback address: connections are refused at once. */
  private static final String UNREACHABLE = "http://127.0.0.1:1";

  @TempDir Path dir;

  private Path standardFile() {
    return TopologyFileBuilder.standard().writeTo(dir.resolve("map.json"));
  }

  private static String[] arguments(String verb, String... more) {
    List<String> all = new ArrayList<>(List.of(verb.split(" ")));
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  static Stream<Arguments> verbs() {
    return Stream.of(
        Arguments.of("topology show"),
        Arguments.of("topology watch"),
        Arguments.of("topology validate"),
        Arguments.of("topology export"));
  }

  @ParameterizedTest
  @MethodSource("verbs")
  void etcdAndTopologyFileTogetherAreAUsageErrorNamingBoth(String verb) {
    CliRunner.Result result =
        CliRunner.run(
            arguments(verb, "--etcd", UNREACHABLE, "--topology-file", standardFile().toString()));

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.out()).isEmpty();
    assertThat(result.err())
        .isEqualTo(
            "jumpgate "
                + verb
                + ": --etcd and --topology-file cannot be used together: give one of them"
                + NEWLINE);
  }

  @ParameterizedTest
  @MethodSource("verbs")
  void noSourceIsAUsageErrorNamingBothOptionsAndTheVariable(String verb) {
    CliRunner.Result result = CliRunner.run(arguments(verb));

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err())
        .isEqualTo(
            "jumpgate "
                + verb
                + ": no topology to read: give --etcd URL[,URL...] (or set JUMPGATE_ETCD) or"
                + " --topology-file FILE"
                + NEWLINE);
  }

  static Stream<Arguments> oneShotVerbs() {
    return verbs().filter(verb -> !verb.get()[0].equals("topology watch"));
  }

  @ParameterizedTest
  @MethodSource("oneShotVerbs")
  void everyVerbReadsATopologyFile(String verb) {
    CliRunner.Result result =
        CliRunner.run(
            arguments(verb, "--topology-file", standardFile().toString(), "--timeout", "3s"));

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.err()).isEmpty();
    assertThat(result.out()).isNotEmpty();
  }

  @Test
  void theEnvironmentNamesEtcdWhenNoOptionDoes() {
    CliRunner.Result result =
        CliRunner.run(
            Map.of("JUMPGATE_ETCD", UNREACHABLE, "JUMPGATE_CLUSTER", "prod"),
            "topology",
            "show",
            "--timeout",
            "300ms");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.out()).isEmpty();
    assertThat(result.err())
        .startsWith("jumpgate topology show: ")
        .contains(UNREACHABLE)
        .contains("'prod'")
        .contains("connection refused by 127.0.0.1:1");
    assertThat(result.err().lines()).hasSize(1);
  }

  @Test
  void anExplicitTopologyFileWinsOverTheEtcdVariable() {
    CliRunner.Result result =
        CliRunner.run(
            Map.of("JUMPGATE_ETCD", UNREACHABLE, "JUMPGATE_ETCD_USER", "someone"),
            "topology",
            "validate",
            "--topology-file",
            standardFile().toString());

    assertThat(result.exitCode()).as(result.err()).isZero();
  }

  @Test
  void theClusterOptionWinsOverItsVariable() {
    CliRunner.Result result =
        CliRunner.run(
            Map.of("JUMPGATE_ETCD", UNREACHABLE, "JUMPGATE_CLUSTER", "prod"),
            "topology",
            "show",
            "--cluster",
            "staging",
            "--timeout",
            "200ms");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.err()).contains("'staging'").doesNotContain("prod");
  }

  @Test
  void unreachableEtcdFailsWithOneLineNamingTheEndpoint() {
    CliRunner.Result result =
        CliRunner.run(
            "topology",
            "show",
            "--etcd",
            UNREACHABLE + ",http://127.0.0.1:2",
            "--timeout",
            "300ms");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.err())
        .isEqualTo(
            "jumpgate topology show: no topology from etcd at http://127.0.0.1:1,http://127.0.0.1:2"
                + " for cluster 'default': connection refused by every endpoint, 127.0.0.1:1,"
                + " 127.0.0.1:2 (is etcd running there?)"
                + System.lineSeparator());
  }

  /**
   * A refused connection is known at once: the verb does not wait its --timeout (5 s by default)
   * out.
   */
  @Test
  void aRefusedEndpointFailsAtOnceNotAfterTheTimeout() {
    long start = System.nanoTime();
    CliRunner.Result result = CliRunner.run("topology", "show", "--etcd", UNREACHABLE);
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.out()).isEmpty();
    assertThat(result.err())
        .isEqualTo(
            "jumpgate topology show: no topology from etcd at http://127.0.0.1:1 for cluster"
                + " 'default': connection refused by 127.0.0.1:1 (is etcd running there?)"
                + System.lineSeparator());
    assertThat(took).as("time to the error").isLessThan(Duration.ofSeconds(2));
  }

  @Test
  void thePasswordIsNeverPrinted() {
    String secret = "s3cr3t-Pa55word";
    CliRunner.Result fromOption =
        CliRunner.run(
            "topology",
            "show",
            "--etcd",
            UNREACHABLE,
            "--user",
            "admin",
            "--password",
            secret,
            "--timeout",
            "200ms");
    CliRunner.Result fromEnvironment =
        CliRunner.run(
            Map.of("JUMPGATE_ETCD_USER", "admin", "JUMPGATE_ETCD_PASSWORD", secret),
            "topology",
            "show",
            "--etcd",
            UNREACHABLE,
            "--timeout",
            "200ms");
    CliRunner.Result withoutUser =
        CliRunner.run("topology", "show", "--etcd", UNREACHABLE, "--password=" + secret);

    assertThat(fromOption.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(fromEnvironment.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(withoutUser.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(withoutUser.err())
        .isEqualTo(
            "jumpgate topology show: --password needs a user: give --user or set"
                + " JUMPGATE_ETCD_USER"
                + NEWLINE);
    for (CliRunner.Result result : List.of(fromOption, fromEnvironment, withoutUser)) {
      assertThat(result.out() + result.err()).doesNotContain(secret).doesNotContain("s3cr3t");
    }
  }

  @Test
  void optionsToStringHidesThePassword() {
    TopologyShowCommand command = new TopologyShowCommand();
    CommandLine commandLine = new CommandLine(command);
    commandLine.parseArgs(
        "--etcd", UNREACHABLE, "--user", "admin", "--password", "s3cr3t-Pa55word");
    EtcdOptions options =
        (EtcdOptions) commandLine.getCommandSpec().mixins().get("etcd").userObject();

    assertThat(options.toString())
        .contains("password=***")
        .contains("user=admin")
        .doesNotContain("s3cr3t");
  }

  static Stream<Arguments> badOptions() {
    return Stream.of(
        Arguments.of(
            List.of("--etcd", "localhost:2379"),
            Map.of(),
            "--etcd: endpoint 'localhost:2379' must look like http://host:port or"
                + " https://host:port"),
        Arguments.of(
            List.of(),
            Map.of("JUMPGATE_ETCD", "ftp://x:1"),
            "JUMPGATE_ETCD: endpoint 'ftp://x:1' must look like http://host:port or"
                + " https://host:port"),
        Arguments.of(
            List.of("--etcd", UNREACHABLE, "--cluster", "Prod"),
            Map.of(),
            "--cluster must match [a-z0-9][a-z0-9_-]{0,62} (lower-case letters, digits, '_' and"
                + " '-'), was 'Prod'"),
        Arguments.of(
            List.of("--etcd", UNREACHABLE),
            Map.of("JUMPGATE_CLUSTER", "no way"),
            "JUMPGATE_CLUSTER must match [a-z0-9][a-z0-9_-]{0,62} (lower-case letters, digits,"
                + " '_' and '-'), was 'no way'"),
        Arguments.of(
            List.of("--etcd", UNREACHABLE, "--user", "admin"),
            Map.of(),
            "--user needs a password: give --password or set JUMPGATE_ETCD_PASSWORD"),
        Arguments.of(
            List.of("--etcd", UNREACHABLE),
            Map.of("JUMPGATE_ETCD_USER", "admin"),
            "JUMPGATE_ETCD_USER needs a password: give --password or set"
                + " JUMPGATE_ETCD_PASSWORD"),
        Arguments.of(
            List.of("--etcd", UNREACHABLE, "--cacert", "/no/such/ca.pem"),
            Map.of(),
            "--cacert: no such file '/no/such/ca.pem'"),
        Arguments.of(
            List.of("--etcd", UNREACHABLE, "--cert", "/no/such/cert.pem"),
            Map.of(),
            "--cert and --key must be given together"),
        Arguments.of(
            List.of("--etcd", UNREACHABLE, "--timeout", "5"),
            Map.of(),
            "--timeout must be a duration such as 500ms, 5s, 2m or 1h30m, was '5'"),
        Arguments.of(
            List.of("--etcd", UNREACHABLE, "--timeout", "0s"),
            Map.of(),
            "--timeout must be positive, was '0s'"),
        Arguments.of(
            List.of("--topology-file", "/no/such/map.json"),
            Map.of(),
            "--topology-file: no such file '/no/such/map.json'"),
        Arguments.of(
            List.of("--etcd", UNREACHABLE, "--etcd", UNREACHABLE),
            Map.of(),
            "option '--etcd' (URL[,URL...]) should be specified only once"));
  }

  @ParameterizedTest
  @MethodSource("badOptions")
  void badOptionIsAUsageErrorNamingIt(
      List<String> options, Map<String, String> environment, String message) {
    List<String> all = new ArrayList<>(List.of("topology", "show"));
    all.addAll(options);

    CliRunner.Result result = CliRunner.run(environment, all.toArray(String[]::new));

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.out()).isEmpty();
    assertThat(result.err()).isEqualTo("jumpgate topology show: " + message + NEWLINE);
  }

  @Test
  void etcdOnlyOptionsAreRefusedWithATopologyFile() {
    CliRunner.Result result =
        CliRunner.run(
            "topology",
            "show",
            "--topology-file",
            standardFile().toString(),
            "--user",
            "admin",
            "--password",
            "x");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err())
        .isEqualTo(
            "jumpgate topology show: --user applies to --etcd only, not to --topology-file"
                + NEWLINE);
  }

  @Test
  void clusterWithATopologyFileIsTheClusterTheFileMustHold() {
    Path file = standardFile();

    CliRunner.Result same =
        CliRunner.run("topology", "show", "--topology-file", file.toString(), "--cluster", "test");
    CliRunner.Result other =
        CliRunner.run("topology", "show", "--topology-file", file.toString(), "--cluster", "prod");

    assertThat(same.exitCode()).isZero();
    assertThat(other.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(other.err())
        .isEqualTo(
            "jumpgate topology show: topology file "
                + file
                + " holds cluster 'test', but this source serves cluster 'prod'"
                + NEWLINE);
  }

  @Test
  void aTopologyFileThatIsNotADocumentFailsNamingTheFile() throws IOException {
    Path file = Files.writeString(dir.resolve("broken.json"), "{\"cluster\":");

    CliRunner.Result result = CliRunner.run("topology", "show", "--topology-file", file.toString());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.err()).startsWith("jumpgate topology show: topology file " + file + " ");
    assertThat(result.err().lines()).hasSize(1);
  }

  @Test
  void aTopologyFileWithoutMetaFailsNamingTheFile() throws IOException {
    Path file = Files.writeString(dir.resolve("empty.json"), "{\"cluster\":\"test\"}");

    CliRunner.Result result = CliRunner.run("topology", "show", "--topology-file", file.toString());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.err())
        .startsWith("jumpgate topology show: topology file " + file)
        .contains("not initialised");
  }
}
