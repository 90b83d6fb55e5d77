package io.jumpgate.driver.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The text of a cluster-wide SCAN cursor, and where a cursor goes on among the leaders. */
class ClusterScanCursorTest {

  private static final List<String> LEADERS = List.of("leader-0", "leader-1", "leader-2");

  @Test
  void should_read_back_what_it_wrote() {
    ClusterScanCursor cursor = ClusterScanCursor.at("leader-1", "1536");
    assertThat(cursor.encode()).isEqualTo("leader-1:1536");
    ClusterScanCursor read = ClusterScanCursor.parse(cursor.encode());
    assertThat(read).isEqualTo(cursor);
    assertThat(read.nodeId()).isEqualTo("leader-1");
    assertThat(read.nodeCursor()).isEqualTo("1536");
    assertThat(read.isStart()).isFalse();
  }

  @Test
  void should_read_back_the_largest_redis_cursor_and_ids_with_dots_and_underscores() {
    ClusterScanCursor cursor = ClusterScanCursor.at("node_a.eu-1", "18446744073709551615");
    assertThat(ClusterScanCursor.parse(cursor.encode())).isEqualTo(cursor);
    assertThat(cursor.encode()).isEqualTo("node_a.eu-1:18446744073709551615");
  }

  @Test
  void should_split_at_the_first_colon_so_a_node_cursor_may_hold_colons() {
    ClusterScanCursor cursor = ClusterScanCursor.parse("n1:a:b");
    assertThat(cursor.nodeId()).isEqualTo("n1");
    assertThat(cursor.nodeCursor()).isEqualTo("a:b");
    assertThat(cursor.encode()).isEqualTo("n1:a:b");
  }

  @Test
  void should_read_zero_as_the_start() {
    ClusterScanCursor cursor = ClusterScanCursor.parse("0");
    assertThat(cursor.isStart()).isTrue();
    assertThat(cursor.nodeId()).isNull();
    assertThat(cursor.encode()).isEqualTo("0");
    assertThat(cursor).isEqualTo(ClusterScanCursor.start());
  }

  @Test
  void should_reject_a_text_that_is_not_a_cursor_and_quote_it() {
    for (String bad :
        List.of(
            "",
            "1234",
            "leader-1",
            "leader-1:",
            ":1234",
            "leader 1:12",
            "leader-1:12 34",
            "leader-1:12\n",
            "lé:12",
            "leader-1:\u00e912",
            "x".repeat(65) + ":1")) {
      assertThatThrownBy(() -> ClusterScanCursor.parse(bad))
          .as("'%s'", bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'" + bad + "'")
          .hasMessageContaining("not a Jumpgate cluster SCAN cursor");
    }
  }

  @Test
  void should_reject_null_naming_the_parameter() {
    assertThatThrownBy(() -> ClusterScanCursor.parse(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("cursor");
  }

  @Test
  void should_reject_a_bad_node_id_or_node_cursor_when_made() {
    assertThatThrownBy(() -> ClusterScanCursor.at("a:b", "1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'a:b'");
    assertThatThrownBy(() -> ClusterScanCursor.at("a", ""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("node 'a'");
  }

  @Test
  void should_start_at_the_first_leader_in_id_order() {
    assertThat(ClusterScanCursor.start().resume(LEADERS))
        .isEqualTo(new ClusterScanCursor.Step(0, "0"));
  }

  @Test
  void should_go_on_at_the_named_leader_with_its_cursor() {
    assertThat(ClusterScanCursor.parse("leader-1:77").resume(LEADERS))
        .isEqualTo(new ClusterScanCursor.Step(1, "77"));
  }

  @Test
  void should_go_on_from_the_start_of_the_next_leader_in_id_order_when_the_named_one_left() {
    List<String> without1 = List.of("leader-0", "leader-2");
    assertThat(ClusterScanCursor.parse("leader-1:77").resume(without1))
        .isEqualTo(new ClusterScanCursor.Step(1, "0"));
    // a node sorting before every leader: the first leader, from its start
    assertThat(ClusterScanCursor.parse("aaa:5").resume(LEADERS))
        .isEqualTo(new ClusterScanCursor.Step(0, "0"));
    // a node sorting after every leader: nothing left
    ClusterScanCursor.Step none = ClusterScanCursor.parse("zzz:5").resume(LEADERS);
    assertThat(none.finished(LEADERS)).isTrue();
  }

  @Test
  void should_stay_on_a_leader_until_its_own_cursor_is_zero() {
    assertThat(ClusterScanCursor.after("leader-0", "96", LEADERS))
        .isEqualTo(ClusterScanCursor.at("leader-0", "96"));
  }

  @Test
  void should_move_to_the_next_leader_from_its_start_when_a_leader_is_done() {
    assertThat(ClusterScanCursor.after("leader-0", "0", LEADERS).encode()).isEqualTo("leader-1:0");
    assertThat(ClusterScanCursor.after("leader-1", "0", LEADERS).encode()).isEqualTo("leader-2:0");
  }

  @Test
  void should_finish_after_the_last_leader() {
    assertThat(ClusterScanCursor.after("leader-2", "0", LEADERS)).isNull();
    assertThat(ClusterScanCursor.after("leader-2", "0", List.of())).isNull();
  }

  @Test
  void should_move_to_the_next_leader_in_the_newer_map_when_the_answering_one_left_it() {
    assertThat(ClusterScanCursor.after("leader-1", "0", List.of("leader-0", "leader-2")).encode())
        .isEqualTo("leader-2:0");
  }

  @Test
  void should_visit_every_leader_once_in_order_when_walked_through() {
    ClusterScanCursor cursor = ClusterScanCursor.start();
    StringBuilder visited = new StringBuilder();
    while (cursor != null) {
      ClusterScanCursor.Step step = cursor.resume(LEADERS);
      String node = LEADERS.get(step.position());
      visited.append(node).append(' ');
      cursor = ClusterScanCursor.after(node, "0", LEADERS);
    }
    assertThat(visited.toString()).isEqualTo("leader-0 leader-1 leader-2 ");
  }
}
