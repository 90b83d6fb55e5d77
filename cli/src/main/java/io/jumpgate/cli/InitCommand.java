package io.jumpgate.cli;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.topology.TopologyAdminPlan;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jumpgate init}: creates a cluster's shard map in etcd, the nodes of {@code --nodes} and
 * {@code --shards} shards with {@code --replicas} replicas each ({@link
 * io.jumpgate.topology.TopologyAdmin#init}). Applied at once, since it only succeeds on a cluster
 * that does not exist; prints the plan's summary (no line per shard), a line per transaction and
 * the revision at which the cluster appears.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "init",
    description =
        "Creates a cluster's shard map in etcd: nodes, shards with their leaders and replicas, and"
            + " meta, which makes the map appear whole. Fails if the cluster exists.",
    footer = {
      "",
      "NODES is id=host:port[@zone],... (an IPv6 host in brackets: n1=[::1]:6379).",
      "Applied at once (--dry-run only prints the plan). --shards is fixed for the",
      "life of the cluster. Leaders are spread evenly; each shard's nodes are in",
      "distinct zones when there are enough zones. --timeout bounds each etcd call.",
      "",
      "Examples:",
      "  jumpgate init --nodes a=10.0.0.5:6379@az1,b=10.0.0.6:6379@az2 \\",
      "      --nodes c=10.0.0.7:6379@az3 --etcd http://127.0.0.1:2379 --cluster prod",
      "  jumpgate init --nodes n0=127.0.0.1:7000,n1=127.0.0.1:7001 --shards 16"
    })
public final class InitCommand extends AdminPlanCommand {

  @Option(
      names = "--nodes",
      required = true,
      paramLabel = "NODES",
      description = "The nodes: id=host:port[@zone], separated by commas; may be repeated.")
  private List<String> nodeSpecs;

  @Option(
      names = "--shards",
      paramLabel = "N",
      defaultValue = "1024",
      description = "Number of shards, 1 to 65536 (default: ${DEFAULT-VALUE}).")
  private String shardsValue;

  @Option(
      names = "--replicas",
      paramLabel = "N",
      defaultValue = "1",
      description = "Replicas per shard (default: ${DEFAULT-VALUE}); needs at least N + 1 nodes.")
  private String replicasValue;

  private Map<String, Node> nodes;
  private int shards;
  private int replicas;

  /** The verb as {@code jumpgate} runs it, on etcd. */
  public InitCommand() {
    this(AdminPlanClient::connect);
  }

  InitCommand(AdminPlanClient.Connector connector) {
    super(connector);
  }

  @Override
  void checkArguments() {
    try {
      nodes = NodeSpec.parseAll(nodeSpecs);
    } catch (IllegalArgumentException e) {
      throw usage("--nodes: " + e.getMessage());
    }
    shards = OptionValues.intInRange(spec, "--shards", shardsValue, 1, TopologyMetadata.MAX_SHARDS);
    replicas = OptionValues.intInRange(spec, "--replicas", replicasValue, 0, Integer.MAX_VALUE);
    if (replicas + 1 > nodes.size()) {
      throw usage(
          "--replicas "
              + replicas
              + " needs at least "
              + (replicas + 1)
              + " nodes, --nodes gives "
              + nodes.size());
    }
  }

  @Override
  TopologyAdminPlan plan(AdminPlanClient admin) {
    return admin.planInit(nodes, shards, replicas);
  }

  @Override
  boolean appliesAtOnce() {
    return true;
  }

  @Override
  boolean printsSummaryOnly() {
    return true;
  }
}
