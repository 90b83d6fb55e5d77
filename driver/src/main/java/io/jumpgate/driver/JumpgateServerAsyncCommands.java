package io.jumpgate.driver;

import io.lettuce.core.FlushMode;
import io.lettuce.core.KeyScanArgs;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * Commands for the whole cluster, sent to every node or every leader and merged: PING, DBSIZE,
 * FLUSHDB, FLUSHALL, KEYS, INFO and a cluster-wide SCAN.
 *
 * <p>A broadcast goes to the nodes of the shard map in force when it is called: every node (PING,
 * INFO) or every distinct leader (the rest; replicas follow their leader by replication, so they
 * are neither counted nor flushed twice). The nodes are asked all at once, each command pinned to
 * its node (never sent elsewhere on retry) with its own deadline, and the answers are merged once
 * every node ended. Answers keyed by node are ordered by node id. A node that fails fails the whole
 * stage with {@link BroadcastFailedException}, which names every failed node with the driver's own
 * exception for it and carries the answers of the nodes that did answer; it is raised after every
 * node ended, so a failed FLUSHDB tells which leaders were flushed. When no shard has a leader, the
 * stage fails with {@link io.jumpgate.spi.ShardUnavailableException} and nothing is sent.
 *
 * <p>Shards without a leader in the map are not covered, and a leader holding keys outside its
 * shards (left over after a move) counts and lists them: DBSIZE, KEYS and SCAN report what the
 * leaders hold, not what the map routes. See docs/driver-broadcast.md.
 *
 * <p>Thread-safe. A null argument throws {@link NullPointerException} naming the parameter before
 * anything is sent; calls after the client was closed throw {@link IllegalStateException}.
 */
public interface JumpgateServerAsyncCommands<K, V> {

  /**
   * PING on every node, leaders and replicas: node id -> {@code "PONG"}, for every node of the map.
   * A node that does not answer fails the stage with {@link BroadcastFailedException}, whose {@link
   * BroadcastFailedException#failures()} names the unreachable nodes and {@link
   * BroadcastFailedException#answers()} the ones that answered.
   */
  CompletionStage<Map<String, String>> ping();

  /**
   * DBSIZE summed over the leaders: the number of keys the leaders hold (replicas are not counted,
   * they hold copies). Keys of a shard being moved may be counted on both nodes until the move
   * ends.
   */
  CompletionStage<Long> dbsize();

  /**
   * FLUSHDB on every leader (replicas follow): {@code "OK"} once every leader said OK. Not atomic:
   * when one leader fails, the others may have been flushed ({@link
   * BroadcastFailedException#answers()} names them). Sent again when its fate is unknown, since
   * flushing twice does no harm.
   */
  CompletionStage<String> flushdb();

  /** FLUSHDB SYNC or ASYNC on every leader; see {@link #flushdb()}. */
  CompletionStage<String> flushdb(FlushMode flushMode);

  /** FLUSHALL on every leader (every database of each); see {@link #flushdb()}. */
  CompletionStage<String> flushall();

  /** FLUSHALL SYNC or ASYNC on every leader; see {@link #flushdb()}. */
  CompletionStage<String> flushall(FlushMode flushMode);

  /**
   * KEYS on every leader, merged: leader by leader in node id order, each leader's keys in its own
   * order. KEYS blocks each node while it walks its whole key space: prefer {@link #scan} on a
   * cluster in use. A key of a shard being moved may be listed twice until the move ends.
   */
  CompletionStage<List<K>> keys(K pattern);

  /** INFO on every node, leaders and replicas: node id -> that node's INFO text. */
  CompletionStage<Map<String, String>> info();

  /** INFO of one section (e.g. {@code "replication"}) on every node; see {@link #info()}. */
  CompletionStage<Map<String, String>> info(String section);

  /**
   * Starts a cluster-wide SCAN: the first page of the first leader (leaders are scanned one after
   * the other in node id order). Pass the returned cursor to {@link #scan(ScanCursor)} until it
   * {@link ScanCursor#isFinished() is finished}; each call asks one leader.
   *
   * <p>The cursor text is {@code <node id>:<node cursor>}, e.g. {@code leader-1:1536}: the leader
   * being scanned and its own SCAN cursor; {@code 0} starts a scan. A finished cursor's text is
   * {@code 0}. When the map does not change, every key the leaders hold at the start and keep until
   * the end is returned exactly once (a leader's own SCAN guarantee, leader after leader). When the
   * map changes during a scan, keys moved between nodes may be missed or returned twice; a cursor
   * whose node is no longer a leader goes on with the first leader whose id sorts after it, from
   * that leader's start (see docs/driver-broadcast.md).
   */
  CompletionStage<KeyScanCursor<K>> scan();

  /**
   * Starts a cluster-wide SCAN with MATCH and COUNT (and TYPE with {@link KeyScanArgs}), applied by
   * each leader; see {@link #scan()}.
   */
  CompletionStage<KeyScanCursor<K>> scan(ScanArgs scanArgs);

  /**
   * Goes on with a cluster-wide SCAN; see {@link #scan()}.
   *
   * @throws IllegalArgumentException when the cursor is finished, or its text is neither {@code 0}
   *     nor {@code <node id>:<node cursor>} (the message quotes it)
   */
  CompletionStage<KeyScanCursor<K>> scan(ScanCursor scanCursor);

  /**
   * Goes on with a cluster-wide SCAN with MATCH and COUNT (and TYPE); see {@link #scan()}. Pass the
   * same arguments on every call of one scan.
   *
   * @throws IllegalArgumentException when the cursor is finished, or its text is neither {@code 0}
   *     nor {@code <node id>:<node cursor>} (the message quotes it)
   */
  CompletionStage<KeyScanCursor<K>> scan(ScanCursor scanCursor, ScanArgs scanArgs);
}
