package io.jumpgate.cli;

import io.jumpgate.driver.BroadcastFailedException;
import io.jumpgate.driver.CommandEvent;
import io.jumpgate.driver.CommandListener;
import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spi.JumpgateException;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.TopologySnapshot;
import io.lettuce.core.FlushMode;
import io.lettuce.core.KeyScanArgs;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Runs one command of {@code jumpgate exec} through the driver and says how it went: its reply (in
 * the shapes {@link ReplyPrinter} prints), and with tracing, where it went.
 *
 * <p>How each command is run is {@link ExecCommandTable}'s: MGET, MSET, DEL, UNLINK, EXISTS and
 * TOUCH through the driver's fan-out; PING, DBSIZE, KEYS, SCAN, FLUSHDB, FLUSHALL and INFO through
 * its broadcasts (PING and INFO answer per node); every other command (EVAL and EVALSHA included,
 * routed by their numkeys keys) with {@code dispatch} to the leader of its keys' shard, after
 * checking that its keys share one shard. Arguments are bytes and replies are kept as bytes, so
 * binary data survives.
 *
 * <p>Not thread-safe: one command at a time (the trace of a command is the events that arrive while
 * it runs).
 */
final class ExecRunner {

  /** How a command ended. */
  enum Status {
    /** A reply that is not an error. */
    REPLY,
    /** The server answered with an error (WRONGTYPE, ERR, NOSCRIPT, ...). */
    ERROR_REPLY,
    /** Not sent: exec refused it (no key, keys on several shards, bad arguments, ...). */
    REFUSED,
    /** Sent, and the driver could not get an answer (node unreachable, timeout, ...). */
    FAILED
  }

  /**
   * How one command ended.
   *
   * @param reply what to print: the reply, or a {@link ReplyPrinter.ErrorReply}
   * @param status how it ended
   * @param trace the trace lines ({@code # shard=...}), one per part; empty without tracing
   */
  record Outcome(Object reply, Status status, List<String> trace) {}

  /** Collects the driver's command events, for {@code --trace}. Thread-safe. */
  static final class Trace implements CommandListener {
    private final ConcurrentLinkedQueue<CommandEvent> events = new ConcurrentLinkedQueue<>();

    @Override
    public void commandEnded(CommandEvent event) {
      events.add(event);
    }

    void clear() {
      events.clear();
    }

    List<CommandEvent> drain() {
      List<CommandEvent> drained = new ArrayList<>();
      CommandEvent event;
      while ((event = events.poll()) != null) {
        drained.add(event);
      }
      return drained;
    }
  }

  private final JumpgateClient client;
  private final JumpgateAsyncCommands<byte[], byte[]> redis;
  private final Trace trace;
  private final Duration wait;
  private final List<String> secrets;

  /**
   * @param client the driver, opened by the caller (who closes it)
   * @param trace the listener set on the client's options, or null for no trace
   * @param secrets texts to replace with {@code ***} in error messages (passwords)
   */
  ExecRunner(JumpgateClient client, Trace trace, List<String> secrets) {
    this.client = client;
    this.redis = client.connect(ByteArrayCodec.INSTANCE).async();
    this.trace = trace;
    // Every part of a command has the command timeout; this only guards against a lost answer.
    this.wait = client.options().commandTimeout().multipliedBy(2).plusSeconds(10);
    this.secrets = List.copyOf(secrets);
  }

  /** Runs a command: its name, then its arguments. */
  Outcome run(List<byte[]> command) {
    if (command.isEmpty()) {
      throw new IllegalArgumentException("no command");
    }
    String name = ExecCommandTable.text(command.get(0)).toUpperCase(Locale.ROOT);
    List<byte[]> arguments = command.subList(1, command.size());
    if (trace != null) {
      trace.clear();
    }
    Object reply;
    Status status;
    List<byte[]> fanOutKeys = List.of();
    try {
      ExecCommandTable.Entry entry = ExecCommandTable.entry(name);
      CompletionStage<Object> stage =
          switch (entry.kind()) {
            case REFUSED -> throw new ExecCommandTable.Refusal(entry.refusal());
            case FAN_OUT -> {
              fanOutKeys = fanOutKeys(name, arguments);
              yield fanOut(name, arguments);
            }
            case BROADCAST -> broadcast(name, arguments);
            case KEYED -> keyed(name, arguments);
          };
      reply = await(stage);
      if (reply instanceof byte[] bytes
          && entry.kind() == ExecCommandTable.Kind.KEYED
          && ExecCommandTable.isStatusReply(name, arguments, bytes)) {
        reply = new String(bytes, StandardCharsets.UTF_8);
      }
      status = Status.REPLY;
    } catch (ExecCommandTable.Refusal e) {
      reply = error(e.getMessage());
      status = Status.REFUSED;
    } catch (IllegalArgumentException e) {
      reply = error("ERR " + e.getMessage());
      status = Status.REFUSED;
    } catch (RuntimeException e) {
      Throwable failure = unwrap(e);
      status = isServerAnswer(failure) ? Status.ERROR_REPLY : Status.FAILED;
      reply = error(message(failure));
    }
    return new Outcome(reply, status, traceLines(fanOutKeys));
  }

  // ---- fan-out ----------------------------------------------------------------------------------

  private static List<byte[]> fanOutKeys(String name, List<byte[]> arguments) {
    if (name.equals("MSET")) {
      if (arguments.isEmpty() || arguments.size() % 2 != 0) {
        throw ExecCommandTable.wrongArguments(name);
      }
      List<byte[]> keys = new ArrayList<>();
      for (int index = 0; index < arguments.size(); index += 2) {
        keys.add(arguments.get(index));
      }
      return keys;
    }
    if (arguments.isEmpty()) {
      throw ExecCommandTable.wrongArguments(name);
    }
    return arguments;
  }

  private CompletionStage<Object> fanOut(String name, List<byte[]> arguments) {
    byte[][] keys = arguments.toArray(byte[][]::new);
    return switch (name) {
      case "MGET" -> redis.mget(keys).thenApply(ExecRunner::values);
      case "MSET" -> {
        // byte[] keys compare by identity: a key given twice is sent twice, and the last wins, as
        // with one server's MSET.
        Map<byte[], byte[]> map = new LinkedHashMap<>();
        for (int index = 0; index < arguments.size(); index += 2) {
          map.put(arguments.get(index), arguments.get(index + 1));
        }
        yield redis.mset(map).thenApply(Object.class::cast);
      }
      case "DEL" -> redis.del(keys).thenApply(Object.class::cast);
      case "UNLINK" -> redis.unlink(keys).thenApply(Object.class::cast);
      case "EXISTS" -> redis.exists(keys).thenApply(Object.class::cast);
      case "TOUCH" -> redis.touch(keys).thenApply(Object.class::cast);
      default -> throw new IllegalStateException("not a fan-out command: " + name);
    };
  }

  private static Object values(List<KeyValue<byte[], byte[]>> values) {
    List<Object> list = new ArrayList<>(values.size());
    for (KeyValue<byte[], byte[]> value : values) {
      list.add(value.hasValue() ? value.getValue() : null);
    }
    return list;
  }

  // ---- broadcast --------------------------------------------------------------------------------

  private CompletionStage<Object> broadcast(String name, List<byte[]> arguments) {
    switch (name) {
      case "PING" -> {
        noArguments(name, arguments, "it is sent to every node, without a message");
        return redis.ping().thenApply(ExecRunner::perNode);
      }
      case "DBSIZE" -> {
        noArguments(name, arguments, null);
        return redis.dbsize().thenApply(Object.class::cast);
      }
      case "KEYS" -> {
        if (arguments.size() != 1) {
          throw ExecCommandTable.wrongArguments(name);
        }
        return redis.keys(arguments.get(0)).thenApply(Object.class::cast);
      }
      case "FLUSHDB", "FLUSHALL" -> {
        FlushMode mode = flushMode(arguments);
        boolean all = name.equals("FLUSHALL");
        CompletionStage<String> stage =
            mode == null
                ? (all ? redis.flushall() : redis.flushdb())
                : (all ? redis.flushall(mode) : redis.flushdb(mode));
        return stage.thenApply(Object.class::cast);
      }
      case "INFO" -> {
        if (arguments.size() > 1) {
          throw new ExecCommandTable.Refusal(
              "ERR jumpgate exec sends INFO with at most one section");
        }
        CompletionStage<Map<String, String>> stage =
            arguments.isEmpty()
                ? redis.info()
                : redis.info(ExecCommandTable.text(arguments.get(0)));
        return stage.thenApply(this::info);
      }
      case "SCAN" -> {
        return scan(arguments);
      }
      default -> throw new IllegalStateException("not a broadcast: " + name);
    }
  }

  private static void noArguments(String name, List<byte[]> arguments, String why) {
    if (!arguments.isEmpty()) {
      if (why == null) {
        throw ExecCommandTable.wrongArguments(name);
      }
      throw new ExecCommandTable.Refusal(
          "ERR jumpgate exec sends " + name + " with no argument: " + why);
    }
  }

  private static FlushMode flushMode(List<byte[]> arguments) {
    if (arguments.isEmpty()) {
      return null;
    }
    String mode = ExecCommandTable.text(arguments.get(0)).toUpperCase(Locale.ROOT);
    if (arguments.size() > 1 || !(mode.equals("ASYNC") || mode.equals("SYNC"))) {
      throw new ExecCommandTable.Refusal("ERR syntax error");
    }
    return FlushMode.valueOf(mode);
  }

  /** Node id -> answer, as a map reply: {@code 1# "n0" => PONG}. */
  private static Object perNode(Map<String, String> answers) {
    Map<Object, Object> reply = new LinkedHashMap<>();
    answers.forEach((node, answer) -> reply.put(utf8(node), answer));
    return reply;
  }

  /** Each node's INFO text, raw as redis-cli prints INFO, after a {@code # Node} header line. */
  private Object info(Map<String, String> answers) {
    TopologySnapshot topology = client.topology();
    StringBuilder text = new StringBuilder();
    answers.forEach(
        (node, answer) -> {
          if (text.length() > 0) {
            text.append('\n');
          }
          String address = topology.node(node).map(found -> " " + found.address()).orElse("");
          text.append("# Node ").append(node).append(address).append('\n');
          text.append(answer.replace("\r\n", "\n").strip()).append('\n');
        });
    return new ReplyPrinter.Raw(text.toString());
  }

  /** SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]: one page of the cluster-wide scan. */
  private CompletionStage<Object> scan(List<byte[]> arguments) {
    if (arguments.isEmpty()) {
      throw ExecCommandTable.wrongArguments("SCAN");
    }
    String cursor = ExecCommandTable.text(arguments.get(0));
    byte[] match = null;
    Long count = null;
    String type = null;
    for (int index = 1; index < arguments.size(); index += 2) {
      String option = ExecCommandTable.text(arguments.get(index)).toUpperCase(Locale.ROOT);
      if (index + 1 >= arguments.size()) {
        throw new ExecCommandTable.Refusal("ERR syntax error");
      }
      byte[] value = arguments.get(index + 1);
      switch (option) {
        case "MATCH" -> match = value;
        case "COUNT" -> {
          count = ExecCommandTable.integer(value);
          if (count < 1) {
            throw new ExecCommandTable.Refusal("ERR syntax error");
          }
        }
        case "TYPE" -> type = ExecCommandTable.text(value);
        default -> throw new ExecCommandTable.Refusal("ERR syntax error");
      }
    }
    ScanArgs scanArgs = null;
    if (match != null || count != null || type != null) {
      KeyScanArgs keyScanArgs = new KeyScanArgs();
      if (match != null) {
        keyScanArgs.match(match);
      }
      if (count != null) {
        keyScanArgs.limit(count);
      }
      if (type != null) {
        keyScanArgs.type(type);
      }
      scanArgs = keyScanArgs;
    }
    CompletionStage<KeyScanCursor<byte[]>> page;
    if (cursor.equals("0")) {
      page = scanArgs == null ? redis.scan() : redis.scan(scanArgs);
    } else {
      ScanCursor from = ScanCursor.of(cursor);
      page = scanArgs == null ? redis.scan(from) : redis.scan(from, scanArgs);
    }
    return page.thenApply(
        result ->
            List.of(
                utf8(result.isFinished() ? "0" : result.getCursor()),
                new ArrayList<Object>(result.getKeys())));
  }

  // ---- keyed ------------------------------------------------------------------------------------

  private CompletionStage<Object> keyed(String name, List<byte[]> arguments) {
    int[] keys = ExecCommandTable.keys(name, arguments);
    requireOneShard(name, arguments, keys);
    CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE);
    for (byte[] argument : arguments) {
      args.add(argument);
    }
    return redis.dispatch(arguments.get(keys[0]), keyword(name), new ReplyOutput(), args);
  }

  /** Refuses a command whose keys are on different shards, naming two of them. */
  private void requireOneShard(String name, List<byte[]> arguments, int[] keys) {
    if (keys.length < 2) {
      return;
    }
    Xxh64JumpRouter router = router();
    byte[] firstKey = arguments.get(keys[0]);
    int shard = router.shardOf(firstKey);
    for (int index = 1; index < keys.length; index++) {
      byte[] key = arguments.get(keys[index]);
      int other = router.shardOf(key);
      if (other != shard) {
        throw new ExecCommandTable.Refusal(
            "CROSSSHARD keys of "
                + name
                + " are on different shards: "
                + ReplyPrinter.quoted(firstKey)
                + " on shard "
                + shard
                + ", "
                + ReplyPrinter.quoted(key)
                + " on shard "
                + other
                + "; keep a command's keys under one hash tag, e.g. {user42}.a and {user42}.b");
      }
    }
  }

  /** The command's name as Lettuce's {@link CommandType}, or a keyword of its own. */
  static ProtocolKeyword keyword(String name) {
    for (CommandType type : CommandType.values()) {
      if (type.name().equals(name)
          && Arrays.equals(type.getBytes(), name.getBytes(StandardCharsets.ISO_8859_1))) {
        return type;
      }
    }
    byte[] bytes = name.getBytes(StandardCharsets.ISO_8859_1);
    return new ProtocolKeyword() {
      @Override
      public byte[] getBytes() {
        return bytes.clone();
      }

      @Override
      public String name() {
        return name;
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }

  // ---- outcome ----------------------------------------------------------------------------------

  private Object await(CompletionStage<Object> stage) {
    try {
      return stage.toCompletableFuture().get(wait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw new CompletionException(e.getCause());
    } catch (TimeoutException e) {
      throw new JumpgateException("no answer within " + wait.toMillis() + " ms");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new JumpgateException("interrupted while waiting for the answer");
    }
  }

  private static Throwable unwrap(Throwable error) {
    Throwable cause = error;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  /** Whether the failure is the server's own answer (every node's, for a broadcast). */
  private static boolean isServerAnswer(Throwable failure) {
    if (failure instanceof RedisCommandExecutionException) {
      return true;
    }
    if (failure instanceof BroadcastFailedException broadcast) {
      return broadcast.failures().values().stream()
          .allMatch(cause -> unwrap(cause) instanceof RedisCommandExecutionException);
    }
    return false;
  }

  private static String message(Throwable failure) {
    String message = failure.getMessage();
    if (failure instanceof RedisCommandExecutionException) {
      return message == null ? failure.getClass().getSimpleName() : message;
    }
    String text =
        failure instanceof JumpgateException
            ? (message == null ? failure.getClass().getSimpleName() : message)
            : failure.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    String server = serverAnswerWithin(failure);
    return server == null || text.contains(server) ? text : text + " (server: " + server + ")";
  }

  /**
   * The server's own answer deep in a failure's causes, e.g. {@code WRONGPASS ...} under "could not
   * connect": the driver's one-line attempts name the connection failure, not why the server
   * refused it.
   */
  private static String serverAnswerWithin(Throwable failure) {
    Throwable cause = failure.getCause();
    for (int depth = 0; cause != null && depth < 10; depth++, cause = cause.getCause()) {
      if (cause instanceof RedisCommandExecutionException && cause.getMessage() != null) {
        return cause.getMessage();
      }
    }
    return null;
  }

  private ReplyPrinter.ErrorReply error(String message) {
    return new ReplyPrinter.ErrorReply(scrub(oneLine(message)));
  }

  /** The message with every secret replaced by {@code ***}. */
  String scrub(String message) {
    String scrubbed = message;
    for (String secret : secrets) {
      scrubbed = scrubbed.replace(secret, "***");
    }
    return scrubbed;
  }

  private static String oneLine(String message) {
    return message.strip().replaceAll("\\s*\\R\\s*", " ");
  }

  // ---- trace ------------------------------------------------------------------------------------

  /**
   * One line per event of the command that just ended, ordered by node: {@code # shard=<n>
   * node=<id> addr=<host:port> attempts=<k>}; {@code shard=-} for a part sent to a chosen node (a
   * broadcast), and for a part of a fan-out the shards of its keys that the node leads ({@code
   * shard=3,7}); {@code failed} at the end when the part got no answer or an error.
   */
  private List<String> traceLines(List<byte[]> fanOutKeys) {
    if (trace == null) {
      return List.of();
    }
    List<CommandEvent> events = trace.drain();
    events.sort(
        Comparator.comparing(
                (CommandEvent event) -> event.nodeId(),
                Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparingInt(CommandEvent::shard));
    Map<String, TreeSet<Integer>> shardsByNode =
        fanOutKeys.isEmpty() ? Map.of() : shardsByLeader(fanOutKeys);
    List<String> lines = new ArrayList<>(events.size());
    for (CommandEvent event : events) {
      String shard;
      if (event.shard() < 0) {
        shard = "-";
      } else {
        TreeSet<Integer> shards = event.nodeId() == null ? null : shardsByNode.get(event.nodeId());
        shard =
            shards == null || !shards.contains(event.shard())
                ? Integer.toString(event.shard())
                : shards.stream().map(String::valueOf).collect(Collectors.joining(","));
      }
      lines.add(
          "# shard="
              + shard
              + " node="
              + Objects.requireNonNullElse(event.nodeId(), "-")
              + " addr="
              + Objects.requireNonNullElse(event.address(), "-")
              + " attempts="
              + event.attempts()
              + (event.success() ? "" : " failed"));
    }
    return lines;
  }

  /** Node id -> the shards of these keys that it leads, in the map in force. */
  private Map<String, TreeSet<Integer>> shardsByLeader(List<byte[]> keys) {
    TopologySnapshot topology = client.topology();
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(topology.shardCount());
    Map<String, TreeSet<Integer>> shards = new LinkedHashMap<>();
    for (byte[] key : keys) {
      int shard = router.shardOf(key);
      ShardRoute route = topology.route(shard);
      if (route.leader() != null) {
        shards.computeIfAbsent(route.leader().id(), node -> new TreeSet<>()).add(shard);
      }
    }
    return shards;
  }

  private Xxh64JumpRouter router() {
    return Xxh64JumpRouter.forShards(client.topology().shardCount());
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
