package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code jumpgate clients} without etcd: parsing registrations and printing them. */
class ClientsCommandTest {

  private static ClientsCommand.Registration parse(String json) {
    return ClientsCommand.parse("app-3:4242:abc123", json.getBytes(StandardCharsets.UTF_8), 77);
  }

  @Test
  void should_read_a_registration_and_ignore_unknown_fields() {
    ClientsCommand.Registration registration =
        parse(
            "{\"host\":\"app-3\",\"pid\":4242,\"revision\":1234,\"since\":\"2026-11-21T10:00:00Z\","
                + "\"version\":\"0.1.0\",\"cluster\":\"prod\",\"extra\":{\"a\":[1,2]},\"z\":true}");
    assertThat(registration)
        .isEqualTo(
            new ClientsCommand.Registration(
                "app-3:4242:abc123",
                "app-3",
                4242,
                1234,
                "2026-11-21T10:00:00Z",
                "0.1.0",
                77,
                null));
    assertThat(registration.lagBehind(1234)).isZero();
    assertThat(registration.lagBehind(1200)).isZero();
    assertThat(registration.lagBehind(1240)).isEqualTo(6);
    assertThat(registration.lagBehind(0)).isEqualTo(-1);
  }

  @Test
  void should_report_a_value_that_is_not_a_registration() {
    assertThat(parse("not json").error()).startsWith("not JSON");
    assertThat(parse("[1]").error()).isEqualTo("not a JSON object");
    assertThat(parse("{\"host\":\"x\"}").error()).isEqualTo("no \"revision\"");
    assertThat(parse("{\"revision\":\"12\"}").error()).isEqualTo("no \"revision\"");
    assertThat(parse("{\"revision\":12,\"pid\":\"x\"}").pid()).isEqualTo(-1);
  }

  private static ClientsCommand.Listing listing() {
    return new ClientsCommand.Listing(
        "prod",
        1240,
        List.of(
            new ClientsCommand.Registration(
                "a:1:000001", "app-1", 1, 1240, "2026-11-21T10:00:00Z", "0.1.0", 5, null),
            new ClientsCommand.Registration(
                "b:2:000002", "app-2", 2, 1230, "2026-11-21T11:00:00Z", null, 6, null),
            new ClientsCommand.Registration("c", null, -1, -1, null, null, 7, "not JSON: x")));
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
