package io.jumpgate.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.JumpgateException;
import io.jumpgate.testkit.TestCertificates;
import io.jumpgate.testkit.TestCertificates.CertificateFiles;
import io.jumpgate.topology.EtcdTopologyOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * etcd with TLS, client-certificate authentication and RBAC, as docs/security.md sets it up: a
 * {@code reader} role (read on {@code /jumpgate/sec/}, readwrite on the client's own registration
 * key) for applications, a {@code writer} role (readwrite on {@code /jumpgate/sec/}) for the admin
 * CLI. One etcd ({@code --client-cert-auth}, auth enabled) and two plain redis-servers are shared
 * by the tests; the map is written by {@code jumpgate init} as the writer.
 */
class EtcdSecurityIT {

  private static final String CLUSTER = "sec";
  private static final String ROOT_PASSWORD = "root-Secret-5dT7";
  private static final String READER_PASSWORD = "reader-Secret-Q8w3";
  private static final String WRITER_PASSWORD = "writer-Secret-K2p9";
  private static final String CLIENT_ID = "app-1";
  private static final int SHARDS = 16;

  /** Generous: the machine has 2 cores and other builds run; a start timeout is 5 s. */
  private static final Duration START_TIMEOUT = Duration.ofSeconds(5);

  private static final Duration MARGIN = Duration.ofSeconds(5);

  @RegisterExtension static final ProcessFixture fixture = new ProcessFixture();

  private static TestCertificates authority;
  private static TestCertificates rogue;
  private static EtcdCluster etcd;
  private static List<RedisProcess> nodes;
  private static CertificateFiles readerCertificate;
  private static CertificateFiles writerCertificate;
  private static CertificateFiles strangerCertificate;
  private static CertificateFiles rogueCertificate;

  @BeforeAll
  static void secureEtcd() {
    authority = TestCertificates.create(fixture.tempDir("ca"), "jumpgate-test-ca");
    rogue = TestCertificates.create(fixture.tempDir("rogue-ca"), "rogue-ca");
    readerCertificate = authority.client("reader");
    writerCertificate = authority.client("writer");
    strangerCertificate = authority.client("stranger");
    rogueCertificate = rogue.client("reader");
    etcd = fixture.etcd(EtcdCluster.options().tls(authority, true));
    nodes = List.of(fixture.redis(), fixture.redis());

    String prefix = "/jumpgate/" + CLUSTER + "/";
    // The commands of docs/security.md, as the root certificate's user before auth is on.
    etcdctl("user", "add", "root:" + ROOT_PASSWORD);
    etcdctl("user", "grant-role", "root", "root");
    etcdctl("role", "add", "reader");
    etcdctl("role", "grant-permission", "reader", "read", prefix, "--prefix=true");
    etcdctl("role", "grant-permission", "reader", "readwrite", prefix + "clients/" + CLIENT_ID);
    etcdctl("role", "add", "writer");
    etcdctl("role", "grant-permission", "writer", "readwrite", prefix, "--prefix=true");
    etcdctl("user", "add", "reader:" + READER_PASSWORD);
    etcdctl("user", "grant-role", "reader", "reader");
    etcdctl("user", "add", "writer:" + WRITER_PASSWORD);
    etcdctl("user", "grant-role", "writer", "writer");
    etcdctl("auth", "enable");

    Cli.Result init =
        Cli.run(
            writerFlags(
                "init",
                "--nodes",
                "n0=127.0.0.1:" + nodes.get(0).port() + ",n1=127.0.0.1:" + nodes.get(1).port(),
                "--shards",
                Integer.toString(SHARDS),
                "--replicas",
                "0"));
    assertThat(init.exitCode()).as(init.err()).isZero();
    Secrets.assertAbsent("init's output", init.all(), WRITER_PASSWORD);
  }

  private static String etcdctl(String... args) {
    return etcd.etcdctl(args).ok();
  }

  /** The CLI's etcd flags for the writer (password and certificate), after {@code arguments}. */
  private static String[] writerFlags(String... arguments) {
    return cliFlags("writer", WRITER_PASSWORD, writerCertificate, arguments);
  }

  private static String[] cliFlags(
      String user, String password, CertificateFiles certificate, String... arguments) {
    List<String> all = new ArrayList<>(List.of(arguments));
    all.addAll(
        List.of(
            "--etcd",
            etcd.endpointList(),
            "--cluster",
            CLUSTER,
            "--cacert",
            authority.caCertificate().toString(),
            "--cert",
            certificate.certificate().toString(),
            "--key",
            certificate.key().toString(),
            "--timeout",
            "10s"));
    if (user != null) {
      all.addAll(List.of("--user", user, "--password", password));
    }
    return all.toArray(String[]::new);
  }

  /** etcd options with the CA, a client certificate and, when user is not null, a password. */
  private static EtcdTopologyOptions.Builder etcdOptions(
      CertificateFiles certificate, String user, String password) {
    EtcdTopologyOptions.Builder builder =
        EtcdTopologyOptions.builder()
            .endpoints(etcd.endpointList())
            .cluster(CLUSTER)
            .caCertificate(authority.caCertificate())
            .startTimeout(START_TIMEOUT)
            .requestTimeout(Duration.ofSeconds(2));
    if (certificate != null) {
      builder.clientCertificate(certificate.certificate(), certificate.key());
    }
    if (user != null) {
      builder.credentials(user, password);
    }
    return builder;
  }

  private static JumpgateClient client(EtcdTopologyOptions etcdOptions) {
    return fixture.register(
        JumpgateClient.create(
            JumpgateOptions.builder()
                .etcd(etcdOptions)
                .clientId(CLIENT_ID)
                .startTimeout(START_TIMEOUT)
                .build()));
  }

  /** The node that does not lead {@code shard} now, read with the writer's credentials. */
  private static String otherThanLeaderOf(int shard) throws Exception {
    Cli.Result show = Cli.run(writerFlags("topology", "show", "--json"));
    assertThat(show.exitCode()).as(show.err()).isZero();
    JsonNode assignment = new ObjectMapper().readTree(show.out()).path("assignments").get(shard);
    return assignment.path("leader").asText().equals("n0") ? "n1" : "n0";
  }

  private static int shardOf(String key) {
    return Xxh64JumpRouter.forShards(SHARDS).shardOf(key.getBytes(StandardCharsets.UTF_8));
  }

  // ---- tests -----------------------------------------------------------------------------------

  @Test
  void reader_over_tls_routes_follows_a_map_change_and_registers() throws Exception {
    JumpgateClient client =
        client(etcdOptions(readerCertificate, "reader", READER_PASSWORD).build());
    JumpgateCommands<String, String> redis = client.connect().sync();

    for (int index = 0; index < 40; index++) {
      redis.set("user:" + index, "v" + index);
    }
    long first = (Long) nodes.get(0).call("DBSIZE");
    long second = (Long) nodes.get(1).call("DBSIZE");
    assertThat(first + second).as("keys on the two nodes").isEqualTo(40);
    assertThat(first).as("keys on n0").isPositive();
    assertThat(second).as("keys on n1").isPositive();

    // The admin (writer) moves the shard of a key to the other node; the reader follows.
    String key = "moving-key";
    int shard = shardOf(key);
    redis.set(key, "before");
    RedisProcess from = nodes.get(0).call("EXISTS", key).equals(1L) ? nodes.get(0) : nodes.get(1);
    RedisProcess to = from == nodes.get(0) ? nodes.get(1) : nodes.get(0);
    String toId = to == nodes.get(0) ? "n0" : "n1";
    Cli.Result move = Cli.run(writerFlags("move-shard", Integer.toString(shard), "--to", toId));
    assertThat(move.exitCode()).as(move.err()).isZero();
    Poll.until(
        Duration.ofSeconds(10),
        "the reader client to send shard " + shard + " to " + toId + " after move-shard",
        () -> {
          redis.set(key, "after");
          return "after".equals(to.call("GET", key));
        });

    // Its registration, written with the reader role's readwrite on its own key.
    String registration = "/jumpgate/" + CLUSTER + "/clients/" + CLIENT_ID;
    Poll.until(
        Duration.ofSeconds(10),
        "the client to register under " + registration,
        () -> etcdctl("get", registration, "--print-value-only").contains("\"revision\""));

    // close() revokes the lease (write access to the key is enough), which deletes the key.
    client.close();
    Poll.until(
        Duration.ofSeconds(5),
        "closing the client to delete " + registration + " (lease revoked)",
        () -> etcdctl("get", registration, "--print-value-only").isBlank());
  }

  @Test
  void the_admin_cli_works_with_the_writer_role_and_fails_clearly_with_the_reader_role()
      throws Exception {
    Cli.Result show = Cli.run(writerFlags("topology", "show", "--json"));
    assertThat(show.exitCode()).as(show.err()).isZero();
    assertThat(show.out()).contains("\"shards\":" + SHARDS);

    Cli.Result refused =
        Cli.run(
            cliFlags(
                "reader",
                READER_PASSWORD,
                readerCertificate,
                "move-shard",
                "3",
                "--to",
                otherThanLeaderOf(3)));
    assertThat(refused.exitCode()).as(refused.all()).isEqualTo(1);
    assertThat(refused.err())
        .as("a refused write names the permission and the endpoint")
        .containsIgnoringCase("permission denied")
        .contains(etcd.endpointList());
    Secrets.assertAbsent("move-shard's output", refused.all(), READER_PASSWORD);
  }

  @Test
  void a_client_certificate_alone_authenticates_as_its_common_name() throws Exception {
    // No password: etcd (3.4, --client-cert-auth) takes the user from the certificate's CN.
    JumpgateClient client = client(etcdOptions(readerCertificate, null, null).build());
    JumpgateCommands<String, String> redis = client.connect().sync();
    redis.set("cert-user", "ok");
    assertThat(redis.get("cert-user")).isEqualTo("ok");

    Cli.Result show = Cli.run(cliFlags(null, null, readerCertificate, "topology", "show"));
    assertThat(show.exitCode()).as(show.err()).isZero();

    // The reader's certificate gives the reader's rights, not more.
    Cli.Result write =
        Cli.run(
            cliFlags(
                null, null, readerCertificate, "move-shard", "3", "--to", otherThanLeaderOf(3)));
    assertThat(write.exitCode()).as(write.all()).isEqualTo(1);
    assertThat(write.err()).containsIgnoringCase("permission denied");
  }

  @Test
  void a_certificate_of_an_unknown_user_is_refused_with_a_typed_error() {
    assertFailsInTime(
        "a certificate whose CN is no etcd user",
        etcdOptions(strangerCertificate, null, null).build(),
        "permission denied");
  }

  @Test
  void a_missing_client_certificate_fails_in_time_with_a_typed_error() {
    assertFailsInTime(
        "no client certificate",
        etcdOptions(null, "reader", READER_PASSWORD).build(),
        "certificate");
  }

  @Test
  void an_untrusted_ca_fails_in_time_with_a_typed_error() {
    EtcdTopologyOptions options =
        etcdOptions(rogueCertificate, "reader", READER_PASSWORD)
            .caCertificate(rogue.caCertificate())
            .build();
    assertFailsInTime("a client that trusts another CA", options, "certificate");
  }

  @Test
  void a_wrong_password_fails_in_time_with_a_typed_error() {
    assertFailsInTime(
        "a wrong password",
        etcdOptions(readerCertificate, "reader", "wrong-" + READER_PASSWORD).build(),
        "authentication failed");
  }

  @Test
  void an_unknown_user_fails_in_time_with_a_typed_error() {
    assertFailsInTime(
        "an unknown user",
        etcdOptions(readerCertificate, "nobody", READER_PASSWORD).build(),
        "authentication failed");
  }

  /**
   * Creating a client fails within the start timeout (plus a margin for a loaded machine) with a
   * {@link JumpgateException} that names the endpoint, holds {@code expected} (when not null), and
   * shows no password.
   */
  private static void assertFailsInTime(String what, EtcdTopologyOptions options, String expected) {
    long started = System.nanoTime();
    Throwable failure =
        catchThrowable(
            () ->
                JumpgateClient.create(
                        JumpgateOptions.builder()
                            .etcd(options)
                            .clientId(CLIENT_ID)
                            .startTimeout(START_TIMEOUT)
                            .build())
                    .close());
    Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
    System.out.println(what + ": failed after " + elapsed.toMillis() + " ms: " + failure);
    assertThat(failure).as(what).isInstanceOf(JumpgateException.class);
    assertThat(elapsed).as(what + ": time to fail").isLessThan(START_TIMEOUT.plus(MARGIN));
    assertThat(failure.getMessage()).as(what).contains(etcd.member(0).endpoint());
    if (expected != null) {
      assertThat(failure.getMessage()).as(what).containsIgnoringCase(expected);
    }
    Secrets.assertAbsent(
        what, failure, READER_PASSWORD, WRITER_PASSWORD, ROOT_PASSWORD, "wrong-" + READER_PASSWORD);
  }
}
