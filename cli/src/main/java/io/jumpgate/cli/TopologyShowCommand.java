package io.jumpgate.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.jumpgate.spi.TopologySnapshot;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.SortedMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jumpgate topology show}: the shard map as it is now, as text (summary, nodes, assignments
 * with runs of shards folded, invalid entries) or as one JSON document ({@link SnapshotJson}); with
 * {@code --by-node}, each node's address, zone and its numbers of led and replicated shards, with
 * bars.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "show",
    description = "Shows the shard map: nodes, assignments and invalid entries.",
    footer = {
      "",
      "--json prints one document:",
      "  {\"cluster\":..,\"revision\":..,\"shards\":N,",
      "   \"nodes\":{\"<id>\":{\"host\":..,\"port\":..,\"zone\":..}},",
      "   \"assignments\":[{\"shard\":0,\"leader\":..,\"replicas\":[..],\"epoch\":..,",
      "     \"state\":\"active\"|\"migrating\"|\"frozen\"},..],",
      "   \"invalid\":[{\"key\":..,\"reason\":..,\"modRevision\":..}]}",
      "An unavailable shard has \"leader\":null and \"unavailable\":\"<reason>\".",
      "",
      "Examples:",
      "  jumpgate topology show --etcd http://127.0.0.1:2379 --cluster prod",
      "  jumpgate topology show --by-node --etcd http://127.0.0.1:2379",
      "  jumpgate topology show --json --topology-file saved.json | jq '.assignments[5]'"
    })
public final class TopologyShowCommand implements Callable<Integer> {

  /** The length of the longest bar of {@code --by-node}. */
  static final int BAR_WIDTH = 30;

  @Spec private CommandSpec spec;

  @Mixin private EtcdOptions etcd;

  @Mixin private TopologyFileOption file;

  @Option(names = "--json", description = "Print one JSON document instead of text.")
  private boolean json;

  @Option(
      names = "--by-node",
      description = "Per node: address, zone, and how many shards it leads and replicates.")
  private boolean byNode;

  @Override
  public Integer call() {
    TopologySnapshot snapshot = TopologyInput.resolve(spec, etcd, file).load();
    PrintWriter out = spec.commandLine().getOut();
    if (byNode && json) {
      JsonOutput.writeLine(out, generator -> writeByNodeJson(generator, snapshot));
    } else if (byNode) {
      printByNode(out, snapshot, BarChart.forStandardOutput(BAR_WIDTH));
    } else if (json) {
      JsonOutput.writeLine(out, generator -> SnapshotJson.writeSnapshot(generator, snapshot));
    } else {
      TopologyText.print(out, snapshot);
    }
    return ExitCodes.OK;
  }

  /** The {@code --by-node} table, with bars drawn by {@code chart}. */
  static void printByNode(PrintWriter out, TopologySnapshot snapshot, BarChart chart) {
    SortedMap<String, NodeLoad.Load> loads = NodeLoad.of(snapshot);
    out.println(
        TopologyText.identify(snapshot)
            + ": "
            + TopologyText.plural(snapshot.shardCount(), "shard", "shards")
            + ", "
            + TopologyText.plural(snapshot.nodes().size(), "node", "nodes"));
    out.println();
    long max = 1;
    int digits = 1;
    for (NodeLoad.Load load : loads.values()) {
      max = Math.max(max, Math.max(load.leaders(), load.replicas()));
      digits =
          Math.max(
              digits,
              Math.max(
                  Integer.toString(load.leaders()).length(),
                  Integer.toString(load.replicas()).length()));
    }
    TextTable table =
        new TextTable()
            .column("NODE")
            .column("ADDRESS")
            .column("ZONE")
            .column("LEADERS")
            .column("REPLICAS");
    String number = "%" + digits + "d";
    for (NodeLoad.Load load : loads.values()) {
      table.row(
          TopologyText.nodeLabel(load),
          KeyText.printable(load.node().address()),
          TopologyText.zone(load.node()),
          (String.format(number, load.leaders()) + " " + chart.bar(load.leaders(), max)).strip(),
          (String.format(number, load.replicas()) + " " + chart.bar(load.replicas(), max)).strip());
    }
    table.printTo(out);
    if (snapshot.unavailableShardCount() > 0) {
      out.println();
      out.println(
          "unavailable: "
              + TopologyText.plural(snapshot.unavailableShardCount(), "shard", "shards")
              + " without a leader");
    }
    out.flush();
  }

  /**
   * {@code {"cluster":..,"revision":..,"shards":N,"unavailable":N,"nodes":[{"node":..,"host":..,
   * "port":..,"zone":..,"leaders":N,"replicas":N,"removed":false}]}}.
   */
  private static void writeByNodeJson(JsonGenerator generator, TopologySnapshot snapshot)
      throws IOException {
    generator.writeStartObject();
    generator.writeStringField("cluster", snapshot.cluster());
    generator.writeNumberField("revision", snapshot.revision());
    generator.writeNumberField("shards", snapshot.shardCount());
    generator.writeNumberField("unavailable", snapshot.unavailableShardCount());
    generator.writeArrayFieldStart("nodes");
    for (Map.Entry<String, NodeLoad.Load> entry : NodeLoad.of(snapshot).entrySet()) {
      NodeLoad.Load load = entry.getValue();
      generator.writeStartObject();
      generator.writeStringField("node", entry.getKey());
      generator.writeStringField("host", load.node().host());
      generator.writeNumberField("port", load.node().port());
      generator.writeStringField("zone", load.node().zone());
      generator.writeNumberField("leaders", load.leaders());
      generator.writeNumberField("replicas", load.replicas());
      generator.writeBooleanField("removed", !load.inNodeTable());
      generator.writeEndObject();
    }
    generator.writeEndArray();
    generator.writeEndObject();
  }
}
