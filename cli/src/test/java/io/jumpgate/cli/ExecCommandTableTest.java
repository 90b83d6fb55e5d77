package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which commands exec runs how, and where a keyed command's keys are. */
class ExecCommandTableTest {

  private static List<byte[]> arguments(String line) {
    if (line.isEmpty()) {
      return List.of();
    }
    return Arrays.stream(line.split(" "))
        .map(word -> word.getBytes(StandardCharsets.UTF_8))
        .toList();
  }

  private static int[] keys(String name, String line) {
    return ExecCommandTable.keys(name, arguments(line));
  }

  @Test
  void kinds() {
    assertThat(ExecCommandTable.entry("mget").kind()).isEqualTo(ExecCommandTable.Kind.FAN_OUT);
    assertThat(ExecCommandTable.entry("Del").kind()).isEqualTo(ExecCommandTable.Kind.FAN_OUT);
    assertThat(ExecCommandTable.entry("SCAN").kind()).isEqualTo(ExecCommandTable.Kind.BROADCAST);
    assertThat(ExecCommandTable.entry("flushall").kind())
        .isEqualTo(ExecCommandTable.Kind.BROADCAST);
    assertThat(ExecCommandTable.entry("GET").kind()).isEqualTo(ExecCommandTable.Kind.KEYED);
    assertThat(ExecCommandTable.entry("EVAL").kind()).isEqualTo(ExecCommandTable.Kind.KEYED);
    assertThat(ExecCommandTable.entry("CONFIG").kind()).isEqualTo(ExecCommandTable.Kind.REFUSED);
    assertThat(ExecCommandTable.entry("multi").kind()).isEqualTo(ExecCommandTable.Kind.REFUSED);
    assertThat(ExecCommandTable.entry("JSON.SET").known()).isFalse();
    assertThat(ExecCommandTable.entry("JSON.SET").kind()).isEqualTo(ExecCommandTable.Kind.KEYED);
  }

  @Test
  void key_positions() {
    assertThat(keys("GET", "k")).containsExactly(0);
    assertThat(keys("JSON.SET", "doc $ 1")).containsExactly(0);
    assertThat(keys("SINTER", "a b c")).containsExactly(0, 1, 2);
    assertThat(keys("BLPOP", "a b 0")).containsExactly(0, 1);
    assertThat(keys("RENAME", "a b")).containsExactly(0, 1);
    assertThat(keys("BITOP", "AND dest a b")).containsExactly(1, 2, 3);
    assertThat(keys("MSETNX", "a 1 b 2")).containsExactly(0, 2);
    assertThat(keys("ZUNION", "2 a b WITHSCORES")).containsExactly(1, 2);
    assertThat(keys("ZUNIONSTORE", "dest 2 a b")).containsExactly(0, 2, 3);
    assertThat(keys("BLMPOP", "0 2 a b LEFT")).containsExactly(2, 3);
    assertThat(keys("EVAL", "script 2 a b arg")).containsExactly(2, 3);
    assertThat(keys("FCALL", "fn 1 a arg")).containsExactly(2);
    assertThat(keys("XREAD", "COUNT 2 STREAMS s1 s2 0 0")).containsExactly(3, 4);
    assertThat(keys("XREADGROUP", "GROUP g c streams s1 >")).containsExactly(4);
    assertThat(keys("OBJECT", "ENCODING k")).containsExactly(1);
    assertThat(keys("MEMORY", "USAGE k")).containsExactly(1);
    assertThat(keys("SORT", "k BY w* STORE dst")).containsExactly(0, 4);
    assertThat(keys("GEORADIUS", "k 0 0 1 km STOREDIST dst")).containsExactly(0, 6);
  }

  @Test
  void malformed_arguments_are_refused_with_redis_messages() {
    assertThatThrownBy(() -> keys("GET", ""))
        .isInstanceOf(ExecCommandTable.Refusal.class)
        .hasMessage("ERR wrong number of arguments for 'get' command");
    assertThatThrownBy(() -> keys("MSETNX", "a 1 b"))
        .hasMessage("ERR wrong number of arguments for 'msetnx' command");
    assertThatThrownBy(() -> keys("EVAL", "script x a"))
        .hasMessage("ERR value is not an integer or out of range");
    assertThatThrownBy(() -> keys("EVAL", "script 3 a b"))
        .hasMessage("ERR Number of keys can't be greater than number of args");
    assertThatThrownBy(() -> keys("EVAL", "script -1"))
        .hasMessage("ERR Number of keys can't be negative");
    assertThatThrownBy(() -> keys("EVAL", "script 0"))
        .hasMessageStartingWith("ERR EVAL with no key has no shard to run on");
    assertThatThrownBy(() -> keys("XREAD", "STREAMS a b c"))
        .hasMessageStartingWith("ERR Unbalanced 'xread' list of streams");
    assertThatThrownBy(() -> keys("FOO", "")).hasMessageStartingWith("ERR no key to route FOO by");
  }

  @Test
  void commands_without_a_key_are_refused_naming_them() {
    assertThatThrownBy(() -> keys("CONFIG", "GET maxmemory"))
        .isInstanceOf(ExecCommandTable.Refusal.class)
        .hasMessageStartingWith("ERR CONFIG has no key to route by: ");
    assertThatThrownBy(() -> keys("MEMORY", "STATS"))
        .hasMessageStartingWith("ERR MEMORY STATS has no key to route by: ");
    assertThatThrownBy(() -> keys("OBJECT", "HELP"))
        .hasMessageStartingWith("ERR OBJECT HELP has no key to route by: ");
    assertThatThrownBy(() -> keys("WATCH", "k"))
        .hasMessageStartingWith("ERR WATCH is not supported by jumpgate exec");
  }

  @Test
  void status_replies() {
    byte[] ok = "OK".getBytes(StandardCharsets.US_ASCII);
    assertThat(ExecCommandTable.isStatusReply("SET", arguments("k v"), ok)).isTrue();
    assertThat(ExecCommandTable.isStatusReply("set", arguments("k v EX 10"), ok)).isTrue();
    assertThat(ExecCommandTable.isStatusReply("SET", arguments("k v GET"), ok)).isFalse();
    assertThat(ExecCommandTable.isStatusReply("TYPE", arguments("k"), "list".getBytes())).isTrue();
    assertThat(ExecCommandTable.isStatusReply("GET", arguments("k"), ok)).isFalse();
    assertThat(ExecCommandTable.isStatusReply("XGROUP", arguments("CREATE s g $"), ok)).isTrue();
    assertThat(ExecCommandTable.isStatusReply("EVAL", arguments("s 1 k"), ok)).isTrue();
    assertThat(ExecCommandTable.isStatusReply("EVAL", arguments("s 1 k"), "ok".getBytes()))
        .isFalse();
    assertThat(ExecCommandTable.isStatusReply("JSON.SET", arguments("k $ 1"), ok)).isTrue();
  }
}
