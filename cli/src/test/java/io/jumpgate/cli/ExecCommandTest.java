package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.routing.Xxh64JumpRouter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code jumpgate exec} end to end against three in-process RESP servers ({@link ExecTestRedis})
 * and a topology file: routing, trace lines, stdin mode, errors, exit codes, credentials.
 */
class ExecCommandTest {

  private static final int SHARDS = 8;
  private static final String PASSWORD = "s3cret-redis-pass";

  @TempDir Path dir;

  private final List<ExecTestRedis> servers = new ArrayList<>();

  @AfterEach
  void stopServers() throws IOException {
    for (ExecTestRedis server : servers) {
      server.close();
    }
  }

  /** Three servers n0..n2; shard i led by n(i % 3). */
  private Path cluster(String password) throws IOException {
    TopologyFileBuilder map = TopologyFileBuilder.cluster("test", SHARDS);
    for (int node = 0; node < 3; node++) {
      ExecTestRedis server =
          password == null ? ExecTestRedis.start() : ExecTestRedis.withPassword(password);
      servers.add(server);
      map.node("n" + node, "127.0.0.1", server.port(), "az" + node);
    }
    for (int shard = 0; shard < SHARDS; shard++) {
      map.assign(shard, "n" + (shard % 3), 0);
    }
    return map.writeTo(dir.resolve("map.json"));
  }

  private static int shardOf(String key) {
    return Xxh64JumpRouter.forShards(SHARDS).shardOf(key.getBytes(StandardCharsets.UTF_8));
  }

  private static int leaderOf(String key) {
    return shardOf(key) % 3;
  }

  /** A key whose shard is led by node {@code node}. */
  private static String keyOn(int node, String prefix) {
    for (int index = 0; ; index++) {
      String key = prefix + index;
      if (leaderOf(key) == node) {
        return key;
      }
    }
  }

  private String trace(String key) {
    int node = leaderOf(key);
    return "# shard="
        + shardOf(key)
        + " node=n"
        + node
        + " addr="
        + servers.get(node).address()
        + " attempts=1";
  }

  /** A command line with exec registered, reading stdin from {@code stdin}. */
  static CommandLine execCommandLine(Map<String, String> environment, InputStream stdin) {
    CommandLine commandLine = JumpgateCli.newCommandLine(environment);
    if (commandLine.getSubcommands().containsKey("exec")) {
      commandLine.getCommandSpec().removeSubcommand("exec");
    }
    return commandLine.addSubcommand("exec", new ExecCommand(stdin));
  }

  private static CliRunner.Result exec(
      Map<String, String> environment, String stdin, String... arguments) {
    List<String> all = new ArrayList<>(List.of("exec"));
    all.addAll(List.of(arguments));
    return CliRunner.run(
        execCommandLine(
            environment, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8))),
        all.toArray(String[]::new));
  }

  private static CliRunner.Result exec(String... arguments) {
    return exec(Map.of(), "", arguments);
  }

  @Test
  void set_writes_the_key_on_its_shard_leader_only_and_get_reads_it_back() throws IOException {
    Path map = cluster(null);

    CliRunner.Result set = exec("--topology-file", map.toString(), "SET", "user:42", "Ada");
    CliRunner.Result get = exec("--topology-file", map.toString(), "GET", "user:42");

    assertThat(set.exitCode()).as(set.err()).isZero();
    assertThat(set.out()).isEqualTo("OK\n");
    assertThat(set.err()).isEmpty();
    assertThat(get.out()).isEqualTo("\"Ada\"\n");
    for (int node = 0; node < 3; node++) {
      assertThat(servers.get(node).keys().contains("user:42"))
          .as("node n" + node)
          .isEqualTo(node == leaderOf("user:42"));
    }
  }

  @Test
  void trace_names_the_shard_node_address_and_attempts_before_the_reply() throws IOException {
    Path map = cluster(null);

    CliRunner.Result result =
        exec("--topology-file", map.toString(), "--trace", "SET", "user:42", "Ada");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out()).isEqualTo(trace("user:42") + "\nOK\n");
  }

  @Test
  void a_fan_out_traces_one_line_per_node_with_the_shards_of_its_keys() throws IOException {
    Path map = cluster(null);
    String a = keyOn(0, "a");
    String b = keyOn(1, "b");
    String c = keyOn(2, "c");
    exec("--topology-file", map.toString(), "MSET", a, "1", b, "2", c, "3");

    CliRunner.Result result =
        exec("--topology-file", map.toString(), "--trace", "MGET", c, a, "nosuch:" + c, b);

    assertThat(result.exitCode()).as(result.err()).isZero();
    List<String> lines = result.out().lines().toList();
    assertThat(lines).hasSize(3 + 4);
    for (int node = 0; node < 3; node++) {
      assertThat(lines.get(node))
          .startsWith("# shard=")
          .endsWith(" node=n" + node + " addr=" + servers.get(node).address() + " attempts=1");
    }
    assertThat(lines.get(0)).startsWith("# shard=" + shardOf(a) + " ");
    assertThat(lines.subList(3, 7)).containsExactly("1) \"3\"", "2) \"1\"", "3) (nil)", "4) \"2\"");
  }

  @Test
  void a_broadcast_traces_every_node_with_no_shard() throws IOException {
    Path map = cluster(null);

    CliRunner.Result result = exec("--topology-file", map.toString(), "--trace", "PING");

    assertThat(result.exitCode()).as(result.err()).isZero();
    StringBuilder expected = new StringBuilder();
    for (int node = 0; node < 3; node++) {
      expected
          .append("# shard=- node=n")
          .append(node)
          .append(" addr=")
          .append(servers.get(node).address())
          .append(" attempts=1\n");
    }
    expected.append("1# \"n0\" => PONG\n2# \"n1\" => PONG\n3# \"n2\" => PONG\n");
    assertThat(result.out()).isEqualTo(expected.toString());
  }

  @Test
  void stdin_runs_one_command_per_line_with_redis_cli_quoting() throws IOException {
    Path map = cluster(null);
    String stdin =
        String.join(
            "\n",
            "SET greeting \"hello world\\x21\"",
            "",
            "# a comment",
            "GET greeting",
            "  set 'it''s' x  ",
            "LPUSH mylist a b",
            "GET mylist",
            "DBSIZE",
            "GET nosuch");

    CliRunner.Result result = exec(Map.of(), stdin + "\n", "--topology-file", map.toString());

    // Line 5 could not be parsed: exit code 1, after every other line ran.
    assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.out())
        .isEqualTo(
            String.join(
                "\n",
                "OK",
                "\"hello world!\"",
                "(error) ERR line 5: closing quote must be followed by a space",
                "(integer) 2",
                "(error) WRONGTYPE Operation against a key holding the wrong kind of value",
                "(integer) 2",
                "(nil)",
                ""));
    assertThat(servers.get(leaderOf("greeting")).value("greeting"))
        .isEqualTo("hello world!".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void stdin_exits_zero_for_error_replies_and_one_for_a_bad_line() throws IOException {
    Path map = cluster(null);

    CliRunner.Result errorReply =
        exec(Map.of(), "LPUSH l x\nGET l\n", "--topology-file", map.toString());
    CliRunner.Result badLine =
        exec(Map.of(), "SET a \"b\nGET a\n", "--topology-file", map.toString());

    assertThat(errorReply.exitCode()).isZero();
    assertThat(errorReply.out())
        .endsWith(
            "(error) WRONGTYPE Operation against a key holding" + " the wrong kind of value\n");
    assertThat(badLine.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(badLine.out()).isEqualTo("(error) ERR line 1: unbalanced quotes\n(nil)\n");
  }

  @Test
  void stdin_stops_at_quit() throws IOException {
    Path map = cluster(null);

    CliRunner.Result result =
        exec(Map.of(), "SET a 1\r\nquit\r\nSET b 2\r\n", "--topology-file", map.toString());

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEqualTo("OK\n");
    assertThat(servers.stream().flatMap(server -> server.keys().stream())).containsExactly("a");
  }

  @Test
  void an_error_reply_exits_one_in_single_command_mode() throws IOException {
    Path map = cluster(null);
    exec("--topology-file", map.toString(), "LPUSH", "l", "x");

    CliRunner.Result result = exec("--topology-file", map.toString(), "GET", "l");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.out())
        .isEqualTo("(error) WRONGTYPE Operation against a key holding the wrong kind of value\n");
    assertThat(result.err()).isEmpty();
  }

  @Test
  void a_command_without_a_key_is_refused_and_nothing_is_sent() throws IOException {
    Path map = cluster(null);

    CliRunner.Result result =
        exec("--topology-file", map.toString(), "--trace", "CONFIG", "GET", "maxmemory");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.out())
        .startsWith("(error) ERR CONFIG has no key to route by: ")
        .contains("redis-cli")
        .doesNotContain("# shard=");
    for (ExecTestRedis server : servers) {
      assertThat(server.commands()).isEmpty();
    }
  }

  @Test
  void keys_on_different_shards_are_refused_as_crossshard() throws IOException {
    Path map = cluster(null);
    String a = keyOn(0, "a");
    String b = keyOn(1, "b");

    CliRunner.Result result = exec("--topology-file", map.toString(), "RENAME", a, b);

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.out())
        .startsWith("(error) CROSSSHARD keys of RENAME are on different shards: \"" + a + "\"");
  }

  @Test
  void everything_after_the_command_name_is_the_command_even_if_it_looks_like_an_option()
      throws IOException {
    Path map = cluster(null);

    CliRunner.Result result = exec("--topology-file", map.toString(), "SET", "flag", "--trace");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out()).isEqualTo("OK\n");
    assertThat(servers.get(leaderOf("flag")).value("flag"))
        .isEqualTo("--trace".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void the_password_comes_from_the_environment() throws IOException {
    Path map = cluster(PASSWORD);

    CliRunner.Result result =
        exec(
            Map.of(ExecCommand.REDIS_PASSWORD_VARIABLE, PASSWORD),
            "",
            "--topology-file",
            map.toString(),
            "SET",
            "k",
            "v");

    assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
    assertThat(result.out()).isEqualTo("OK\n");
    assertThat(servers.get(leaderOf("k")).commands()).contains("AUTH " + PASSWORD, "SET k v");
  }

  @Test
  void a_wrong_password_fails_naming_the_node_and_never_printing_the_password() throws IOException {
    Path map = cluster(PASSWORD);
    String wrong = "not-the-password-123";

    CliRunner.Result result =
        exec("--topology-file", map.toString(), "--redis-password", wrong, "GET", "k");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.out())
        .startsWith("(error) ")
        .contains(servers.get(leaderOf("k")).address())
        .contains("(server: WRONGPASS ")
        .doesNotContain(wrong);
    assertThat(result.err()).doesNotContain(wrong);
  }

  @Test
  void a_user_without_a_password_is_a_usage_error_naming_the_option_or_variable()
      throws IOException {
    Path map = cluster(null);

    CliRunner.Result option =
        exec("--topology-file", map.toString(), "--redis-user", "app", "PING");
    CliRunner.Result variable =
        exec(
            Map.of(ExecCommand.REDIS_USER_VARIABLE, "app"),
            "",
            "--topology-file",
            map.toString(),
            "PING");

    assertThat(option.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(option.out()).isEmpty();
    assertThat(option.err())
        .isEqualTo(
            "jumpgate exec: --redis-user needs a password: give --redis-password or set"
                + " JUMPGATE_REDIS_PASSWORD\n");
    assertThat(variable.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(variable.err()).startsWith("jumpgate exec: JUMPGATE_REDIS_USER needs a password");
  }

  @Test
  void an_empty_password_is_a_usage_error() throws IOException {
    Path map = cluster(null);

    CliRunner.Result result =
        exec("--topology-file", map.toString(), "--redis-password", "", "PING");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).isEqualTo("jumpgate exec: --redis-password must not be empty\n");
  }

  @Test
  void a_bad_command_timeout_is_a_usage_error_naming_it() throws IOException {
    Path map = cluster(null);

    CliRunner.Result result =
        exec("--topology-file", map.toString(), "--command-timeout", "0s", "PING");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).startsWith("jumpgate exec: --command-timeout ");
  }

  @Test
  void without_a_topology_source_it_is_a_usage_error() {
    CliRunner.Result result = exec("GET", "k");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.out()).isEmpty();
    assertThat(result.err()).startsWith("jumpgate exec: no topology to read: give --etcd");
  }

  @Test
  void an_unknown_option_before_the_command_is_a_usage_error_that_does_not_echo_its_value() {
    CliRunner.Result result = exec("--redis-pasword=hunter22", "GET", "k");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).startsWith("jumpgate exec: Unknown option: '--redis-pasword'");
    assertThat(result.err()).doesNotContain("hunter22");
  }

  @Test
  void a_missing_topology_file_is_a_usage_error_naming_it() {
    CliRunner.Result result =
        exec("--topology-file", dir.resolve("nope.json").toString(), "GET", "k");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).contains("--topology-file: no such file");
  }

  @Test
  void help_documents_the_trace_format_and_the_exit_codes() {
    CliRunner.Result result = exec("--help");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .contains("--redis-user", "--redis-password", "--trace", "--etcd", "--topology-file")
        .contains("# shard=<n> node=<id> addr=<host:port> attempts=<k>")
        .contains("shard=-")
        .contains("Exit code");
  }
}
