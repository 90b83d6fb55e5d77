package io.jumpgate.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.jumpgate.routing.Xxh64JumpRouter;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jumpgate route}: the shard of each key, computed offline with the {@code xxh64-jump}
 * scheme (no cluster is contacted). Prints a table, or with {@code --json} one JSON object per key
 * and line:
 *
 * <pre>{@code
 * {"key":"user:42","keyHex":"757365723a3432","routingKeyHex":"757365723a3432","hash":"15861654238046376386","hashHex":"dc1fea7da8d2d1c2","shard":717}
 * }</pre>
 *
 * <p>Defaults: {@value Xxh64JumpRouter#DEFAULT_SHARDS} shards, keys given as text (UTF-8), table
 * output. All keys are checked before anything is printed, so a bad key prints nothing on stdout.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "route",
    description = {
      "Shows the shard of each key, computed offline.",
      "",
      "No cluster is contacted: the routing key (the hash tag between the first '{' and the"
          + " next '}', or the whole key) is hashed with XXH64 (seed 0), and the hash is mapped"
          + " to one of N shards with jump consistent hash."
    },
    footer = {
      "",
      "In the table, a key that is not printable UTF-8 text is shown as hex:<bytes in hex>.",
      "Put -- before keys that start with '-'.",
      "",
      "Examples:",
      "  jumpgate route --shards 1024 user:42 '{user1000}.following'",
      "  jumpgate route --json --hex 757365723a3432 ''"
    })
public final class RouteCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  private int shardCount = Xxh64JumpRouter.DEFAULT_SHARDS;

  @Option(
      names = "--shards",
      paramLabel = "N",
      defaultValue = "" + Xxh64JumpRouter.DEFAULT_SHARDS,
      description = "Number of shards, 1 to 2147483647 (default: ${DEFAULT-VALUE}).")
  void setShards(String value) {
    shardCount = OptionValues.intInRange(spec, "--shards", value, 1, Integer.MAX_VALUE);
  }

  @Option(
      names = "--hex",
      description =
          "Each KEY is the key's bytes in hex ('' is the empty key). Without it, KEY is text,"
              + " encoded in UTF-8.")
  private boolean hex;

  @Option(
      names = "--json",
      description =
          "One JSON object per key and line, with key (null when not UTF-8), keyHex,"
              + " routingKeyHex, hash (unsigned decimal), hashHex and shard.")
  private boolean json;

  @Parameters(paramLabel = KeyArguments.LABEL, arity = "1..*", description = "The keys to route.")
  private List<String> keys;

  @Override
  public Integer call() {
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(shardCount);
    List<KeyRoute> routes =
        KeyArguments.toBytes(spec, keys, hex).stream()
            .map(key -> KeyRoute.of(router, key))
            .toList();
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      routes.forEach(route -> JsonOutput.writeLine(out, generator -> writeJson(generator, route)));
    } else {
      printTable(out, routes);
    }
    return ExitCodes.OK;
  }

  private static void writeJson(JsonGenerator generator, KeyRoute route) throws IOException {
    generator.writeStartObject();
    generator.writeStringField("key", KeyText.utf8OrNull(route.key()));
    generator.writeStringField("keyHex", KeyText.hex(route.key()));
    generator.writeStringField("routingKeyHex", KeyText.hex(route.routingKey()));
    generator.writeStringField("hash", route.hashDecimal());
    generator.writeStringField("hashHex", route.hashHex());
    generator.writeNumberField("shard", route.shard());
    generator.writeEndObject();
  }

  private static void printTable(PrintWriter out, List<KeyRoute> routes) {
    TextTable table =
        new TextTable()
            .column("KEY")
            .column("ROUTING KEY")
            .column("HASH", TextTable.Alignment.RIGHT)
            .column("SHARD", TextTable.Alignment.RIGHT);
    for (KeyRoute route : routes) {
      table.row(
          KeyText.forTable(route.key()),
          KeyText.forTable(route.routingKey()),
          route.hashDecimal(),
          Integer.toString(route.shard()));
    }
    table.printTo(out);
  }
}
