package io.jumpgate.it.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.routing.Xxh64JumpRouter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The topology verbs of the CLI against a real etcd, with a map written by plain {@code etcdctl
 * put}s that follow the contract (meta last): what an operator's script would do.
 */
class CliTopologyIT {

  private static final String CLUSTER = "it";
  private static final int SHARDS = 16;
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final Duration WATCH_LATENCY_LIMIT = Duration.ofSeconds(1);

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  private final ObjectMapper json = new ObjectMapper();

  /** Shard i led by n(i % 3) with n((i + 1) % 3) as replica; nodes n0..n2 on 127.0.0.1:700x. */
  private static void writeMap(EtcdCluster etcd, String... etcdctlAuth) {
    for (int node = 0; node < 3; node++) {
      put(
          etcd,
          "nodes/n" + node,
          "{\"host\":\"127.0.0.1\",\"port\":" + (7000 + node) + ",\"zone\":\"az" + node + "\"}",
          etcdctlAuth);
    }
    for (int shard = 0; shard < SHARDS; shard++) {
      put(etcd, shardKey(shard), shardJson(shard % 3, 0), etcdctlAuth);
    }
    put(
        etcd,
        "meta",
        "{\"format\":1,\"shards\":" + SHARDS + ",\"routing\":\"xxh64-jump\"}",
        etcdctlAuth);
  }

  private static String shardKey(int shard) {
    return String.format("shards/%04d", shard);
  }

  private static String shardJson(int leader, long epoch) {
    return "{\"leader\":\"n"
        + leader
        + "\",\"replicas\":[\"n"
        + ((leader + 1) % 3)
        + "\"],\"epoch\":"
        + epoch
        + ",\"state\":\"active\"}";
  }

  /** {@code etcdctl put /jumpgate/it/<key> <value>}; returns the revision it wrote. */
  private static long put(EtcdCluster etcd, String key, String value, String... auth) {
    List<String> arguments = new ArrayList<>(List.of(auth));
    arguments.addAll(List.of("put", "-w", "json", "/jumpgate/" + CLUSTER + "/" + key, value));
    String output = etcd.etcdctl(arguments.toArray(String[]::new)).ok();
    try {
      return new ObjectMapper().readTree(output).path("header").path("revision").asLong();
    } catch (Exception e) {
      throw new AssertionError("etcdctl put printed no JSON header: " + output, e);
    }
  }

  private String[] withSource(EtcdCluster etcd, String... arguments) {
    List<String> all = new ArrayList<>(List.of(arguments));
    all.addAll(List.of("--etcd", etcd.endpointList(), "--cluster", CLUSTER, "--timeout", "10s"));
    return all.toArray(String[]::new);
  }

  @Test
  void show_json_reads_the_map_that_etcdctl_wrote() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    writeMap(etcd);

    CliRun.Result result = CliRun.run(withSource(etcd, "topology", "show", "--json"));

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.err()).isEmpty();
    JsonNode map = json.readTree(result.out());
    assertThat(map.path("cluster").asText()).isEqualTo(CLUSTER);
    assertThat(map.path("revision").asLong()).isPositive();
    assertThat(map.path("shards").asInt()).isEqualTo(SHARDS);
    assertThat(map.path("nodes").size()).isEqualTo(3);
    assertThat(map.path("nodes").path("n1").path("port").asInt()).isEqualTo(7001);
    assertThat(map.path("nodes").path("n1").path("zone").asText()).isEqualTo("az1");
    assertThat(map.path("assignments").size()).isEqualTo(SHARDS);
    for (int shard = 0; shard < SHARDS; shard++) {
      JsonNode assignment = map.path("assignments").get(shard);
      assertThat(assignment.path("shard").asInt()).isEqualTo(shard);
      assertThat(assignment.path("leader").asText()).isEqualTo("n" + (shard % 3));
      assertThat(assignment.path("replicas").get(0).asText()).isEqualTo("n" + ((shard + 1) % 3));
      assertThat(assignment.path("state").asText()).isEqualTo("active");
    }
    assertThat(map.path("invalid").size()).isZero();
  }

  @Test
  void route_names_the_leader_and_its_address() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    writeMap(etcd);
    int shard =
        Xxh64JumpRouter.forShards(SHARDS).shardOf("user:42".getBytes(StandardCharsets.UTF_8));
    int leader = shard % 3;

    CliRun.Result result = CliRun.run(withSource(etcd, "route", "--json", "user:42"));

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode route = json.readTree(result.out());
    assertThat(route.path("key").asText()).isEqualTo("user:42");
    assertThat(route.path("shard").asInt()).isEqualTo(shard);
    assertThat(route.path("leader").asText()).isEqualTo("n" + leader);
    assertThat(route.path("leaderAddress").asText()).isEqualTo("127.0.0.1:" + (7000 + leader));
    assertThat(route.path("replicas").get(0).asText()).isEqualTo("n" + ((leader + 1) % 3));
    assertThat(route.path("epoch").asLong()).isZero();
    assertThat(route.path("revision").asLong()).isPositive();
  }

  @Test
  void watch_prints_each_etcdctl_change_within_a_second() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    writeMap(etcd);
    int changes = 5;
    CliRun watch =
        CliRun.start(withSource(etcd, "topology", "watch", "--count", "" + changes, "--for", "2m"));
    Poll.until(
        WAIT,
        "the watch to print the current revision",
        () -> watch.out.firstContaining("current map") != null,
        () -> "stdout: " + watch.out.text() + "\nstderr: " + watch.err.text());

    List<Long> fromReturn = new ArrayList<>();
    List<Long> fromStart = new ArrayList<>();
    for (int change = 1; change <= changes; change++) {
      int shard = change;
      int newLeader = (shard + 1) % 3;
      long started = System.nanoTime();
      long revision = put(etcd, shardKey(shard), shardJson(newLeader, change));
      long returned = System.nanoTime();
      String expected =
          String.format(
              "revision %d: shard %04d leader n%d -> n%d", revision, shard, shard % 3, newLeader);
      Poll.until(
          WAIT,
          "the watch to print '" + expected + "'",
          () -> watch.out.firstContaining(expected) != null,
          () -> "stdout: " + watch.out.text() + "\nstderr: " + watch.err.text());
      long printed = watch.out.firstContaining(expected).nanoTime();
      fromReturn.add(TimeUnit.NANOSECONDS.toMillis(printed - returned));
      fromStart.add(TimeUnit.NANOSECONDS.toMillis(printed - started));
    }

    assertThat(watch.awaitExit(30)).isZero();
    System.out.println(
        "CliTopologyIT watch latency (ms), from the return of etcdctl put: "
            + fromReturn
            + "; from its start: "
            + fromStart);
    assertThat(fromReturn)
        .allSatisfy(millis -> assertThat(millis).isLessThan(WATCH_LATENCY_LIMIT.toMillis()));
    assertThat(watch.err.text()).isEmpty();
    assertThat(watch.out.lines()).hasSize(1 + changes);
  }

  @Test
  void validate_exits_one_on_an_invalid_entry_and_diff_sees_it() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    writeMap(etcd);
    CliRun.Result valid = CliRun.run(withSource(etcd, "topology", "validate"));
    long before = put(etcd, "nodes/n0", "{\"host\":\"127.0.0.1\",\"port\":7000,\"zone\":\"az0\"}");

    put(etcd, shardKey(7), "{\"leader\":\"n9\",\"replicas\":[]}");
    CliRun.Result invalid = CliRun.run(withSource(etcd, "topology", "validate"));
    CliRun.Result diff = CliRun.run(withSource(etcd, "topology", "diff", "etcd@" + before, "etcd"));

    assertThat(valid.exitCode()).as(valid.out() + valid.err()).isZero();
    assertThat(valid.out()).contains("valid (16 shards, 3 nodes)");
    assertThat(invalid.exitCode()).isEqualTo(1);
    assertThat(invalid.out())
        .contains(
            "invalid entry /jumpgate/it/shards/0007: leader 'n9' is not in the node table",
            "shard 0007 unavailable: leader 'n9' is not in the node table",
            "not valid: 1 invalid entry, 1 unavailable shard");
    assertThat(diff.exitCode()).as(diff.err()).isEqualTo(1);
    assertThat(diff.out())
        .contains(
            "shard 0007 unavailable: leader 'n9' is not in the node table (was leader n1, epoch 0)",
            "invalid: /jumpgate/it/shards/0007: leader 'n9' is not in the node table");
  }

  @Test
  void a_wrong_etcd_password_exits_one_naming_the_endpoint_and_not_the_password() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    etcd.etcdctl("user", "add", "root:right-Pa55word").ok();
    etcd.etcdctl("auth", "enable").ok();
    writeMap(etcd, "--user", "root:right-Pa55word");
    String wrong = "wr0ng-Pa55word";

    CliRun.Result refused =
        CliRun.run(withSource(etcd, "topology", "show", "--user", "root", "--password", wrong));
    CliRun.Result allowed =
        CliRun.run(
            withSource(
                etcd, "topology", "validate", "--user", "root", "--password", "right-Pa55word"));

    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.out()).isEmpty();
    assertThat(refused.err())
        .startsWith("jumpgate topology show: ")
        .contains(etcd.endpointList())
        .contains("authentication failed")
        .doesNotContain(wrong)
        .doesNotContain("Pa55word");
    assertThat(refused.err().lines()).hasSize(1);
    assertThat(allowed.exitCode()).as(allowed.err()).isZero();
  }

  /**
   * The runnable jar against an etcd that does not answer: one line on stderr, naming the endpoint,
   * and no library warnings before it (jetcd logs each exhausted retry at WARN). Skipped when the
   * jar was not built.
   */
  @Test
  void the_runnable_jar_prints_one_line_when_etcd_is_unreachable() throws Exception {
    Path jar =
        Path.of(System.getProperty("jumpgate.cli.jar", "../cli/target/jumpgate.jar"))
            .toAbsolutePath()
            .normalize();
    Assumptions.assumeTrue(Files.isRegularFile(jar), "no runnable jar at " + jar);
    Path dir = fixture.tempDir("jumpgate-cli-jar");
    Path stdout = dir.resolve("stdout");
    Path stderr = dir.resolve("stderr");
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                jar.toString(),
                "topology",
                "show",
                "--etcd",
                "http://127.0.0.1:1")
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
    boolean exited = process.waitFor(60, TimeUnit.SECONDS);
    if (!exited) {
      process.destroyForcibly();
    }
    assertThat(exited).as("the jar exited within 60 s").isTrue();
    assertThat(process.exitValue()).isEqualTo(1);
    assertThat(Files.readString(stdout)).isEmpty();
    assertThat(Files.readAllLines(stderr))
        .singleElement()
        .asString()
        .startsWith("jumpgate topology show: no topology from etcd at http://127.0.0.1:1 ");
  }

  /**
   * The runnable jar, as {@code bin/jumpgate} runs it, prints the answer and nothing else: no SLF4J
   * or grpc lines. Skipped when the jar was not built ({@code mvn -f cli/pom.xml package}).
   */
  @Test
  void the_runnable_jar_prints_only_the_answer() throws Exception {
    Path jar =
        Path.of(System.getProperty("jumpgate.cli.jar", "../cli/target/jumpgate.jar"))
            .toAbsolutePath()
            .normalize();
    Assumptions.assumeTrue(Files.isRegularFile(jar), "no runnable jar at " + jar);
    EtcdCluster etcd = fixture.etcd();
    writeMap(etcd);
    Path dir = fixture.tempDir("jumpgate-cli-jar");
    Path stdout = dir.resolve("stdout");
    Path stderr = dir.resolve("stderr");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-jar");
    command.add(jar.toString());
    command.addAll(List.of(withSource(etcd, "topology", "show", "--by-node")));

    Process process =
        new ProcessBuilder(command)
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
    boolean exited = process.waitFor(60, TimeUnit.SECONDS);
    if (!exited) {
      process.destroyForcibly();
    }

    assertThat(exited).as("the jar exited within 60 s").isTrue();
    assertThat(Files.readString(stderr)).isEmpty();
    assertThat(process.exitValue()).isZero();
    assertThat(Files.readString(stdout))
        .startsWith("cluster 'it' revision ")
        .contains("NODE  ADDRESS         ZONE  LEADERS")
        .contains("n0    127.0.0.1:7000  az0");
  }
}
