package io.jumpgate.topology;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.common.exception.CompactedException;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import io.jumpgate.spi.TopologyException;
import io.jumpgate.spi.TopologyListener;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologySource;
import io.jumpgate.spi.TopologySourceStatus;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.internal.ClusterNames;
import io.jumpgate.topology.internal.KeyChange;
import io.jumpgate.topology.internal.SourceStatusTracker;
import io.jumpgate.topology.internal.TopologyListeners;
import io.jumpgate.topology.internal.TopologyState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shard map read from etcd and kept current by a watch, per the topology contract.
 *
 * <h2>How it stays exact</h2>
 *
 * <ol>
 *   <li>Start: one ranged GET of the map's key range, from {@code <root>/meta} (inclusive) to
 *       {@code <root>/shards0} (exclusive, {@link TopologyKeys#mapRangeEnd()}) at header revision
 *       R. Then a WATCH of the same range from R + 1, never from "now". The range holds {@code
 *       meta}, {@code migration-lock}, {@code migrations/}, {@code nodes/} and {@code shards/}, and
 *       leaves out {@code clients/} and {@code init-lock}: every client rewrites its registry key
 *       after each map change, and a watch of the whole root would deliver each of those writes to
 *       every other client (N² events per change). {@code migration-lock} is read with its create
 *       revision: a revision that creates, changes or deletes it publishes a new snapshot (at the
 *       same map revision) whose {@link TopologySnapshot#migrationLock()} and held shards follow
 *       it. {@code migrations/} and other keys the map does not use are ignored, not reported as
 *       invalid entries.
 *   <li>Every watch response is handled on this source's single topology thread (jetcd's and
 *       Netty's threads are never blocked). A source that owns its jetcd client has gRPC deliver
 *       the watch stream on that thread directly ({@code WatchCallExecutor}: gRPC's Netty event
 *       loop hands each message to the topology thread, which parses it and runs jetcd's watcher
 *       and this source's listener); with a shared client, jetcd calls from gRPC's executor and the
 *       response is queued to the topology thread. Its events are grouped by revision, and each
 *       revision is applied and validated as one unit: never a half-applied transaction. The
 *       snapshot is built after the responses already queued on the thread: one per revision while
 *       the thread keeps up, one for several revisions when it falls behind (e.g. a key rewritten
 *       100 times a second on a 65536-shard map), so rebuilds are bounded by the thread's speed,
 *       not by the write rate.
 *   <li>The resume loop is ours: the source tracks the last applied revision. On a watch error it
 *       closes the watcher and watches again from {@code lastApplied + 1} after a backoff; a
 *       revision not newer than {@code lastApplied} is ignored, and a key event not newer than that
 *       key's cached mod revision too, so replays are harmless.
 *   <li>If etcd compacted past {@code lastApplied}, or the watch has been silent (no event, no
 *       progress notification) for {@code silenceTimeout}, the source lists the range again and
 *       diffs it against its cache, then watches from the new revision + 1. While quiet, it asks
 *       etcd for a progress notification every {@code progressInterval}: that is what tells a live
 *       quiet watch from a dead one.
 * </ol>
 *
 * <h2>Two revisions: where the watch is, and the map's</h2>
 *
 * <p>{@link #lastAppliedRevision()} is the watch position: the last etcd revision this source has
 * seen (the listing's header revision, then each watch event's), the one a resume starts after. The
 * snapshot's {@link TopologySnapshot#revision()} is the map revision: the revision of the last
 * change to {@code meta}, {@code nodes/} or {@code shards/}, the number the CLI, the metrics and
 * the client registration show (see {@code TopologyState}). The map revision is at most the watch
 * position and is never where a watch resumes: that would replay history, or find it compacted.
 *
 * <h2>Progress notifications only prove the watch is alive</h2>
 *
 * <p>{@code lastApplied}, the resume point and the snapshot's revision move on events only. A
 * progress notification resets the watchdog and nothing else. The reason: etcd before 3.4.25 and
 * 3.5.8 (Debian's 3.4.23 among them) answers a requested progress notification outside the order of
 * the watch stream (etcd issue 15220, fixed by pull request 15237), so a watch that is still
 * catching up (a resumed one) can be told "up to date at revision N" before it has received the
 * events below N. Had that advanced {@code lastApplied}, those events would then have been dropped
 * as replays. The price of ignoring the revision of a progress notification: after a long quiet
 * spell the resume point is older, so a resume is more likely to find it compacted and list the
 * range again (one GET of the map).
 *
 * <p>While etcd is unreachable the last snapshot keeps serving; {@link #status()} then reports
 * {@code connected=false} and a growing age. Every etcd call is bounded by {@code requestTimeout};
 * the first snapshot by {@code startTimeout}.
 *
 * <p>Threading: all methods are thread-safe. {@link #current()} is a volatile read. Listeners run
 * on the thread named {@code jumpgate-topology-<cluster>}, in revision order (with an owned client,
 * that thread also reads the watch stream: a slow listener delays the next message).
 */
public final class EtcdTopologySource implements TopologySource {

  private static final Logger LOG = LoggerFactory.getLogger(EtcdTopologySource.class);

  private final EtcdTopologyOptions options;
  private final TopologyKeys keys;
  private final ByteSequence rangeStart;
  private final ByteSequence rangeEnd;
  private final Client client;
  private final boolean ownsClient;
  private final ScheduledExecutorService topologyThread;
  // The thread the executor runs on (set by its thread factory): watch messages that gRPC already
  // delivers on it are handled in place.
  private volatile Thread runningThread;
  private final TopologyState state;
  private final TopologyListeners listeners;
  private final SourceStatusTracker status = new SourceStatusTracker();
  private final CompletableFuture<TopologySnapshot> started = new CompletableFuture<>();
  private final AtomicBoolean startCalled = new AtomicBoolean();

  private volatile TopologySnapshot current;
  private volatile boolean closed;
  private String lastLoggedError;
  // The last failure that said more than "no answer in time" (a refused TLS handshake, a refused
  // connection): a start that times out names it too, so that a last try that merely timed out on a
  // loaded machine does not hide the cause. Topology thread only.
  private String lastSpecificFailure;

  private final AtomicLong lists = new AtomicLong();
  private final AtomicLong watches = new AtomicLong();
  private final AtomicLong compactions = new AtomicLong();
  private final AtomicLong silentWatches = new AtomicLong();
  private final AtomicLong revisionsApplied = new AtomicLong();
  private final AtomicLong watchEvents = new AtomicLong();
  private final AtomicLong snapshotsPublished = new AtomicLong();

  // Confined to the topology thread.
  private long lastAppliedRevision;
  private Watch.Watcher watcher;
  private long watchGeneration;
  private Instant lastWatchActivity;
  private Duration backoff;
  private boolean gaveUp;
  private boolean publishQueued;
  private ScheduledFuture<?> watchdog;

  private EtcdTopologySource(
      EtcdTopologyOptions options, Function<Executor, Client> clientOnThread, boolean ownsClient) {
    this.options = options;
    this.keys = TopologyKeys.forCluster(options.cluster());
    this.rangeStart = ByteSequence.from(keys.mapRangeStart(), StandardCharsets.UTF_8);
    this.rangeEnd = ByteSequence.from(keys.mapRangeEnd(), StandardCharsets.UTF_8);
    ScheduledThreadPoolExecutor thread =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread named = new Thread(runnable, "jumpgate-topology-" + options.cluster());
              named.setDaemon(true);
              runningThread = named;
              return named;
            });
    // On close, pending timers (the start timeout, retries) are dropped, not waited for.
    thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    thread.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
    thread.setRemoveOnCancelPolicy(true);
    this.topologyThread = thread;
    this.client = clientOnThread.apply(thread);
    this.ownsClient = ownsClient;
    this.state = new TopologyState(keys, options.expectedShards(), options.clock());
    this.listeners = new TopologyListeners(description());
    this.backoff = options.retryBackoffMin();
  }

  /** A source with its own jetcd client, closed with the source. Call {@link #start()} next. */
  public static EtcdTopologySource create(EtcdTopologyOptions options) {
    return new EtcdTopologySource(
        options,
        topologyThread -> EtcdClients.createWithWatchCallbacksOn(options, topologyThread),
        true);
  }

  /**
   * A source that shares a jetcd client built elsewhere (for the same endpoints and credentials);
   * the client is not closed with the source.
   */
  public static EtcdTopologySource create(EtcdTopologyOptions options, Client client) {
    return new EtcdTopologySource(options, topologyThread -> client, false);
  }

  @Override
  public CompletionStage<TopologySnapshot> start() {
    if (startCalled.compareAndSet(false, true)) {
      onTopologyThread(this::list);
      try {
        topologyThread.schedule(
            this::startTimedOut, options.startTimeout().toNanos(), TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException closedAlready) {
        started.completeExceptionally(closedError());
      }
    }
    return started.copy();
  }

  @Override
  public TopologySnapshot current() {
    TopologySnapshot snapshot = current;
    if (snapshot == null) {
      throw new IllegalStateException("no topology loaded yet from " + description());
    }
    return snapshot;
  }

  @Override
  public AutoCloseable subscribe(TopologyListener listener) {
    return listeners.add(listener);
  }

  @Override
  public TopologySourceStatus status() {
    return status.status();
  }

  @Override
  public String description() {
    return "etcd " + options.endpointList() + " cluster '" + options.cluster() + "'";
  }

  /**
   * What the source has done since it was created: a cheap read, for metrics and tests.
   *
   * @param lists full listings of the map's range (the start, and each start-over)
   * @param watches watches opened (the first, and each resume)
   * @param compactions watch resumes refused because etcd had compacted the revision
   * @param silentWatches watches given up because no event or progress came for silenceTimeout
   * @param revisionsApplied etcd revisions applied from the watch
   * @param watchEvents key events received from the watch, replays included: one per key a revision
   *     changed in the map's range (a transaction of 50 shards counts 50); a write under {@code
   *     clients/} or {@code init-lock} never counts, since the watch does not cover it
   * @param snapshotsPublished snapshots built and handed to the listeners (the first included): at
   *     most one per revision, fewer when revisions queued up behind a rebuild were coalesced
   */
  public record Statistics(
      long lists,
      long watches,
      long compactions,
      long silentWatches,
      long revisionsApplied,
      long watchEvents,
      long snapshotsPublished) {}

  /** Counters of what the source has done. */
  public Statistics statistics() {
    return new Statistics(
        lists.get(),
        watches.get(),
        compactions.get(),
        silentWatches.get(),
        revisionsApplied.get(),
        watchEvents.get(),
        snapshotsPublished.get());
  }

  /**
   * The watch position: the last etcd revision whose events were applied, the header revision of
   * the last listing or the revision of a later watch event (a progress notification does not move
   * it; see the class description). At least the snapshot's map revision, often above it: the
   * events of {@code migration-lock} and {@code migrations/} move it, not the map revision. Waits
   * for the task the topology thread is running; -1 once closed.
   */
  public long lastAppliedRevision() {
    CompletableFuture<Long> answer = new CompletableFuture<>();
    if (!onTopologyThread(() -> answer.complete(lastAppliedRevision))) {
      return -1;
    }
    return answer.join();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    started.completeExceptionally(closedError());
    try {
      topologyThread.execute(this::closeWatcher);
    } catch (RejectedExecutionException alreadyShutDown) {
      // nothing to close
    }
    topologyThread.shutdown();
    try {
      if (!topologyThread.awaitTermination(
          options.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
        topologyThread.shutdownNow();
      }
    } catch (InterruptedException e) {
      topologyThread.shutdownNow();
      Thread.currentThread().interrupt();
    }
    listeners.close();
    if (ownsClient) {
      client.close();
    }
  }

  // ---- listing -------------------------------------------------------------------------------

  private void list() {
    if (closed || gaveUp) {
      return;
    }
    lists.incrementAndGet();
    client
        .getKVClient()
        .get(rangeStart, GetOption.builder().withRange(rangeEnd).build())
        .orTimeout(options.requestTimeout().toNanos(), TimeUnit.NANOSECONDS)
        .whenComplete((response, error) -> onTopologyThread(() -> onListed(response, error)));
  }

  private void onListed(GetResponse response, Throwable error) {
    if (closed || gaveUp) {
      return;
    }
    if (error != null) {
      noteFailure(
          "listing "
              + keys.mapRangeStart()
              + " to "
              + keys.mapRangeEnd()
              + " failed: "
              + EtcdClients.describe(error),
          error);
      if (!started.isDone() && EtcdClients.isAuthenticationFailure(error)) {
        giveUp(
            new TopologyUnavailableException(
                "etcd at "
                    + options.endpointList()
                    + " refused access to cluster '"
                    + options.cluster()
                    + "': authentication failed or permission denied ("
                    + EtcdClients.describe(error)
                    + ")",
                error));
        return;
      }
      retryLater(this::list);
      return;
    }
    long revision = response.getHeader().getRevision();
    List<KeyChange> entries = new ArrayList<>(response.getKvs().size());
    for (KeyValue keyValue : response.getKvs()) {
      entries.add(
          new KeyChange(
              keyValue.getKey().toString(StandardCharsets.UTF_8),
              keyValue.getValue().getBytes(),
              keyValue.getModRevision(),
              keyValue.getCreateRevision()));
    }
    TopologySnapshot snapshot;
    try {
      snapshot = state.reset(revision, entries);
    } catch (TopologyException e) {
      noteFailure(e.getMessage());
      if (!started.isDone() && e instanceof TopologyUnavailableException && !hasMeta(entries)) {
        giveUpNamingClusters((TopologyUnavailableException) e);
      } else if (!started.isDone()) {
        giveUp(e);
      } else {
        LOG.error("{}: keeping revision {}: {}", description(), current.revision(), e.getMessage());
        retryLater(this::list);
      }
      return;
    }
    lastAppliedRevision = revision;
    publish(snapshot);
    noteContact();
    watch();
  }

  private boolean hasMeta(List<KeyChange> entries) {
    return entries.stream().anyMatch(entry -> entry.key().equals(keys.meta()));
  }

  /**
   * The cluster is not initialised: gives up with the names of the clusters that do exist under the
   * prefix (or that none does) in the message; with the first error alone if they cannot be listed.
   */
  private void giveUpNamingClusters(TopologyUnavailableException notInitialised) {
    gaveUp = true;
    closeWatcher();
    ClusterNames.list(client.getKVClient(), options.requestTimeout())
        .whenComplete(
            (names, error) ->
                onTopologyThread(
                    () -> {
                      if (error != null) {
                        LOG.debug("{}: listing the clusters failed", description(), error);
                        giveUp(notInitialised);
                      } else {
                        giveUp(
                            new TopologyUnavailableException(
                                notInitialised.getMessage() + "; " + ClusterNames.describe(names)));
                      }
                    }));
  }

  // ---- watching ------------------------------------------------------------------------------

  private void watch() {
    if (closed) {
      return;
    }
    closeWatcher();
    long generation = ++watchGeneration;
    watches.incrementAndGet();
    WatchOption option =
        WatchOption.builder()
            .withRange(rangeEnd)
            .withRevision(lastAppliedRevision + 1)
            .withProgressNotify(true)
            .build();
    lastWatchActivity = options.clock().instant();
    watcher =
        client
            .getWatchClient()
            .watch(
                rangeStart,
                option,
                Watch.listener(
                    response -> onWatchMessage(() -> onWatchResponse(generation, response)),
                    error -> onTopologyThread(() -> onWatchError(generation, error)),
                    () -> onTopologyThread(() -> onWatchCompleted(generation))));
    if (watchdog == null && !closed) {
      long tick = Math.max(10, options.progressInterval().toMillis() / 2);
      try {
        watchdog =
            topologyThread.scheduleWithFixedDelay(
                this::checkWatch, tick, tick, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException closing) {
        // closed while this listing was applied: nothing to watch any more
      }
    }
  }

  private void onWatchResponse(long generation, WatchResponse response) {
    if (generation != watchGeneration || closed) {
      return;
    }
    lastWatchActivity = options.clock().instant();
    List<WatchEvent> events = response.getEvents();
    if (events.isEmpty()) {
      // A progress notification (or the watch's creation): the watch is alive, and that is all it
      // says. Its revision is not trusted as a resume point (see the class description).
      noteContact();
      return;
    }
    watchEvents.addAndGet(events.size());
    List<KeyChange> batch = new ArrayList<>();
    long batchRevision = -1;
    for (WatchEvent event : events) {
      KeyValue keyValue = event.getKeyValue();
      long revision = keyValue.getModRevision();
      if (revision != batchRevision && !batch.isEmpty()) {
        applyRevision(batchRevision, batch);
        batch = new ArrayList<>();
      }
      batchRevision = revision;
      String key = keyValue.getKey().toString(StandardCharsets.UTF_8);
      boolean deleted = event.getEventType() == WatchEvent.EventType.DELETE;
      byte[] value = deleted ? null : keyValue.getValue().getBytes();
      batch.add(new KeyChange(key, value, revision, deleted ? 0 : keyValue.getCreateRevision()));
    }
    if (!batch.isEmpty()) {
      applyRevision(batchRevision, batch);
    }
    noteContact();
  }

  private void applyRevision(long revision, List<KeyChange> changes) {
    if (revision <= lastAppliedRevision) {
      return; // delivered twice by a resume: already applied
    }
    boolean changed = state.stage(revision, changes);
    lastAppliedRevision = revision;
    revisionsApplied.incrementAndGet();
    if (changed && !publishQueued) {
      // Built behind whatever watch responses are already queued: they are staged first, and one
      // snapshot then carries them all (a flapping key cannot make the thread rebuild the whole
      // map for every revision while it falls behind).
      publishQueued = onTopologyThread(this::publishStaged);
    }
  }

  private void publishStaged() {
    publishQueued = false;
    if (closed) {
      return;
    }
    publish(state.publishStaged());
  }

  private void onWatchError(long generation, Throwable error) {
    if (generation != watchGeneration || closed) {
      return;
    }
    closeWatcher();
    if (error instanceof CompactedException compacted) {
      compactions.incrementAndGet();
      LOG.info(
          "{}: revision {} was compacted (compacted revision {}); listing again",
          description(),
          lastAppliedRevision + 1,
          compacted.getCompactedRevision());
      list();
      return;
    }
    noteFailure("watch failed: " + EtcdClients.describe(error), error);
    retryLater(this::watch);
  }

  private void onWatchCompleted(long generation) {
    if (generation != watchGeneration || closed) {
      return;
    }
    // Not caused by us: the watch is dead. List again, then watch again.
    closeWatcher();
    noteFailure("watch ended by etcd");
    retryLater(this::list);
  }

  /** The watchdog: asks for progress when quiet, and starts over when silent too long. */
  private void checkWatch() {
    if (closed || watcher == null) {
      return;
    }
    Duration quiet = Duration.between(lastWatchActivity, options.clock().instant());
    if (quiet.compareTo(options.silenceTimeout()) >= 0) {
      LOG.warn(
          "{}: no watch event or progress notification for {} ms; listing again",
          description(),
          quiet.toMillis());
      silentWatches.incrementAndGet();
      closeWatcher();
      noteFailure("watch silent for " + quiet.toMillis() + " ms");
      list();
    } else if (quiet.compareTo(options.progressInterval()) >= 0) {
      client.getWatchClient().requestProgress();
    }
  }

  private void closeWatcher() {
    watchGeneration++;
    if (watcher != null) {
      Watch.Watcher closing = watcher;
      watcher = null;
      try {
        closing.close();
      } catch (RuntimeException e) {
        LOG.debug("{}: closing a watcher failed", description(), e);
      }
    }
  }

  // ---- shared ----------------------------------------------------------------------------------

  private void publish(TopologySnapshot next) {
    TopologySnapshot previous = current;
    if (next == previous) {
      return;
    }
    current = next;
    snapshotsPublished.incrementAndGet();
    listeners.notifyChange(previous, next);
    // After the listeners and the status: once start() completes, every listener has seen the
    // first snapshot and status() reports it.
    if (!started.isDone()) {
      noteContact();
      started.complete(next);
    }
  }

  private void retryLater(Runnable action) {
    if (closed || gaveUp) {
      return;
    }
    Duration delay = backoff;
    backoff = backoff.multipliedBy(2);
    if (backoff.compareTo(options.retryBackoffMax()) > 0) {
      backoff = options.retryBackoffMax();
    }
    try {
      topologyThread.schedule(action, delay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException closing) {
      // closed meanwhile
    }
  }

  private void startTimedOut() {
    if (started.isDone()) {
      return;
    }
    giveUp(
        new TopologyUnavailableException(
            "no topology from etcd at "
                + options.endpointList()
                + " for cluster '"
                + options.cluster()
                + "' within "
                + options.startTimeout().toMillis()
                + " ms"
                + status.status().lastErrorIfAny().map(error -> ": " + error).orElse("")
                + startFailureHint()));
  }

  /** The last specific failure when the last failure was not it; else empty. */
  private String startFailureHint() {
    String specific = lastSpecificFailure;
    if (specific == null || specific.equals(status.status().lastErrorIfAny().orElse(null))) {
      return "";
    }
    return " (before that: " + specific + ")";
  }

  private void giveUp(TopologyException error) {
    gaveUp = true;
    closeWatcher();
    started.completeExceptionally(error);
  }

  private void noteContact() {
    TopologySnapshot snapshot = current;
    status.confirmed(snapshot == null ? -1 : snapshot.revision(), options.clock().instant());
    backoff = options.retryBackoffMin();
    lastLoggedError = null;
  }

  private void noteFailure(String message, Throwable error) {
    if (!EtcdClients.isTimeout(error)) {
      lastSpecificFailure = message;
    }
    noteFailure(message);
  }

  private void noteFailure(String message) {
    status.disconnected(message);
    if (!message.equals(lastLoggedError)) {
      LOG.warn("{}: {}", description(), message);
      lastLoggedError = message;
    }
  }

  private TopologyUnavailableException closedError() {
    return new TopologyUnavailableException(description() + " was closed");
  }

  /**
   * Handles a watch message: in place when jetcd calls from the topology thread (a source with its
   * own client: gRPC delivers the watch stream there), else queued to it (a shared client: gRPC's
   * executor).
   */
  private void onWatchMessage(Runnable action) {
    if (Thread.currentThread() == runningThread) {
      guarded(action);
    } else {
      onTopologyThread(action);
    }
  }

  /** Runs an action on the topology thread; false when the source is closed. */
  private boolean onTopologyThread(Runnable action) {
    try {
      topologyThread.execute(() -> guarded(action));
      return true;
    } catch (RejectedExecutionException closing) {
      return false;
    }
  }

  private void guarded(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      LOG.error("{}: unexpected failure on the topology thread", description(), e);
    }
  }
}
