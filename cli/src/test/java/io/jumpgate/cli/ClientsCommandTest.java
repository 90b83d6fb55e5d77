package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.topology.RegisteredClient;
import io.jumpgate.topology.RegistrationValue;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code jumpgate clients} without etcd: parsing registrations and printing them. */
class ClientsCommandTest {

  private static RegisteredClient parse(String json) {
    return RegisteredClient.decode(
        "app-3:4242:abc123", json.getBytes(StandardCharsets.UTF_8), 77, 1);
  }

  private static RegisteredClient registration(
      String id, String host, long pid, long revision, String since, String version, long lease) {
    return new RegisteredClient(
        id,
        new RegistrationValue(host, pid, revision, OptionalLong.empty(), since, version, "prod"),
        lease,
        1,
        null);
  }

  @Test
  void should_read_a_registration_and_ignore_unknown_fields() {
    RegisteredClient registration =
        parse(
            "{\"host\":\"app-3\",\"pid\":4242,\"revision\":1234,\"since\":\"2026-11-21T10:00:00Z\","
                + "\"version\":\"0.1.0\",\"cluster\":\"prod\",\"extra\":{\"a\":[1,2]},\"z\":true}");
    assertThat(registration)
        .isEqualTo(
            new RegisteredClient(
                "app-3:4242:abc123",
                new RegistrationValue(
                    "app-3",
                    4242,
                    1234,
                    OptionalLong.empty(),
                    "2026-11-21T10:00:00Z",
                    "0.1.0",
                    "prod"),
                77,
                1,
                null));
    assertThat(ClientsCommand.lagBehind(registration, 1234)).isZero();
    assertThat(ClientsCommand.lagBehind(registration, 1200)).isZero();
    assertThat(ClientsCommand.lagBehind(registration, 1240)).isEqualTo(6);
    assertThat(ClientsCommand.lagBehind(registration, 0)).isEqualTo(-1);
  }

  @Test
  void should_report_a_value_that_is_not_a_registration() {
    assertThat(parse("not json").invalidReason()).startsWith("not valid JSON");
    assertThat(parse("[1]").invalidReason())
        .isEqualTo("the value must be a JSON object, was an array");
    assertThat(parse("{\"host\":\"x\"}").invalidReason()).isEqualTo("\"revision\" is required");
    assertThat(parse("{\"revision\":\"12\"}").invalidReason())
        .isEqualTo("\"revision\" must be an integer >= 0, was \"12\"");
    assertThat(parse("{\"revision\":12,\"pid\":\"x\"}").invalidReason())
        .isEqualTo("\"pid\" must be an integer >= 0, was \"x\"");
    assertThat(ClientsCommand.lagBehind(parse("[1]"), 10)).isEqualTo(-1);
  }

  private static ClientsCommand.Listing listing() {
    return new ClientsCommand.Listing(
        "prod",
        1240,
        List.of(
            registration("a:1:000001", "app-1", 1, 1240, "2026-11-21T10:00:00Z", "0.1.0", 5),
            registration("b:2:000002", "app-2", 2, 1230, "2026-11-21T11:00:00Z", null, 6),
            new RegisteredClient("c", null, 7, 1, "not JSON: x")));
  }

  @Test
  void should_print_a_table_with_the_lag_of_each_client() {
    StringWriter text = new StringWriter();
    ClientsCommand.printText(new PrintWriter(text), listing());
    assertThat(text.toString().lines())
        .containsExactly(
            "cluster 'prod': topology revision 1240, 3 clients",
            "",
            "CLIENT      HOST                  PID  REVISION  LAG  SINCE                 VERSION",
            "a:1:000001  app-1                   1      1240    0  2026-11-21T10:00:00Z  0.1.0",
            "b:2:000002  app-2                   2      1230   10  2026-11-21T11:00:00Z  -",
            "c           invalid: not JSON: x");
  }

  @Test
  void should_say_so_when_no_client_is_registered() {
    StringWriter text = new StringWriter();
    ClientsCommand.printText(
        new PrintWriter(text), new ClientsCommand.Listing("prod", 12, List.of()));
    assertThat(text.toString().lines())
        .containsExactly("cluster 'prod': topology revision 12, no clients registered");
  }

  @Test
  void should_write_one_json_document() {
    StringWriter json = new StringWriter();
    JsonOutput.writeLine(
        new PrintWriter(json), generator -> ClientsCommand.writeJson(generator, listing()));
    assertThat(json.toString())
        .isEqualTo(
            "{\"cluster\":\"prod\",\"revision\":1240,\"clients\":["
                + "{\"id\":\"a:1:000001\",\"host\":\"app-1\",\"pid\":1,\"revision\":1240,\"lag\":0,"
                + "\"since\":\"2026-11-21T10:00:00Z\",\"version\":\"0.1.0\",\"lease\":5},"
                + "{\"id\":\"b:2:000002\",\"host\":\"app-2\",\"pid\":2,\"revision\":1230,\"lag\":10,"
                + "\"since\":\"2026-11-21T11:00:00Z\",\"version\":null,\"lease\":6},"
                + "{\"id\":\"c\",\"error\":\"not JSON: x\",\"lease\":7}]}\n");
  }

  @Test
  void should_need_an_etcd_endpoint() {
    CliRunner.Result result =
        CliRunner.run(JumpgateCli.newCommandLine(java.util.Map.of()), "clients");
    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).contains("no etcd endpoint");
  }

  @Test
  void should_be_a_picocli_command_named_clients() {
    assertThat(new CommandLine(new ClientsCommand()).getCommandName()).isEqualTo("clients");
  }
}
