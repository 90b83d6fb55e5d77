package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.topology.TopologyDocument;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopologyExportCommandTest {

  @TempDir Path dir;

  @Test
  void stdoutGetsTheTopologyDocument() {
    Path file = SampleTopology.writeTo(dir);

    CliRunner.Result result =
        CliRunner.run("topology", "export", "--topology-file", file.toString());

    assertThat(result.exitCode()).isZero();
    assertThat(result.err()).isEmpty();
    assertThat(result.out())
        .startsWith(
            "{\n  \"format\": 1,\n  \"cluster\": \"test\",\n  \"revision\": 7,\n  \"shards\": 8,")
        .contains("    {\"shard\":5,\"leader\":\"n2\",\"replicas\":[\"n0\",\"n1\"],\"epoch\":2,")
        .contains("\"invalid\": [\n    {\"key\":\"/jumpgate/test/shards/0006\"");
    TopologyDocument document =
        TopologyDocument.parse(result.out().getBytes(StandardCharsets.UTF_8));
    assertThat(document.cluster()).isEqualTo("test");
    assertThat(document.revision()).isEqualTo(7);
  }

  @Test
  void anExportLoadsBackAsTheSameMap() throws IOException {
    Path original =
        TopologyFileBuilder.standard()
            .unassign(4)
            .assign(5, "n1", 9)
            .writeTo(dir.resolve("original.json"));
    Path exported = dir.resolve("exported.json");

    CliRunner.Result export =
        CliRunner.run(
            "topology",
            "export",
            "--topology-file",
            original.toString(),
            "-o",
            exported.toString());
    CliRunner.Result diff =
        CliRunner.run("topology", "diff", original.toString(), exported.toString());
    CliRunner.Result showOriginal =
        CliRunner.run("topology", "show", "--json", "--topology-file", original.toString());
    CliRunner.Result showExported =
        CliRunner.run("topology", "show", "--json", "--topology-file", exported.toString());

    assertThat(export.exitCode()).isZero();
    assertThat(export.out())
        .isEqualTo("wrote " + exported + ": cluster 'test' revision 7, 8 shards, 3 nodes\n");
    assertThat(Files.readString(exported)).startsWith("{\n  \"format\": 1,");
    assertThat(diff.exitCode()).as(diff.out() + diff.err()).isZero();
    assertThat(diff.out()).isEmpty();
    assertThat(showExported.out()).isEqualTo(showOriginal.out());
  }

  @Test
  void theOutputFileIsReplaced() throws IOException {
    Path original = SampleTopology.writeTo(dir);
    Path exported = Files.writeString(dir.resolve("old.json"), "old content");

    CliRunner.Result result =
        CliRunner.run(
            "topology",
            "export",
            "--topology-file",
            original.toString(),
            "--output",
            exported.toString());

    assertThat(result.exitCode()).isZero();
    assertThat(Files.readString(exported)).startsWith("{");
    try (var files = Files.list(dir)) {
      assertThat(files.map(path -> path.getFileName().toString()))
          .containsExactlyInAnyOrder("sample.json", "old.json");
    }
  }

  @Test
  void anOutputInAMissingDirectoryFailsNamingIt() {
    Path original = SampleTopology.writeTo(dir);
    Path output = dir.resolve("missing/out.json");

    CliRunner.Result result =
        CliRunner.run(
            "topology",
            "export",
            "--topology-file",
            original.toString(),
            "--output",
            output.toString());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.err())
        .isEqualTo(
            "jumpgate topology export: cannot write "
                + output
                + ": no such directory"
                + System.lineSeparator());
  }

  @Test
  void nonAsciiTextIsEscapedOnStdout() {
    Path file =
        TopologyFileBuilder.cluster("test", 1)
            .node("n0", "10.0.0.1", 7000, "zürich")
            .assign(0, "n0", 0)
            .writeTo(dir.resolve("zone.json"));

    CliRunner.Result result =
        CliRunner.run("topology", "export", "--topology-file", file.toString());

    assertThat(result.out()).contains("\"zone\":\"z\\u00FCrich\"").doesNotContain("ü");
    assertThat(
            TopologyDocument.parse(result.out().getBytes(StandardCharsets.UTF_8))
                .entries()
                .get("/jumpgate/test/nodes/n0"))
        .asString(StandardCharsets.UTF_8)
        .contains("zürich");
  }
}
