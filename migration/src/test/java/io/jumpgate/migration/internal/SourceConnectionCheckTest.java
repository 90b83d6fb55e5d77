package io.jumpgate.migration.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.topology.ClientRegistrySnapshot;
import io.jumpgate.topology.RegisteredClient;
import java.nio.charset.StandardCharsets;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class SourceConnectionCheckTest {

  private static final String LIST =
      "id=3 addr=127.0.0.1:50001 laddr=127.0.0.1:6379 fd=8 name=jumpgate:app-1 db=0 cmd=incr\n"
          + "id=4 addr=127.0.0.1:50002 laddr=127.0.0.1:6379 fd=9 name=jumpgate:app-2 db=0 cmd=ping\n"
          + "id=5 addr=127.0.0.1:50003 laddr=127.0.0.1:6379 fd=10 name=jumpgate:gone db=0 cmd=get\n"
          + "id=6 addr=127.0.0.1:50004 laddr=127.0.0.1:6379 fd=11 name=monitoring db=0 cmd=info\n"
          + "id=7 addr=127.0.0.1:50005 laddr=127.0.0.1:6379 fd=12 name= db=0 cmd=client|list\n";

  private static RegisteredClient client(String id, String json) {
    return RegisteredClient.decode(id, json.getBytes(StandardCharsets.UTF_8), 0, 10);
  }

  private static ClientRegistrySnapshot registry(RegisteredClient... clients) {
    TreeMap<String, RegisteredClient> byId = new TreeMap<>();
    for (RegisteredClient client : clients) {
      byId.put(client.clientId(), client);
    }
    return new ClientRegistrySnapshot(100, byId);
  }

  @Test
  void should_block_on_unknown_and_stale_clients_and_report_other_names_when_listing() {
    ClientRegistrySnapshot registry =
        registry(
            client("app-1", "{\"revision\":70,\"host\":\"a\",\"pid\":1,\"drained\":50}"),
            client("app-2", "{\"revision\":70,\"host\":\"b\",\"pid\":2,\"drained\":40}"));

    SourceConnectionCheck.Result result = SourceConnectionCheck.match(LIST, registry, 50, false);

    assertThat(result.blockers()).hasSize(2);
    assertThat(result.blockers().get(0)).contains("jumpgate:app-2").contains("below the freeze");
    assertThat(result.blockers().get(1)).contains("jumpgate:gone").contains("no registered");
    assertThat(result.others()).containsExactly("monitoring", "<unnamed> x1");
  }

  @Test
  void should_ignore_clients_without_drained_only_when_forced() {
    ClientRegistrySnapshot registry =
        registry(
            client("app-1", "{\"revision\":70,\"host\":\"a\",\"pid\":1}"),
            client("app-2", "{\"revision\":70,\"host\":\"b\",\"pid\":2,\"drained\":60}"),
            client("gone", "{\"revision\":70,\"host\":\"c\",\"pid\":3,\"drained\":60}"));

    assertThat(SourceConnectionCheck.match(LIST, registry, 50, false).blockers())
        .singleElement()
        .asString()
        .contains("jumpgate:app-1")
        .contains("does not take part");
    assertThat(SourceConnectionCheck.match(LIST, registry, 50, true).blockers()).isEmpty();
  }
}
