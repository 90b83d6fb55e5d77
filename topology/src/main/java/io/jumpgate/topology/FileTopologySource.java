package io.jumpgate.topology;

import io.jumpgate.spi.TopologyException;
import io.jumpgate.spi.TopologyListener;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologySource;
import io.jumpgate.spi.TopologySourceStatus;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.internal.SourceStatusTracker;
import io.jumpgate.topology.internal.TopologyListeners;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A topology source that reads a {@link TopologyDocument} file (as written by {@code jumpgate
 * topology export}) and reloads it when it changes: for tests, for local development, and for
 * deployments without etcd.
 *
 * <p>Every load goes through the same per-key validation as a fresh etcd listing: an invalid node
 * or assignment is reported in the snapshot's invalid entries and the last valid value of that
 * entry stays in force. A file that cannot be read or parsed keeps the last snapshot and sets
 * {@link TopologySourceStatus#lastError()}.
 *
 * <p>Revisions: each load that changes the file's content publishes a snapshot at the previous
 * revision + 1, or at the document's {@code revision} when that is higher (the first load: at least
 * 1).
 *
 * <p>Threading: one daemon thread, {@code jumpgate-topology-file-<file name>}, started by {@link
 * #start()} and stopped by {@link #close()}, checks the file every {@link
 * Builder#checkInterval(Duration) check interval} (default {@link #DEFAULT_CHECK_INTERVAL}): its
 * modification time, size and identity, then the SHA-256 of its content. Replacing the file by a
 * rename is seen like an edit. Listeners run on that thread, after {@link #current()} already
 * returns the new snapshot. Every public method may be called from any thread.
 */
public final class FileTopologySource implements TopologySource {

  /** How often the file is checked unless configured: 1 second. */
  public static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofSeconds(1);

  private static final Logger LOG = LoggerFactory.getLogger(FileTopologySource.class);
  private static final long CLOSE_WAIT_SECONDS = 5;

  private final TopologyFile file;
  private final FileTopologyLoader loader;
  private final Duration checkInterval;
  private final Clock clock;
  private final TopologyListeners listeners;
  private final SourceStatusTracker status = new SourceStatusTracker();
  private final CompletableFuture<TopologySnapshot> firstSnapshot = new CompletableFuture<>();
  private final CompletionStage<TopologySnapshot> startStage =
      firstSnapshot.minimalCompletionStage();

  private final Object lifecycle = new Object();
  private ScheduledExecutorService executor; // guarded by lifecycle
  private volatile Thread thread;
  private volatile boolean closed;
  private volatile TopologySnapshot current;
  private volatile String cluster;

  // confined to the source's thread
  private byte[] appliedHash;
  private byte[] failedHash;
  private String loggedError;

  private FileTopologySource(Builder builder) {
    this.file = new TopologyFile(builder.file);
    this.loader =
        new FileTopologyLoader(
            builder.file, builder.cluster, builder.expectedShards, builder.clock);
    this.checkInterval = builder.checkInterval;
    this.cluster = builder.cluster;
    this.clock = builder.clock;
    this.listeners = new TopologyListeners("file " + builder.file);
  }

  /** A source for {@code file} with every default. */
  public static FileTopologySource create(Path file) {
    return builder(file).build();
  }

  /** A builder for a source that reads {@code file}. */
  public static Builder builder(Path file) {
    return new Builder(file);
  }

  @Override
  public CompletionStage<TopologySnapshot> start() {
    synchronized (lifecycle) {
      if (closed) {
        firstSnapshot.completeExceptionally(closedBeforeStart());
      } else if (executor == null) {
        executor = Executors.newSingleThreadScheduledExecutor(this::newThread);
        executor.execute(this::loadFirst);
      }
    }
    return startStage;
  }

  @Override
  public TopologySnapshot current() {
    TopologySnapshot snapshot = current;
    if (snapshot == null) {
      throw new IllegalStateException(
          "no topology loaded yet from " + description() + ": call start() and wait for it");
    }
    return snapshot;
  }

  /**
   * {@inheritDoc}
   *
   * <p>A listener subscribed before the first snapshot is loaded is told of it (with a null
   * previous snapshot); the stage of {@link #start()} completes after that notification, so a
   * listener subscribed once it completed is told of later snapshots only.
   */
  @Override
  public AutoCloseable subscribe(TopologyListener listener) {
    return listeners.add(listener);
  }

  @Override
  public TopologySourceStatus status() {
    return status.status();
  }

  /** {@code file <path> (cluster '<name>')}; the cluster is known once the file was read. */
  @Override
  public String description() {
    String name = cluster;
    return "file " + file.path() + (name == null ? "" : " (cluster '" + name + "')");
  }

  /**
   * Stops the thread: waits up to 5 seconds for a check in progress to end, unless called from a
   * listener. Fails a start still pending. The last snapshot stays readable with {@link
   * #current()}. Idempotent.
   */
  @Override
  public void close() {
    ScheduledExecutorService running;
    synchronized (lifecycle) {
      if (closed) {
        return;
      }
      closed = true;
      running = executor;
    }
    listeners.close();
    firstSnapshot.completeExceptionally(closedBeforeStart());
    if (running != null) {
      running.shutdownNow();
      Thread worker = thread;
      if (worker != null && worker != Thread.currentThread()) {
        try {
          worker.join(TimeUnit.SECONDS.toMillis(CLOSE_WAIT_SECONDS));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  private Thread newThread(Runnable task) {
    Thread created = new Thread(task, "jumpgate-topology-file-" + file.path().getFileName());
    created.setDaemon(true);
    thread = created;
    return created;
  }

  private void loadFirst() {
    try {
      byte[] content;
      try {
        content = file.readIfChanged(true);
      } catch (IOException e) {
        status.disconnected(readError(e));
        throw new TopologyUnavailableException(readError(e), e);
      }
      TopologySnapshot snapshot = loader.load(content, current);
      appliedHash = TopologyFile.sha256(content);
      publish(snapshot);
      long nanos = checkInterval.toNanos();
      executor.scheduleWithFixedDelay(this::check, nanos, nanos, TimeUnit.NANOSECONDS);
    } catch (RuntimeException e) {
      if (closed) {
        return; // the start stage already failed
      }
      TopologyException failure =
          e instanceof TopologyException topology
              ? topology
              : new TopologyUnavailableException("cannot load " + description() + ": " + e, e);
      if (status.status().lastError() == null) {
        status.failedWhileConnected(failure.getMessage());
      }
      firstSnapshot.completeExceptionally(failure);
      executor.shutdown();
    }
  }

  private void check() {
    if (closed) {
      return;
    }
    try {
      byte[] content = file.readIfChanged(failedHash != null);
      byte[] hash = content == null ? null : TopologyFile.sha256(content);
      if (content == null || Arrays.equals(hash, appliedHash)) {
        failedHash = null;
        confirmed();
      } else if (!Arrays.equals(hash, failedHash)) {
        try {
          TopologySnapshot snapshot = loader.load(content, current);
          appliedHash = hash;
          failedHash = null;
          publish(snapshot);
        } catch (TopologyException e) {
          failedHash = hash;
          status.failedWhileConnected(e.getMessage());
          logError(e.getMessage());
        }
      }
    } catch (IOException e) {
      String message = readError(e);
      failedHash = null; // whatever comes back is read again
      status.disconnected(message);
      logError(message);
    } catch (RuntimeException e) {
      String message = "checking " + description() + " failed: " + e;
      status.failedWhileConnected(message);
      logError(message);
    }
  }

  private void publish(TopologySnapshot snapshot) {
    TopologySnapshot previous = current;
    current = snapshot;
    cluster = loader.cluster();
    confirmed();
    LOG.info(
        "loaded {} at revision {}: {} nodes, {} unavailable shards, {} invalid entries",
        description(),
        snapshot.revision(),
        snapshot.nodes().size(),
        snapshot.unavailableShardCount(),
        snapshot.invalidEntries().size());
    if (!closed) {
      listeners.notifyChange(previous, snapshot);
    }
    firstSnapshot.complete(snapshot); // after the first notification: see subscribe()
  }

  private void confirmed() {
    status.confirmed(current.revision(), clock.instant());
    if (loggedError != null) {
      LOG.info("{} is readable and valid again", description());
      loggedError = null;
    }
  }

  private void logError(String message) {
    if (!message.equals(loggedError)) {
      LOG.warn("{}; the topology of revision {} stays in force", message, current.revision());
      loggedError = message;
    }
  }

  private String readError(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "topology file " + file.path() + " does not exist";
    }
    return "cannot read topology file " + file.path() + ": " + e;
  }

  private TopologyUnavailableException closedBeforeStart() {
    return new TopologyUnavailableException(
        description() + " was closed before its first snapshot was loaded");
  }

  /**
   * Options of a {@link FileTopologySource}. Not thread-safe; {@link #build()} checks nothing more
   * than the setters, which fail fast with a message naming the option.
   */
  public static final class Builder {

    private final Path file;
    private Duration checkInterval = DEFAULT_CHECK_INTERVAL;
    private int expectedShards;
    private String cluster;
    private Clock clock = Clock.systemUTC();

    private Builder(Path file) {
      if (file == null) {
        throw new IllegalArgumentException("file must not be null");
      }
      this.file = file;
    }

    /** How often the file is checked for changes; default {@link #DEFAULT_CHECK_INTERVAL}. */
    public Builder checkInterval(Duration interval) {
      if (interval == null || interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("checkInterval must be positive, was " + interval);
      }
      this.checkInterval = interval;
      return this;
    }

    /** The shard count the client is configured for; default 0, any. A mismatch fails start. */
    public Builder expectedShards(int shards) {
      if (shards < 0 || shards > io.jumpgate.spi.TopologyMetadata.MAX_SHARDS) {
        throw new IllegalArgumentException(
            "expectedShards must be 0 (any) or between 1 and 65536, was " + shards);
      }
      this.expectedShards = shards;
      return this;
    }

    /** The cluster the file must hold; default: whichever cluster the file names. */
    public Builder cluster(String name) {
      if (name == null || !TopologyKeys.CLUSTER_PATTERN.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "cluster must match " + TopologyKeys.CLUSTER_PATTERN.pattern() + ", was " + name);
      }
      this.cluster = name;
      return this;
    }

    /** Stamps snapshots and status; default the system clock in UTC. */
    public Builder clock(Clock clock) {
      if (clock == null) {
        throw new IllegalArgumentException("clock must not be null");
      }
      this.clock = clock;
      return this;
    }

    /** A new source; it reads nothing until {@link FileTopologySource#start()}. */
    public FileTopologySource build() {
      return new FileTopologySource(this);
    }
  }
}
