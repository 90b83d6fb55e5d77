package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.spi.Node;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code id=host:port[@zone]} and comma-separated lists of it. */
class NodeSpecTest {

  @Test
  void aSpecWithAZoneIsANodeInThatZone() {
    assertThat(NodeSpec.parse("node-d=10.0.0.8:6379@az1"))
        .isEqualTo(new Node("node-d", "10.0.0.8", 6379, "az1", Map.of(), false));
  }

  @Test
  void theZoneIsOptional() {
    assertThat(NodeSpec.parse("a.1_b=redis-1.example.com:7000"))
        .isEqualTo(Node.of("a.1_b", "redis-1.example.com", 7000));
  }

  @Test
  void anIpv6AddressIsInBrackets() {
    Node node = NodeSpec.parse("n1=[fd00::1]:6379@eu-west-1a");

    assertThat(node).isEqualTo(new Node("n1", "fd00::1", 6379, "eu-west-1a", Map.of(), false));
    assertThat(NodeSpec.format(node)).isEqualTo("n1=[fd00::1]:6379@eu-west-1a");
  }

  @Test
  void formatGivesTheSpecBack() {
    for (String spec : List.of("a=10.0.0.5:6379@az1", "b=localhost:1", "c=[::1]:65535")) {
      assertThat(NodeSpec.format(NodeSpec.parse(spec))).isEqualTo(spec);
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "10.0.0.5:6379 | no '=' between the id and the address",
        "=10.0.0.5:6379 | no node id before '='",
        "a b=10.0.0.5:6379 | the node id must be 1 to 64 of A-Z a-z 0-9 . _ -, was 'a b'",
        "a=10.0.0.5 | no ':port' after the host",
        "a=10.0.0.5: | no port after ':'",
        "a=:6379 | no host before ':port'",
        "a=10.0.0.5:0 | the port must be a number from 1 to 65535, was '0'",
        "a=10.0.0.5:65536 | the port must be a number from 1 to 65535, was '65536'",
        "a=10.0.0.5:63x | the port must be a number from 1 to 65535, was '63x'",
        "a=10.0.0.5:-1 | the port must be a number from 1 to 65535, was '-1'",
        "a=10.0.0.5:6379@ | the zone must be 1 to 64 of A-Z a-z 0-9 . _ -, was ''",
        "a=10.0.0.5:6379@az 1 | the zone must be 1 to 64 of A-Z a-z 0-9 . _ -, was 'az 1'",
        "a=::1:6379 | an IPv6 address goes in brackets, as in a=[::1]:6379",
        "a=[::1:6379 | no ']' after the IPv6 address",
        "a=[::1]6379 | no ':port' after the address",
        "a=[host]:6379 | 'host' is not an IPv6 address",
        "a=redis/1:6379 | the host must be a name or an address of A-Z a-z 0-9 . _ -",
        "a=10.0.0.5=6379 | no ':port' after the host"
      })
  void aBadSpecIsQuotedWithWhatIsWrong(String spec, String why) {
    assertThatThrownBy(() -> NodeSpec.parse(spec))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("'" + spec + "' is not id=host:port[@zone]: " + why);
  }

  @Test
  void aListKeepsTheOrderGiven() {
    Map<String, Node> nodes =
        NodeSpec.parseList("c=10.0.0.7:6379@az3,a=10.0.0.5:6379@az1,b=10.0.0.6:6379@az2");

    assertThat(nodes.keySet()).containsExactly("c", "a", "b");
    assertThat(nodes.get("a")).isEqualTo(new Node("a", "10.0.0.5", 6379, "az1", Map.of(), false));
  }

  @Test
  void listsOfARepeatedOptionAreJoined() {
    assertThat(NodeSpec.parseAll(List.of("a=h:1,b=h:2", "c=h:3")).keySet())
        .containsExactly("a", "b", "c");
  }

  @Test
  void anIdGivenTwiceIsRefused() {
    assertThatThrownBy(() -> NodeSpec.parseList("a=h:1,b=h:2,a=h:3"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("node id 'a' is given twice");
  }

  @Test
  void anAddressGivenTwiceIsRefused() {
    assertThatThrownBy(() -> NodeSpec.parseList("a=h:1,b=h:1@az2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("nodes 'a' and 'b' have the same address h:1");
  }

  @Test
  void anEmptyEntryIsRefused() {
    for (String list : List.of("a=h:1,,b=h:2", "a=h:1,", ",a=h:1", "")) {
      assertThatThrownBy(() -> NodeSpec.parseList(list))
          .as(list)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "empty node in '"
                  + list
                  + "': separate id=host:port[@zone] specs with single commas");
    }
  }

  @Test
  void aBadSpecInAListIsNamed() {
    assertThatThrownBy(() -> NodeSpec.parseList("a=h:1,b=h"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("'b=h' is not id=host:port[@zone]: no ':port' after the host");
  }
}
