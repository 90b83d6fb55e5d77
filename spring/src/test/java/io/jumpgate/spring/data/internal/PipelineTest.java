package io.jumpgate.spring.data.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisCommandExecutionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.RedisPipelineException;
import org.springframework.data.redis.connection.RedisStringCommands;

class PipelineTest {

  @Test
  void should_answer_in_the_order_of_the_calls_whatever_the_order_of_completion() {
    Pipeline pipeline = new Pipeline(Duration.ofSeconds(5));
    CompletableFuture<Object> first = new CompletableFuture<>();
    CompletableFuture<Object> second = new CompletableFuture<>();
    pipeline.add(first);
    pipeline.addAnswer("at once");
    pipeline.add(second);
    second.complete(2L);
    first.complete(true);

    assertThat(pipeline.close()).containsExactly(true, "at once", 2L);
  }

  @Test
  void should_keep_each_failure_in_its_slot_and_throw_a_pipeline_exception() {
    Pipeline pipeline = new Pipeline(Duration.ofSeconds(5));
    pipeline.add(CompletableFuture.completedFuture("OK"));
    pipeline.add(
        CompletableFuture.failedFuture(
            new RedisCommandExecutionException("ERR value is not an integer")));
    pipeline.add(CompletableFuture.completedFuture(3L));

    assertThatThrownBy(pipeline::close)
        .isInstanceOfSatisfying(
            RedisPipelineException.class,
            failure -> {
              List<Object> results = failure.getPipelineResult();
              assertThat(results).hasSize(3);
              assertThat(results.get(0)).isEqualTo("OK");
              assertThat(results.get(1))
                  .isInstanceOf(RedisSystemException.class)
                  .asString()
                  .contains("not an integer");
              assertThat(results.get(2)).isEqualTo(3L);
              assertThat(failure.getCause()).isSameAs(results.get(1));
            });
  }

  @Test
  void should_stop_waiting_after_its_bound_with_a_timeout_in_the_late_slots() {
    Pipeline pipeline = new Pipeline(Duration.ofMillis(50));
    pipeline.add(CompletableFuture.completedFuture(1L));
    pipeline.add(new CompletableFuture<>());
    long started = System.nanoTime();

    assertThatThrownBy(pipeline::close)
        .isInstanceOfSatisfying(
            RedisPipelineException.class,
            failure -> {
              assertThat(failure.getPipelineResult().get(0)).isEqualTo(1L);
              assertThat(failure.getPipelineResult().get(1))
                  .isInstanceOf(QueryTimeoutException.class);
            });
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void should_send_counterparts_without_waiting_run_the_rest_in_turn_and_refuse_at_once() {
    Pipeline pipeline = new Pipeline(Duration.ofSeconds(5));
    CompletableFuture<byte[]> pending = new CompletableFuture<>();
    List<String> blockingCalls = new ArrayList<>();
    RedisStringCommands blocking =
        new UnsupportedStringCommands() {
          @Override
          public Long strLen(byte[] key) {
            blockingCalls.add("STRLEN");
            return 5L;
          }

          @Override
          public void setRange(byte[] key, byte[] value, long offset) {
            blockingCalls.add("SETRANGE");
          }
        };
    RedisStringCommands pipelined =
        PipelinedFamily.of(
            RedisStringCommands.class, blocking, new Counterparts(pending), pipeline);

    assertThat(pipelined.get(new byte[] {1})).isNull();
    assertThat(pipelined.strLen(new byte[] {1})).isNull();
    pipelined.setRange(new byte[] {1}, new byte[] {2}, 0);
    assertThatThrownBy(() -> pipelined.getBit(new byte[] {1}, 0))
        .isInstanceOf(InvalidDataAccessApiUsageException.class)
        .hasMessageContaining("GETBIT");
    pending.complete(new byte[] {7});

    assertThat(blockingCalls).containsExactly("STRLEN", "SETRANGE");
    assertThat(pipeline.close()).containsExactly(new byte[] {7}, 5L);
  }

  /** An asynchronous counterpart of GET only. */
  static final class Counterparts {
    private final CompletableFuture<byte[]> answer;

    Counterparts(CompletableFuture<byte[]> answer) {
      this.answer = answer;
    }

    CompletionStage<byte[]> get(byte[] key) {
      return answer;
    }
  }
}
