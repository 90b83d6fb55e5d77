package io.jumpgate.it.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jumpgate.cli.AddNodeCommand;
import io.jumpgate.cli.FailoverCommand;
import io.jumpgate.cli.InitCommand;
import io.jumpgate.cli.JumpgateCli;
import io.jumpgate.cli.MoveShardCommand;
import io.jumpgate.cli.RebalanceCommand;
import io.jumpgate.cli.RemoveNodeCommand;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.ProcessFixture;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/**
 * The admin verbs of the CLI ({@code init}, {@code add-node}, {@code remove-node}, {@code
 * move-shard}, {@code failover}, {@code rebalance}) against a real etcd, read back with {@code
 * topology show --json}. Each verb runs in-process on the test thread; a lost compare-and-set is
 * provoked by an {@code etcdctl put} made from the CLI's own stdout, synchronously, as it prints
 * the line before the write that must lose. The verbs whose data moves run with {@code --map-only}:
 * the nodes here are map entries without servers ({@link CliMoveDataIT} moves data).
 */
class CliAdminIT {

  private static final String CLUSTER = "it";
  private static final String NODES =
      "n0=127.0.0.1:7000@az0,n1=127.0.0.1:7001@az1,n2=127.0.0.1:7002@az2";
  private static final Pattern READ_AT = Pattern.compile("cluster 'it', read at revision (\\d+)");
  private static final Pattern STEP = Pattern.compile("shard (\\d{4}): .*");

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  private final ObjectMapper json = new ObjectMapper();

  // ---- running verbs -------------------------------------------------------------------------

  /** What one run printed and returned. */
  record Result(int exitCode, String out, String err) {

    List<String> outLines() {
      return out.lines().toList();
    }
  }

  /** Splits what it gets into lines, keeps them, and hands each complete line to a hook. */
  private static final class LineWriter extends Writer {
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder pending = new StringBuilder();
    private final Consumer<String> onLine;

    LineWriter(Consumer<String> onLine) {
      this.onLine = onLine;
    }

    @Override
    public void write(char[] buffer, int offset, int length) {
      for (int index = offset; index < offset + length; index++) {
        char c = buffer[index];
        text.append(c);
        if (c == '\n') {
          String line = pending.toString();
          pending.setLength(0);
          onLine.accept(line);
        } else if (c != '\r') {
          pending.append(c);
        }
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }

  /** {@code jumpgate} with the admin verbs, for as long as JumpgateCli does not list them. */
  private static CommandLine jumpgate() {
    CommandLine commandLine = JumpgateCli.newCommandLine(Map.of());
    List<Callable<Integer>> verbs =
        List.of(
            new InitCommand(),
            new AddNodeCommand(),
            new RemoveNodeCommand(),
            new MoveShardCommand(),
            new FailoverCommand(),
            new RebalanceCommand());
    for (Callable<Integer> verb : verbs) {
      String name = verb.getClass().getAnnotation(CommandLine.Command.class).name();
      if (!commandLine.getSubcommands().containsKey(name)) {
        commandLine.addSubcommand(verb);
      }
    }
    return commandLine;
  }

  private String[] withSource(EtcdCluster etcd, String... arguments) {
    List<String> all = new ArrayList<>(List.of(arguments));
    all.addAll(List.of("--etcd", etcd.endpointList(), "--cluster", CLUSTER, "--timeout", "10s"));
    return all.toArray(String[]::new);
  }

  /** Runs {@code jumpgate <arguments> --etcd .. --cluster it} on this thread. */
  private Result run(EtcdCluster etcd, String... arguments) {
    return run(line -> {}, withSource(etcd, arguments));
  }

  /** Runs {@code jumpgate <arguments>}, calling {@code onLine} for each line of stdout. */
  private static Result run(Consumer<String> onLine, String... arguments) {
    LineWriter out = new LineWriter(onLine);
    LineWriter err = new LineWriter(line -> {});
    CommandLine commandLine = jumpgate();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exitCode = commandLine.execute(arguments);
    Result result = new Result(exitCode, out.text.toString(), err.text.toString());
    if (arguments[0].equals("topology")) {
      return result; // a JSON line of 1024 shards: not worth a log
    }
    System.out.println(
        "$ jumpgate "
            + String.join(" ", arguments)
            + "\n"
            + abbreviated(result.out())
            + result.err()
            + "(exit "
            + exitCode
            + ")\n");
    return result;
  }

  /** At most 12 lines of the head and 8 of the tail, for the log. */
  private static String abbreviated(String text) {
    List<String> lines = text.lines().toList();
    if (lines.size() <= 24) {
      return text;
    }
    List<String> kept = new ArrayList<>(lines.subList(0, 12));
    kept.add("... (" + (lines.size() - 20) + " lines)");
    kept.addAll(lines.subList(lines.size() - 8, lines.size()));
    return String.join("\n", kept) + "\n";
  }

  private JsonNode show(EtcdCluster etcd) throws Exception {
    Result result = run(line -> {}, withSource(etcd, "topology", "show", "--json"));
    assertThat(result.exitCode()).as(result.err()).isZero();
    return json.readTree(result.out());
  }

  private static SortedMap<String, Integer> leaders(JsonNode map) {
    SortedMap<String, Integer> counts = new TreeMap<>();
    map.path("nodes").fieldNames().forEachRemaining(id -> counts.put(id, 0));
    for (JsonNode assignment : map.path("assignments")) {
      counts.merge(assignment.path("leader").asText(), 1, Integer::sum);
    }
    return counts;
  }

  private static int spread(Map<String, Integer> counts) {
    return Collections.max(counts.values()) - Collections.min(counts.values());
  }

  private static JsonNode shard(JsonNode map, int shard) {
    JsonNode assignment = map.path("assignments").get(shard);
    assertThat(assignment.path("shard").asInt()).isEqualTo(shard);
    return assignment;
  }

  private static List<String> replicas(JsonNode assignment) {
    List<String> replicas = new ArrayList<>();
    assignment.path("replicas").forEach(replica -> replicas.add(replica.asText()));
    return replicas;
  }

  private static long readRevision(Result result) {
    Matcher matcher = READ_AT.matcher(result.outLines().get(0));
    assertThat(matcher.matches()).as(result.out()).isTrue();
    return Long.parseLong(matcher.group(1));
  }

  /** Puts a shard's value back as it is: its mod revision moves, its content does not. */
  private static void touchShard(EtcdCluster etcd, String shardId) {
    String key = "/jumpgate/" + CLUSTER + "/shards/" + shardId;
    String value = etcd.etcdctl("get", key, "--print-value-only").ok().strip();
    assertThat(value).as(key).startsWith("{");
    etcd.etcdctl("put", key, value).ok();
  }

  private JsonNode initialised(EtcdCluster etcd) throws Exception {
    Result init = run(etcd, "init", "--nodes", NODES);
    assertThat(init.exitCode()).as(init.err()).isZero();
    return show(etcd);
  }

  // ---- tests ---------------------------------------------------------------------------------

  @Test
  void init_creates_1024_shards_over_3_nodes_with_leaders_within_one() throws Exception {
    EtcdCluster etcd = fixture.etcd();

    Result init = run(etcd, "init", "--nodes", NODES);
    JsonNode map = show(etcd);
    Result again = run(etcd, "init", "--nodes", NODES);

    assertThat(init.exitCode()).as(init.err()).isZero();
    assertThat(init.err()).isEmpty();
    List<String> lines = init.outLines();
    assertThat(lines.get(0)).startsWith("cluster 'it', not initialised (etcd at revision ");
    assertThat(lines.get(1))
        .startsWith("initial placement of 1024 shard(s) with 1 replica(s) on 3 node(s): ");
    assertThat(lines).noneMatch(line -> line.startsWith("shard "));
    assertThat(lines)
        .contains(
            "add node n0 at 127.0.0.1:7000, zone az0",
            "add node n2 at 127.0.0.1:7002, zone az2",
            "transaction 1 of 12 committed at revision " + (revisionIn(lines.get(0)) + 1));
    String last = lines.get(lines.size() - 1);
    assertThat(last)
        .matches(
            "cluster 'it' initialised at revision \\d+: 1024 shards on 3 node\\(s\\), 1028 key\\(s\\)"
                + " in 12 transaction\\(s\\)");

    assertThat(map.path("shards").asInt()).isEqualTo(1024);
    assertThat(map.path("revision").asLong()).isEqualTo(revisionIn(last));
    assertThat(map.path("assignments").size()).isEqualTo(1024);
    assertThat(map.path("invalid").size()).isZero();
    assertThat(map.path("nodes").path("n1").path("zone").asText()).isEqualTo("az1");
    SortedMap<String, Integer> leaders = leaders(map);
    assertThat(leaders.keySet()).containsExactly("n0", "n1", "n2");
    assertThat(spread(leaders)).isLessThanOrEqualTo(1);
    for (JsonNode assignment : map.path("assignments")) {
      assertThat(assignment.path("epoch").asLong()).isZero();
      assertThat(replicas(assignment))
          .hasSize(1)
          .doesNotContain(assignment.path("leader").asText());
    }

    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.out()).isEmpty();
    assertThat(again.err())
        .matches("jumpgate init: cluster 'it' is already initialised \\(revision \\d+\\)\\R");
  }

  /** The number after the first "at revision " of a line. */
  private static long revisionIn(String line) {
    Matcher matcher = Pattern.compile("at revision (\\d+)").matcher(line);
    assertThat(matcher.find()).as(line).isTrue();
    return Long.parseLong(matcher.group(1));
  }

  @Test
  void add_node_prints_the_plan_and_moves_a_quarter_of_the_leaderships_with_apply()
      throws Exception {
    EtcdCluster etcd = fixture.etcd();
    JsonNode before = initialised(etcd);

    Result planned = run(etcd, "add-node", "--map-only", "n3=127.0.0.1:7003@az0");
    JsonNode unchanged = show(etcd);
    Result applied = run(etcd, "add-node", "--map-only", "n3=127.0.0.1:7003@az0", "--apply");
    JsonNode after = show(etcd);

    assertThat(planned.exitCode()).as(planned.err()).isZero();
    assertThat(planned.err()).isEmpty();
    List<String> plan = planned.outLines();
    assertThat(readRevision(planned)).isEqualTo(before.path("revision").asLong());
    assertThat(plan.get(1)).startsWith("addNode n3: ").contains("256 leadership(s) move");
    assertThat(plan).filteredOn(line -> STEP.matcher(line).matches()).hasSizeGreaterThan(256);
    assertThat(plan).contains("add node n3 at 127.0.0.1:7003, zone az0");
    assertThat(plan.get(plan.size() - 1)).startsWith("nothing written: run again with --apply");
    assertThat(unchanged.path("revision").asLong()).isEqualTo(before.path("revision").asLong());
    assertThat(unchanged.path("nodes").has("n3")).isFalse();

    assertThat(applied.exitCode()).as(applied.err()).isZero();
    assertThat(applied.err()).isEmpty();
    List<String> lines = applied.outLines();
    assertThat(lines).filteredOn(line -> line.startsWith("transaction ")).hasSizeGreaterThan(1);
    assertThat(lines.get(lines.size() - 1))
        .startsWith("applied at revision " + after.path("revision").asLong() + ": ");
    SortedMap<String, Integer> leaders = leaders(after);
    assertThat(leaders).containsEntry("n3", 256);
    assertThat(spread(leaders)).isLessThanOrEqualTo(1);
    int moved = 0;
    for (int shard = 0; shard < 1024; shard++) {
      JsonNode was = shard(before, shard);
      JsonNode is = shard(after, shard);
      if (!was.path("leader").equals(is.path("leader"))) {
        moved++;
        assertThat(is.path("leader").asText()).isEqualTo("n3");
        assertThat(is.path("epoch").asLong()).isEqualTo(1);
      } else {
        assertThat(is.path("epoch").asLong()).isZero();
      }
    }
    assertThat(moved).isEqualTo(256);
    assertThat(after.path("invalid").size()).isZero();
  }

  @Test
  void move_shard_moves_it_at_once_and_bumps_the_epoch() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    JsonNode before = initialised(etcd);
    JsonNode seven = shard(before, 7);
    String to = seven.path("leader").asText().equals("n1") ? "n2" : "n1";

    Result result = run(etcd, "move-shard", "--map-only", "7", "--to", to);
    JsonNode after = show(etcd);

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.err()).isEmpty();
    List<String> lines = result.outLines();
    assertThat(lines.get(1)).startsWith("moveLeader of shard 7 to " + to + ": 1 shard(s) change");
    assertThat(lines.get(2))
        .startsWith("shard 0007: leader " + seven.path("leader").asText() + " -> " + to)
        .contains("(epoch 0 -> 1)");
    assertThat(lines.get(lines.size() - 1))
        .isEqualTo(
            "applied at revision "
                + after.path("revision").asLong()
                + ": 1 key(s) in 1 transaction(s), planned at revision "
                + before.path("revision").asLong());
    assertThat(shard(after, 7).path("leader").asText()).isEqualTo(to);
    assertThat(shard(after, 7).path("epoch").asLong()).isEqualTo(1);
    for (int shard = 0; shard < 1024; shard++) {
      if (shard != 7) {
        assertThat(shard(after, shard)).isEqualTo(shard(before, shard));
      }
    }
  }

  @Test
  void failover_of_a_shard_promotes_its_replica_at_once() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    JsonNode before = initialised(etcd);
    JsonNode assignment = shard(before, 42);
    String leader = assignment.path("leader").asText();
    String replica = replicas(assignment).get(0);

    Result result = run(etcd, "failover", "--shard", "42");
    JsonNode after = show(etcd);

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.outLines().get(1)).startsWith("failover of shard 42: 1 shard(s) change");
    assertThat(result.outLines().get(result.outLines().size() - 1))
        .startsWith("applied at revision " + after.path("revision").asLong());
    JsonNode failed = shard(after, 42);
    assertThat(failed.path("leader").asText()).isEqualTo(replica);
    assertThat(failed.path("epoch").asLong()).isEqualTo(1);
    assertThat(replicas(failed)).hasSize(1).doesNotContain(leader, replica);
  }

  @Test
  void failover_of_a_node_promotes_a_replica_of_every_shard_it_leads_then_rebalance_evens_out()
      throws Exception {
    EtcdCluster etcd = fixture.etcd();
    JsonNode before = initialised(etcd);

    Result planned = run(etcd, "failover", "--node", "n2");
    JsonNode unchanged = show(etcd);
    Result applied = run(etcd, "failover", "--node", "n2", "--apply");
    JsonNode failedOver = show(etcd);
    Result rebalancePlan = run(etcd, "rebalance", "--map-only");
    Result rebalanced = run(etcd, "rebalance", "--map-only", "--apply");
    JsonNode balanced = show(etcd);
    Result nothingLeft = run(etcd, "rebalance", "--map-only", "--apply");

    assertThat(planned.exitCode()).as(planned.err()).isZero();
    assertThat(planned.outLines().get(planned.outLines().size() - 1))
        .startsWith("nothing written: run again with --apply");
    assertThat(unchanged.path("revision").asLong()).isEqualTo(before.path("revision").asLong());

    assertThat(applied.exitCode()).as(applied.err()).isZero();
    assertThat(leaders(failedOver)).containsEntry("n2", 0);
    for (int shard = 0; shard < 1024; shard++) {
      JsonNode was = shard(before, shard);
      JsonNode is = shard(failedOver, shard);
      if (was.path("leader").asText().equals("n2")) {
        assertThat(replicas(was)).contains(is.path("leader").asText());
        assertThat(is.path("epoch").asLong()).isEqualTo(1);
      } else {
        assertThat(is.path("leader")).isEqualTo(was.path("leader"));
      }
    }

    assertThat(rebalancePlan.exitCode()).as(rebalancePlan.err()).isZero();
    assertThat(rebalancePlan.outLines().get(1)).startsWith("rebalance: ");
    assertThat(rebalanced.exitCode()).as(rebalanced.err()).isZero();
    assertThat(spread(leaders(balanced))).isLessThanOrEqualTo(1);
    assertThat(nothingLeft.exitCode()).as(nothingLeft.err()).isZero();
    assertThat(nothingLeft.outLines()).contains("nothing to change");
  }

  @Test
  void remove_node_hands_over_every_shard_and_deletes_the_node() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    initialised(etcd);

    Result planned = run(etcd, "remove-node", "--map-only", "n1");
    Result applied = run(etcd, "remove-node", "--map-only", "n1", "--apply");
    JsonNode after = show(etcd);
    Result unknown = run(etcd, "remove-node", "--map-only", "n1");

    assertThat(planned.exitCode()).as(planned.err()).isZero();
    assertThat(planned.outLines()).contains("remove node n1");
    assertThat(applied.exitCode()).as(applied.err()).isZero();
    assertThat(after.path("nodes").has("n1")).isFalse();
    assertThat(after.path("invalid").size()).isZero();
    for (JsonNode assignment : after.path("assignments")) {
      assertThat(assignment.path("leader").asText()).isNotEqualTo("n1");
      assertThat(replicas(assignment)).doesNotContain("n1").hasSize(1);
    }
    assertThat(unknown.exitCode()).isEqualTo(1);
    assertThat(unknown.err())
        .isEqualTo(
            "jumpgate remove-node: node 'n1' is neither in the node table nor in the shard map"
                + System.lineSeparator());
  }

  @Test
  void a_change_made_between_plan_and_write_makes_move_shard_exit_one_and_write_nothing()
      throws Exception {
    EtcdCluster etcd = fixture.etcd();
    JsonNode before = initialised(etcd);
    String to = shard(before, 7).path("leader").asText().equals("n1") ? "n2" : "n1";

    // The plan's last line is printed just before the write: change shard 7 then.
    Result result =
        run(
            line -> {
              if (line.startsWith("1 key(s) to write")) {
                touchShard(etcd, "0007");
              }
            },
            withSource(etcd, "move-shard", "--map-only", "7", "--to", to));
    JsonNode after = show(etcd);

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err())
        .isEqualTo(
            "jumpgate move-shard: the map changed since it was read (revision "
                + readRevision(result)
                + "); run again"
                + System.lineSeparator());
    assertThat(shard(after, 7)).isEqualTo(shard(before, 7));
    assertThat(after.path("revision").asLong()).isEqualTo(before.path("revision").asLong() + 1);
  }

  @Test
  void a_change_between_batches_leaves_the_first_applied_says_so_and_add_node_again_finishes()
      throws Exception {
    EtcdCluster etcd = fixture.etcd();
    initialised(etcd);

    // After the first transaction, rewrite the old nodes' entries as they are: every later
    // transaction writes shards that name one of them, and compares its mod revision.
    Result lost =
        run(
            line -> {
              if (line.startsWith("transaction 1 of ")) {
                for (String node : List.of("n0", "n1", "n2")) {
                  String key = "/jumpgate/" + CLUSTER + "/nodes/" + node;
                  String value = etcd.etcdctl("get", key, "--print-value-only").ok().strip();
                  etcd.etcdctl("put", key, value).ok();
                }
              }
            },
            withSource(etcd, "add-node", "--map-only", "n3=127.0.0.1:7003@az0", "--apply"));
    JsonNode half = show(etcd);
    Result finished = run(etcd, "add-node", "--map-only", "n3=127.0.0.1:7003@az0", "--apply");
    JsonNode after = show(etcd);

    assertThat(lost.exitCode()).isEqualTo(1);
    long read = readRevision(lost);
    Matcher batches =
        Pattern.compile("\\d+ key\\(s\\) to write in (\\d+) transactions .*")
            .matcher(lost.outLines().get(lost.outLines().size() - 2));
    assertThat(batches.matches()).as(lost.out()).isTrue();
    String transactions = batches.group(1);
    assertThat(Integer.parseInt(transactions)).isGreaterThan(2);
    assertThat(lost.outLines().get(lost.outLines().size() - 1))
        .isEqualTo("transaction 1 of " + transactions + " committed at revision " + (read + 1));
    assertThat(lost.err())
        .isEqualTo(
            "jumpgate add-node: the map changed since it was read (revision "
                + read
                + "); run again (1 of its "
                + transactions
                + " transactions were applied, up to revision "
                + (read + 1)
                + "; running it again finishes the change)"
                + System.lineSeparator());
    assertThat(half.path("nodes").has("n3")).isTrue();
    assertThat(leaders(half).get("n3")).isBetween(1, 255);
    assertThat(half.path("invalid").size()).isZero();

    assertThat(finished.exitCode()).as(finished.err()).isZero();
    assertThat(finished.outLines()).noneMatch(line -> line.startsWith("add node n3"));
    assertThat(leaders(after)).containsEntry("n3", 256);
    assertThat(spread(leaders(after))).isLessThanOrEqualTo(1);
  }

  @Test
  void a_wrong_etcd_password_exits_one_naming_the_endpoint_and_not_the_password() throws Exception {
    EtcdCluster etcd = fixture.etcd();
    etcd.etcdctl("user", "add", "root:right-Pa55word").ok();
    etcd.etcdctl("auth", "enable").ok();
    String wrong = "wr0ng-Pa55word";

    Result init =
        run(
            etcd,
            "init",
            "--nodes",
            NODES,
            "--shards",
            "16",
            "--user",
            "root",
            "--password",
            "right-Pa55word");
    Result refused =
        run(
            etcd,
            "add-node",
            "--map-only",
            "n3=127.0.0.1:7003",
            "--user",
            "root",
            "--password",
            wrong);
    Result refusedInit = run(etcd, "init", "--nodes", NODES, "--user", "root", "--password", wrong);

    assertThat(init.exitCode()).as(init.err()).isZero();
    for (Result result : List.of(refused, refusedInit)) {
      assertThat(result.exitCode()).isEqualTo(1);
      assertThat(result.out()).isEmpty();
      assertThat(result.err())
          .startsWith("jumpgate ")
          .contains(etcd.endpointList())
          .contains("authentication failed")
          .doesNotContain(wrong)
          .doesNotContain("Pa55word");
      assertThat(result.err().lines()).hasSize(1);
    }
  }
}
