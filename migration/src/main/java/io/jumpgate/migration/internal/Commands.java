package io.jumpgate.migration.internal;

import io.jumpgate.migration.ServerAddress;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.ArrayOutput;
import io.lettuce.core.output.ByteArrayOutput;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;

/**
 * The commands of the copy, built for {@code StatefulConnection.dispatch}: a batch goes out in one
 * write. Every call makes a new command (Lettuce commands must not be reused).
 */
public final class Commands {

  static final ByteArrayCodec CODEC = ByteArrayCodec.INSTANCE;
  private static final byte[] EMPTY = new byte[0];

  private Commands() {}

  public static AsyncCommand<byte[], byte[], byte[]> dump(byte[] key) {
    return new AsyncCommand<>(
        new Command<>(
            CommandType.DUMP, new ByteArrayOutput<>(CODEC), new CommandArgs<>(CODEC).addKey(key)));
  }

  public static AsyncCommand<byte[], byte[], Long> pttl(byte[] key) {
    return new AsyncCommand<>(
        new Command<>(
            CommandType.PTTL, new IntegerOutput<>(CODEC), new CommandArgs<>(CODEC).addKey(key)));
  }

  /** {@code RESTORE key ttl value REPLACE}; {@code ttl} 0 for none. */
  public static AsyncCommand<byte[], byte[], String> restore(byte[] key, long ttl, byte[] value) {
    CommandArgs<byte[], byte[]> args =
        new CommandArgs<>(CODEC).addKey(key).add(ttl).addValue(value).add("REPLACE");
    return new AsyncCommand<>(new Command<>(CommandType.RESTORE, new StatusOutput<>(CODEC), args));
  }

  public static AsyncCommand<byte[], byte[], Long> unlink(Collection<byte[]> keys) {
    CommandArgs<byte[], byte[]> args = new CommandArgs<>(CODEC);
    for (byte[] key : keys) {
      args.addKey(key);
    }
    return new AsyncCommand<>(new Command<>(CommandType.UNLINK, new IntegerOutput<>(CODEC), args));
  }

  /**
   * {@code EVAL script numkeys keys... arguments...}, answering an array (nil, bytes, integers).
   */
  public static AsyncCommand<byte[], byte[], List<Object>> eval(
      String script, List<byte[]> keys, List<byte[]> arguments) {
    CommandArgs<byte[], byte[]> args =
        new CommandArgs<>(CODEC).add(script.getBytes(StandardCharsets.UTF_8)).add(keys.size());
    for (byte[] key : keys) {
      args.addKey(key);
    }
    for (byte[] argument : arguments) {
      args.addValue(argument);
    }
    return new AsyncCommand<>(new Command<>(CommandType.EVAL, new ArrayOutput<>(CODEC), args));
  }

  /** A number as the ASCII digits Redis reads. */
  public static byte[] ascii(long number) {
    return Long.toString(number).getBytes(StandardCharsets.US_ASCII);
  }

  public static AsyncCommand<byte[], byte[], Long> publish(byte[] channel, byte[] message) {
    CommandArgs<byte[], byte[]> args = new CommandArgs<>(CODEC).add(channel).addValue(message);
    return new AsyncCommand<>(new Command<>(CommandType.PUBLISH, new IntegerOutput<>(CODEC), args));
  }

  /**
   * {@code MIGRATE host port "" 0 timeout COPY REPLACE [AUTH2 user password | AUTH password] KEYS
   * k1 .. kN}; answers OK, or NOKEY when none of the keys exists.
   */
  public static AsyncCommand<byte[], byte[], String> migrate(
      ServerAddress target, long timeoutMillis, Collection<byte[]> keys) {
    return new AsyncCommand<>(
        new Command<>(
            CommandType.MIGRATE,
            new StatusOutput<>(CODEC),
            migrateArguments(target, timeoutMillis, keys)));
  }

  static CommandArgs<byte[], byte[]> migrateArguments(
      ServerAddress target, long timeoutMillis, Collection<byte[]> keys) {
    CommandArgs<byte[], byte[]> args =
        new CommandArgs<>(CODEC)
            .add(target.host())
            .add(target.port())
            .add(EMPTY)
            .add(0)
            .add(timeoutMillis)
            .add("COPY")
            .add("REPLACE");
    if (target.password().isPresent()) {
      byte[] password = target.password().get().getBytes(StandardCharsets.UTF_8);
      if (target.username().isPresent()) {
        args.add("AUTH2").add(target.username().get()).add(password);
      } else {
        args.add("AUTH").add(password);
      }
    }
    args.add("KEYS");
    for (byte[] key : keys) {
      args.addKey(key);
    }
    return args;
  }
}
