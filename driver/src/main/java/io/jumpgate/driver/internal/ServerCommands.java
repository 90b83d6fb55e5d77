package io.jumpgate.driver.internal;

import static io.jumpgate.driver.internal.CommandFlags.IDEMPOTENT_WRITE;
import static io.jumpgate.driver.internal.CommandFlags.READ_ONLY;

import io.jumpgate.driver.JumpgateServerAsyncCommands;
import io.jumpgate.driver.internal.Broadcast.Targets;
import io.lettuce.core.FlushMode;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The server commands, as default methods over the connection's {@link CommandExecutor}: the
 * broadcasts go through {@link Broadcast}, the cluster-wide SCAN asks one leader per call and keeps
 * its place in a {@link ClusterScanCursor}.
 */
interface ServerCommands<K, V> extends JumpgateServerAsyncCommands<K, V> {

  CommandExecutor<K, V> executor();

  @Override
  default CompletionStage<Map<String, String>> ping() {
    CommandExecutor<K, V> x = executor();
    return Broadcast.run(
        x,
        Targets.ALL_NODES,
        CommandType.PING,
        x::args,
        Outputs.status(),
        READ_ONLY,
        Collections::unmodifiableMap);
  }

  @Override
  default CompletionStage<Long> dbsize() {
    CommandExecutor<K, V> x = executor();
    return Broadcast.run(
        x,
        Targets.LEADERS,
        CommandType.DBSIZE,
        x::args,
        Outputs.integer(),
        READ_ONLY,
        sizes -> sizes.values().stream().mapToLong(Long::longValue).sum());
  }

  @Override
  default CompletionStage<String> flushdb() {
    CommandExecutor<K, V> x = executor();
    return flush(x, CommandType.FLUSHDB, null);
  }

  @Override
  default CompletionStage<String> flushdb(FlushMode flushMode) {
    CommandExecutor<K, V> x = executor();
    return flush(x, CommandType.FLUSHDB, Objects.requireNonNull(flushMode, "flushMode"));
  }

  @Override
  default CompletionStage<String> flushall() {
    CommandExecutor<K, V> x = executor();
    return flush(x, CommandType.FLUSHALL, null);
  }

  @Override
  default CompletionStage<String> flushall(FlushMode flushMode) {
    CommandExecutor<K, V> x = executor();
    return flush(x, CommandType.FLUSHALL, Objects.requireNonNull(flushMode, "flushMode"));
  }

  private static <K, V> CompletionStage<String> flush(
      CommandExecutor<K, V> x, CommandType type, FlushMode mode) {
    return Broadcast.run(
        x,
        Targets.LEADERS,
        type,
        () -> mode == null ? x.args() : x.args().add(mode),
        Outputs.status(),
        IDEMPOTENT_WRITE,
        answers -> "OK");
  }

  @Override
  default CompletionStage<List<K>> keys(K pattern) {
    Objects.requireNonNull(pattern, "pattern");
    CommandExecutor<K, V> x = executor();
    return Broadcast.run(
        x,
        Targets.LEADERS,
        CommandType.KEYS,
        () -> x.args().addKey(pattern),
        Outputs.<K, V>keyList(),
        READ_ONLY,
        lists -> {
          List<K> merged = new ArrayList<>();
          lists.values().forEach(merged::addAll);
          return merged;
        });
  }

  @Override
  default CompletionStage<Map<String, String>> info() {
    CommandExecutor<K, V> x = executor();
    return Broadcast.run(
        x,
        Targets.ALL_NODES,
        CommandType.INFO,
        x::args,
        Outputs.status(),
        READ_ONLY,
        Collections::unmodifiableMap);
  }

  @Override
  default CompletionStage<Map<String, String>> info(String section) {
    Objects.requireNonNull(section, "section");
    CommandExecutor<K, V> x = executor();
    return Broadcast.run(
        x,
        Targets.ALL_NODES,
        CommandType.INFO,
        () -> x.args().add(section),
        Outputs.status(),
        READ_ONLY,
        Collections::unmodifiableMap);
  }

  @Override
  default CompletionStage<KeyScanCursor<K>> scan() {
    return scanPage(executor(), ScanCursor.INITIAL, null);
  }

  @Override
  default CompletionStage<KeyScanCursor<K>> scan(ScanArgs scanArgs) {
    return scanPage(executor(), ScanCursor.INITIAL, Objects.requireNonNull(scanArgs, "scanArgs"));
  }

  @Override
  default CompletionStage<KeyScanCursor<K>> scan(ScanCursor scanCursor) {
    return scanPage(executor(), Objects.requireNonNull(scanCursor, "scanCursor"), null);
  }

  @Override
  default CompletionStage<KeyScanCursor<K>> scan(ScanCursor scanCursor, ScanArgs scanArgs) {
    Objects.requireNonNull(scanCursor, "scanCursor");
    Objects.requireNonNull(scanArgs, "scanArgs");
    return scanPage(executor(), scanCursor, scanArgs);
  }

  /**
   * One page of a cluster-wide SCAN: one SCAN to the leader the cursor names (or the next one in id
   * order when it is no longer a leader); the answer's cursor names the leader to ask next, read
   * from the map in force when the answer came.
   */
  private static <K, V> CompletionStage<KeyScanCursor<K>> scanPage(
      CommandExecutor<K, V> x, ScanCursor scanCursor, ScanArgs scanArgs) {
    if (scanCursor.isFinished()) {
      throw new IllegalArgumentException(
          "the SCAN cursor '" + scanCursor.getCursor() + "' is finished: start a new scan");
    }
    if (scanCursor.getCursor() == null) {
      throw new IllegalArgumentException(
          "the SCAN cursor has no text: start with ScanCursor.INITIAL");
    }
    ClusterScanCursor from = ClusterScanCursor.parse(scanCursor.getCursor());
    x.requireOpen();
    RoutingTable table = x.dispatcher().table();
    NodeHandle[] leaders = Broadcast.nodes(table, Targets.LEADERS);
    if (leaders.length == 0) {
      return CompletableFuture.failedFuture(Broadcast.noNode(table, "SCAN"));
    }
    List<String> ids = new ArrayList<>(leaders.length);
    for (NodeHandle leader : leaders) {
      ids.add(leader.node().id());
    }
    ClusterScanCursor.Step step = from.resume(ids);
    if (step.finished(ids)) {
      KeyScanCursor<K> done = new KeyScanCursor<>();
      done.setCursor(ClusterScanCursor.START_TEXT);
      done.setFinished(true);
      return CompletableFuture.completedFuture(done);
    }
    NodeHandle node = leaders[step.position()];
    String nodeId = node.node().id();
    CommandArgs<K, V> args = x.args().add(step.nodeCursor());
    if (scanArgs != null) {
      scanArgs.build(args);
    }
    return x.toNode(CommandType.SCAN, node, args, Outputs.keyScan(), READ_ONLY)
        .thenApply(
            page -> {
              ClusterScanCursor next =
                  ClusterScanCursor.after(
                      nodeId, page.getCursor(), Broadcast.leaderIds(x.dispatcher().table()));
              page.setCursor(next == null ? ClusterScanCursor.START_TEXT : next.encode());
              page.setFinished(next == null);
              return page;
            });
  }
}
