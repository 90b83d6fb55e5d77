package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopologyValidateCommandTest {

  @TempDir Path dir;

  @Test
  void aValidMapExitsZero() {
    Path file = TopologyFileBuilder.standard().writeTo(dir.resolve("ok.json"));

    CliRunner.Result result =
        CliRunner.run("topology", "validate", "--topology-file", file.toString());

    assertThat(result.exitCode()).isZero();
    assertThat(result.err()).isEmpty();
    assertThat(result.out()).isEqualTo("cluster 'test' revision 7: valid (8 shards, 3 nodes)\n");
  }

  @Test
  void everyProblemIsPrintedAndTheExitCodeIsOne() {
    Path file = SampleTopology.writeTo(dir);

    CliRunner.Result result =
        CliRunner.run("topology", "validate", "--topology-file", file.toString());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.err()).isEmpty();
    assertThat(result.out().lines())
        .containsExactly(
            "invalid entry /jumpgate/test/shards/0006: leader 'n9' is not in the node table",
            "shard 0004 unavailable: no assignment in etcd",
            "shard 0006 unavailable: leader 'n9' is not in the node table",
            "cluster 'test' revision 7: not valid: 1 invalid entry, 2 unavailable shards");
  }

  @Test
  void runsOfUnavailableShardsAreOneLine() {
    Path file =
        TopologyFileBuilder.standard()
            .unassign(2)
            .unassign(3)
            .unassign(4)
            .writeTo(dir.resolve("holes.json"));

    CliRunner.Result result =
        CliRunner.run("topology", "validate", "--topology-file", file.toString());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.out().lines())
        .containsExactly(
            "shards 0002-0004 unavailable: no assignment in etcd",
            "cluster 'test' revision 7: not valid: 0 invalid entries, 3 unavailable shards");
  }

  @Test
  void anInvalidNodeIsAProblemEvenWhenNoShardUsesIt() {
    Path file =
        TopologyFileBuilder.standard()
            .rawNode("n7", "{\"host\":\"10.0.0.7\",\"port\":70000}")
            .writeTo(dir.resolve("node.json"));

    CliRunner.Result result =
        CliRunner.run("topology", "validate", "--topology-file", file.toString());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.out())
        .startsWith("invalid entry /jumpgate/test/nodes/n7: ")
        .contains("70000");
  }

  @Test
  void aMapThatCannotBeReadExitsOneWithTheReason() {
    CliRunner.Result result =
        CliRunner.run("topology", "validate", "--etcd", "http://127.0.0.1:1", "--timeout", "200ms");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.out()).isEmpty();
    assertThat(result.err()).startsWith("jumpgate topology validate: no topology from etcd");
  }
}
