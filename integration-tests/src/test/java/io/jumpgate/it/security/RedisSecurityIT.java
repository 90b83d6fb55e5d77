package io.jumpgate.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.driver.NodeUnavailableException;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.testkit.Resp;
import io.jumpgate.testkit.TestCertificates;
import io.jumpgate.testkit.TestCertificates.CertificateFiles;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.lettuce.core.RedisCommandExecutionException;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * redis-server with TLS only ({@code --port 0 --tls-port P}) and ACL users, reached through the
 * driver: an app user limited to {@code app:*} keys and the read, write and connection commands,
 * {@code default} off, an {@code admin} user for the test's own checks. Two clusters of two nodes
 * each, shared by the tests: one with {@code --tls-auth-clients no}, one with {@code
 * --tls-auth-clients yes}; the maps are in a plain etcd (written by {@code jumpgate init}).
 */
class RedisSecurityIT {

  private static final String APP_PASSWORD = "app-Redis-Secret-3Jv8";
  private static final String ADMIN_PASSWORD = "admin-Redis-Secret-7Hq2";
  private static final int SHARDS = 16;

  /** The ACL of docs/security.md: the app's keys and commands only; default off. */
  private static final String[] ACL = {
    "--user",
    "default",
    "off",
    "--user",
    "app",
    "on",
    ">" + APP_PASSWORD,
    "~app:*",
    "resetchannels",
    "-@all",
    "+@read",
    "+@write",
    "+@connection",
    "-@dangerous",
    "--user",
    "admin",
    "on",
    ">" + ADMIN_PASSWORD,
    "~*",
    "&*",
    "+@all"
  };

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

  /**
   * Room for the driver's 3 connect attempts, so that a refused connection ends as {@link
   * NodeUnavailableException} and not as a timeout (a first TLS connection of a loaded JVM was
   * measured at 1.5 s).
   */
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);

  /** Generous: the machine has 2 cores and other builds run. */
  private static final Duration MARGIN = Duration.ofSeconds(3);

  @RegisterExtension static final ProcessFixture fixture = new ProcessFixture();

  private static TestCertificates authority;
  private static TestCertificates rogue;
  private static EtcdCluster etcd;
  private static List<RedisProcess> open;
  private static List<RedisProcess> mutual;
  private static CertificateFiles appCertificate;
  private static CertificateFiles rogueCertificate;

  @BeforeAll
  static void secureRedis() {
    authority = TestCertificates.create(fixture.tempDir("ca"), "jumpgate-test-ca");
    rogue = TestCertificates.create(fixture.tempDir("rogue-ca"), "rogue-ca");
    appCertificate = authority.client("app");
    rogueCertificate = rogue.client("app");
    etcd = fixture.etcd();
    RedisProcess.Tls serverOnly = new RedisProcess.Tls(authority, false);
    RedisProcess.Tls clientsToo = new RedisProcess.Tls(authority, true);
    open = List.of(fixture.redis(serverOnly, ACL), fixture.redis(serverOnly, ACL));
    mutual = List.of(fixture.redis(clientsToo, ACL), fixture.redis(clientsToo, ACL));
    init("open", open);
    init("mutual", mutual);
    // The first TLS connection of a JVM that presents a client key pays for loading the TLS and
    // PEM classes (4 to 7 s measured on this 2-core machine): not what the timing checks measure.
    try (JumpgateClient warm =
        JumpgateClient.create(
            options(
                "mutual",
                builder ->
                    builder
                        .redisCredentials("app", APP_PASSWORD)
                        .connectTimeout(Duration.ofSeconds(30))
                        .commandTimeout(Duration.ofSeconds(30))
                        .redisClientCertificate(
                            appCertificate.certificate(), appCertificate.key())))) {
      warm.connect().sync().set("app:warm", "up");
    }
  }

  private static void init(String cluster, List<RedisProcess> nodes) {
    Cli.Result init =
        Cli.run(
            "init",
            "--nodes",
            "n0=127.0.0.1:" + nodes.get(0).port() + ",n1=127.0.0.1:" + nodes.get(1).port(),
            "--shards",
            Integer.toString(SHARDS),
            "--replicas",
            "0",
            "--etcd",
            etcd.endpointList(),
            "--cluster",
            cluster);
    assertThat(init.exitCode()).as(init.err()).isZero();
  }

  /** A client of {@code cluster} over TLS trusting the test CA, then {@code settings}. */
  private static JumpgateOptions options(
      String cluster, Consumer<JumpgateOptions.Builder> settings) {
    JumpgateOptions.Builder builder =
        JumpgateOptions.builder()
            .etcd(
                EtcdTopologyOptions.builder()
                    .endpoints(etcd.endpointList())
                    .cluster(cluster)
                    .build())
            .registration(false)
            .connectTimeout(CONNECT_TIMEOUT)
            .commandTimeout(COMMAND_TIMEOUT)
            .redisTls(true, authority.caCertificate());
    settings.accept(builder);
    return builder.build();
  }

  /** DBSIZE of a node, as the admin user. */
  private static long keysOn(RedisProcess node) throws Exception {
    try (Resp.Connection connection = node.connect()) {
      assertThat(connection.call("AUTH", "admin", ADMIN_PASSWORD)).isEqualTo("OK");
      return (Long) connection.call("DBSIZE");
    }
  }

  // ---- tests -----------------------------------------------------------------------------------

  @Test
  void an_acl_user_over_tls_routes_to_both_nodes_within_its_rights() throws Exception {
    long before = keysOn(open.get(0)) + keysOn(open.get(1));
    JumpgateClient client =
        fixture.register(
            JumpgateClient.create(
                options("open", builder -> builder.redisCredentials("app", APP_PASSWORD))));
    JumpgateCommands<String, String> redis = client.connect().sync();
    for (int index = 0; index < 40; index++) {
      redis.set("app:tls:" + index, "v" + index);
    }
    assertThat(redis.get("app:tls:7")).isEqualTo("v7");
    assertThat(keysOn(open.get(0)) + keysOn(open.get(1)) - before).isEqualTo(40);
    assertThat(keysOn(open.get(0))).isPositive();
    assertThat(keysOn(open.get(1))).isPositive();

    // The ACL holds: a key outside app:* is refused by the server, as the server's answer.
    Throwable refused = catchThrowable(() -> redis.set("other:1", "x"));
    assertThat(refused).isInstanceOf(RedisCommandExecutionException.class);
    assertThat(refused).hasMessageContaining("NOPERM");
    Secrets.assertAbsent("a NOPERM failure", refused, APP_PASSWORD);
  }

  @Test
  void a_client_certificate_is_presented_when_the_server_requires_one() throws Exception {
    JumpgateClient client =
        fixture.register(
            JumpgateClient.create(
                options(
                    "mutual",
                    builder ->
                        builder
                            .redisCredentials("app", APP_PASSWORD)
                            .redisClientCertificate(
                                appCertificate.certificate(), appCertificate.key()))));
    JumpgateCommands<String, String> redis = client.connect().sync();
    for (int index = 0; index < 20; index++) {
      redis.set("app:mutual:" + index, "v" + index);
    }
    assertThat(redis.mget("app:mutual:1", "app:mutual:2", "app:mutual:3"))
        .extracting(keyValue -> keyValue.getValue())
        .containsExactly("v1", "v2", "v3");
    assertThat(keysOn(mutual.get(0))).isPositive();
    assertThat(keysOn(mutual.get(1))).isPositive();
  }

  @Test
  void a_missing_client_certificate_fails_in_time_naming_the_node() {
    assertFailsInTime(
        "no client certificate",
        options("mutual", builder -> builder.redisCredentials("app", APP_PASSWORD)),
        mutual,
        "refused the client certificate");
  }

  @Test
  void a_client_certificate_of_another_ca_fails_in_time_naming_the_node() {
    assertFailsInTime(
        "a client certificate of another CA",
        options(
            "mutual",
            builder ->
                builder
                    .redisCredentials("app", APP_PASSWORD)
                    .redisClientCertificate(
                        rogueCertificate.certificate(), rogueCertificate.key())),
        mutual,
        "refused the client certificate");
  }

  @Test
  void an_untrusted_server_certificate_fails_in_time_naming_the_node() {
    assertFailsInTime(
        "a server certificate of an untrusted CA",
        options(
            "open",
            builder ->
                builder
                    .redisTls(true, rogue.caCertificate())
                    .redisCredentials("app", APP_PASSWORD)),
        open,
        "not signed by a trusted CA");
  }

  @Test
  void a_wrong_password_fails_in_time_naming_the_node() {
    assertFailsInTime(
        "a wrong password",
        options("open", builder -> builder.redisCredentials("app", "wrong-" + APP_PASSWORD)),
        open,
        "refused the credentials");
  }

  @Test
  void a_missing_password_fails_in_time_naming_the_node() {
    assertFailsInTime(
        "no password (default user off)", options("open", builder -> {}), open, "NOAUTH");
  }

  /**
   * A SET through a client made with {@code options} fails within the connect timeout (plus a
   * margin) with a {@link NodeUnavailableException} that names one of {@code nodes} and shows no
   * password.
   */
  private static void assertFailsInTime(
      String what, JumpgateOptions options, List<RedisProcess> nodes, String reason) {
    JumpgateClient client = fixture.register(JumpgateClient.create(options));
    JumpgateCommands<String, String> redis = client.connect().sync();
    long started = System.nanoTime();
    Throwable failure = catchThrowable(() -> redis.set("app:refused", "x"));
    Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
    System.out.println(
        what + ": failed after " + elapsed.toMillis() + " ms: " + Secrets.everything(failure));
    assertThat(failure).as(what).isInstanceOf(NodeUnavailableException.class);
    assertThat(elapsed).as(what + ": time to fail").isLessThan(CONNECT_TIMEOUT.plus(MARGIN));
    assertThat(failure.getMessage())
        .as(what + ": names the node")
        .containsAnyOf(nodes.get(0).address(), nodes.get(1).address())
        .contains(reason);
    Secrets.assertAbsent(what, failure, APP_PASSWORD, "wrong-" + APP_PASSWORD, ADMIN_PASSWORD);
    Secrets.assertAbsent(what + ": options", options.toString(), APP_PASSWORD);
  }
}
