package io.jumpgate.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.TopologySnapshot;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code jumpgate route}: the shard of each key, computed offline with the {@code xxh64-jump}
 * scheme. Prints a table, or with {@code --json} one JSON object per key and line:
 *
 * <pre>{@code
 * {"key":"user:42","keyHex":"757365723a3432","routingKeyHex":"757365723a3432","hash":"15861654238046376386","hashHex":"dc1fea7da8d2d1c2","shard":717}
 * }</pre>
 *
 * <p>With {@code --etcd} or {@code --topology-file}, the shard count comes from the topology (an
 * explicit {@code --shards} that differs is a usage error), and each key also shows where its shard
 * lives: the table gains LEADER, ADDRESS and EPOCH, the JSON {@code "leader"}, {@code
 * "leaderAddress"} ({@code host:port}), {@code "replicas"} (node ids), {@code "epoch"} and {@code
 * "revision"}; an unavailable shard has {@code "leader":null} and {@code "unavailable":"<reason>"}.
 * Without those options no cluster is contacted and the output is as above ({@code JUMPGATE_ETCD}
 * alone does not make route read etcd).
 *
 * <p>Defaults: {@value Xxh64JumpRouter#DEFAULT_SHARDS} shards, keys given as text (UTF-8), table
 * output. All keys are checked before anything is printed (and before a topology is read), so a bad
 * key prints nothing on stdout.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "route",
    description = {
      "Shows the shard of each key, and with --etcd or --topology-file where that shard lives.",
      "",
      "The routing key (the hash tag between the first '{' and the next '}', or the whole key)"
          + " is hashed with XXH64 (seed 0), and the hash is mapped to one of N shards with jump"
          + " consistent hash. Without --etcd or --topology-file no cluster is contacted."
    },
    footer = {
      "",
      "In the table, a key that is not printable UTF-8 text is shown as hex:<bytes in hex>.",
      "Put -- before keys that start with '-'.",
      "",
      "Examples:",
      "  jumpgate route --shards 1024 user:42 '{user1000}.following'",
      "  jumpgate route --json --hex 757365723a3432 ''",
      "  jumpgate route --etcd http://127.0.0.1:2379 --cluster prod user:42",
      "  jumpgate route --json --topology-file saved.json user:42"
    })
public final class RouteCommand implements Callable<Integer> {

  private static final String SHARDS_OPTION = "--shards";

  @Spec private CommandSpec spec;

  private int shardCount = Xxh64JumpRouter.DEFAULT_SHARDS;

  @Option(
      names = SHARDS_OPTION,
      paramLabel = "N",
      defaultValue = "" + Xxh64JumpRouter.DEFAULT_SHARDS,
      description =
          "Number of shards, 1 to 2147483647 (default: ${DEFAULT-VALUE}, or the topology's).")
  void setShards(String value) {
    shardCount = OptionValues.intInRange(spec, SHARDS_OPTION, value, 1, Integer.MAX_VALUE);
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
              + " routingKeyHex, hash (unsigned decimal), hashHex and shard; with a topology also"
              + " leader, leaderAddress, replicas, epoch, revision (and unavailable).")
  private boolean json;

  @Mixin private EtcdOptions etcd;

  @Mixin private TopologyFileOption file;

  @Parameters(paramLabel = KeyArguments.LABEL, arity = "1..*", description = "The keys to route.")
  private List<String> keys;

  @Override
  public Integer call() {
    List<byte[]> keyBytes = KeyArguments.toBytes(spec, keys, hex);
    Optional<TopologyInput> input = TopologyInput.resolveIfGiven(spec, etcd, file);
    TopologySnapshot snapshot = input.map(TopologyInput::load).orElse(null);
    if (snapshot != null) {
      checkShardCount(input.get(), snapshot);
      shardCount = snapshot.shardCount();
    }
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(shardCount);
    List<KeyRoute> routes = keyBytes.stream().map(key -> KeyRoute.of(router, key)).toList();
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      routes.forEach(
          route -> JsonOutput.writeLine(out, generator -> writeJson(generator, route, snapshot)));
    } else {
      printTable(out, routes, snapshot);
    }
    return ExitCodes.OK;
  }

  private void checkShardCount(TopologyInput input, TopologySnapshot snapshot) {
    boolean explicit = spec.commandLine().getParseResult().hasMatchedOption(SHARDS_OPTION);
    if (explicit && shardCount != snapshot.shardCount()) {
      throw new ParameterException(
          spec.commandLine(),
          SHARDS_OPTION
              + " "
              + shardCount
              + " does not match the "
              + snapshot.shardCount()
              + " shards of cluster '"
              + snapshot.cluster()
              + "' ("
              + input.description()
              + "): leave "
              + SHARDS_OPTION
              + " out to use the topology's");
    }
  }

  private static void writeJson(JsonGenerator generator, KeyRoute route, TopologySnapshot snapshot)
      throws IOException {
    generator.writeStartObject();
    generator.writeStringField("key", KeyText.utf8OrNull(route.key()));
    generator.writeStringField("keyHex", KeyText.hex(route.key()));
    generator.writeStringField("routingKeyHex", KeyText.hex(route.routingKey()));
    generator.writeStringField("hash", route.hashDecimal());
    generator.writeStringField("hashHex", route.hashHex());
    generator.writeNumberField("shard", route.shard());
    if (snapshot != null) {
      ShardRoute shard = snapshot.route(route.shard());
      if (shard.isAvailable()) {
        generator.writeStringField("leader", shard.leader().id());
        generator.writeStringField("leaderAddress", shard.leader().address());
        SnapshotJson.writeReplicas(generator, shard.replicas());
        generator.writeNumberField("epoch", shard.epoch());
        generator.writeNumberField("revision", snapshot.revision());
      } else {
        generator.writeNullField("leader");
        generator.writeNullField("leaderAddress");
        SnapshotJson.writeReplicas(generator, shard.replicas());
        generator.writeNullField("epoch");
        generator.writeNumberField("revision", snapshot.revision());
        generator.writeStringField("unavailable", shard.unavailableReason());
      }
    }
    generator.writeEndObject();
  }

  private static void printTable(
      PrintWriter out, List<KeyRoute> routes, TopologySnapshot snapshot) {
    TextTable table =
        new TextTable()
            .column("KEY")
            .column("ROUTING KEY")
            .column("HASH", TextTable.Alignment.RIGHT)
            .column("SHARD", TextTable.Alignment.RIGHT);
    if (snapshot != null) {
      table.column("LEADER").column("ADDRESS").column("EPOCH", TextTable.Alignment.RIGHT);
    }
    TreeMap<Integer, String> unavailable = new TreeMap<>();
    for (KeyRoute route : routes) {
      String key = KeyText.forTable(route.key());
      String routingKey = KeyText.forTable(route.routingKey());
      String hash = route.hashDecimal();
      String shard = Integer.toString(route.shard());
      if (snapshot == null) {
        table.row(key, routingKey, hash, shard);
        continue;
      }
      ShardRoute where = snapshot.route(route.shard());
      if (where.isAvailable()) {
        table.row(
            key,
            routingKey,
            hash,
            shard,
            where.leader().id(),
            KeyText.printable(where.leader().address()),
            Long.toString(where.epoch()));
      } else {
        table.row(key, routingKey, hash, shard, "-", "-", "-");
        unavailable.put(route.shard(), where.unavailableReason());
      }
    }
    table.printTo(out);
    if (snapshot != null) {
      unavailable.forEach(
          (shard, reason) ->
              out.println("shard " + shard + " is unavailable: " + KeyText.printable(reason)));
      out.println(TopologyText.identify(snapshot));
      out.flush();
    }
  }
}
