package io.jumpgate.testkit;

import io.jumpgate.spi.Node;
import io.jumpgate.testkit.internal.RedisCli;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;

/**
 * One redis-server of a {@link LocalCluster}: a leader (listed as the leader of its shards) or a
 * replica ({@code --replicaof} its leader, listed as the replica of the same shards). Its faults
 * act on the real process: {@link #pause()} (SIGSTOP) and {@link #resume()} (SIGCONT), {@link
 * #kill()} (SIGKILL), {@link #restart()} on the same port. {@link #redisCli(String...)} asks it
 * with {@code redis-cli}, to check from the outside what it holds.
 *
 * <p>Node ids: {@code leader-<i>} and {@code replica-<i>-<j>} (the {@code j}th replica of {@code
 * leader-<i>}). Servers keep no data on disk ({@code --save ""}, no AOF), so a killed and restarted
 * leader comes back empty.
 *
 * <p>Thread-safe: the faults and redis-cli may be called from any thread; each waits at most a few
 * seconds (redis-cli at most 10 s).
 */
public final class LocalNode {

  /** What a server is in the map and in Redis replication. */
  public enum Role {
    /** Leads shards; a writable primary. */
    LEADER,
    /** Replicates a leader ({@code --replicaof}); listed as a replica of that leader's shards. */
    REPLICA
  }

  /** How long {@link #redisCli(String...)} waits for redis-cli to end. */
  public static final Duration REDIS_CLI_TIMEOUT = Duration.ofSeconds(10);

  private final String id;
  private final Role role;
  private final String leaderId;
  private final int port;
  private final RedisServer process;
  private final String redisUsername;
  private final String redisPassword;

  LocalNode(
      String id,
      Role role,
      String leaderId,
      RedisServer process,
      String redisUsername,
      String redisPassword) {
    this.id = id;
    this.role = role;
    this.leaderId = leaderId;
    this.port = process.port();
    this.process = process;
    this.redisUsername = redisUsername;
    this.redisPassword = redisPassword;
  }

  /** The node id in the map. */
  public String id() {
    return id;
  }

  /** Leader or replica. */
  public Role role() {
    return role;
  }

  /** For a replica, the id of the leader it replicates; empty for a leader. */
  public Optional<String> leaderId() {
    return Optional.ofNullable(leaderId);
  }

  /** Its port on 127.0.0.1. */
  public int port() {
    return port;
  }

  /** {@code 127.0.0.1:<port>}. */
  public String address() {
    return "127.0.0.1:" + port;
  }

  /** The node as the map lists it. */
  public Node node() {
    return Node.of(id, "127.0.0.1", port);
  }

  /** The pid of its current process. */
  public long pid() {
    return process.pid();
  }

  /** Whether its process runs (a paused process runs). */
  public boolean isRunning() {
    return process.isRunning();
  }

  /** The end of its log (stdout and stderr of every start), for a failure message. */
  public String logTail(int lines) {
    return process.logTail(lines);
  }

  /**
   * SIGSTOP: the server keeps its connections but answers nothing until {@link #resume()}.
   *
   * @throws LocalClusterException if it is not running
   */
  public void pause() {
    process.pause();
  }

  /**
   * SIGCONT: a paused server answers again.
   *
   * @throws LocalClusterException if it is not running
   */
  public void resume() {
    process.resume();
  }

  /** SIGKILL, then waits (bounded) until the process is gone. Does nothing if it is not running. */
  public void kill() {
    if (process.isRunning()) {
      process.kill9();
    }
  }

  /**
   * Stops the server if it runs (SIGTERM, then SIGKILL after 10 s) and starts it again on the same
   * port with the same arguments, waiting (at most 20 s) until it answers PING. Its data is gone
   * (no persistence); a replica syncs again with its leader in the background.
   *
   * @throws LocalClusterException if it does not come back, with the end of its log
   */
  public void restart() {
    process.restart();
  }

  /**
   * Asks this server with {@code redis-cli} (from the {@code PATH}), as a person at a shell would,
   * and returns its raw answer: {@code redis-cli -e --raw -h 127.0.0.1 -p <port> <arguments>}, with
   * the cluster's ACL user when it has one (the password is passed in the environment, not on the
   * command line). The answer is what redis-cli prints without its last line end: a string as is,
   * an integer as its digits ({@code redisCli("EXISTS", "user:42")} is {@code "1"} or {@code "0"}),
   * an array one element a line, a missing value as {@code ""}.
   *
   * <p>Blocks the calling thread at most {@link #REDIS_CLI_TIMEOUT} (10 s), then kills redis-cli.
   * Not for a Netty or other event-loop thread.
   *
   * @param arguments the command and its arguments, each one argument of redis-cli
   * @throws IllegalArgumentException if no command is given or an argument is null
   * @throws RedisCliException naming the node, the command and what redis-cli printed, when
   *     redis-cli is not on the {@code PATH} (with the package that installs it), cannot connect or
   *     authenticate, gets an error answer, or does not end within 10 s
   */
  public String redisCli(String... arguments) {
    return RedisCli.run(
        System.getenv(),
        id + " (" + address() + ")",
        port,
        redisUsername,
        redisPassword,
        REDIS_CLI_TIMEOUT,
        Arrays.asList(arguments));
  }

  /** The redis-server process itself, for what the methods here do not cover. */
  public RedisServer server() {
    return process;
  }

  @Override
  public String toString() {
    return id + " (" + role + ", " + address() + ", pid " + pid() + ")";
  }
}
