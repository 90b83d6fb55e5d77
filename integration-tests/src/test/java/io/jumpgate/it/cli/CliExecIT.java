package io.jumpgate.it.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.cli.ExecCommand;
import io.jumpgate.cli.JumpgateCli;
import io.jumpgate.it.fixture.Binaries;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.routing.Xxh64JumpRouter;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/**
 * {@code jumpgate exec} against a real etcd and three plain redis-server processes, with a map
 * written by plain {@code etcdctl put}s (meta last), checked from outside with the real {@code
 * redis-cli}: each key written through exec is on its shard's leader and on no other node, and
 * {@code --trace} names that node.
 */
class CliExecIT {

  private static final String CLUSTER = "it";
  private static final int SHARDS = 16;
  private static final String WRONGTYPE =
      "(error) WRONGTYPE Operation against a key holding the wrong kind of value";

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  /** The cluster of one test: etcd, and nodes n0..n2 where shard i is led by n(i % 3). */
  private record Cluster(EtcdCluster etcd, List<RedisProcess> nodes) {

    /** exec's source flags for this cluster. */
    String[] source() {
      // A roomy deadline: the machine running the tests may be busy, and a fresh JVM is slow.
      return new String[] {
        "--etcd",
        etcd.endpointList(),
        "--cluster",
        CLUSTER,
        "--timeout",
        "10s",
        "--command-timeout",
        "20s"
      };
    }

    int leaderOf(String key) {
      return shardOf(key) % 3;
    }
  }

  /** What one exec run printed and returned. */
  private record Result(int exitCode, String out, String err) {}

  private Cluster start() {
    EtcdCluster etcd = fixture.etcd();
    List<RedisProcess> nodes = List.of(fixture.redis(), fixture.redis(), fixture.redis());
    writeMap(etcd, nodes);
    return new Cluster(etcd, nodes);
  }

  /** Nodes, then every shard (round robin), then meta: what an operator's script would put. */
  private static void writeMap(EtcdCluster etcd, List<RedisProcess> nodes) {
    for (int node = 0; node < nodes.size(); node++) {
      put(
          etcd,
          "nodes/n" + node,
          "{\"host\":\"127.0.0.1\",\"port\":" + nodes.get(node).port() + "}");
    }
    for (int shard = 0; shard < SHARDS; shard++) {
      put(
          etcd,
          String.format("shards/%04d", shard),
          "{\"leader\":\"n" + (shard % 3) + "\",\"replicas\":[],\"epoch\":0,\"state\":\"active\"}");
    }
    put(etcd, "meta", "{\"format\":1,\"shards\":" + SHARDS + ",\"routing\":\"xxh64-jump\"}");
  }

  private static void put(EtcdCluster etcd, String key, String value) {
    etcd.etcdctl("put", "/jumpgate/" + CLUSTER + "/" + key, value).ok();
  }

  private static int shardOf(String key) {
    return Xxh64JumpRouter.forShards(SHARDS).shardOf(key.getBytes(StandardCharsets.UTF_8));
  }

  /** A key of the given prefix whose shard node {@code node} leads. */
  private static String keyOn(int node, String prefix) {
    for (int index = 0; ; index++) {
      String key = prefix + index;
      if (shardOf(key) % 3 == node) {
        return key;
      }
    }
  }

  private static String traceLine(Cluster cluster, String key) {
    int node = cluster.leaderOf(key);
    return "# shard="
        + shardOf(key)
        + " node=n"
        + node
        + " addr="
        + cluster.nodes().get(node).address()
        + " attempts=1";
  }

  /**
   * Runs {@code jumpgate exec <source> <arguments>} in-process with this stdin and environment.
   * Registers exec on the command line when {@link JumpgateCli} does not list it yet.
   */
  private static Result exec(
      Cluster cluster, Map<String, String> environment, String stdin, String... arguments)
      throws Exception {
    InputStream input = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
    CommandLine commandLine = JumpgateCli.newCommandLine(environment);
    if (commandLine.getSubcommands().containsKey("exec")) {
      commandLine.getCommandSpec().removeSubcommand("exec");
    }
    commandLine.addSubcommand("exec", new ExecCommand(input));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    List<String> all = new ArrayList<>(List.of("exec"));
    all.addAll(List.of(cluster.source()));
    all.addAll(List.of(arguments));
    int exitCode = commandLine.execute(all.toArray(String[]::new));
    return new Result(exitCode, out.toString(), err.toString());
  }

  private static Result exec(Cluster cluster, String... arguments) throws Exception {
    return exec(cluster, Map.of(), "", arguments);
  }

  /**
   * {@code redis-cli --no-raw -h 127.0.0.1 -p <port> <command>}: redis-cli's own terminal format,
   * trimmed. Fails when redis-cli is missing, with the command that installs it.
   */
  private static String redisCli(RedisProcess node, String... command) throws Exception {
    List<String> all =
        new ArrayList<>(
            List.of(
                redisCliBinary().toString(),
                "--no-raw",
                "-h",
                "127.0.0.1",
                "-p",
                Integer.toString(node.port())));
    all.addAll(List.of(command));
    Process process = new ProcessBuilder(all).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("redis-cli ended").isTrue();
    assertThat(process.exitValue()).as(String.join(" ", all) + ": " + output).isZero();
    return output.strip();
  }

  /** redis-cli next to JUMPGATE_REDIS_BIN, or on PATH. */
  private static Path redisCliBinary() {
    List<Path> candidates = new ArrayList<>();
    String redisBin = System.getenv("JUMPGATE_REDIS_BIN");
    if (redisBin != null && !redisBin.isBlank() && Path.of(redisBin).getParent() != null) {
      candidates.add(Path.of(redisBin).getParent().resolve("redis-cli"));
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty()) {
        candidates.add(Path.of(dir, "redis-cli"));
      }
    }
    for (Path candidate : candidates) {
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError(
        "redis-cli is not on PATH: it checks from outside where exec wrote each key. Install it"
            + " with: "
            + Binaries.INSTALL_COMMAND
            + " (redis-server brings redis-tools, which holds redis-cli)");
  }

  @Test
  void keys_written_through_exec_are_on_exactly_their_shard_leader_as_redis_cli_sees()
      throws Exception {
    Cluster cluster = start();
    List<String> keys = new ArrayList<>(List.of("user:42", "{user:42}.profile"));
    for (int node = 0; node < 3; node++) {
      keys.add(keyOn(node, "user:"));
      keys.add(keyOn(node, "order:"));
    }
    long[] perNode = new long[3];

    for (String key : keys) {
      Result result = exec(cluster, "SET", key, "value of " + key);
      assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
      assertThat(result.out()).isEqualTo("OK\n");
      assertThat(result.err()).isEmpty();
      perNode[cluster.leaderOf(key)]++;
    }

    for (String key : keys) {
      int leader = cluster.leaderOf(key);
      for (int node = 0; node < 3; node++) {
        String seen = redisCli(cluster.nodes().get(node), "GET", key);
        assertThat(seen)
            .as("GET %s on n%d (the leader is n%d)", key, node, leader)
            .isEqualTo(node == leader ? "\"value of " + key + "\"" : "(nil)");
      }
    }
    for (int node = 0; node < 3; node++) {
      // Nothing else was written anywhere: each node holds exactly the keys it leads.
      assertThat(redisCli(cluster.nodes().get(node), "DBSIZE"))
          .isEqualTo("(integer) " + perNode[node]);
    }
  }

  @Test
  void trace_names_the_leader_and_address_that_redis_cli_finds_the_key_on() throws Exception {
    Cluster cluster = start();
    int leader = cluster.leaderOf("user:42");

    Result set = exec(cluster, "--trace", "SET", "user:42", "Ada");
    Result get = exec(cluster, "--trace", "GET", "user:42");

    assertThat(set.exitCode()).as(set.out() + set.err()).isZero();
    assertThat(set.out()).isEqualTo(traceLine(cluster, "user:42") + "\nOK\n");
    assertThat(get.out()).isEqualTo(traceLine(cluster, "user:42") + "\n\"Ada\"\n");
    assertThat(set.out())
        .contains(" node=n" + leader + " addr=" + cluster.nodes().get(leader).address() + " ");
    assertThat(redisCli(cluster.nodes().get(leader), "GET", "user:42")).isEqualTo("\"Ada\"");
  }

  @Test
  void stdin_runs_each_line_with_redis_cli_quoting_and_traces_a_fan_out_once_per_node()
      throws Exception {
    Cluster cluster = start();
    String a = keyOn(0, "k:");
    String b = keyOn(1, "k:");
    String c = keyOn(2, "k:");
    String stdin =
        String.join(
            "\n",
            "SET greeting \"hello world\"",
            "SET quote 'say \"hi\"'",
            "SET bytes \"tab\\there\\x00\\xff\"",
            "MSET " + a + " 1 " + b + " 2 " + c + " 3",
            "MGET " + c + " " + a + " greeting " + b,
            "GET bytes",
            "");

    Result result = exec(cluster, Map.of(), stdin, "--trace");

    assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
    assertThat(result.err()).isEmpty();
    List<String> lines = result.out().lines().toList();
    assertThat(lines.subList(0, 6))
        .containsExactly(
            traceLine(cluster, "greeting"),
            "OK",
            traceLine(cluster, "quote"),
            "OK",
            traceLine(cluster, "bytes"),
            "OK");
    // MSET and MGET: one trace line per node, in node order, then the reply.
    for (int first : new int[] {6, 10}) {
      for (int node = 0; node < 3; node++) {
        assertThat(lines.get(first + node))
            .matches("# shard=[0-9,]+ node=n" + node + " addr=127\\.0\\.0\\.1:[0-9]+ attempts=1")
            .endsWith("addr=" + cluster.nodes().get(node).address() + " attempts=1");
      }
    }
    assertThat(lines.get(9)).isEqualTo("OK");
    assertThat(lines.subList(13, 17))
        .containsExactly("1) \"3\"", "2) \"1\"", "3) \"hello world\"", "4) \"2\"");
    assertThat(lines.subList(17, 19))
        .containsExactly(traceLine(cluster, "bytes"), "\"tab\\there\\x00\\xff\"");
    assertThat(lines).hasSize(19);
    // redis-cli sees the same bytes, on the same node, and prints them the same way.
    assertThat(redisCli(cluster.nodes().get(cluster.leaderOf("quote")), "GET", "quote"))
        .isEqualTo("\"say \\\"hi\\\"\"");
    assertThat(redisCli(cluster.nodes().get(cluster.leaderOf("bytes")), "GET", "bytes"))
        .isEqualTo("\"tab\\there\\x00\\xff\"");
  }

  @Test
  void a_wrongtype_error_prints_as_redis_cli_prints_it() throws Exception {
    Cluster cluster = start();
    RedisProcess leader = cluster.nodes().get(cluster.leaderOf("mylist"));

    Result fromStdin = exec(cluster, Map.of(), "LPUSH mylist a b\nGET mylist\nLLEN mylist\n");
    Result single = exec(cluster, "GET", "mylist");

    assertThat(fromStdin.exitCode()).as(fromStdin.out() + fromStdin.err()).isZero();
    assertThat(fromStdin.out()).isEqualTo("(integer) 2\n" + WRONGTYPE + "\n(integer) 2\n");
    assertThat(single.exitCode()).isEqualTo(1);
    assertThat(single.out()).isEqualTo(WRONGTYPE + "\n");
    assertThat(redisCli(leader, "GET", "mylist")).isEqualTo(WRONGTYPE);
  }

  @Test
  void a_wrong_redis_password_fails_naming_the_node_and_never_prints_the_password()
      throws Exception {
    Cluster cluster = start();
    String password = "the-right-redis-password";
    for (RedisProcess node : cluster.nodes()) {
      assertThat(node.call("CONFIG", "SET", "requirepass", password)).isEqualTo("OK");
    }
    String wrong = "a-wrong-redis-password";
    RedisProcess leader = cluster.nodes().get(cluster.leaderOf("user:42"));

    Result refused = exec(cluster, "--redis-password", wrong, "GET", "user:42");
    Result fromEnvironment =
        exec(cluster, Map.of("JUMPGATE_REDIS_PASSWORD", wrong), "GET user:42\n", "--trace");
    Result accepted =
        exec(cluster, Map.of("JUMPGATE_REDIS_PASSWORD", password), "", "SET", "user:42", "Ada");

    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.out())
        .startsWith("(error) ")
        .contains(leader.address())
        .contains("(server: WRONGPASS ");
    assertThat(refused.out() + refused.err()).doesNotContain(wrong).doesNotContain(password);
    assertThat(fromEnvironment.exitCode()).isEqualTo(1);
    assertThat(fromEnvironment.out())
        .contains(" addr=" + leader.address() + " ")
        .contains("(error) ")
        .doesNotContain(wrong);
    assertThat(fromEnvironment.err()).doesNotContain(wrong);
    assertThat(accepted.exitCode()).as(accepted.out() + accepted.err()).isZero();
    assertThat(accepted.out()).isEqualTo("OK\n");
    assertThat(redisCli(leader, "-a", password, "--no-auth-warning", "GET", "user:42"))
        .isEqualTo("\"Ada\"");
  }

  @Test
  void broadcasts_cover_every_node() throws Exception {
    Cluster cluster = start();
    for (int node = 0; node < 3; node++) {
      exec(cluster, "SET", keyOn(node, "b:"), "x");
    }

    Result ping = exec(cluster, "--trace", "PING");
    Result dbsize = exec(cluster, "DBSIZE");

    List<String> lines = ping.out().lines().toList();
    assertThat(lines).hasSize(6);
    for (int node = 0; node < 3; node++) {
      assertThat(lines.get(node))
          .isEqualTo(
              "# shard=- node=n"
                  + node
                  + " addr="
                  + cluster.nodes().get(node).address()
                  + " attempts=1");
      assertThat(lines.get(3 + node)).isEqualTo((node + 1) + "# \"n" + node + "\" => PONG");
    }
    assertThat(dbsize.out()).isEqualTo("(integer) 3\n");
  }

  @Test
  void redis_cli_is_available_for_these_checks() throws IOException {
    assertThat(redisCliBinary()).isNotNull();
  }
}
