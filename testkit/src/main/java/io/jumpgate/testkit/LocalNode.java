package io.jumpgate.testkit;

import io.jumpgate.spi.Node;
import java.util.Optional;

/**
 * One redis-server of a {@link LocalCluster}: a leader (listed as the leader of its shards) or a
 * replica ({@code --replicaof} its leader, listed as the replica of the same shards). Its faults
 * act on the real process: {@link #pause()} (SIGSTOP) and {@link #resume()} (SIGCONT), {@link
 * #kill()} (SIGKILL), {@link #restart()} on the same port.
 *
 * <p>Node ids: {@code leader-<i>} and {@code replica-<i>-<j>} (the {@code j}th replica of {@code
 * leader-<i>}). Servers keep no data on disk ({@code --save ""}, no AOF), so a killed and restarted
 * leader comes back empty.
 *
 * <p>Thread-safe: the faults may be called from any thread; each waits at most a few seconds.
 */
public final class LocalNode {

  /** What a server is in the map and in Redis replication. */
  public enum Role {
    /** Leads shards; a writable primary. */
    LEADER,
    /** Replicates a leader ({@code --replicaof}); listed as a replica of that leader's shards. */
    REPLICA
  }

  private final String id;
  private final Role role;
  private final String leaderId;
  private final int port;
  private final RedisServer process;

  LocalNode(String id, Role role, String leaderId, RedisServer process) {
    this.id = id;
    this.role = role;
    this.leaderId = leaderId;
    this.port = process.port();
    this.process = process;
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

  /** The redis-server process itself, for what the methods here do not cover. */
  public RedisServer server() {
    return process;
  }

  @Override
  public String toString() {
    return id + " (" + role + ", " + address() + ", pid " + pid() + ")";
  }
}
