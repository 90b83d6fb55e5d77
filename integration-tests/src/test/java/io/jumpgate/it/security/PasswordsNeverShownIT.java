package io.jumpgate.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.jumpgate.cli.ExecCommand;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.testkit.TestCertificates;
import io.jumpgate.testkit.TestCertificates.CertificateFiles;
import io.jumpgate.topology.EtcdTopologyOptions;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import picocli.CommandLine;

/**
 * Passwords never reach a log line, an exception, a {@code toString()} or the CLI's output. Sets
 * distinctive etcd and Redis passwords on a TLS etcd with auth and a TLS redis-server with an ACL
 * user, captures everything printed to {@link System#out} and {@link System#err} (slf4j-simple
 * writes there) and every {@code java.util.logging} record (gRPC logs there) while it runs the
 * success and the failure paths of the driver and the CLI (picocli's parse errors included), keeps
 * every exception and every {@code toString()} of the option holders, and checks that no password
 * appears in any of it. Loggers run at their configured level (INFO).
 */
class PasswordsNeverShownIT {

  private static final String ETCD_PASSWORD = "etcdPw-Zq81-LeakCheck";
  private static final String REDIS_PASSWORD = "redisPw-Xk27-LeakCheck";
  private static final String WRONG_ETCD_PASSWORD = "wrongEtcdPw-Tm40-LeakCheck";
  private static final String WRONG_REDIS_PASSWORD = "wrongRedisPw-Vb55-LeakCheck";
  private static final String[] SECRETS = {
    ETCD_PASSWORD, REDIS_PASSWORD, WRONG_ETCD_PASSWORD, WRONG_REDIS_PASSWORD
  };

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  /** Everything seen: captured output, CLI output, exceptions, toString()s, with where from. */
  private final List<String> seen = new ArrayList<>();

  private void see(String where, String text) {
    seen.add("---- " + where + "\n" + text);
  }

  private void see(String where, Throwable error) {
    assertThat(error).as(where + " must fail").isNotNull();
    see(where, Secrets.everything(error));
  }

  @Test
  void no_password_in_logs_exceptions_to_strings_or_cli_output() throws Exception {
    TestCertificates authority = TestCertificates.create(fixture.tempDir("ca"), "leak-ca");
    CertificateFiles appCertificate = authority.client("app");
    EtcdCluster etcd = fixture.etcd(EtcdCluster.options().tls(authority, false));
    etcd.etcdctl("user", "add", "root:" + ETCD_PASSWORD).ok();
    etcd.etcdctl("user", "grant-role", "root", "root").ok();
    etcd.etcdctl("user", "add", "app:" + ETCD_PASSWORD).ok();
    etcd.etcdctl("user", "grant-role", "app", "root").ok();
    etcd.etcdctl("auth", "enable").ok();
    RedisProcess node =
        fixture.redis(
            new RedisProcess.Tls(authority, false),
            "--user",
            "default",
            "off",
            "--user",
            "app",
            "on",
            ">" + REDIS_PASSWORD,
            "~*",
            "+@all");

    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    StringBuilder julRecords = new StringBuilder();
    Handler julCapture = julCapture(julRecords);
    Logger.getLogger("").addHandler(julCapture);
    System.setOut(new PrintStream(new Tee(originalOut, captured), true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(new Tee(originalErr, captured), true, StandardCharsets.UTF_8));
    try {
      runEverything(etcd, node, authority, appCertificate);
    } finally {
      System.setOut(originalOut);
      System.setErr(originalErr);
      Logger.getLogger("").removeHandler(julCapture);
    }
    see("System.out and System.err", captured.toString(StandardCharsets.UTF_8));
    see("java.util.logging", julRecords.toString());

    String everything = String.join("\n", seen);
    // Unknown options are still named, and a stray password is shown as '***'.
    assertThat(everything)
        .contains("Unknown option: '--bogus'")
        .contains("Unknown option: '--pasword'")
        .contains("Unmatched argument at index 4: '***'")
        // JUMPGATE_DEBUG printed a stack trace (scrubbed like the messages).
        .contains("\tat io.jumpgate.");
    // The check can fail: the failures were seen, and both streams were captured.
    assertThat(everything).as("what was seen").contains("etcd at ").contains("node n0");
    assertThat(captured.toString(StandardCharsets.UTF_8))
        .as("System.out (the CLI runs) and System.err (slf4j-simple) were captured")
        .contains("$ jumpgate exec")
        .contains("initialised at revision");
    for (String secret : SECRETS) {
      for (String part : seen) {
        assertThat(part).as("no password in what was seen").doesNotContain(secret);
      }
    }
    System.out.println(
        "checked " + everything.length() + " characters from " + seen.size() + " sources");
  }

  private void runEverything(
      EtcdCluster etcd, RedisProcess node, TestCertificates authority, CertificateFiles app) {
    String endpoints = etcd.endpointList();
    String ca = authority.caCertificate().toString();
    Cli.Result init =
        Cli.run(
            "init",
            "--nodes",
            "n0=127.0.0.1:" + node.port(),
            "--shards",
            "8",
            "--replicas",
            "0",
            "--etcd",
            endpoints,
            "--cacert",
            ca,
            "--user",
            "app",
            "--password",
            ETCD_PASSWORD);
    see("init", init.all());
    assertThat(init.exitCode()).as(init.err()).isZero();

    EtcdTopologyOptions etcdOptions =
        EtcdTopologyOptions.builder()
            .endpoints(endpoints)
            .caCertificate(authority.caCertificate())
            .credentials("app", ETCD_PASSWORD)
            .startTimeout(Duration.ofSeconds(5))
            .build();
    this.authority = authority;
    // Generous: the first TLS connection of a fresh JVM that presents a client key was measured
    // at 4 to 7 s on this loaded 2-core machine.
    JumpgateOptions good =
        driverOptions(etcdOptions, app)
            .connectTimeout(Duration.ofSeconds(30))
            .commandTimeout(Duration.ofSeconds(30))
            .build();
    see("JumpgateOptions.toString", good.toString());
    see("EtcdTopologyOptions.toString", etcdOptions.toString());
    see("JumpgateOptions.mutate().build().toString", good.mutate().build().toString());
    see(
        "JumpgateOptions with a default-user password",
        good.mutate().redisPassword(REDIS_PASSWORD).build().toString());

    // Success: the driver with both passwords.
    try (JumpgateClient client = JumpgateClient.create(good)) {
      see("JumpgateClient.toString", client.toString());
      JumpgateCommands<String, String> redis = client.connect().sync();
      redis.set("leak:1", "v");
      assertThat(redis.get("leak:1")).isEqualTo("v");
    }

    // Failure: a wrong Redis password, then a wrong etcd password.
    try (JumpgateClient client =
        JumpgateClient.create(
            good.mutate().redisCredentials("app", WRONG_REDIS_PASSWORD).build())) {
      see("wrong redis password", catchThrowable(() -> client.connect().sync().set("leak:2", "v")));
    }
    JumpgateOptions wrongEtcd =
        driverOptions(etcdOptions.mutate().credentials("app", WRONG_ETCD_PASSWORD).build(), app)
            .build();
    see("wrong etcd password options", wrongEtcd.toString());
    see("wrong etcd password", catchThrowable(() -> JumpgateClient.create(wrongEtcd).close()));
    JumpgateOptions unknownUser =
        driverOptions(etcdOptions.mutate().credentials("nobody", ETCD_PASSWORD).build(), app)
            .build();
    see("wrong etcd user", catchThrowable(() -> JumpgateClient.create(unknownUser).close()));

    // The CLI: success and failure, passwords as options and in the environment.
    String[] etcdFlags = {"--etcd", endpoints, "--cacert", ca, "--user", "app"};
    runCli(
        "show", concat(new String[] {"topology", "show"}, etcdFlags, "--password", ETCD_PASSWORD));
    runCli(
        "show, wrong password",
        concat(new String[] {"topology", "show"}, etcdFlags, "--password", WRONG_ETCD_PASSWORD));
    runCli(
        "show, wrong password with =",
        concat(new String[] {"topology", "show"}, etcdFlags, "--password=" + WRONG_ETCD_PASSWORD));
    String[] redisFlags = {
      "--redis-tls",
      "--redis-cacert",
      ca,
      "--redis-cert",
      app.certificate().toString(),
      "--redis-key",
      app.key().toString(),
      "--redis-user",
      "app"
    };
    runCli(
        "exec",
        concat(
            concat(new String[] {"exec"}, etcdFlags, "--password", ETCD_PASSWORD),
            redisFlags,
            "--redis-password",
            REDIS_PASSWORD,
            "SET",
            "leak:3",
            "v"));
    runCli(
        "exec, wrong redis password",
        concat(
            concat(new String[] {"exec"}, etcdFlags, "--password", ETCD_PASSWORD),
            redisFlags,
            "--redis-password",
            WRONG_REDIS_PASSWORD,
            "GET",
            "leak:3"));
    runCli(
        "exec, wrong etcd password",
        concat(
            concat(new String[] {"exec"}, etcdFlags, "--password", WRONG_ETCD_PASSWORD),
            redisFlags,
            "--redis-password",
            REDIS_PASSWORD,
            "GET",
            "leak:3"));
    // picocli's own parse errors, an unknown option next to a password.
    runCli(
        "unknown option after --password",
        "topology",
        "show",
        "--password",
        ETCD_PASSWORD,
        "--bogus");
    runCli("unknown option before --password", "topology", "show", "--bogus", ETCD_PASSWORD);
    runCli("unknown option with = value", "topology", "show", "--bogus=" + ETCD_PASSWORD);
    runCli("password as an unknown verb", ETCD_PASSWORD);
    runCli("password as a stray argument", "topology", "show", "--etcd", endpoints, ETCD_PASSWORD);
    runCli("unknown exec option", "exec", "--redis-password", REDIS_PASSWORD, "--nope", "GET", "k");
    runCli(
        "--redis-cert without --redis-tls",
        "exec",
        "--redis-password",
        REDIS_PASSWORD,
        "--redis-cert",
        ca,
        "--redis-key",
        ca,
        "--etcd",
        endpoints,
        "GET",
        "k");
    runCli(
        "password without a user",
        "topology",
        "show",
        "--etcd",
        endpoints,
        "--password",
        ETCD_PASSWORD);
    runCli("mistyped --pasword", "topology", "show", "--pasword", ETCD_PASSWORD);
    runCli(
        "--password with no value",
        "topology",
        "show",
        "--etcd",
        endpoints,
        "--user",
        "app",
        "--password");
    see(
        "cli with environment passwords and JUMPGATE_DEBUG (stack traces)",
        Cli.run(
                Map.of(
                    "JUMPGATE_DEBUG",
                    "1",
                    "JUMPGATE_ETCD_PASSWORD",
                    WRONG_ETCD_PASSWORD,
                    "JUMPGATE_ETCD_USER",
                    "app",
                    "JUMPGATE_REDIS_PASSWORD",
                    WRONG_REDIS_PASSWORD,
                    "JUMPGATE_REDIS_USER",
                    "app"),
                concat(
                    new String[] {"exec", "--etcd", endpoints, "--cacert", ca},
                    redisFlags,
                    "GET",
                    "k"))
            .all());

    // An ExecCommand as picocli fills it.
    ExecCommand exec = new ExecCommand();
    new CommandLine(exec)
        .parseArgs("--redis-user", "app", "--redis-password", REDIS_PASSWORD, "GET", "k");
    see("ExecCommand.toString", exec.toString());
  }

  private TestCertificates authority;

  private JumpgateOptions.Builder driverOptions(EtcdTopologyOptions etcd, CertificateFiles app) {
    return JumpgateOptions.builder()
        .etcd(etcd)
        .redisCredentials("app", REDIS_PASSWORD)
        .redisTls(true, authority.caCertificate())
        .redisClientCertificate(app.certificate(), app.key());
  }

  private void runCli(String what, String... arguments) {
    Cli.Result result = Cli.run(arguments);
    assertThat(result.exitCode()).as(what + ": " + result.err()).isNotNegative();
    see("cli " + what + " (exit " + result.exitCode() + ")", result.all());
  }

  private static String[] concat(String[] first, String[] second, String... rest) {
    List<String> all = new ArrayList<>(List.of(first));
    all.addAll(List.of(second));
    all.addAll(List.of(rest));
    return all.toArray(String[]::new);
  }

  private static Handler julCapture(StringBuilder records) {
    return new Handler() {
      @Override
      public synchronized void publish(LogRecord record) {
        records.append(record.getLevel()).append(' ').append(record.getLoggerName()).append(' ');
        records.append(record.getMessage());
        if (record.getParameters() != null) {
          for (Object parameter : record.getParameters()) {
            records.append(' ').append(parameter);
          }
        }
        if (record.getThrown() != null) {
          records.append(' ').append(Secrets.everything(record.getThrown()));
        }
        records.append('\n');
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
  }

  /** Writes to two streams. */
  private static final class Tee extends OutputStream {
    private final OutputStream first;
    private final OutputStream second;

    Tee(OutputStream first, OutputStream second) {
      this.first = first;
      this.second = second;
    }

    @Override
    public synchronized void write(int b) throws java.io.IOException {
      first.write(b);
      second.write(b);
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length)
        throws java.io.IOException {
      first.write(bytes, offset, length);
      second.write(bytes, offset, length);
    }

    @Override
    public synchronized void flush() throws java.io.IOException {
      first.flush();
      second.flush();
    }
  }
}
