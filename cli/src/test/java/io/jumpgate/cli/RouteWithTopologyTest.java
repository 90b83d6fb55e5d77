package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code route} with {@code --topology-file}: where each key's shard lives. See SampleTopology. */
class RouteWithTopologyTest {

  private static final String NEWLINE = System.lineSeparator();

  @TempDir Path dir;

  private String sample() {
    return SampleTopology.writeTo(dir).toString();
  }

  @Test
  void jsonGainsTheLeaderItsAddressTheReplicasTheEpochAndTheRevision() {
    CliRunner.Result result =
        CliRunner.run("route", "--json", "--topology-file", sample(), "user:42", "c");

    assertThat(result.exitCode()).isZero();
    assertThat(result.err()).isEmpty();
    assertThat(result.out())
        .isEqualTo(
            "{\"key\":\"user:42\",\"keyHex\":\"757365723a3432\","
                + "\"routingKeyHex\":\"757365723a3432\",\"hash\":\"15861654238046376386\","
                + "\"hashHex\":\"dc1fea7da8d2d1c2\",\"shard\":5,\"leader\":\"n2\","
                + "\"leaderAddress\":\"10.0.0.3:7002\",\"replicas\":[\"n0\",\"n1\"],"
                + "\"epoch\":2,\"revision\":7}\n"
                + "{\"key\":\"c\",\"keyHex\":\"63\",\"routingKeyHex\":\"63\","
                + "\"hash\":\"11806979466381907949\",\"hashHex\":\"a3dad144c40657ed\","
                + "\"shard\":0,\"leader\":\"n0\",\"leaderAddress\":\"10.0.0.1:7000\","
                + "\"replicas\":[\"n1\"],\"epoch\":0,\"revision\":7}\n");
  }

  @Test
  void anUnavailableShardHasANullLeaderAndTheReason() {
    CliRunner.Result result = CliRunner.run("route", "--json", "--topology-file", sample(), "a");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .isEqualTo(
            "{\"key\":\"a\",\"keyHex\":\"61\",\"routingKeyHex\":\"61\","
                + "\"hash\":\"15154266338359012955\",\"hashHex\":\"d24ec4f1a98c6e5b\","
                + "\"shard\":6,\"leader\":null,\"leaderAddress\":null,\"replicas\":[],"
                + "\"epoch\":null,\"revision\":7,"
                + "\"unavailable\":\"leader 'n9' is not in the node table\"}\n");
  }

  @Test
  void theTableGainsLeaderAddressAndEpochColumns() {
    CliRunner.Result result =
        CliRunner.run("route", "--topology-file", sample(), "user:42", "a", "b");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().lines())
        .containsExactly(
            "KEY      ROUTING KEY                  HASH  SHARD  LEADER  ADDRESS        EPOCH",
            "user:42  user:42      15861654238046376386      5  n2      10.0.0.3:7002      2",
            "a        a            15154266338359012955      6  -       -                  -",
            "b        b             8666379929374662555      2  n0      10.0.0.1:7000      1",
            "shard 6 is unavailable: leader 'n9' is not in the node table",
            "cluster 'test' revision 7");
  }

  @Test
  void theShardCountComesFromTheTopology() {
    CliRunner.Result withTopology =
        CliRunner.run("route", "--json", "--topology-file", sample(), "user:42");
    CliRunner.Result sameShards =
        CliRunner.run("route", "--json", "--shards", "8", "--topology-file", sample(), "user:42");

    assertThat(withTopology.out()).contains("\"shard\":5,");
    assertThat(sameShards.exitCode()).isZero();
    assertThat(sameShards.out()).isEqualTo(withTopology.out());
  }

  @Test
  void aConflictingShardCountIsAUsageError() {
    String file = sample();

    CliRunner.Result result =
        CliRunner.run("route", "--shards", "1024", "--topology-file", file, "user:42");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.out()).isEmpty();
    assertThat(result.err())
        .isEqualTo(
            "jumpgate route: --shards 1024 does not match the 8 shards of cluster 'test'"
                + " (topology file "
                + file
                + "): leave --shards out to use the topology's"
                + NEWLINE);
  }

  @Test
  void sourceOptionsWithoutASourceAreAUsageError() {
    CliRunner.Result cluster = CliRunner.run("route", "--cluster", "prod", "user:42");
    CliRunner.Result user = CliRunner.run("route", "--user", "u", "--password", "p", "user:42");

    assertThat(cluster.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(cluster.err())
        .isEqualTo(
            "jumpgate route: --cluster needs --etcd or --topology-file, which read a topology"
                + NEWLINE);
    assertThat(user.err()).startsWith("jumpgate route: --user needs --etcd or --topology-file");
  }

  @Test
  void theEtcdVariableAloneDoesNotMakeRouteReadEtcd() {
    CliRunner.Result result =
        CliRunner.run(
            java.util.Map.of("JUMPGATE_ETCD", "http://127.0.0.1:1"), "route", "--json", "user:42");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).endsWith("\"shard\":717}\n");
  }

  @Test
  void badKeysAreReportedBeforeTheTopologyIsRead() {
    CliRunner.Result result = CliRunner.run("route", "--hex", "--etcd", "http://127.0.0.1:1", "zz");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).isEqualTo("jumpgate route: KEY 1 is not valid hex: 'zz'" + NEWLINE);
  }

  @Test
  void anUnreadableTopologyFailsWithExitCodeOne() {
    CliRunner.Result result =
        CliRunner.run("route", "--etcd", "http://127.0.0.1:1", "--timeout", "200ms", "user:42");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.FAILURE);
    assertThat(result.out()).isEmpty();
    assertThat(result.err())
        .startsWith("jumpgate route: no topology from etcd at http://127.0.0.1:1");
  }
}
