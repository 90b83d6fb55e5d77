package io.jumpgate.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.FlushMode;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server commands without a server: what they check before sending, and how a broadcast fails
 * when no node answers. The map's three nodes are ports where nothing listens.
 */
class ServerCommandsTest {

  private static JumpgateClient client;
  private static JumpgateConnection<String, String> connection;
  private static JumpgateAsyncCommands<String, String> redis;

  @BeforeAll
  static void start() {
    client =
        JumpgateClient.create(
            JumpgateOptions.builder()
                .topologySource(StaticTopologySource.create(16, 3))
                .commandTimeout(Duration.ofSeconds(1))
                .build());
    connection = client.connect();
    redis = connection.async();
  }

  @AfterAll
  static void stop() {
    client.close();
  }

  @Test
  void should_name_the_null_argument_before_sending() {
    assertThatThrownBy(() -> redis.keys(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("pattern");
    assertThatThrownBy(() -> redis.info(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("section");
    assertThatThrownBy(() -> redis.flushdb(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("flushMode");
    assertThatThrownBy(() -> redis.flushall(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("flushMode");
    assertThatThrownBy(() -> redis.scan((ScanCursor) null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("scanCursor");
    assertThatThrownBy(() -> redis.scan((ScanArgs) null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("scanArgs");
    assertThatThrownBy(() -> redis.scan(ScanCursor.INITIAL, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("scanArgs");
  }

  @Test
  void should_reject_a_finished_or_foreign_cursor_before_sending() {
    assertThatThrownBy(() -> redis.scan(ScanCursor.FINISHED))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("finished");
    assertThatThrownBy(
            () -> connection.sync().scan(ScanCursor.of("1234"), ScanArgs.Builder.limit(5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'1234'");
    assertThatThrownBy(() -> connection.reactive().scan(ScanCursor.of("node-1:")).block())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'node-1:'");
  }

  @Test
  void should_finish_without_sending_when_no_leader_sorts_after_the_cursors_node() {
    KeyScanCursor<String> page = connection.sync().scan(ScanCursor.of("zzz:7"));
    assertThat(page.isFinished()).isTrue();
    assertThat(page.getCursor()).isEqualTo("0");
    assertThat(page.getKeys()).isEmpty();
  }

  @Test
  void should_fail_a_broadcast_naming_every_node_that_did_not_answer() {
    assertThatThrownBy(() -> connection.sync().ping())
        .isInstanceOfSatisfying(
            BroadcastFailedException.class,
            failure -> {
              assertThat(failure.command()).isEqualTo("PING");
              assertThat(failure.failures()).containsOnlyKeys("node-0", "node-1", "node-2");
              assertThat(failure.failures().values())
                  .allSatisfy(
                      error -> assertThat(error).isInstanceOf(CommandFailedException.class));
              assertThat(failure.answers()).isEmpty();
              assertThat(failure.getCause()).isSameAs(failure.failures().get("node-0"));
              assertThat(failure.getMessage())
                  .startsWith("PING failed on 3 of 3 nodes: node-0 (127.0.0.1:")
                  .contains("; node-1 (127.0.0.1:")
                  .contains("; node-2 (127.0.0.1:")
                  .doesNotContain("answered:");
            });
    assertThatThrownBy(() -> connection.reactive().dbsize().block())
        .isInstanceOf(BroadcastFailedException.class)
        .hasMessageStartingWith("DBSIZE failed on 3 of 3 leaders");
  }

  @Test
  void should_refuse_every_command_after_close() {
    JumpgateClient closed =
        JumpgateClient.create(
            JumpgateOptions.builder().topologySource(StaticTopologySource.create(4, 2)).build());
    JumpgateAsyncCommands<String, String> commands = closed.connect().async();
    closed.close();
    List<Runnable> calls =
        List.of(
            commands::ping,
            commands::dbsize,
            commands::flushdb,
            () -> commands.flushall(FlushMode.ASYNC),
            () -> commands.keys("*"),
            commands::info,
            commands::scan,
            () -> commands.scan(ScanCursor.of("node-1:5")));
    for (Runnable call : calls) {
      assertThatThrownBy(call::run)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("closed");
    }
  }
}
