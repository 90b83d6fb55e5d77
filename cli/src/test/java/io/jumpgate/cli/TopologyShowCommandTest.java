package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.topology.FileTopologySource;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopologyShowCommandTest {

  @TempDir Path dir;

  private CliRunner.Result show(String... options) {
    String[] arguments = new String[options.length + 4];
    arguments[0] = "topology";
    arguments[1] = "show";
    arguments[2] = "--topology-file";
    arguments[3] = SampleTopology.writeTo(dir).toString();
    System.arraycopy(options, 0, arguments, 4, options.length);
    return CliRunner.run(arguments);
  }

  @Test
  void textShowsTheSummaryTheNodesTheFoldedAssignmentsAndTheInvalidEntries() {
    CliRunner.Result result = show();

    assertThat(result.exitCode()).isZero();
    assertThat(result.err()).isEmpty();
    assertThat(result.out().lines())
        .containsExactly(
            "cluster      test",
            "revision     7",
            "shards       8 (routing xxh64-jump, format 1)",
            "nodes        3",
            "unavailable  2 shards",
            "invalid      1 entry",
            "",
            "NODE  ADDRESS        ZONE",
            "n0    10.0.0.1:7000  az1",
            "n1    10.0.0.2:7001  az2",
            "n2    10.0.0.3:7002  -",
            "",
            "SHARDS     LEADER  REPLICAS  EPOCH  STATE",
            "0000-0002  n0      n1          0-3  active",
            "0003       n1      -             0  active",
            "0004       -       -             -  unavailable: no assignment in etcd",
            "0005       n2      n0,n1         2  frozen, migration m1 to n0",
            "0006       -       -             -  unavailable: leader 'n9' is not in the node table",
            "0007       n2      n0            0  active",
            "",
            "INVALID ENTRIES",
            "/jumpgate/test/shards/0006: leader 'n9' is not in the node table");
  }

  @Test
  void jsonIsOneDocumentWithEveryShard() {
    CliRunner.Result result = show("--json");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .isEqualTo(
            "{\"cluster\":\"test\",\"revision\":7,\"shards\":8,\"nodes\":{"
                + "\"n0\":{\"host\":\"10.0.0.1\",\"port\":7000,\"zone\":\"az1\"},"
                + "\"n1\":{\"host\":\"10.0.0.2\",\"port\":7001,\"zone\":\"az2\"},"
                + "\"n2\":{\"host\":\"10.0.0.3\",\"port\":7002,\"zone\":null}},"
                + "\"assignments\":["
                + "{\"shard\":0,\"leader\":\"n0\",\"replicas\":[\"n1\"],\"epoch\":0,"
                + "\"state\":\"active\"},"
                + "{\"shard\":1,\"leader\":\"n0\",\"replicas\":[\"n1\"],\"epoch\":3,"
                + "\"state\":\"active\"},"
                + "{\"shard\":2,\"leader\":\"n0\",\"replicas\":[\"n1\"],\"epoch\":1,"
                + "\"state\":\"active\"},"
                + "{\"shard\":3,\"leader\":\"n1\",\"replicas\":[],\"epoch\":0,"
                + "\"state\":\"active\"},"
                + "{\"shard\":4,\"leader\":null,\"replicas\":[],\"epoch\":null,\"state\":null,"
                + "\"unavailable\":\"no assignment in etcd\"},"
                + "{\"shard\":5,\"leader\":\"n2\",\"replicas\":[\"n0\",\"n1\"],\"epoch\":2,"
                + "\"state\":\"frozen\",\"migration\":{\"id\":\"m1\",\"to\":\"n0\"}},"
                + "{\"shard\":6,\"leader\":null,\"replicas\":[],\"epoch\":null,\"state\":null,"
                + "\"unavailable\":\"leader 'n9' is not in the node table\"},"
                + "{\"shard\":7,\"leader\":\"n2\",\"replicas\":[\"n0\"],\"epoch\":0,"
                + "\"state\":\"active\"}],"
                + "\"invalid\":[{\"key\":\"/jumpgate/test/shards/0006\","
                + "\"reason\":\"leader 'n9' is not in the node table\",\"modRevision\":0}]}\n");
  }

  @Test
  void byNodeCountsLeadersAndReplicasWithBars() {
    CliRunner.Result result = show("--by-node");

    assertThat(result.exitCode()).isZero();
    // The bars are blocks or '#' depending on the charset of stdout: normalise them.
    String normalised =
        result
            .out()
            .replaceAll("[\u2588-\u258F]+", "BAR")
            .replaceAll("#+", "BAR")
            .replaceAll(" +", " ");
    assertThat(normalised.lines())
        .containsExactly(
            "cluster 'test' revision 7: 8 shards, 3 nodes",
            "",
            "NODE ADDRESS ZONE LEADERS REPLICAS",
            "n0 10.0.0.1:7000 az1 3 BAR 2 BAR",
            "n1 10.0.0.2:7001 az2 1 BAR 4 BAR",
            "n2 10.0.0.3:7002 - 2 BAR 0",
            "",
            "unavailable: 2 shards without a leader");
  }

  @Test
  void byNodeBarsAreScaledToTheLargestCount() throws Exception {
    TopologySnapshot snapshot;
    try (FileTopologySource source = FileTopologySource.create(SampleTopology.writeTo(dir))) {
      snapshot = source.start().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }
    StringWriter unicode = new StringWriter();
    StringWriter ascii = new StringWriter();

    TopologyShowCommand.printByNode(new PrintWriter(unicode), snapshot, new BarChart(8, true));
    TopologyShowCommand.printByNode(new PrintWriter(ascii), snapshot, new BarChart(8, false));

    assertThat(unicode.toString().lines())
        .contains(
            "NODE  ADDRESS        ZONE  LEADERS   REPLICAS",
            "n0    10.0.0.1:7000  az1   3 ██████  2 ████",
            "n1    10.0.0.2:7001  az2   1 ██      4 ████████",
            "n2    10.0.0.3:7002  -     2 ████    0");
    assertThat(ascii.toString().lines())
        .contains(
            "n0    10.0.0.1:7000  az1   3 ######  2 ####",
            "n1    10.0.0.2:7001  az2   1 ##      4 ########");
  }

  @Test
  void byNodeJsonListsEveryNode() {
    CliRunner.Result result = show("--by-node", "--json");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .isEqualTo(
            "{\"cluster\":\"test\",\"revision\":7,\"shards\":8,\"unavailable\":2,\"nodes\":["
                + "{\"node\":\"n0\",\"host\":\"10.0.0.1\",\"port\":7000,\"zone\":\"az1\","
                + "\"leaders\":3,\"replicas\":2,\"removed\":false},"
                + "{\"node\":\"n1\",\"host\":\"10.0.0.2\",\"port\":7001,\"zone\":\"az2\","
                + "\"leaders\":1,\"replicas\":4,\"removed\":false},"
                + "{\"node\":\"n2\",\"host\":\"10.0.0.3\",\"port\":7002,\"zone\":null,"
                + "\"leaders\":2,\"replicas\":0,\"removed\":false}]}\n");
  }

  @Test
  void textFromTheClusterIsShownPrintable() {
    Path file =
        TopologyFileBuilder.cluster("test", 1)
            .node("n0", "10.0.0.1", 7000, "a\\u001b[31mz")
            .assign(0, "n0", 0)
            .writeTo(dir.resolve("escape.json"));

    CliRunner.Result result = CliRunner.run("topology", "show", "--topology-file", file.toString());

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).doesNotContain("\u001b").contains("a\\u001B[31mz");
  }

  @Test
  void helpDescribesTheJson() {
    CliRunner.Result result = CliRunner.run("topology", "show", "--help");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .contains("--json", "--by-node", "--etcd", "--topology-file", "\"assignments\"");
  }
}
