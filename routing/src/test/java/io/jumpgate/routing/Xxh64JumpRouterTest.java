package io.jumpgate.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Xxh64JumpRouterTest {

  @Test
  void should_describe_the_scheme_and_default_shard_count() {
    Xxh64JumpRouter router = Xxh64JumpRouter.withDefaultShards();
    assertThat(router.scheme()).isEqualTo("xxh64-jump");
    assertThat(router.shardCount()).isEqualTo(1024);
    assertThat(router).isEqualTo(Xxh64JumpRouter.forShards(1024));
    assertThat(router).isNotEqualTo(Xxh64JumpRouter.forShards(1023));
  }

  @Test
  void should_route_the_documented_examples() {
    Xxh64JumpRouter router = Xxh64JumpRouter.withDefaultShards();
    assertThat(router.shardOf("user:42".getBytes(StandardCharsets.UTF_8))).isEqualTo(717);
    assertThat(router.shardOf("{user1000}.following".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(76);
    assertThat(Long.toUnsignedString(Xxh64JumpRouter.routingHash(new byte[0])))
        .isEqualTo("17241709254077376921");
  }

  @Test
  void should_reject_a_shard_count_below_1() {
    assertThatThrownBy(() -> Xxh64JumpRouter.forShards(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("shard count must be at least 1, was 0");
  }

  @Test
  void should_reject_a_slice_outside_the_array() {
    Xxh64JumpRouter router = Xxh64JumpRouter.withDefaultShards();
    assertThatThrownBy(() -> router.shardOf(new byte[4], 2, 3))
        .isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> router.shardOf(new byte[4], -1, 1))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }
}
