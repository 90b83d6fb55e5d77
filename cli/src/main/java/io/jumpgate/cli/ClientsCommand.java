package io.jumpgate.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.EtcdClients;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.RegisteredClient;
import io.jumpgate.topology.TopologyKeys;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jumpgate clients}: the driver instances registered under {@code
 * /jumpgate/<cluster>/clients/}, each with its host, pid, start time, driver version, the topology
 * revision it has applied and its lag behind the current one.
 *
 * <p>The current revision is that of the latest change to the map: the highest mod revision of the
 * {@code meta}, {@code nodes/} and {@code shards/} keys. Not etcd's header revision, which every
 * client registration moves too. The lag of a client is how far its applied revision is below it (0
 * when it has applied that change or a later revision). A deleted node or shard key leaves no mod
 * revision behind, so a change that only deletes is not counted until the next write.
 *
 * <p>Reads with a plain jetcd client (three ranged GETs at one revision, each bounded by {@code
 * --timeout}); needs no driver. An entry whose value is not a registration (not JSON, wrong types)
 * is listed with the error. Fails (exit code 1) when etcd cannot be read.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
@Command(
    name = "clients",
    description =
        "Lists the driver instances registered in etcd, with the topology revision each has"
            + " applied and how far it is behind.",
    footer = {
      "",
      "--json prints one document:",
      "  {\"cluster\":..,\"revision\":<current topology revision>,",
      "   \"clients\":[{\"id\":..,\"host\":..,\"pid\":..,",
      "   \"revision\":..,\"lag\":..,\"since\":..,\"version\":..,\"lease\":..},..]}",
      "An entry that is not a valid registration has \"error\":\"<why>\" instead.",
      "",
      "Examples:",
      "  jumpgate clients --etcd http://127.0.0.1:2379 --cluster prod",
      "  jumpgate clients --json --etcd http://127.0.0.1:2379 | jq '.clients[] | select(.lag > 0)'"
    })
public final class ClientsCommand implements Callable<Integer> {

  @Spec private CommandSpec spec;

  @Mixin private EtcdOptions etcd;

  @Option(names = "--json", description = "Print one JSON document instead of a table.")
  private boolean json;

  /**
   * How far a client's applied revision is behind {@code current}, or -1 when unknown (no map, or a
   * value that does not decode).
   */
  static long lagBehind(RegisteredClient client, long current) {
    long revision = client.revision();
    return revision < 0 || current <= 0 ? -1 : Math.max(0, current - revision);
  }

  /**
   * What etcd holds.
   *
   * @param cluster the cluster name
   * @param current the revision of the latest change to the map, 0 when there is no map
   * @param clients the registrations, sorted by id
   */
  record Listing(String cluster, long current, List<RegisteredClient> clients) {}

  @Override
  public Integer call() {
    EtcdTopologyOptions options = etcd.toOptions(spec, JumpgateCli.environment(spec));
    Listing listing = read(options, etcd.timeout(spec));
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      JsonOutput.writeLine(out, generator -> writeJson(generator, listing));
    } else {
      printText(out, listing);
    }
    return ExitCodes.OK;
  }

  /**
   * Reads the registrations and the current revision of a cluster.
   *
   * @throws TopologyUnavailableException naming the endpoints, when etcd cannot be read in time
   */
  static Listing read(EtcdTopologyOptions options, Duration timeout) {
    TopologyKeys keys = TopologyKeys.forCluster(options.cluster());
    String where = "etcd at " + options.endpointList() + " (cluster '" + options.cluster() + "')";
    try (Client client = EtcdClients.create(options)) {
      KV kv = client.getKVClient();
      GetResponse meta =
          await(
              kv.get(bytes(keys.meta()), GetOption.builder().withKeysOnly(true).build()), timeout);
      long at = meta.getHeader().getRevision();
      long current = meta.getKvs().isEmpty() ? 0 : meta.getKvs().get(0).getModRevision();
      current = Math.max(current, latestChange(kv, keys.nodesPrefix(), at, timeout));
      current = Math.max(current, latestChange(kv, keys.shardsPrefix(), at, timeout));
      GetResponse registered =
          await(
              kv.get(
                  bytes(keys.clientsPrefix()),
                  GetOption.builder()
                      .isPrefix(true)
                      .withRevision(at)
                      .withSortField(GetOption.SortTarget.KEY)
                      .withSortOrder(GetOption.SortOrder.ASCEND)
                      .build()),
              timeout);
      List<RegisteredClient> clients = new ArrayList<>(registered.getKvs().size());
      for (KeyValue entry : registered.getKvs()) {
        String key = entry.getKey().toString(StandardCharsets.UTF_8);
        clients.add(
            RegisteredClient.decode(
                key.substring(keys.clientsPrefix().length()),
                entry.getValue().getBytes(),
                entry.getLease(),
                entry.getModRevision()));
      }
      return new Listing(options.cluster(), current, clients);
    } catch (ExecutionException e) {
      throw new TopologyUnavailableException(where + ": " + describe(e.getCause()), e.getCause());
    } catch (TimeoutException e) {
      throw new TopologyUnavailableException(
          where + ": no answer within " + timeout.toMillis() + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TopologyUnavailableException(where + ": interrupted", e);
    }
  }

  /** The highest mod revision under a prefix at revision {@code at}, or 0 when it is empty. */
  private static long latestChange(KV kv, String prefix, long at, Duration timeout)
      throws ExecutionException, TimeoutException, InterruptedException {
    GetResponse response =
        await(
            kv.get(
                bytes(prefix),
                GetOption.builder()
                    .isPrefix(true)
                    .withRevision(at)
                    .withKeysOnly(true)
                    .withSortField(GetOption.SortTarget.MOD)
                    .withSortOrder(GetOption.SortOrder.DESCEND)
                    .withLimit(1)
                    .build()),
            timeout);
    return response.getKvs().isEmpty() ? 0 : response.getKvs().get(0).getModRevision();
  }

  private static <T> T await(CompletableFuture<T> call, Duration timeout)
      throws ExecutionException, TimeoutException, InterruptedException {
    return call.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  // ---- output ----------------------------------------------------------------------------------

  static void printText(PrintWriter out, Listing listing) {
    int count = listing.clients().size();
    out.println(
        "cluster '"
            + listing.cluster()
            + "': "
            + (listing.current() > 0
                ? "topology revision " + listing.current()
                : "no topology (not initialised)")
            + ", "
            + (count == 0
                ? "no clients registered"
                : count + (count == 1 ? " client" : " clients")));
    if (count > 0) {
      out.println();
      TextTable table =
          new TextTable()
              .column("CLIENT")
              .column("HOST")
              .column("PID", TextTable.Alignment.RIGHT)
              .column("REVISION", TextTable.Alignment.RIGHT)
              .column("LAG", TextTable.Alignment.RIGHT)
              .column("SINCE")
              .column("VERSION");
      for (RegisteredClient client : listing.clients()) {
        if (client.invalidReason() != null) {
          table.row(
              KeyText.printable(client.clientId()),
              "invalid: " + KeyText.printable(client.invalidReason()),
              "",
              "",
              "",
              "",
              "");
          continue;
        }
        long lag = lagBehind(client, listing.current());
        table.row(
            KeyText.printable(client.clientId()),
            text(client.host()),
            client.pid() < 0 ? "-" : Long.toString(client.pid()),
            Long.toString(client.revision()),
            lag < 0 ? "-" : Long.toString(lag),
            text(client.since()),
            text(client.version()));
      }
      table.printTo(out);
    }
    out.flush();
  }

  private static String text(String value) {
    return value == null ? "-" : KeyText.printable(value);
  }

  /**
   * {@code {"cluster":..,"revision":..,"clients":[{"id":..,"host":..,"pid":..,"revision":..,
   * "lag":..,"since":..,"version":..,"lease":..}]}}; a missing value is null.
   */
  static void writeJson(JsonGenerator generator, Listing listing) throws IOException {
    generator.writeStartObject();
    generator.writeStringField("cluster", listing.cluster());
    if (listing.current() > 0) {
      generator.writeNumberField("revision", listing.current());
    } else {
      generator.writeNullField("revision");
    }
    generator.writeArrayFieldStart("clients");
    for (RegisteredClient client : listing.clients()) {
      generator.writeStartObject();
      generator.writeStringField("id", client.clientId());
      if (client.invalidReason() != null) {
        generator.writeStringField("error", client.invalidReason());
      } else {
        generator.writeStringField("host", client.host());
        numberOrNull(generator, "pid", client.pid());
        generator.writeNumberField("revision", client.revision());
        numberOrNull(generator, "lag", lagBehind(client, listing.current()));
        generator.writeStringField("since", client.since());
        generator.writeStringField("version", client.version());
      }
      generator.writeNumberField("lease", client.lease());
      generator.writeEndObject();
    }
    generator.writeEndArray();
    generator.writeEndObject();
  }

  private static void numberOrNull(JsonGenerator generator, String field, long value)
      throws IOException {
    if (value < 0) {
      generator.writeNullField(field);
    } else {
      generator.writeNumberField(field, value);
    }
  }

  private static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }

  private static String describe(Throwable error) {
    String text = EtcdClients.describe(error);
    if (EtcdClients.isAuthenticationFailure(error)) {
      return "authentication failed or permission denied (" + text + ")";
    }
    return text.toLowerCase(Locale.ROOT).contains("unavailable")
        ? "cannot reach etcd (" + text + ")"
        : text;
  }
}
