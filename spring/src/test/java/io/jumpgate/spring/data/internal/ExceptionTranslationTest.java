package io.jumpgate.spring.data.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.driver.CrossShardException;
import io.jumpgate.spi.ShardUnavailableException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;

class ExceptionTranslationTest {

  @Test
  void should_translate_a_cross_shard_refusal_to_an_api_usage_error_keeping_the_message() {
    CrossShardException failure = new CrossShardException("EVAL", 3, 9, 1);
    DataAccessException translated = ExceptionTranslation.translate(failure);
    assertThat(translated)
        .isInstanceOf(InvalidDataAccessApiUsageException.class)
        .hasMessage(failure.getMessage())
        .hasCause(failure);
  }

  @Test
  void should_translate_timeouts_unavailable_shards_and_server_errors() {
    assertThat(ExceptionTranslation.translate(new RedisCommandTimeoutException("slow")))
        .isInstanceOf(QueryTimeoutException.class);
    assertThat(ExceptionTranslation.translate(new ShardUnavailableException(4, 12, "no leader")))
        .isInstanceOf(RedisConnectionFailureException.class)
        .hasMessageContaining("no leader");
    assertThat(ExceptionTranslation.translate(new RedisCommandExecutionException("WRONGTYPE x")))
        .isInstanceOf(RedisSystemException.class)
        .hasMessage("WRONGTYPE x");
  }

  @Test
  void should_leave_a_spring_exception_as_it_is() {
    InvalidDataAccessApiUsageException refusal = Refusals.unsupported("ZRANDMEMBER");
    assertThat(ExceptionTranslation.translate(refusal)).isSameAs(refusal);
    assertThat(refusal).hasMessageStartingWith("ZRANDMEMBER is not supported");
  }
}
