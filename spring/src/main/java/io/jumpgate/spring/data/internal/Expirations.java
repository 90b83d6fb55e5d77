package io.jumpgate.spring.data.internal;

import io.lettuce.core.GetExArgs;
import io.lettuce.core.SetArgs;
import java.util.concurrent.TimeUnit;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.connection.RedisStringCommands.SetOption;
import org.springframework.data.redis.connection.SetCondition;
import org.springframework.data.redis.core.types.Expiration;

/**
 * Spring's {@link Expiration}, {@link SetOption} and {@link SetCondition} as Lettuce's arguments.
 * Stateless.
 *
 * <p>{@link SetCondition} is Spring Data Redis 4.1's; {@link SetOption} is in every line. Only the
 * method taking a {@link SetCondition} touches that class, so the others run on Spring Data Redis
 * 3.5 too (docs/spring.md, "Spring Data Redis 3.5 and 4.1").
 */
final class Expirations {

  private Expirations() {}

  /**
   * SET's arguments: NX or XX from the condition, EX/PX/EXAT/PXAT/KEEPTTL from the expiration.
   *
   * @throws InvalidDataAccessApiUsageException for a compare condition (IFEQ, IFDEQ, ...), which
   *     this connection does not send yet
   */
  static SetArgs setArguments(String command, SetCondition condition, Expiration expiration) {
    SetArgs arguments = new SetArgs();
    if (condition != null) {
      if (condition.getCompareCondition() != null) {
        throw Refusals.unsupported(command + " with a compare condition");
      }
      switch (condition.getKeyCondition()) {
        case IF_ABSENT -> arguments.nx();
        case IF_PRESENT -> arguments.xx();
        default -> {}
      }
    }
    return withExpiration(arguments, expiration);
  }

  /**
   * SET's arguments: NX or XX from the option ({@code null}: neither), EX/PX/EXAT/PXAT/KEEPTTL from
   * the expiration. Spring Data Redis 3.5's SET, and 4.1's deprecated form of it.
   */
  @SuppressWarnings("deprecation")
  static SetArgs setArguments(SetOption option, Expiration expiration) {
    SetArgs arguments = new SetArgs();
    if (option == SetOption.SET_IF_ABSENT) {
      arguments.nx();
    } else if (option == SetOption.SET_IF_PRESENT) {
      arguments.xx();
    }
    return withExpiration(arguments, expiration);
  }

  private static SetArgs withExpiration(SetArgs arguments, Expiration expiration) {
    if (expiration == null || expiration.isPersistent()) {
      return arguments;
    }
    if (expiration.isKeepTtl()) {
      return arguments.keepttl();
    }
    if (expiration.isUnixTimestamp()) {
      return arguments.pxAt(expiration.getConverted(TimeUnit.MILLISECONDS));
    }
    return expiration.getTimeUnit() == TimeUnit.SECONDS
        ? arguments.ex(expiration.getExpirationTime())
        : arguments.px(expiration.getConverted(TimeUnit.MILLISECONDS));
  }

  /** GETEX's arguments from the expiration (PERSIST for a persistent one). */
  static GetExArgs getExArguments(Expiration expiration) {
    GetExArgs arguments = new GetExArgs();
    if (expiration == null || expiration.isPersistent()) {
      return arguments.persist();
    }
    if (expiration.isUnixTimestamp()) {
      return arguments.pxAt(expiration.getConverted(TimeUnit.MILLISECONDS));
    }
    return expiration.getTimeUnit() == TimeUnit.SECONDS
        ? arguments.ex(expiration.getExpirationTime())
        : arguments.px(expiration.getConverted(TimeUnit.MILLISECONDS));
  }
}
