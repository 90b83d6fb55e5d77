package io.jumpgate.migration.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Keyspace notifications of database 0: the channel pattern, the key in a channel, what an event
 * means, and the {@code notify-keyspace-events} value that change capture needs.
 *
 * <p>Stateless and thread-safe.
 */
public final class KeyspaceEvents {

  /** The configuration parameter. */
  public static final String PARAMETER = "notify-keyspace-events";

  /**
   * The flags change capture needs: keyspace events ({@code K}) of every class of write, expired
   * and evicted included ({@code A}).
   */
  public static final String CAPTURE_FLAGS = "KA";

  private static final byte[] PREFIX = "__keyspace@0__:".getBytes(StandardCharsets.US_ASCII);

  /** The pattern that matches every keyspace channel of database 0. */
  public static final byte[] PATTERN = "__keyspace@0__:*".getBytes(StandardCharsets.US_ASCII);

  private static final byte[][] DELETIONS = {
    ascii("del"), ascii("expired"), ascii("evicted"), ascii("rename_from"), ascii("move_from")
  };
  private static final byte[][] NOT_WRITES = {ascii("expired"), ascii("evicted")};

  private KeyspaceEvents() {}

  /** The key a keyspace channel is about, or null if the channel is not one of database 0. */
  public static byte[] keyOf(byte[] channel) {
    if (channel.length < PREFIX.length
        || !Arrays.equals(channel, 0, PREFIX.length, PREFIX, 0, PREFIX.length)) {
      return null;
    }
    return Arrays.copyOfRange(channel, PREFIX.length, channel.length);
  }

  /** Whether the event removed the key from the source. */
  public static boolean isDeletion(byte[] event) {
    return isAnyOf(event, DELETIONS);
  }

  /**
   * Whether the event comes from a command a client sent (not an expiry or an eviction, which the
   * server does by itself).
   */
  public static boolean isClientWrite(byte[] event) {
    return !isAnyOf(event, NOT_WRITES);
  }

  /**
   * The {@code notify-keyspace-events} value to set so that change capture sees every write,
   * keeping every flag of {@code current}; null when {@code current} already has them.
   */
  public static String withCaptureFlags(String current) {
    StringBuilder value = new StringBuilder(current);
    for (char flag : CAPTURE_FLAGS.toCharArray()) {
      if (current.indexOf(flag) < 0) {
        value.append(flag);
      }
    }
    return value.length() == current.length() ? null : value.toString();
  }

  private static boolean isAnyOf(byte[] event, byte[][] names) {
    for (byte[] name : names) {
      if (Arrays.equals(event, name)) {
        return true;
      }
    }
    return false;
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
