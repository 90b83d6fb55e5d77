package io.jumpgate.cli;

import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.topology.TopologyDocument;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jumpgate topology export}: writes the map as a topology document ({@link
 * TopologyDocument#toJson()}), which {@code --topology-file} and {@code FileTopologySource} load.
 *
 * <p>To stdout, characters outside ASCII are written as JSON escapes, so the bytes do not depend on
 * the terminal's charset; to a file ({@code --output}), the document is written in UTF-8 to a
 * temporary file next to it that then replaces it, so a reader never sees half a file.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "export",
    description =
        "Writes the shard map as a topology document (JSON), loadable by --topology-file.",
    footer = {
      "",
      "Examples:",
      "  jumpgate topology export --etcd http://127.0.0.1:2379 --cluster prod --output prod.json",
      "  jumpgate topology show --topology-file prod.json"
    })
public final class TopologyExportCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Mixin private EtcdOptions etcd;

  @Mixin private TopologyFileOption file;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description = "Write to FILE (replaced if it exists) instead of stdout.")
  private Path output;

  @Override
  public Integer call() throws IOException {
    TopologyInput input = TopologyInput.resolve(spec, etcd, file);
    TopologySnapshot snapshot = input.load();
    byte[] json = TopologyDocument.fromSnapshot(snapshot).toJson();
    PrintWriter out = spec.commandLine().getOut();
    if (output == null) {
      out.print(asciiOnly(new String(json, StandardCharsets.UTF_8)));
    } else {
      write(output, json);
      out.println(
          "wrote "
              + output
              + ": "
              + TopologyText.identify(snapshot)
              + ", "
              + TopologyText.plural(snapshot.shardCount(), "shard", "shards")
              + ", "
              + TopologyText.plural(snapshot.nodes().size(), "node", "nodes"));
    }
    out.flush();
    return ExitCodes.OK;
  }

  /**
   * The JSON text with every character outside ASCII as a {@code \}{@code uXXXX} escape: the same
   * JSON value, since such characters can only be inside strings.
   */
  static String asciiOnly(String json) {
    StringBuilder out = new StringBuilder(json.length());
    for (int index = 0; index < json.length(); index++) {
      char c = json.charAt(index);
      if (c < 0x80) {
        out.append(c);
      } else {
        out.append(String.format("\\u%04X", (int) c));
      }
    }
    return out.toString();
  }

  private static void write(Path target, byte[] content) throws IOException {
    Path absolute = target.toAbsolutePath();
    Path temporary = null;
    try {
      temporary = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName(), ".tmp");
      Files.write(temporary, content);
      try {
        Files.move(
            temporary,
            absolute,
            StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      if (temporary != null) {
        Files.deleteIfExists(temporary);
      }
      throw new IOException("cannot write " + target + ": " + reason(e), e);
    }
  }

  private static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such directory";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof FileSystemException fileSystem && fileSystem.getReason() != null) {
      return fileSystem.getReason();
    }
    return e.toString();
  }
}
