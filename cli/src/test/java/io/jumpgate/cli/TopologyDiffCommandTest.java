package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TopologyDiffCommandTest {

  private static final String NEWLINE = System.lineSeparator();

  @TempDir Path dir;

  private Path before() {
    return TopologyFileBuilder.standard().writeTo(dir.resolve("before.json"));
  }

  private Path after() {
    return TopologyFileBuilder.standard()
        .revision(12)
        .assign(1, "n2", 1, "n0")
        .assign(2, "n2", 0, "n0", "n1")
        .node("n3", "10.0.0.4", 7003, "az1")
        .withoutNode("n2")
        .node("n2", "10.0.0.30", 7002, "az3")
        .rawAssignment(7, "\"leader\":\"nx\"")
        .writeTo(dir.resolve("after.json"));
  }

  @Test
  void theSameMapPrintsNothingAndExitsZero() {
    Path first = before();
    Path second = TopologyFileBuilder.standard().revision(99).writeTo(dir.resolve("same.json"));

    CliRunner.Result result =
        CliRunner.run("topology", "diff", first.toString(), second.toString());

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEmpty();
    assertThat(result.err()).isEmpty();
  }

  @Test
  void differentMapsPrintTheChangesAndExitOne() {
    Path first = before();
    Path second = after();

    CliRunner.Result result =
        CliRunner.run("topology", "diff", first.toString(), second.toString());

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.err()).isEmpty();
    assertThat(result.out().lines())
        .containsExactly(
            "--- A: file " + first + " (cluster 'test' revision 7)",
            "+++ B: file " + second + " (cluster 'test' revision 12)",
            "node n2 address 10.0.0.3:7002 -> 10.0.0.30:7002",
            "node n3 added 10.0.0.4:7003 (zone az1)",
            "shard 0001 leader n1 -> n2, replicas [n2] -> [n0] (epoch 0 -> 1)",
            "shard 0002 replicas [n0] -> [n0, n1]",
            "shard 0007 unavailable: leader 'nx' is not in the node table (was leader n1, epoch 0)",
            "invalid: /jumpgate/test/shards/0007: leader 'nx' is not in the node table");
  }

  @Test
  void jsonPrintsOneObjectNamingBothMaps() {
    Path first = before();
    Path second = TopologyFileBuilder.standard().assign(3, "n1", 0).writeTo(dir.resolve("b.json"));

    CliRunner.Result result =
        CliRunner.run("topology", "diff", "--json", first.toString(), second.toString());

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.out())
        .isEqualTo(
            "{\"a\":\"file "
                + first
                + " (cluster 'test' revision 7)\",\"b\":\"file "
                + second
                + " (cluster 'test' revision 7)\",\"revision\":7,\"previousRevision\":7,"
                + "\"cluster\":\"test\",\"changes\":[\"shard 0003 leader n0 -> n1, replicas [n1] -> []\"],"
                + "\"nodes\":[],\"shards\":[{\"shard\":3,"
                + "\"before\":{\"leader\":\"n0\",\"replicas\":[\"n1\"],\"epoch\":0,"
                + "\"state\":\"active\"},"
                + "\"after\":{\"leader\":\"n1\",\"replicas\":[],\"epoch\":0,"
                + "\"state\":\"active\"}}],\"invalid\":[],\"fixed\":[]}\n");
  }

  static Stream<Arguments> troubles() {
    return Stream.of(
        Arguments.of(
            List.of("etcd", "etcd"),
            "no etcd endpoint: give --etcd URL[,URL...] or" + " set JUMPGATE_ETCD"),
        Arguments.of(
            List.of("etcd@abc", "etcd", "--etcd", "http://127.0.0.1:1"),
            "A must be etcd@REV with REV an etcd revision of at least 1, was 'etcd@abc'"),
        Arguments.of(
            List.of("etcd", "etcd@0", "--etcd", "http://127.0.0.1:1"),
            "B must be etcd@REV with REV an etcd revision of at least 1, was 'etcd@0'"),
        Arguments.of(List.of("/no/such/a.json", "etcd"), "A: no such file '/no/such/a.json'"),
        Arguments.of(List.of("a"), "Missing required parameter: 'B'"));
  }

  @ParameterizedTest
  @MethodSource("troubles")
  void troubleExitsTwo(List<String> arguments, String message) {
    String[] all =
        Stream.concat(Stream.of("topology", "diff"), arguments.stream()).toArray(String[]::new);

    CliRunner.Result result = CliRunner.run(all);

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.out()).isEmpty();
    assertThat(result.err()).isEqualTo("jumpgate topology diff: " + message + NEWLINE);
  }

  @Test
  void etcdOptionsWithTwoFilesAreAUsageError() {
    CliRunner.Result result =
        CliRunner.run(
            "topology",
            "diff",
            before().toString(),
            after().toString(),
            "--etcd",
            "http://127.0.0.1:1");

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err())
        .isEqualTo(
            "jumpgate topology diff: --etcd is used only when A or B is etcd or etcd@REV"
                + NEWLINE);
  }

  @Test
  void aMapThatCannotBeReadExitsTwo() {
    CliRunner.Result current =
        CliRunner.run(
            "topology",
            "diff",
            before().toString(),
            "etcd",
            "--etcd",
            "http://127.0.0.1:1",
            "--timeout",
            "200ms");
    CliRunner.Result old =
        CliRunner.run(
            "topology",
            "diff",
            "etcd@5",
            before().toString(),
            "--etcd",
            "http://127.0.0.1:1",
            "--timeout",
            "300ms");

    assertThat(current.exitCode()).isEqualTo(2);
    assertThat(current.err()).startsWith("jumpgate topology diff: no topology from etcd at");
    assertThat(old.exitCode()).isEqualTo(2);
    assertThat(old.err())
        .startsWith(
            "jumpgate topology diff: etcd at http://127.0.0.1:1 (cluster 'default', revision 5):");
    assertThat(old.err().lines()).hasSize(1);
  }

  @Test
  void helpListsTheExitCodesOfDiff() {
    CliRunner.Result result = CliRunner.run("topology", "diff", "--help");

    assertThat(result.out())
        .contains("0   the maps are the same", "1   the maps differ", "etcd@REV");
  }
}
