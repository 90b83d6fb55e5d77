package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jumpgate.migration.ChangeCaptureUnavailableException;
import io.jumpgate.migration.MoveCancelledException;
import io.jumpgate.migration.MovePhase;
import io.jumpgate.migration.MoveRefusedException;
import io.jumpgate.migration.ServerAddress;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.PlacementPlanner;
import io.jumpgate.topology.Plan;
import io.jumpgate.topology.PlanStep;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyAdmin;
import io.jumpgate.topology.TopologyAdminConflictException;
import io.jumpgate.topology.TopologyAdminPlan;
import io.jumpgate.topology.TopologyAdminPlan.KeyWrite;
import io.jumpgate.topology.TopologyAdminPlan.NodeChange;
import io.jumpgate.topology.TopologyAdminResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * The admin verbs against a fake {@link AdminPlanClient} that plans with the real {@link
 * PlacementPlanner} on a map in memory: usage errors, when a plan is applied, what is printed, and
 * how failures of the admin (a lost compare-and-set above all) are reported. No etcd.
 */
class AdminPlanCommandTest {

  private static final String NEWLINE = System.lineSeparator();
  private static final String ETCD = "http://127.0.0.1:1";

  /** Etcd's own revision when the fake map is read: client registrations moved it past the map. */
  private static final long READ_REVISION = 1234;

  /** The map's revision when read: its last change to meta, nodes/ or shards/. */
  private static final long MAP_REVISION = 1230;

  /** A map in memory, planned on by the real planner; records what the verbs ask of it. */
  static final class FakeAdmin implements AdminPlanClient {
    final Map<String, Node> nodes = new TreeMap<>();
    Map<Integer, ShardAssignment> assignments = new TreeMap<>();
    final List<String> calls = new ArrayList<>();
    final List<EtcdTopologyOptions> connections = new ArrayList<>();

    /** Keys per transaction of the plans made. */
    int keysPerTransaction = 100;

    /** Thrown by apply after {@link #committedBeforeFailure} transactions, when set. */
    RuntimeException applyFailure;

    int committedBeforeFailure;

    /** Thrown by every plan method, when set. */
    RuntimeException planFailure;

    boolean closed;

    /** Migration ids whose record exists in etcd. */
    final List<String> migrationRecords = new ArrayList<>();

    FakeAdmin() {
      for (int i = 0; i < 3; i++) {
        nodes.put("n" + i, new Node("n" + i, "127.0.0.1", 7000 + i, "az" + i, Map.of(), false));
      }
      assignments = PlacementPlanner.initial(nodes, 12, 1).applyTo(Map.of());
    }

    @Override
    public boolean hasMigrationRecord(String migrationId) {
      calls.add("hasMigrationRecord " + migrationId);
      return migrationRecords.contains(migrationId);
    }

    AdminPlanClient.Connector connector() {
      return options -> {
        connections.add(options);
        return this;
      };
    }

    private TopologyAdminPlan plan(
        String call, Plan plan, TopologyMetadata metadata, List<NodeChange> nodeChanges) {
      calls.add(call);
      if (planFailure != null) {
        throw planFailure;
      }
      List<KeyWrite> writes = new ArrayList<>();
      for (NodeChange change : nodeChanges) {
        writes.add(
            new KeyWrite(
                "/jumpgate/test/nodes/" + change.nodeId(),
                change.removes() ? null : "{}",
                change.removes() ? 7 : 0));
      }
      for (PlanStep step : plan.steps()) {
        writes.add(
            new KeyWrite(
                String.format("/jumpgate/test/shards/%04d", step.shard()),
                "{}",
                metadata != null ? 0 : 7));
      }
      int transactions =
          writes.isEmpty() ? 0 : (writes.size() + keysPerTransaction - 1) / keysPerTransaction;
      if (metadata != null) {
        transactions = Math.max(2, transactions + 1);
      }
      return new TopologyAdminPlan(
          "test",
          READ_REVISION,
          metadata == null ? MAP_REVISION : 0,
          plan,
          metadata,
          nodeChanges,
          writes,
          List.of(),
          transactions);
    }

    @Override
    public TopologyAdminPlan planInit(Map<String, Node> initNodes, int shards, int replicas) {
      List<NodeChange> changes = new ArrayList<>();
      new TreeMap<>(initNodes).forEach((id, node) -> changes.add(new NodeChange(id, node)));
      return plan(
          "planInit " + initNodes.keySet() + " " + shards + " " + replicas,
          PlacementPlanner.initial(initNodes, shards, replicas),
          TopologyMetadata.of(shards),
          changes);
    }

    @Override
    public TopologyAdminPlan planAddNode(Node node) {
      Map<String, Node> with = new TreeMap<>(nodes);
      with.put(node.id(), node);
      return plan(
          "planAddNode " + NodeSpec.format(node),
          PlacementPlanner.addNode(assignments, with, node.id()),
          null,
          List.of(new NodeChange(node.id(), node)));
    }

    @Override
    public TopologyAdminPlan planRemoveNode(String nodeId) {
      return plan(
          "planRemoveNode " + nodeId,
          PlacementPlanner.removeNode(assignments, nodes, nodeId),
          null,
          List.of(new NodeChange(nodeId, null)));
    }

    @Override
    public TopologyAdminPlan planMoveShard(int shard, String toNodeId) {
      if (shard >= 12) {
        calls.add("planMoveShard " + shard + " " + toNodeId);
        throw new IllegalArgumentException(
            "shard " + shard + " is out of range: cluster 'test' has shards 0 to 11");
      }
      return plan(
          "planMoveShard " + shard + " " + toNodeId,
          PlacementPlanner.moveLeader(assignments, nodes, shard, toNodeId),
          null,
          List.of());
    }

    @Override
    public TopologyAdminPlan planFailoverShard(int shard, String toNodeIdOrNull) {
      return plan(
          "planFailoverShard " + shard + " " + toNodeIdOrNull,
          PlacementPlanner.failoverShard(assignments, nodes, shard, toNodeIdOrNull),
          null,
          List.of());
    }

    @Override
    public TopologyAdminPlan planFailoverNode(String nodeId, String toNodeIdOrNull) {
      return plan(
          "planFailoverNode " + nodeId + " " + toNodeIdOrNull,
          PlacementPlanner.failoverNode(assignments, nodes, nodeId),
          null,
          List.of());
    }

    @Override
    public TopologyAdminPlan planRebalance() {
      return plan("planRebalance", PlacementPlanner.rebalance(assignments, nodes), null, List.of());
    }

    @Override
    public TopologyAdminResult apply(TopologyAdminPlan plan, TopologyAdmin.Progress progress) {
      calls.add("apply " + plan.plan().operation());
      List<Long> revisions = new ArrayList<>();
      for (int transaction = 1; transaction <= plan.transactions(); transaction++) {
        if (applyFailure != null && transaction > committedBeforeFailure) {
          throw applyFailure;
        }
        revisions.add(READ_REVISION + 10 + transaction);
        progress.committed(transaction, plan.transactions(), READ_REVISION + 10 + transaction);
      }
      assignments = plan.plan().applyTo(plan.initialises() ? Map.of() : assignments);
      return new TopologyAdminResult(
          plan.cluster(),
          plan.plan().operation(),
          plan.mapRevision(),
          revisions.get(revisions.size() - 1),
          revisions,
          plan.keysToWrite(),
          0);
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  private final FakeAdmin admin = new FakeAdmin();
  private final FakeDataMover dataMover = new FakeDataMover();

  private CommandLine commandLine(Map<String, String> environment) {
    AdminPlanClient.Connector connector = admin.connector();
    // The registered verbs are replaced by ones wired to the fake admin.
    CommandLine line = JumpgateCli.newCommandLine(environment);
    for (Object verb :
        List.of(
            new InitCommand(connector),
            new AddNodeCommand(connector, dataMover.connector(), dataMover::estimate),
            new RemoveNodeCommand(connector, dataMover.connector(), dataMover::estimate),
            new MoveShardCommand(connector, dataMover.connector(), dataMover::estimate),
            new FailoverCommand(connector),
            new RebalanceCommand(connector, dataMover.connector(), dataMover::estimate))) {
      String name = new CommandLine(verb).getCommandName();
      line.getCommandSpec().removeSubcommand(name);
      line.addSubcommand(name, verb);
    }
    return line;
  }

  private CliRunner.Result run(String... arguments) {
    return CliRunner.run(commandLine(Map.of()), arguments);
  }

  /** Runs with {@code --etcd} (which the fake ignores) after the arguments. */
  private CliRunner.Result runOnEtcd(String... arguments) {
    List<String> all = new ArrayList<>(List.of(arguments));
    all.addAll(List.of("--etcd", ETCD));
    return run(all.toArray(String[]::new));
  }

  // ---- usage errors: exit 2, one line, etcd not contacted ------------------------------------

  static Stream<Arguments> usageErrors() {
    return Stream.of(
        Arguments.of(List.of("init"), "jumpgate init: Missing required option: '--nodes=NODES'"),
        Arguments.of(
            List.of("init", "--nodes", "a=10.0.0.5:6379,b=10.0.0.6"),
            "jumpgate init: --nodes: 'b=10.0.0.6' is not id=host:port[@zone]: no ':port' after"
                + " the host"),
        Arguments.of(
            List.of("init", "--nodes", "a=h:1,a=h:2"),
            "jumpgate init: --nodes: node id 'a' is given twice"),
        Arguments.of(
            List.of("init", "--nodes", "a=h:1,b=h:2", "--shards", "0"),
            "jumpgate init: --shards must be between 1 and 65536, was 0"),
        Arguments.of(
            List.of("init", "--nodes", "a=h:1,b=h:2", "--shards", "many"),
            "jumpgate init: --shards must be an integer between 1 and 65536, was 'many'"),
        Arguments.of(
            List.of("init", "--nodes", "a=h:1,b=h:2", "--replicas", "-1"),
            "jumpgate init: --replicas must be between 0 and 2147483647, was -1"),
        Arguments.of(
            List.of("init", "--nodes", "a=h:1,b=h:2", "--replicas", "2"),
            "jumpgate init: --replicas 2 needs at least 3 nodes, --nodes gives 2"),
        Arguments.of(List.of("add-node"), "jumpgate add-node: Missing required parameter: 'NODE'"),
        Arguments.of(
            List.of("add-node", "node-d=10.0.0.8"),
            "jumpgate add-node: NODE 'node-d=10.0.0.8' is not id=host:port[@zone]: no ':port'"
                + " after the host"),
        Arguments.of(
            List.of("add-node", "node d=10.0.0.8:6379"),
            "jumpgate add-node: NODE 'node d=10.0.0.8:6379' is not id=host:port[@zone]: the node"
                + " id must be 1 to 64 of A-Z a-z 0-9 . _ -, was 'node d'"),
        Arguments.of(
            List.of("remove-node", "n/1"),
            "jumpgate remove-node: ID must be a node id (1 to 64 of A-Z a-z 0-9 . _ -), was"
                + " 'n/1'"),
        Arguments.of(
            List.of("move-shard", "seven", "--to", "n1"),
            "jumpgate move-shard: SHARD must be an integer between 0 and 65535, was 'seven'"),
        Arguments.of(
            List.of("move-shard", "65536", "--to", "n1"),
            "jumpgate move-shard: SHARD must be between 0 and 65535, was 65536"),
        Arguments.of(
            List.of("move-shard", "7"),
            "jumpgate move-shard: Missing required option: '--to=NODE'"),
        Arguments.of(
            List.of("move-shard", "7", "--to", "n 1"),
            "jumpgate move-shard: --to must be a node id (1 to 64 of A-Z a-z 0-9 . _ -), was"
                + " 'n 1'"),
        Arguments.of(
            List.of("failover"),
            "jumpgate failover: give --shard S or --node ID: what to fail over"),
        Arguments.of(
            List.of("failover", "--shard", "1", "--node", "n1"),
            "jumpgate failover: --shard and --node cannot be used together: give one of them"),
        Arguments.of(
            List.of("failover", "--shard", "x"),
            "jumpgate failover: --shard must be an integer between 0 and 65535, was 'x'"),
        Arguments.of(
            List.of("failover", "--node", "n1", "--to", "n1"),
            "jumpgate failover: --to must name another node than --node, was 'n1' for both"),
        Arguments.of(
            List.of("rebalance", "extra"),
            "jumpgate rebalance: Unmatched argument at index 1: 'extra'"),
        Arguments.of(
            List.of("rebalance", "--apply", "--dry-run"),
            "jumpgate rebalance: --apply and --dry-run cannot be used together: give one of them"),
        Arguments.of(
            List.of("move-shard", "7", "--to", "n1", "--topology-file", "map.json"),
            "jumpgate move-shard: --topology-file cannot be used with move-shard, which changes"
                + " the map in etcd: give --etcd URL[,URL...] (or set JUMPGATE_ETCD)"));
  }

  @ParameterizedTest
  @MethodSource("usageErrors")
  void usageErrorsExitTwoWithOneLineAndDoNotContactEtcd(List<String> arguments, String error) {
    CliRunner.Result result = runOnEtcd(arguments.toArray(String[]::new));

    assertThat(result.exitCode()).as(result.err()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.out()).isEmpty();
    assertThat(result.err()).isEqualTo(error + NEWLINE);
    assertThat(admin.connections).isEmpty();
  }

  @Test
  void withoutEtcdEndpointsEveryVerbIsAUsageError() {
    for (String[] arguments :
        List.of(
            new String[] {"init", "--nodes", "a=h:1,b=h:2"},
            new String[] {"add-node", "d=h:4"},
            new String[] {"remove-node", "n1"},
            new String[] {"move-shard", "1", "--to", "n1"},
            new String[] {"failover", "--shard", "1"},
            new String[] {"rebalance"})) {
      CliRunner.Result result = run(arguments);

      assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
      assertThat(result.err())
          .isEqualTo(
              "jumpgate "
                  + arguments[0]
                  + ": no etcd endpoint: give --etcd URL[,URL...] or set JUMPGATE_ETCD"
                  + NEWLINE);
    }
    assertThat(admin.connections).isEmpty();
  }

  @Test
  void theEnvironmentNamesEtcdAndTimeoutBoundsEachCall() {
    CliRunner.Result result =
        CliRunner.run(
            commandLine(Map.of("JUMPGATE_ETCD", ETCD, "JUMPGATE_CLUSTER", "prod")),
            "rebalance",
            "--timeout",
            "3s");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(admin.connections).hasSize(1);
    EtcdTopologyOptions options = admin.connections.get(0);
    assertThat(options.endpointList()).isEqualTo(ETCD);
    assertThat(options.cluster()).isEqualTo("prod");
    assertThat(options.requestTimeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(admin.closed).isTrue();
  }

  // ---- plans that need --apply ---------------------------------------------------------------

  @Test
  void addNodeWithoutApplyPrintsThePlanAndWritesNothing() {
    CliRunner.Result result = runOnEtcd("add-node", "n3=127.0.0.1:7003@az0");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.err()).isEmpty();
    assertThat(admin.calls).containsExactly("planAddNode n3=127.0.0.1:7003@az0");
    List<String> lines = result.out().lines().toList();
    assertThat(lines.get(0)).isEqualTo("cluster 'test', read at revision 1230");
    assertThat(lines.get(1)).startsWith("addNode n3: ");
    assertThat(lines).anyMatch(line -> line.matches("shard 00\\d\\d: leader n\\d -> n3 .*"));
    assertThat(lines).contains("add node n3 at 127.0.0.1:7003, zone az0");
    assertThat(lines.get(lines.size() - 1))
        .isEqualTo(
            "nothing written: run again with --apply to apply it (it is planned again from the"
                + " map as it is then)");
  }

  @Test
  void addNodeWithApplyPrintsThePlanEachTransactionAndTheRevision() {
    admin.keysPerTransaction = 3;
    CliRunner.Result result = runOnEtcd("add-node", "n3=127.0.0.1:7003", "--apply", "--map-only");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(admin.calls).containsExactly("planAddNode n3=127.0.0.1:7003", "apply addNode n3");
    assertThat(dataMover.calls).isEmpty();
    List<String> lines = result.out().lines().toList();
    assertThat(lines.get(0)).isEqualTo("cluster 'test', read at revision 1230");
    assertThat(lines)
        .contains("transaction 1 of 3 committed at revision 1245")
        .contains("transaction 3 of 3 committed at revision 1247");
    assertThat(lines.get(lines.size() - 1))
        .matches(
            "applied at revision 1247: \\d+ key\\(s\\) in 3 transaction\\(s\\), planned at revision"
                + " 1230");
  }

  @Test
  void removeNodeFailoverNodeAndRebalanceNeedApplyWhateverThePlanSize() {
    CliRunner.Result remove = runOnEtcd("remove-node", "n2");
    CliRunner.Result failover = runOnEtcd("failover", "--node", "n1");

    assertThat(remove.exitCode()).as(remove.err()).isZero();
    assertThat(failover.exitCode()).as(failover.err()).isZero();
    assertThat(admin.calls).containsExactly("planRemoveNode n2", "planFailoverNode n1 null");
    assertThat(remove.out()).contains("remove node n2", "nothing written: run again with --apply");
    assertThat(failover.out()).contains("nothing written: run again with --apply");

    CliRunner.Result applied = runOnEtcd("failover", "--node", "n1", "--apply");

    assertThat(applied.exitCode()).as(applied.err()).isZero();
    assertThat(admin.calls).endsWith("apply failover of node n1");
    assertThat(applied.out()).contains("applied at revision 1245");
  }

  @Test
  void aPlanThatChangesNothingWritesNothingEvenWithApply() {
    CliRunner.Result result = runOnEtcd("rebalance", "--apply");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(admin.calls).containsExactly("planRebalance", "hasMigrationRecord rebalance");
    assertThat(result.out())
        .isEqualTo(
            String.join(
                NEWLINE,
                "cluster 'test', read at revision 1230",
                "rebalance: 0 shard(s) change, 0 leadership(s) move, 0 replica(s) move",
                "nothing to change",
                ""));
  }

  // ---- plans applied at once -----------------------------------------------------------------

  @Test
  void moveShardAppliesAtOnceAndPrintsWhatWasDone() {
    ShardAssignment before = admin.assignments.get(7);
    String to = before.replicas().get(0);

    CliRunner.Result result = runOnEtcd("move-shard", "0007", "--to", to, "--map-only");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.err()).isEmpty();
    assertThat(admin.calls)
        .containsExactly("planMoveShard 7 " + to, "apply moveLeader of shard 7 to " + to);
    assertThat(result.out())
        .isEqualTo(
            String.join(
                NEWLINE,
                "cluster 'test', read at revision 1230",
                "moveLeader of shard 7 to "
                    + to
                    + ": 1 shard(s) change, 1 leadership(s) move, 1 replica(s) move",
                "shard 0007: leader "
                    + before.leader()
                    + " -> "
                    + to
                    + " (epoch 0 -> 1), replicas ["
                    + to
                    + "] -> ["
                    + before.leader()
                    + "]",
                "node " + before.leader() + ": leaders 4 -> 3, replicas 4 -> 5",
                "node " + to + ": leaders 4 -> 5, replicas 4 -> 3",
                "1 key(s) to write in 1 transaction",
                "applied at revision 1245: 1 key(s) in 1 transaction(s), planned at revision 1230",
                ""));
    assertThat(admin.assignments.get(7).leader()).isEqualTo(to);
  }

  @Test
  void dryRunPrintsTheChangeOfAVerbThatAppliesAtOnce() {
    CliRunner.Result result = runOnEtcd("failover", "--shard", "3", "--dry-run");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(admin.calls).containsExactly("planFailoverShard 3 null");
    assertThat(result.out())
        .startsWith("cluster 'test', read at revision 1230" + NEWLINE + "failover of shard 3: ")
        .endsWith("dry run: nothing written" + NEWLINE);
  }

  @Test
  void failoverOfAShardAppliesAtOnceWithTheChosenReplica() {
    String replica = admin.assignments.get(3).replicas().get(0);

    CliRunner.Result result = runOnEtcd("failover", "--shard", "3", "--to", replica, "--apply");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(admin.calls)
        .containsExactly("planFailoverShard 3 " + replica, "apply failover of shard 3");
    assertThat(admin.assignments.get(3).leader()).isEqualTo(replica);
    assertThat(admin.assignments.get(3).epoch()).isEqualTo(1);
  }

  @Test
  void initAppliesAtOnceAndPrintsASummaryWithoutALinePerShard() {
    CliRunner.Result result =
        runOnEtcd(
            "init",
            "--nodes",
            "a=10.0.0.5:6379@az1,b=10.0.0.6:6379@az2",
            "--nodes",
            "c=10.0.0.7:6379@az3",
            "--shards",
            "16");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(admin.calls)
        .containsExactly(
            "planInit [a, b, c] 16 1",
            "apply initial placement of 16 shard(s) with 1 replica(s) on 3 node(s)");
    assertThat(result.out())
        .isEqualTo(
            String.join(
                NEWLINE,
                "cluster 'test', not initialised (etcd at revision 1234)",
                "initial placement of 16 shard(s) with 1 replica(s) on 3 node(s): 16 shard(s)"
                    + " change, 16 leadership(s) move, 16 replica(s) move",
                "node a: leaders 0 -> 6, replicas 0 -> 5",
                "node b: leaders 0 -> 5, replicas 0 -> 5",
                "node c: leaders 0 -> 5, replicas 0 -> 6",
                "add node a at 10.0.0.5:6379, zone az1",
                "add node b at 10.0.0.6:6379, zone az2",
                "add node c at 10.0.0.7:6379, zone az3",
                "write meta: format 1, 16 shards, routing xxh64-jump (last: the cluster appears"
                    + " whole at that revision)",
                "20 key(s) to write in 2 transactions (readers see the cluster only once the last"
                    + " one writes meta)",
                "transaction 1 of 2 committed at revision 1245",
                "transaction 2 of 2 committed at revision 1246",
                "cluster 'test' initialised at revision 1246: 16 shards on 3 node(s), 20 key(s) in"
                    + " 2 transaction(s)",
                ""));
  }

  // ---- figures that add up -------------------------------------------------------------------

  private static int figure(String line, String label) {
    Matcher matcher = Pattern.compile("(\\d+) " + Pattern.quote(label)).matcher(line);
    assertThat(matcher.find()).as(line).isTrue();
    return Integer.parseInt(matcher.group(1));
  }

  @Test
  void addNodeCountsEachLeaderChangeOnceAndTheDataLineAgreesWithTheHeadline() {
    CliRunner.Result result = runOnEtcd("add-node", "n3=127.0.0.1:7003@az0");

    assertThat(result.exitCode()).as(result.err()).isZero();
    List<String> lines = result.out().lines().toList();
    String headline = lines.get(1);
    int steps = (int) lines.stream().filter(line -> line.matches("shard \\d{4}: .*")).count();
    int leaderChanges =
        (int)
            lines.stream().filter(line -> line.matches("shard \\d{4}: leader n\\d -> .*")).count();
    String data =
        lines.stream().filter(line -> line.startsWith("data: ")).findFirst().orElseThrow();
    assertThat(headline).doesNotContain("cop");
    assertThat(figure(headline, "shard(s) change")).isEqualTo(steps).isPositive();
    assertThat(figure(headline, "leadership(s) move")).isEqualTo(leaderChanges).isPositive();
    assertThat(figure(data, "shard(s) move with their data")).isEqualTo(leaderChanges);
    String keys =
        lines.stream().filter(line -> line.contains("key(s) to write")).findFirst().orElseThrow();
    // every changed shard and the new node's entry
    assertThat(figure(keys, "key(s) to write")).isEqualTo(steps + 1);
    assertThat(result.out()).doesNotContain("cop(ies)");
  }

  @Test
  void failoverCopiesNoDataAndSaysNone() throws Exception {
    CliRunner.Result text = runOnEtcd("failover", "--node", "n1");
    CliRunner.Result json = runOnEtcd("failover", "--node", "n1", "--json");

    assertThat(text.exitCode()).as(text.err()).isZero();
    List<String> lines = text.out().lines().toList();
    assertThat(lines.get(0)).isEqualTo("cluster 'test', read at revision 1230");
    assertThat(lines.get(1))
        .isEqualTo(
            "failover of node n1: 4 shard(s) change, 4 leadership(s) move, 4 replica(s) move");
    assertThat(text.out()).doesNotContain("cop(ies)").doesNotContain("data: ");
    assertThat(lines).contains("4 key(s) to write in 1 transaction");
    JsonNode plan = new ObjectMapper().readTree(json.out()).path("plan");
    assertThat(plan.path("revision").asLong()).isEqualTo(MAP_REVISION);
    assertThat(plan.path("placement").path("summary").path("leadershipsMoved").asInt())
        .isEqualTo(4);
    assertThat(plan.path("placement").path("steps").size()).isEqualTo(4);
  }

  @Test
  void initCountsTheMetaAmongTheKeysItWritesAndReadsNoMapRevision() throws Exception {
    CliRunner.Result json =
        runOnEtcd("init", "--nodes", "a=10.0.0.5:6379,b=10.0.0.6:6379", "--shards", "4", "--json");

    assertThat(json.exitCode()).as(json.err()).isZero();
    JsonNode document = new ObjectMapper().readTree(json.out());
    // no map yet: revision 0; etcd's revision when the cluster was found absent
    assertThat(document.path("plan").path("revision").asLong()).isZero();
    assertThat(document.path("plan").path("etcdRevision").asLong()).isEqualTo(READ_REVISION);
    // 2 nodes + 4 shards in the writes, the meta written last: 7 keys
    assertThat(document.path("plan").path("writes").size()).isEqualTo(6);
    assertThat(document.path("result").path("keysWritten").asInt()).isEqualTo(7);
  }

  // ---- JSON ----------------------------------------------------------------------------------

  @Test
  void jsonPrintsThePlanAndTheResultAsOneDocument() throws Exception {
    String replica = admin.assignments.get(5).replicas().get(0);

    CliRunner.Result planned = runOnEtcd("add-node", "n3=127.0.0.1:7003", "--json");
    CliRunner.Result moved = runOnEtcd("move-shard", "5", "--to", replica, "--json", "--map-only");

    assertThat(planned.exitCode()).as(planned.err()).isZero();
    assertThat(moved.exitCode()).as(moved.err()).isZero();
    assertThat(planned.out().lines()).hasSize(1);
    ObjectMapper mapper = new ObjectMapper();
    JsonNode plan = mapper.readTree(planned.out());
    assertThat(plan.path("applied").asBoolean()).isFalse();
    assertThat(plan.path("result").isNull()).isTrue();
    assertThat(plan.path("plan").path("cluster").asText()).isEqualTo("test");
    // the map's revision, as topology show reports it; etcd's own labelled as etcd's
    assertThat(plan.path("plan").path("revision").asLong()).isEqualTo(MAP_REVISION);
    assertThat(plan.path("plan").path("etcdRevision").asLong()).isEqualTo(READ_REVISION);
    assertThat(plan.path("plan").has("readRevision")).isFalse();
    assertThat(plan.path("plan").has("mapRevision")).isFalse();
    assertThat(plan.path("plan").path("placement").path("operation").asText())
        .isEqualTo("addNode n3");
    assertThat(plan.path("plan").path("placement").path("steps").size()).isPositive();
    assertThat(plan.path("plan").path("nodeChanges").get(0).path("node").path("port").asInt())
        .isEqualTo(7003);
    assertThat(plan.path("plan").path("writes").get(0).path("key").asText())
        .isEqualTo("/jumpgate/test/nodes/n3");

    JsonNode move = mapper.readTree(moved.out());
    assertThat(move.path("applied").asBoolean()).isTrue();
    assertThat(move.path("result").path("revision").asLong()).isEqualTo(1245);
    assertThat(move.path("result").path("transactionRevisions").get(0).asLong()).isEqualTo(1245);
    JsonNode step = move.path("plan").path("placement").path("steps").get(0);
    assertThat(step.path("shard").asInt()).isEqualTo(5);
    assertThat(step.path("after").path("leader").asText()).isEqualTo(replica);
    assertThat(step.path("after").path("epoch").asLong()).isEqualTo(1);
    // the contract's spellings: the wire's lower-case shard state, no plan inside a plan
    assertThat(step.path("after").path("state").asText()).isEqualTo("active");
    assertThat(move.path("plan").has("plan")).as(moved.out()).isFalse();
    assertThat(moved.out()).doesNotContain("\"ACTIVE\"");
  }

  // ---- failures: exit 1, one line ------------------------------------------------------------

  @Test
  void aLostCompareAndSetExitsOneWithExactlyTheConflictMessage() {
    admin.applyFailure = new TopologyAdminConflictException(MAP_REVISION, 0, 1, MAP_REVISION);

    CliRunner.Result result = runOnEtcd("move-shard", "7", "--to", "n0", "--map-only");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.err())
        .isEqualTo(
            "jumpgate move-shard: the map changed since it was read (revision 1230); run again"
                + NEWLINE);
    assertThat(result.out()).doesNotContain("applied at revision");
  }

  @Test
  void aBatchedPlanThatLosesLaterSaysHowManyTransactionsWereAppliedOnOneLine() {
    admin.keysPerTransaction = 2;
    admin.committedBeforeFailure = 2;
    admin.applyFailure = new TopologyAdminConflictException(MAP_REVISION, 2, 4, 1246);

    CliRunner.Result result = runOnEtcd("add-node", "n3=127.0.0.1:7003", "--apply", "--map-only");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.err())
        .isEqualTo(
            "jumpgate add-node: the map changed since it was read (revision 1230); run again (2"
                + " of its 4 transactions were applied, up to revision 1246; running it again"
                + " finishes the change)"
                + NEWLINE);
    assertThat(result.out())
        .contains("transaction 2 of 4 committed at revision 1246")
        .doesNotContain("transaction 3 of 4");
  }

  @Test
  void anUnknownNodeExitsOneNamingIt() {
    CliRunner.Result result = runOnEtcd("move-shard", "7", "--to", "n9");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.out()).isEmpty();
    assertThat(result.err())
        .isEqualTo("jumpgate move-shard: node 'n9' is not in the node table" + NEWLINE);
  }

  @Test
  void aShardBeyondTheClusterExitsOneNamingTheRange() {
    CliRunner.Result result = runOnEtcd("move-shard", "12", "--to", "n1");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.err())
        .isEqualTo(
            "jumpgate move-shard: shard 12 is out of range: cluster 'test' has shards 0 to 11"
                + NEWLINE);
    assertThat(admin.closed).isTrue();
  }

  @Test
  void etcdFailuresExitOneWithTheirMessageAndNoPassword() {
    admin.planFailure =
        new TopologyUnavailableException(
            "etcd at "
                + ETCD
                + " refused access to cluster 'default': authentication failed or permission"
                + " denied (wrong pass s3cret-pw)");

    CliRunner.Result result = runOnEtcd("rebalance", "--user", "root", "--password", "s3cret-pw");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.out()).isEmpty();
    assertThat(result.err())
        .isEqualTo(
            "jumpgate rebalance: etcd at "
                + ETCD
                + " refused access to cluster 'default': authentication failed or permission"
                + " denied (wrong pass ***)"
                + NEWLINE);
  }

  // ---- the data moves with the map -----------------------------------------------------------

  @Test
  void aPlanThatChangesNothingFinishesAMigrationLeftByAStoppedMover() {
    // Given a rebalance whose mover stopped after its last cutover: the map shows the change
    admin.migrationRecords.add("rebalance");

    // When the same verb runs again
    CliRunner.Result result = runOnEtcd("rebalance", "--apply");

    // Then it finishes the recorded migration through the mover
    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(admin.calls).containsExactly("planRebalance", "hasMigrationRecord rebalance");
    assertThat(dataMover.calls).contains("apply rebalance");
    assertThat(result.out())
        .contains("migration rebalance was left unfinished by a mover that stopped: finishing it");
  }

  @Test
  void aPlanThatChangesNothingWithoutARecordMovesNothing() {
    CliRunner.Result result = runOnEtcd("rebalance", "--apply");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(admin.calls).containsExactly("planRebalance", "hasMigrationRecord rebalance");
    assertThat(dataMover.calls).isEmpty();
  }

  @Test
  void addNodeWithApplyMovesTheDataAndPrintsTheEstimateAndTheSummary() {
    CliRunner.Result result = runOnEtcd("add-node", "n3=127.0.0.1:7003", "--apply");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.err()).isEmpty();
    assertThat(admin.calls).containsExactly("planAddNode n3=127.0.0.1:7003");
    assertThat(dataMover.calls).hasSize(4);
    assertThat(dataMover.calls.get(0)).startsWith("estimate add-node-n3 [");
    assertThat(dataMover.calls.subList(1, 4))
        .containsExactly(
            "connect groupSize=8 acknowledgementTimeout=PT2S cleanupGrace=PT5S copyKeysPerSecond=0",
            "apply add-node n3",
            "close");
    List<String> lines = result.out().lines().toList();
    assertThat(lines.get(0)).isEqualTo("cluster 'test', read at revision 1230");
    assertThat(lines)
        .anyMatch(
            line ->
                line.matches(
                    "data: 3 shard\\(s\\) move with their data to their new leader, as migration"
                        + " add-node-n3 \\(--map-only changes the map alone\\)"))
        .anyMatch(line -> line.startsWith("warning: 3 moved shard(s) list replicas, e.g. shard "))
        .contains(
            "estimate: about 1,000 key(s), 80 KB move; at about 100,000 keys/s the copy takes"
                + " about 0.0 s",
            "  from n0 (127.0.0.1:7000), 3 shard(s): about 1,000 of 4,000 key(s), 80 KB (250 of"
                + " 1,000 sampled keys move)",
            "then 3 freeze(s) of at most 8 shard(s) each, and the old copies removed 5.0 s after"
                + " the last cutover")
        .anyMatch(line -> line.startsWith("moving the data as migration add-node-n3"))
        .anyMatch(line -> line.startsWith("done     shards 3/3  keys 1,000"))
        .doesNotContain(
            "nothing written: run again with --apply to apply it (it is planned"
                + " again from the map as it is then)");
    assertThat(lines.get(lines.size() - 1))
        .isEqualTo(
            "moved 3 of 3 shard(s) with their data in 1.5 s: 1,000 key(s) copied (80 KB), 1"
                + " freeze(s) p50 12 ms p99 12 ms max 12 ms, 0 write(s) after cutover");
  }

  @Test
  void withoutApplyThePlanSaysWhatDataMovesAndTheMoverIsNotStarted() {
    CliRunner.Result result = runOnEtcd("remove-node", "n2");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(dataMover.calls).hasSize(1);
    assertThat(dataMover.calls.get(0)).startsWith("estimate remove-node-n2 [");
    assertThat(result.out())
        .contains("data: 4 shard(s) move with their data", "estimate: about 1,000 key(s)")
        .endsWith(
            "nothing written: run again with --apply to apply it (it is planned again from the"
                + " map as it is then)"
                + NEWLINE);
  }

  @Test
  void anEstimateThatFailsIsUnknownAndTheVerbGoesOn() {
    dataMover.estimateFailure = new TopologyUnavailableException("etcd is away");

    CliRunner.Result result = runOnEtcd("move-shard", "7", "--to", "n0", "--dry-run");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out())
        .contains("estimate: unknown (etcd is away)", "dry run: nothing written");
  }

  @Test
  void mapOnlyWritesTheMapAloneAndSaysNothingOfData() {
    CliRunner.Result result = runOnEtcd("rebalance", "--apply", "--map-only");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(dataMover.calls).isEmpty();
    assertThat(result.out()).doesNotContain("data:", "estimate");
  }

  @Test
  void groupSizeAndAcknowledgementTimeoutReachTheMover() {
    CliRunner.Result result =
        runOnEtcd(
            "add-node",
            "n3=127.0.0.1:7003",
            "--apply",
            "--group-size",
            "16",
            "--ack-timeout",
            "500ms",
            "--cleanup-grace",
            "1s",
            "--copy-rate",
            "30000");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(dataMover.calls)
        .contains(
            "connect groupSize=16 acknowledgementTimeout=PT0.5S cleanupGrace=PT1S"
                + " copyKeysPerSecond=30000");
  }

  @Test
  void theCopyMethodReachesTheMover() {
    CliRunner.Result result =
        runOnEtcd(
            "add-node",
            "n3=127.0.0.1:7003",
            "--apply",
            "--copy-method",
            "script",
            "--copy-rate",
            "50000");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(dataMover.calls)
        .contains(
            "connect groupSize=8 acknowledgementTimeout=PT2S cleanupGrace=PT5S"
                + " copyKeysPerSecond=50000 copyMethod=SCRIPT");
  }

  @Test
  void redisCredentialsReachTheMoverForEveryNodeAndArePrintedNowhere() {
    CliRunner.Result result =
        CliRunner.run(
            commandLine(Map.of(ExecCommand.REDIS_PASSWORD_VARIABLE, "s3cret-from-env")),
            "add-node",
            "n3=127.0.0.1:7003",
            "--apply",
            "--redis-user",
            "mover",
            "--etcd",
            ETCD);

    assertThat(result.exitCode()).as(result.err()).isZero();
    ServerAddress address =
        dataMover.lastOptions.serverAddresses().apply(Node.of("n1", "10.0.0.6", 6380));
    assertThat(address)
        .isEqualTo(ServerAddress.of("10.0.0.6", 6380).withCredentials("mover", "s3cret-from-env"));
    assertThat(result.out() + result.err()).doesNotContain("s3cret-from-env");
  }

  @Test
  void aRedisUserWithoutAPasswordIsAUsageErrorBeforeAnythingRuns() {
    CliRunner.Result result =
        runOnEtcd("add-node", "n3=127.0.0.1:7003", "--apply", "--redis-user", "mover");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err())
        .isEqualTo(
            "jumpgate add-node: --redis-user needs a password: give --redis-password or set"
                + " JUMPGATE_REDIS_PASSWORD\n");
    assertThat(dataMover.calls).isEmpty();
  }

  @Test
  void offlineReachesTheMoverAndThePlanSaysTheShardsAreFrozenForTheWholeCopy() {
    CliRunner.Result result = runOnEtcd("add-node", "n3=127.0.0.1:7003", "--apply", "--offline");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(dataMover.calls)
        .contains(
            "connect groupSize=32 acknowledgementTimeout=PT2S cleanupGrace=PT5S"
                + " copyKeysPerSecond=0 offline");
    // 4,000 keys scanned at 500,000 keys/s (8 ms) + the group's 1,000 keys at 100,000 keys/s
    assertThat(result.out())
        .contains(
            "offline (--offline): no change capture and no CONFIG SET; the moved shards are frozen"
                + " for the whole copy of their group: each group of up to 32 shard(s) is frozen,"
                + " acknowledged by every client, copied (a SCAN of its whole source) and then cut"
                + " over",
            "estimated freeze per group from n0: about 18 ms (its keys scanned at 500,000 keys/s,"
                + " the group's keys copied at 100,000 keys/s)",
            "then 3 freeze(s) of at most 32 shard(s) each, and the old copies removed 5.0 s after"
                + " the last cutover");
  }

  @Test
  void offlineJsonHasTheEstimatedFreezePerGroup() throws Exception {
    CliRunner.Result result =
        runOnEtcd("add-node", "n3=127.0.0.1:7003", "--offline", "--group-size", "2", "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode data = new ObjectMapper().readTree(result.out()).path("dataMove");
    assertThat(data.path("offline").asBoolean()).isTrue();
    assertThat(data.path("frozenForWholeCopy").asBoolean()).isTrue();
    assertThat(data.path("groupSize").asInt()).isEqualTo(2);
    // 4,000 keys scanned at 500,000 keys/s (8 ms) + 2 of 3 shards' 1,000 keys at 100,000 keys/s
    assertThat(data.path("estimatedFreezeMillisPerGroup").path("n0").asLong()).isEqualTo(14);
  }

  @Test
  void withoutOfflineTheJsonSaysOnline() throws Exception {
    CliRunner.Result result = runOnEtcd("add-node", "n3=127.0.0.1:7003", "--json");

    JsonNode data = new ObjectMapper().readTree(result.out()).path("dataMove");
    assertThat(data.path("offline").asBoolean()).isFalse();
    assertThat(data.path("groupSize").asInt()).isEqualTo(8);
    assertThat(data.has("estimatedFreezeMillisPerGroup")).isFalse();
  }

  static Stream<Arguments> dataMoveUsageErrors() {
    return Stream.of(
        Arguments.of(
            List.of("add-node", "n3=h:1", "--group-size", "0"),
            "jumpgate add-node: --group-size must be between 1 and 100, was 0"),
        Arguments.of(
            List.of("rebalance", "--group-size", "many"),
            "jumpgate rebalance: --group-size must be an integer between 1 and 100, was 'many'"),
        Arguments.of(
            List.of("remove-node", "n2", "--ack-timeout", "soon"),
            "jumpgate remove-node: --ack-timeout must be a duration such as 500ms, 5s, 2m or"
                + " 1h30m, was 'soon'"),
        Arguments.of(
            List.of("move-shard", "3", "--to", "n1", "--map-only", "--group-size", "4"),
            "jumpgate move-shard: --map-only moves no data: --group-size, --ack-timeout,"
                + " --cleanup-grace, --copy-rate and --copy-method cannot be used with it"),
        Arguments.of(
            List.of("add-node", "n3=h:1", "--copy-method", "rsync"),
            "jumpgate add-node: --copy-method must be migrate, script or dump-restore, was"
                + " 'rsync'"),
        Arguments.of(
            List.of("move-shard", "3", "--to", "n1", "--offline", "--map-only"),
            "jumpgate move-shard: --offline and --map-only cannot be used together"),
        Arguments.of(
            List.of("rebalance", "--map-only", "--offline", "--apply"),
            "jumpgate rebalance: --offline and --map-only cannot be used together"),
        Arguments.of(
            List.of("failover", "--node", "n1", "--offline"),
            "jumpgate failover: Unknown option: '--offline'"),
        Arguments.of(
            List.of("add-node", "n3=h:1", "--copy-rate", "0"),
            "jumpgate add-node: --copy-rate must be between 1 and 2147483647, was 0"),
        Arguments.of(
            List.of("failover", "--node", "n1", "--map-only"),
            "jumpgate failover: Unknown option: '--map-only'"));
  }

  @ParameterizedTest
  @MethodSource("dataMoveUsageErrors")
  void badDataMoveOptionsAreUsageErrors(List<String> arguments, String message) {
    CliRunner.Result result = runOnEtcd(arguments.toArray(String[]::new));

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).startsWith(message);
    assertThat(admin.connections).isEmpty();
    assertThat(dataMover.calls).isEmpty();
  }

  @Test
  void shardsNotMovedExitOneWithTheReasonOnOneLine() {
    ShardAssignment shard = admin.assignments.get(7);
    String to = shard.replicas().get(0);
    dataMover.notMoved.put(7, "client 'stale-1' acknowledged revision 1, below the freeze at 57");

    CliRunner.Result result = runOnEtcd("move-shard", "7", "--to", to);

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.out())
        .contains(
            "note: with its data moving, "
                + shard.leader()
                + " leaves shard 7 instead of becoming its replica (it does with --map-only)",
            "moved 0 of 1 shard(s) with their data",
            "  shard 7 not moved: client 'stale-1' acknowledged revision 1, below the freeze at 57",
            "the change is not complete: the map keeps every other leader as it was");
    assertThat(result.err())
        .isEqualTo(
            "jumpgate move-shard: the data of migration move-shard-7-"
                + to
                + " did not all move: 1 shard(s) not moved (shard 7: client 'stale-1'"
                + " acknowledged revision 1, below the freeze at 57): they stay on their leader;"
                + " run the same command again to move them"
                + NEWLINE);
  }

  @Test
  void aSourceWithoutKeyspaceNotificationsExitsOneWithTheSetting() {
    dataMover.failure =
        new ChangeCaptureUnavailableException(
            "source 127.0.0.1:7000 refused CONFIG SET notify-keyspace-events: set"
                + " notify-keyspace-events KA in its redis.conf",
            "KA",
            null);

    CliRunner.Result result = runOnEtcd("add-node", "n3=127.0.0.1:7003", "--apply");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.err())
        .isEqualTo(
            "jumpgate add-node: source 127.0.0.1:7000 refused CONFIG SET notify-keyspace-events:"
                + " set notify-keyspace-events KA in its redis.conf"
                + NEWLINE);
  }

  @Test
  void aCancelledMoveSaysHowToResumeOrAbort() {
    dataMover.failure = new MoveCancelledException("migration add-node-n3 cancelled");
    dataMover.phaseAfterFailure = MovePhase.CANCELLED;

    CliRunner.Result result = runOnEtcd("add-node", "n3=127.0.0.1:7003", "--apply");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.err())
        .isEqualTo(
            "jumpgate add-node: migration add-node-n3 cancelled; the record of migration"
                + " add-node-n3 stays: run the same command again (or jumpgate migrate resume"
                + " add-node-n3) to finish it, or jumpgate migrate abort add-node-n3 to undo what"
                + " is not cut over"
                + NEWLINE);
  }

  @Test
  void aLockHeldByAnotherMoverIsReportedAsIs() {
    dataMover.failure =
        new MoveRefusedException("migration lock is held by host-b:77 for migration m9");

    CliRunner.Result result = runOnEtcd("remove-node", "n1", "--apply");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.err())
        .isEqualTo(
            "jumpgate remove-node: migration lock is held by host-b:77 for migration m9" + NEWLINE);
  }

  @Test
  void jsonWithTheDataHasTheEstimateAndTheMoveAndNoProgressLines() throws Exception {
    CliRunner.Result result = runOnEtcd("add-node", "n3=127.0.0.1:7003", "--apply", "--json");

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.out().lines()).hasSize(1);
    JsonNode document = new ObjectMapper().readTree(result.out());
    assertThat(document.path("applied").asBoolean()).isTrue();
    assertThat(document.path("mapOnly").asBoolean()).isFalse();
    assertThat(document.path("result").isNull()).isTrue();
    assertThat(document.path("plan").path("placement").path("operation").asText())
        .isEqualTo("addNode n3");
    JsonNode data = document.path("dataMove");
    assertThat(data.path("migrationId").asText()).isEqualTo("add-node-n3");
    assertThat(data.path("shards").asInt()).isEqualTo(3);
    assertThat(data.path("estimate").path("keys").asLong()).isEqualTo(1_000);
    assertThat(data.path("estimate").path("bytes").asLong()).isEqualTo(81_920);
    assertThat(data.path("estimate").path("assumedKeysPerSecond").asLong()).isEqualTo(100_000);
    assertThat(data.path("estimate").path("sources").get(0).path("nodeId").asText())
        .isEqualTo("n0");
    JsonNode move = document.path("move");
    assertThat(move.path("complete").asBoolean()).isTrue();
    assertThat(move.path("shardsMoved").size()).isEqualTo(3);
    assertThat(move.path("keysCopied").asLong()).isEqualTo(1_000);
    assertThat(move.path("freezes").asInt()).isEqualTo(1);
    assertThat(move.path("freezeP99Micros").asLong()).isEqualTo(12_000);
    assertThat(move.path("writesAfterCutover").asLong()).isZero();
  }

  // ---- help ----------------------------------------------------------------------------------

  @Test
  void everyVerbHasHelpWithExamplesAndExitCodes() {
    for (String verb :
        List.of("init", "add-node", "remove-node", "move-shard", "failover", "rebalance")) {
      CliRunner.Result result = run(verb, "--help");

      assertThat(result.exitCode()).as(verb).isZero();
      assertThat(result.out())
          .as(verb)
          .startsWith("Usage: jumpgate " + verb)
          .contains("Examples:", "Exit codes:", "--etcd", "--apply", "--dry-run", "--json")
          .doesNotContain("--topology-file=FILE", "Only the map changes");
    }
    for (String verb : List.of("add-node", "remove-node", "move-shard", "rebalance")) {
      assertThat(run(verb, "--help").out())
          .as(verb)
          .contains(
              "--map-only",
              "--group-size",
              "--ack-timeout",
              "--cleanup-grace",
              "data moves with the map");
    }
  }
}
