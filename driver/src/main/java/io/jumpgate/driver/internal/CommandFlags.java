package io.jumpgate.driver.internal;

import io.jumpgate.driver.CommandRetryClass;
import io.jumpgate.driver.RetryOptions;
import io.lettuce.core.protocol.CommandArgs;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * What the router needs to know about a command, as bit flags (no allocation per command): where it
 * goes, and what a second run of it would do, which decides whether it may be sent again after a
 * try whose outcome is unknown (a timeout, a connection lost after the command was written).
 *
 * <p>Every command is in one of four classes (docs/driver.md, "Retries"):
 *
 * <ul>
 *   <li>{@link #READ_ONLY}: changes nothing (GET, MGET, HGETALL, EXISTS, TTL, ...). Sent again.
 *   <li>{@link #IDEMPOTENT_WRITE}: a second run leaves the same state and gives an equally valid
 *       reply (SET without options, SETEX, MSET, SETRANGE, TOUCH, FLUSHDB, ...). Sent again.
 *   <li>{@link #SAME_STATE_WRITE}: a second run leaves the same state but answers differently
 *       (SADD, SREM, HSET, HDEL, ZADD, ZREM, DEL, UNLINK, EXPIRE, PERSIST, SETNX, SET NX, GETSET,
 *       GETDEL, ...): code such as {@code if (sadd(seen, id) == 1) process(id)} would act on the
 *       second run's reply. Sent again only when {@link RetryOptions#acceptSecondRunReplies()}.
 *   <li>{@link #NON_IDEMPOTENT_WRITE}: a second run changes the state again (INCR, LPUSH, APPEND,
 *       ZINCRBY, EVAL, dispatched commands, ...). Never sent again.
 * </ul>
 *
 * A try that provably did not run (MOVED, READONLY, not connected, ...) is sent again whatever the
 * class. Stateless; the methods are pure functions.
 */
public final class CommandFlags {

  /** Not a write: the read policy picks the node. */
  public static final int READ = 0;

  /** Goes to the leader whatever the read policy. */
  public static final int WRITE = 1;

  /** A second run leaves the same state as the first one. */
  public static final int IDEMPOTENT = 2;

  /** A second run also gives an equally valid reply (only meaningful with {@link #IDEMPOTENT}). */
  public static final int SAME_REPLY = 4;

  /** A read: sent again after an unknown outcome. */
  public static final int READ_ONLY = READ | IDEMPOTENT | SAME_REPLY;

  /** A write whose second run changes nothing and answers the same: sent again. */
  public static final int IDEMPOTENT_WRITE = WRITE | IDEMPOTENT | SAME_REPLY;

  /**
   * A write whose second run leaves the same state but answers differently: sent again after an
   * unknown outcome only when the retry options accept a second run's reply.
   */
  public static final int SAME_STATE_WRITE = WRITE | IDEMPOTENT;

  /**
   * A write whose second run changes the state again: never sent again after an unknown outcome.
   */
  public static final int NON_IDEMPOTENT_WRITE = WRITE;

  private CommandFlags() {}

  public static boolean isWrite(int flags) {
    return (flags & WRITE) != 0;
  }

  /** Whether a second run leaves the same state (its reply may still differ). */
  public static boolean isIdempotent(int flags) {
    return (flags & IDEMPOTENT) != 0;
  }

  /** Whether a second run leaves the same state and gives an equally valid reply. */
  public static boolean hasSameReply(int flags) {
    return (flags & (IDEMPOTENT | SAME_REPLY)) == (IDEMPOTENT | SAME_REPLY);
  }

  /** The public class of a command with these flags, as a retry policy sees it. */
  public static CommandRetryClass retryClass(int flags) {
    if (hasSameReply(flags)) {
      return isWrite(flags) ? CommandRetryClass.IDEMPOTENT_WRITE : CommandRetryClass.READ_ONLY;
    }
    return isIdempotent(flags)
        ? CommandRetryClass.SAME_STATE_WRITE
        : CommandRetryClass.NON_IDEMPOTENT_WRITE;
  }

  /**
   * Whether a command may be sent again after a try whose outcome is unknown: reads and idempotent
   * writes always; writes that answer differently the second time only when {@code retry} accepts a
   * second run's reply; other writes never.
   */
  public static boolean mayRetryAfterUnknownOutcome(int flags, RetryOptions retry) {
    return hasSameReply(flags) || (isIdempotent(flags) && retry.acceptSecondRunReplies());
  }

  /**
   * The class of a SET with these options: {@link #IDEMPOTENT_WRITE} for expiry options only (EX,
   * PX, EXAT, PXAT, KEEPTTL), {@link #SAME_STATE_WRITE} with a condition (NX, XX, IFEQ, IFNE, ...:
   * a second run finds the condition changed by the first, or the key expired in between), and
   * {@link #NON_IDEMPOTENT_WRITE} for an option this driver does not know. Reads the options as
   * they would be sent; allocates, so only for SET with options.
   *
   * @param options only the options, as {@code SetArgs.build} writes them into empty arguments
   */
  public static int ofSetOptions(CommandArgs<?, ?> options) {
    ByteBuf encoded = Unpooled.buffer();
    try {
      options.encode(encoded);
      int flags = IDEMPOTENT_WRITE;
      while (encoded.isReadable()) {
        String token = nextToken(encoded).toUpperCase(Locale.ROOT);
        switch (token) {
          case "EX", "PX", "EXAT", "PXAT" -> nextToken(encoded);
          case "KEEPTTL" -> {}
          case "NX", "XX" -> flags = SAME_STATE_WRITE;
          case "IFEQ", "IFNE", "IFDEQ", "IFDNE" -> {
            nextToken(encoded);
            flags = SAME_STATE_WRITE;
          }
          default -> {
            return NON_IDEMPOTENT_WRITE;
          }
        }
      }
      return flags;
    } finally {
      encoded.release();
    }
  }

  /** One argument as Lettuce encodes it: a RESP bulk string ({@code $3\r\nfoo\r\n}). */
  private static String nextToken(ByteBuf encoded) {
    if (!encoded.isReadable()) {
      return "";
    }
    if (encoded.readByte() != '$') {
      throw new IllegalStateException("not a RESP bulk string");
    }
    int length = 0;
    byte next;
    while ((next = encoded.readByte()) != '\r') {
      length = length * 10 + (next - '0');
    }
    encoded.skipBytes(1);
    String token = encoded.toString(encoded.readerIndex(), length, StandardCharsets.UTF_8);
    encoded.skipBytes(length + 2);
    return token;
  }
}
