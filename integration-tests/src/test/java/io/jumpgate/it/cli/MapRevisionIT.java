package io.jumpgate.it.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One revision for one unchanged map (issue 20): {@code topology show --json}, {@code route
 * --json}, {@code clients --json}, the driver and every client's registry entry report the revision
 * of the last change to the map, and client registrations (writes under {@code clients/}, which
 * move etcd's revision) do not move it.
 */
class MapRevisionIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(15);

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  @Test
  void every_reader_reports_the_same_revision_and_registrations_do_not_move_it() throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "revision", 16, 1, 0);
    Client etcd = fixture.register(cluster.etcd().newClient());
    long mapRevision = lastMapChange(etcd, cluster);

    // a first application registers: etcd's revision moves past the map's
    JumpgateClient first = fixture.register(client(cluster, "revision-first"));
    String firstKey = registryKey(cluster, first);
    Poll.until(WAIT, "the registration " + firstKey, () -> registered(etcd, firstKey) >= 0);
    assertThat(headerRevision(etcd))
        .as("etcd's revision after the registration")
        .isGreaterThan(mapRevision);
    assertAllReport(mapRevision, cluster, etcd, List.of(first), List.of(firstKey));

    // a second one registers: nothing moves
    JumpgateClient second = fixture.register(client(cluster, "revision-second"));
    String secondKey = registryKey(cluster, second);
    Poll.until(WAIT, "the registration " + secondKey, () -> registered(etcd, secondKey) >= 0);
    assertAllReport(
        mapRevision, cluster, etcd, List.of(first, second), List.of(firstKey, secondKey));

    // a change of the map moves every one of them to its revision
    long changed =
        cluster.putValue(
            LocalCluster.shardKey(3), LocalCluster.assignmentJson("leader-0", List.of(), 1));
    for (String key : List.of(firstKey, secondKey)) {
      Poll.until(WAIT, key + " at revision " + changed, () -> registered(etcd, key) >= changed);
    }
    assertAllReport(changed, cluster, etcd, List.of(first, second), List.of(firstKey, secondKey));
  }

  private void assertAllReport(
      long expected,
      LocalCluster cluster,
      Client etcd,
      List<JumpgateClient> clients,
      List<String> registryKeys)
      throws Exception {
    for (JumpgateClient client : clients) {
      assertThat(client.topology().revision())
          .as("driver %s's topology revision", client.clientId().orElseThrow())
          .isEqualTo(expected);
    }
    for (String key : registryKeys) {
      assertThat(registered(etcd, key)).as("the revision in %s", key).isEqualTo(expected);
    }
    JsonNode show = cli(cluster, "topology", "show", "--json");
    assertThat(show.path("revision").asLong()).as("topology show --json").isEqualTo(expected);
    JsonNode route = cli(cluster, "route", "--json", "user:42");
    assertThat(route.path("revision").asLong()).as("route --json: %s", route).isEqualTo(expected);
    JsonNode listing = cli(cluster, "clients", "--json");
    assertThat(listing.path("revision").asLong()).as("clients --json").isEqualTo(expected);
    assertThat(listing.path("clients").size())
        .as("clients --json: %s", listing)
        .isEqualTo(clients.size());
    for (JsonNode listed : listing.path("clients")) {
      assertThat(listed.path("revision").asLong())
          .as("clients --json: %s", listed)
          .isEqualTo(expected);
      assertThat(listed.path("lag").asLong()).as("clients --json: %s", listed).isZero();
    }
  }

  private static JumpgateClient client(LocalCluster cluster, String clientId) {
    return JumpgateClient.create(
        JumpgateOptions.builder().clientId(clientId).etcd(cluster.etcdOptions()).build());
  }

  private static String registryKey(LocalCluster cluster, JumpgateClient client) {
    return cluster.root() + "clients/" + client.clientId().orElseThrow();
  }

  /** {@code jumpgate ARGUMENTS --json} in-process, against the cluster; its JSON output. */
  private static JsonNode cli(LocalCluster cluster, String... arguments) throws Exception {
    String[] all = new String[arguments.length + 4];
    System.arraycopy(arguments, 0, all, 0, arguments.length);
    all[arguments.length] = "--etcd";
    all[arguments.length + 1] = cluster.etcd().endpointList();
    all[arguments.length + 2] = "--cluster";
    all[arguments.length + 3] = cluster.cluster();
    CliRun.Result result = CliRun.run(all);
    assertThat(result.exitCode()).as("%s: %s", String.join(" ", arguments), result.err()).isZero();
    return JSON.readTree(result.out());
  }

  /** The revision in a registry entry, or -1 when the key does not exist. */
  private static long registered(Client etcd, String key) throws Exception {
    List<KeyValue> found = get(etcd, key, false).getKvs();
    return found.isEmpty()
        ? -1
        : JSON.readTree(found.get(0).getValue().getBytes()).path("revision").asLong();
  }

  /** The highest mod revision of the map's keys as written: meta, nodes/, shards/. */
  private static long lastMapChange(Client etcd, LocalCluster cluster) throws Exception {
    long last = 0;
    for (String prefix : List.of("meta", "nodes/", "shards/")) {
      for (KeyValue entry : get(etcd, cluster.root() + prefix, !prefix.equals("meta")).getKvs()) {
        last = Math.max(last, entry.getModRevision());
      }
    }
    assertThat(last).as("the map's last change").isPositive();
    return last;
  }

  private static long headerRevision(Client etcd) throws Exception {
    return get(etcd, "/", false).getHeader().getRevision();
  }

  private static GetResponse get(Client etcd, String key, boolean prefix) throws Exception {
    return etcd.getKVClient()
        .get(
            ByteSequence.from(key, StandardCharsets.UTF_8),
            GetOption.builder().isPrefix(prefix).build())
        .get(10, TimeUnit.SECONDS);
  }
}
