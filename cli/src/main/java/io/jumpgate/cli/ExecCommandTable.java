package io.jumpgate.cli;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * How {@code jumpgate exec} runs each Redis command: through a typed driver method (multi-key
 * commands split over the nodes, broadcasts), refused (commands without a key, and commands that
 * change the state of the connection every command shares), or sent to the leader of its keys'
 * shard with the driver's generic {@code dispatch}, after checking that all its keys are on one
 * shard.
 *
 * <p>Where a keyed command's keys are comes from its Redis key specification: the first argument
 * ({@code GET key}), all of them ({@code SINTER key...}), all but the last ({@code BLPOP key...
 * timeout}), the first two ({@code RENAME key newkey}), a count ({@code ZUNION numkeys key...},
 * {@code EVAL script numkeys key... arg...}: at least one key, since the keys route the script),
 * after {@code STREAMS} ({@code XREAD}), and so on. A command this table does not know is taken to
 * have its key first, the convention of Redis and of most modules.
 *
 * <p>EVAL and EVALSHA are keyed commands here rather than the driver's {@code eval}: the driver's
 * untyped script answer ({@code ScriptOutputType.OBJECT}, Lettuce's {@code ObjectOutput}) fails on
 * a scalar reply with Lettuce 7.7, and the nested one ({@code MULTI}) cannot tell {@code 5} from
 * {@code {5}}. Routing and retries are the same: the leader of the keys' one shard, never sent
 * again when its fate is unknown.
 *
 * <p>Immutable; thread-safe.
 */
final class ExecCommandTable {

  /** How a command is run. */
  enum Kind {
    /** Sent with {@code dispatch} to the leader of its keys' shard. */
    KEYED,
    /** MGET, MSET, DEL, UNLINK, EXISTS, TOUCH: split over the nodes by the driver. */
    FAN_OUT,
    /** PING, DBSIZE, KEYS, SCAN, FLUSHDB, FLUSHALL, INFO: sent to every node and merged. */
    BROADCAST,
    /** Not run: the reason is {@link Entry#refusal}. */
    REFUSED
  }

  /** Finds where a keyed command's keys are among its arguments (after its name). */
  @FunctionalInterface
  interface KeySpec {
    /**
     * The indices of the keys in {@code arguments}, in order; never empty.
     *
     * @throws Refusal with a Redis-style message if the arguments hold no key or are malformed
     */
    int[] keys(String name, List<byte[]> arguments);
  }

  /** A command that {@code exec} does not send, with a Redis-style message ({@code ERR ...}). */
  static final class Refusal extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Refusal(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * How one command is run.
   *
   * @param kind how
   * @param keys where the keys are, for {@link Kind#KEYED}; else null
   * @param known whether the command is in the table (an unknown one is keyed by its first
   *     argument)
   * @param refusal the message of a {@link Kind#REFUSED} command; else null
   */
  record Entry(Kind kind, KeySpec keys, boolean known, String refusal) {}

  private static final String BROADCASTS = "PING, DBSIZE, KEYS, SCAN, FLUSHDB, FLUSHALL and INFO";

  private static final Map<String, Entry> ENTRIES = new HashMap<>();

  static {
    keyed(
        ExecCommandTable::first,
        // strings and bitmaps
        "APPEND DECR DECRBY GET GETDEL GETEX GETRANGE GETSET INCR INCRBY INCRBYFLOAT PSETEX SET"
            + " SETEX SETNX SETRANGE STRLEN SUBSTR BITCOUNT BITFIELD BITFIELD_RO BITPOS GETBIT"
            + " SETBIT",
        // generic keys
        "DUMP EXPIRE EXPIREAT EXPIRETIME PERSIST PEXPIRE PEXPIREAT PEXPIRETIME PTTL RESTORE TTL"
            + " TYPE SORT_RO MOVE",
        // hashes
        "HDEL HEXISTS HGET HGETALL HINCRBY HINCRBYFLOAT HKEYS HLEN HMGET HMSET HRANDFIELD HSCAN"
            + " HSET HSETNX HSTRLEN HVALS HEXPIRE HPEXPIRE HEXPIREAT HPEXPIREAT HTTL HPTTL"
            + " HEXPIRETIME HPEXPIRETIME HPERSIST HGETDEL HGETEX HSETEX",
        // lists
        "LINDEX LINSERT LLEN LPOP LPOS LPUSH LPUSHX LRANGE LREM LSET LTRIM RPOP RPUSH RPUSHX",
        // sets
        "SADD SCARD SISMEMBER SMEMBERS SMISMEMBER SPOP SRANDMEMBER SREM SSCAN",
        // sorted sets
        "ZADD ZCARD ZCOUNT ZINCRBY ZLEXCOUNT ZMSCORE ZPOPMAX ZPOPMIN ZRANDMEMBER ZRANGE"
            + " ZRANGEBYLEX ZRANGEBYSCORE ZRANK ZREM ZREMRANGEBYLEX ZREMRANGEBYRANK"
            + " ZREMRANGEBYSCORE ZREVRANGE ZREVRANGEBYLEX ZREVRANGEBYSCORE ZREVRANK ZSCAN ZSCORE",
        // hyperloglog, geo, streams
        "PFADD GEOADD GEODIST GEOHASH GEOPOS GEORADIUS_RO GEORADIUSBYMEMBER_RO GEOSEARCH XACK XADD"
            + " XAUTOCLAIM XCLAIM XDEL XLEN XPENDING XRANGE XREVRANGE XSETID XTRIM");
    keyed(ExecCommandTable::firstAndStore, "SORT GEORADIUS GEORADIUSBYMEMBER");
    keyed(
        ExecCommandTable::all,
        "SDIFF SINTER SUNION SDIFFSTORE SINTERSTORE SUNIONSTORE PFCOUNT PFMERGE");
    keyed(ExecCommandTable::allButLast, "BLPOP BRPOP BZPOPMIN BZPOPMAX");
    keyed(
        ExecCommandTable::firstTwo,
        "RENAME RENAMENX COPY SMOVE RPOPLPUSH BRPOPLPUSH LMOVE BLMOVE LCS ZRANGESTORE"
            + " GEOSEARCHSTORE");
    keyed((name, arguments) -> fromIndex(name, arguments, 1, 3), "BITOP");
    keyed(ExecCommandTable::pairs, "MSETNX");
    keyed(
        (name, arguments) -> counted(name, arguments, 0, false),
        "ZDIFF ZINTER ZUNION ZINTERCARD SINTERCARD LMPOP ZMPOP");
    keyed(
        (name, arguments) -> counted(name, arguments, 1, false),
        "BLMPOP BZMPOP EVAL EVALSHA EVAL_RO EVALSHA_RO FCALL FCALL_RO");
    keyed(
        (name, arguments) -> counted(name, arguments, 1, true),
        "ZDIFFSTORE ZINTERSTORE ZUNIONSTORE");
    keyed(ExecCommandTable::streams, "XREAD XREADGROUP");
    keyed(ExecCommandTable::subcommandKey, "OBJECT XINFO XGROUP MEMORY");

    kind(Kind.FAN_OUT, "MGET MSET DEL UNLINK EXISTS TOUCH");
    kind(Kind.BROADCAST, "PING DBSIZE KEYS SCAN FLUSHDB FLUSHALL INFO");

    for (String name :
        ("AUTH HELLO SELECT RESET QUIT MULTI EXEC DISCARD WATCH UNWATCH CLIENT READONLY READWRITE"
                + " ASKING SUBSCRIBE PSUBSCRIBE SSUBSCRIBE UNSUBSCRIBE PUNSUBSCRIBE SUNSUBSCRIBE"
                + " MONITOR SYNC PSYNC REPLCONF")
            .split(" ")) {
      ENTRIES.put(
          name,
          new Entry(
              Kind.REFUSED,
              null,
              true,
              "ERR "
                  + name
                  + " is not supported by jumpgate exec: it would change the state of a connection"
                  + " that every command shares (no transactions, no subscriptions, no AUTH or"
                  + " SELECT; give --redis-user and --redis-password instead of AUTH)"));
    }
    for (String name :
        ("ACL BGREWRITEAOF BGSAVE CLUSTER COMMAND CONFIG DEBUG ECHO FAILOVER FUNCTION LASTSAVE"
                + " LATENCY LOLWUT MODULE PUBLISH PUBSUB RANDOMKEY REPLICAOF ROLE SAVE SCRIPT"
                + " SHUTDOWN SLAVEOF SLOWLOG SPUBLISH SWAPDB TIME WAIT WAITAOF")
            .split(" ")) {
      ENTRIES.put(name, new Entry(Kind.REFUSED, null, true, keyless(name)));
    }
  }

  private ExecCommandTable() {}

  /** How the command named {@code name} (any case) is run. */
  static Entry entry(String name) {
    String upper = name.toUpperCase(Locale.ROOT);
    Entry entry = ENTRIES.get(upper);
    return entry != null
        ? entry
        : new Entry(Kind.KEYED, ExecCommandTable::firstOfUnknown, false, null);
  }

  /**
   * The indices of a keyed command's keys among its arguments.
   *
   * @throws Refusal if the command is not keyed, or its arguments hold no key
   */
  static int[] keys(String name, List<byte[]> arguments) {
    Entry entry = entry(name);
    if (entry.kind() == Kind.REFUSED) {
      throw new Refusal(entry.refusal());
    }
    if (entry.kind() != Kind.KEYED) {
      throw new IllegalArgumentException(name + " is not a keyed command");
    }
    return entry.keys().keys(name, arguments);
  }

  /** The refusal of a command that has no key, naming it. */
  static String keyless(String name) {
    return "ERR "
        + name
        + " has no key to route by: jumpgate exec sends a key's commands to its shard's leader and "
        + BROADCASTS
        + " to every node; run "
        + name
        + " on one node with redis-cli (the addresses: jumpgate topology show)";
  }

  /** Redis's message for a wrong number of arguments. */
  static Refusal wrongArguments(String name) {
    return new Refusal(
        "ERR wrong number of arguments for '" + name.toLowerCase(Locale.ROOT) + "' command");
  }

  private static void keyed(KeySpec spec, String... groups) {
    for (String group : groups) {
      for (String name : group.split(" ")) {
        ENTRIES.put(name, new Entry(Kind.KEYED, spec, true, null));
      }
    }
  }

  private static void kind(Kind kind, String names) {
    for (String name : names.split(" ")) {
      ENTRIES.put(name, new Entry(kind, null, true, null));
    }
  }

  private static int[] first(String name, List<byte[]> arguments) {
    if (arguments.isEmpty()) {
      throw wrongArguments(name);
    }
    return new int[] {0};
  }

  private static int[] firstOfUnknown(String name, List<byte[]> arguments) {
    if (arguments.isEmpty()) {
      throw new Refusal(
          "ERR no key to route "
              + name
              + " by: jumpgate exec sends a command it does not know to the leader of its first"
              + " argument's shard, and "
              + name
              + " has no argument");
    }
    return new int[] {0};
  }

  /** The first argument, and the argument after each STORE or STOREDIST (SORT, GEORADIUS). */
  private static int[] firstAndStore(String name, List<byte[]> arguments) {
    first(name, arguments);
    IntStream.Builder keys = IntStream.builder().add(0);
    for (int index = 1; index + 1 < arguments.size(); index++) {
      String word = text(arguments.get(index)).toUpperCase(Locale.ROOT);
      if (word.equals("STORE") || word.equals("STOREDIST")) {
        keys.add(++index);
      }
    }
    return keys.build().toArray();
  }

  private static int[] all(String name, List<byte[]> arguments) {
    return fromIndex(name, arguments, 0, 1);
  }

  private static int[] fromIndex(String name, List<byte[]> arguments, int start, int minimum) {
    if (arguments.size() < minimum) {
      throw wrongArguments(name);
    }
    return IntStream.range(start, arguments.size()).toArray();
  }

  private static int[] allButLast(String name, List<byte[]> arguments) {
    if (arguments.size() < 2) {
      throw wrongArguments(name);
    }
    return IntStream.range(0, arguments.size() - 1).toArray();
  }

  private static int[] firstTwo(String name, List<byte[]> arguments) {
    if (arguments.size() < 2) {
      throw wrongArguments(name);
    }
    return new int[] {0, 1};
  }

  private static int[] pairs(String name, List<byte[]> arguments) {
    if (arguments.isEmpty() || arguments.size() % 2 != 0) {
      throw wrongArguments(name);
    }
    return IntStream.range(0, arguments.size() / 2).map(pair -> pair * 2).toArray();
  }

  /**
   * Keys counted by the argument at {@code countIndex} and following it; with {@code destination},
   * the first argument is a key too ({@code ZUNIONSTORE destination numkeys key...}).
   */
  private static int[] counted(
      String name, List<byte[]> arguments, int countIndex, boolean destination) {
    if (arguments.size() <= countIndex) {
      throw wrongArguments(name);
    }
    long count = integer(arguments.get(countIndex));
    if (count < 0) {
      throw new Refusal("ERR Number of keys can't be negative");
    }
    if (count > arguments.size() - countIndex - 1) {
      throw new Refusal("ERR Number of keys can't be greater than number of args");
    }
    if (count == 0 && !destination) {
      throw new Refusal(
          "ERR "
              + name
              + " with no key has no shard to run on: jumpgate exec routes it by its keys (pass a"
              + " key of the shard to run it on)");
    }
    IntStream.Builder keys = IntStream.builder();
    if (destination) {
      keys.add(0);
    }
    for (int index = 0; index < count; index++) {
      keys.add(countIndex + 1 + index);
    }
    return keys.build().toArray();
  }

  /** XREAD and XREADGROUP: the first half of what follows STREAMS. */
  private static int[] streams(String name, List<byte[]> arguments) {
    for (int index = 0; index < arguments.size(); index++) {
      if (text(arguments.get(index)).equalsIgnoreCase("STREAMS")) {
        int rest = arguments.size() - index - 1;
        if (rest == 0 || rest % 2 != 0) {
          throw new Refusal(
              "ERR Unbalanced '"
                  + name.toLowerCase(Locale.ROOT)
                  + "' list of streams: for each stream key an ID or '$' must be specified.");
        }
        return IntStream.range(index + 1, index + 1 + rest / 2).toArray();
      }
    }
    throw new Refusal("ERR syntax error");
  }

  /** OBJECT ENCODING key, XINFO STREAM key, XGROUP CREATE key ..., MEMORY USAGE key. */
  private static int[] subcommandKey(String name, List<byte[]> arguments) {
    String upper = name.toUpperCase(Locale.ROOT);
    boolean keyed =
        arguments.size() >= 2
            && !text(arguments.get(0)).equalsIgnoreCase("HELP")
            && (!upper.equals("MEMORY") || text(arguments.get(0)).equalsIgnoreCase("USAGE"));
    if (!keyed) {
      String what =
          upper
              + (arguments.isEmpty() ? "" : " " + text(arguments.get(0)).toUpperCase(Locale.ROOT));
      throw new Refusal(keyless(what));
    }
    return new int[] {1};
  }

  /** Commands whose reply is a status ({@code +OK}, {@code +string}), never a bulk string. */
  private static final Set<String> STATUS_COMMANDS =
      Set.of(
          "SETEX", "PSETEX", "LSET", "LTRIM", "RENAME", "HMSET", "RESTORE", "PFMERGE", "TYPE",
          "XSETID");

  /** Scripts and commands this table does not know: a bare {@code OK} is taken as a status. */
  private static final Set<String> OK_IS_STATUS =
      Set.of("EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL", "FCALL_RO");

  /**
   * Whether a top-level string reply of this command is a status reply (printed bare, {@code OK})
   * rather than a bulk string (printed quoted, {@code "OK"}).
   *
   * <p>Lettuce's RESP2 decoder hands both to an output the same way, so the command decides: SET
   * without GET, SETEX, PSETEX, LSET, LTRIM, RENAME, HMSET, RESTORE, PFMERGE, TYPE, XSETID and
   * XGROUP CREATE/SETID answer with a status; for scripts and for commands this table does not know
   * (modules), a bare {@code OK} is taken as a status.
   */
  static boolean isStatusReply(String name, List<byte[]> arguments, byte[] reply) {
    String upper = name.toUpperCase(Locale.ROOT);
    if (STATUS_COMMANDS.contains(upper)) {
      return true;
    }
    if (upper.equals("SET")) {
      for (int index = 2; index < arguments.size(); index++) {
        if (text(arguments.get(index)).equalsIgnoreCase("GET")) {
          return false;
        }
      }
      return true;
    }
    if (upper.equals("XGROUP") && !arguments.isEmpty()) {
      String subcommand = text(arguments.get(0)).toUpperCase(Locale.ROOT);
      return subcommand.equals("CREATE") || subcommand.equals("SETID");
    }
    boolean ok = reply.length == 2 && reply[0] == 'O' && reply[1] == 'K';
    return ok && (OK_IS_STATUS.contains(upper) || !ENTRIES.containsKey(upper));
  }

  /** An argument as an integer, or Redis's error. */
  static long integer(byte[] argument) {
    try {
      return Long.parseLong(text(argument));
    } catch (NumberFormatException e) {
      throw new Refusal("ERR value is not an integer or out of range");
    }
  }

  /** An argument's bytes as text, one character per byte (for words and numbers). */
  static String text(byte[] argument) {
    return new String(argument, StandardCharsets.ISO_8859_1);
  }
}
