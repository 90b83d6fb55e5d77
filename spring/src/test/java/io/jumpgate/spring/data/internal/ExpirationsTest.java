package io.jumpgate.spring.data.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.SetArgs;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.CommandArgs;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisStringCommands.SetOption;
import org.springframework.data.redis.connection.SetCondition;
import org.springframework.data.redis.core.types.Expiration;

/** SET's arguments from Spring Data Redis 3.5's SetOption equal those from 4.1's SetCondition. */
@SuppressWarnings("deprecation") // SetOption: deprecated in 4.1, the only form in 3.5
class ExpirationsTest {

  @Test
  void should_send_the_same_set_arguments_for_an_option_as_for_its_condition() {
    Expiration[] expirations = {
      null,
      Expiration.persistent(),
      Expiration.keepTtl(),
      Expiration.from(Duration.ofSeconds(30)),
      Expiration.milliseconds(1500),
      Expiration.unixTimestamp(1_900_000_000_000L, TimeUnit.MILLISECONDS)
    };
    for (SetOption option : SetOption.values()) {
      for (Expiration expiration : expirations) {
        SetCondition condition = option.toSetCondition();
        assertThat(sent(Expirations.setArguments(option, expiration)))
            .as("%s with %s", option, expiration)
            .isEqualTo(sent(Expirations.setArguments("SET", condition, expiration)));
      }
    }
  }

  @Test
  void should_send_nx_xx_and_the_expiry_for_an_option() {
    assertThat(sent(Expirations.setArguments(SetOption.SET_IF_ABSENT, Expiration.seconds(30))))
        .isEqualTo("EX 30 NX");
    assertThat(
            sent(Expirations.setArguments(SetOption.SET_IF_PRESENT, Expiration.milliseconds(1500))))
        .isEqualTo("PX 1500 XX");
    assertThat(sent(Expirations.setArguments(SetOption.UPSERT, Expiration.persistent()))).isEmpty();
  }

  private static String sent(SetArgs arguments) {
    CommandArgs<byte[], byte[]> command = new CommandArgs<>(ByteArrayCodec.INSTANCE);
    arguments.build(command);
    return command.toCommandString();
  }
}
