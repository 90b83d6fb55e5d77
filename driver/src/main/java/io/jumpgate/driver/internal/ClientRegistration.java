package io.jumpgate.driver.internal;

import io.jumpgate.topology.EtcdClients;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.RegistrationValue;
import io.jumpgate.topology.TopologyKeys;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers one client in etcd: {@code <root>/clients/<client-id>}, bound to a lease of {@link
 * #LEASE_TTL} that is kept alive, with the value {@code {"host":..,"pid":..,"revision":<applied
 * topology revision>,"since":"<ISO-8601 start>", "version":..,"cluster":..}}.
 *
 * <ul>
 *   <li>The applied revision is written again when it changes, at most once per {@link
 *       #MIN_UPDATE_INTERVAL}: a burst of changes is coalesced (the first one is written at once,
 *       the last one of the burst a second later).
 *   <li>When the lease is gone (etcd says it does not know it: revoked, or expired while etcd was
 *       out of reach), the client takes a new lease and writes the key again.
 *   <li>When the keep-alive only breaks (etcd restarted or out of reach for less than the TTL, a
 *       GOAWAY, a stream reset, no answer for a TTL reckoned on this side), the lease is kept: the
 *       client asks etcd how long the lease has left (bounded, tried again with a backoff while
 *       etcd does not answer) and keeps the same lease alive again if it lives, so that the key
 *       does not flap; only if etcd says it is gone does the client take a new one.
 *   <li>A failed step is logged (WARN once per distinct error, DEBUG after that) and tried again
 *       with a doubling backoff between the etcd options' {@code retryBackoffMin} and {@code
 *       retryBackoffMax}. It never fails the client or a command.
 *   <li>{@link #close()} revokes the lease, which deletes the key.
 * </ul>
 *
 * <p>Threading: everything happens on one thread of its own ({@code jumpgate-registry-<cluster>});
 * jetcd's threads only hand results over to it. Every etcd call is bounded by the etcd options'
 * {@code requestTimeout}. {@link #revisionApplied} is called on the topology thread and only
 * records the revision and wakes the registry thread.
 */
public final class ClientRegistration {

  private static final Logger LOG = LoggerFactory.getLogger(ClientRegistration.class);

  /** The TTL of the registration's lease. */
  public static final Duration LEASE_TTL = Duration.ofSeconds(10);

  /** The shortest time between two writes of the applied revision. */
  public static final Duration MIN_UPDATE_INTERVAL = Duration.ofSeconds(1);

  /** The longest {@link #close()} makes its caller wait; the clean-up goes on in the background. */
  public static final Duration MAX_CLOSE_WAIT = Duration.ofSeconds(2);

  private enum State {
    /** No lease; a registration is due (now or after a backoff). */
    IDLE,
    /** Taking a lease and writing the key. */
    REGISTERING,
    /** The key is written under a live lease. */
    REGISTERED,
    CLOSED
  }

  /** What a registration value holds besides the revision. */
  record Identity(String host, long pid, Instant since, String version, String cluster) {}

  private final RegistryStore store;
  private final RegistryScheduler scheduler;
  private final String clientId;
  private final String key;
  private final String where;
  private final Identity identity;
  private final long ttlSeconds;
  private final long minIntervalNanos;
  private final long timeoutNanos;
  private final long backoffMinNanos;
  private final long backoffMaxNanos;
  private final AtomicLong appliedRevision;
  private final AtomicBoolean flushQueued = new AtomicBoolean();
  private final AtomicBoolean closeCalled = new AtomicBoolean();
  private final CompletableFuture<Void> closed = new CompletableFuture<>();
  private final AtomicLong registrations = new AtomicLong();
  private final AtomicLong writes = new AtomicLong();
  private final AtomicLong keepAliveReopens = new AtomicLong();
  private volatile boolean closing;

  // Confined to the registry thread.
  private State state = State.IDLE;
  private long generation;
  private long leaseId;
  private AutoCloseable keepAlive;
  private long keepAliveSerial;
  private boolean checkingLease;
  private int leaseCheckFailures;
  private long writtenRevision = -1;

  /** The map revision drained for freezes (-1: not known yet), and the one last written. */
  private final AtomicLong drainedRevision = new AtomicLong(-1);

  /** The highest drained revision a mover waits for: written at once. */
  private final AtomicLong urgentDrained = new AtomicLong(-1);

  private long writtenDrained = -1;
  private long lastWriteNanos;
  private boolean writing;
  private boolean flushTimerSet;
  private int failures;
  private String lastLoggedError;
  private CompletableFuture<Void> lastStep = CompletableFuture.completedFuture(null);

  ClientRegistration(
      RegistryStore store,
      RegistryScheduler scheduler,
      String cluster,
      String clientId,
      String where,
      Identity identity,
      long revision,
      Duration ttl,
      Duration minInterval,
      Duration timeout,
      Duration backoffMin,
      Duration backoffMax) {
    this.store = store;
    this.scheduler = scheduler;
    this.clientId = clientId;
    this.key = TopologyKeys.forCluster(cluster).client(clientId);
    this.where = where;
    this.identity = identity;
    this.ttlSeconds = Math.max(1, ttl.toSeconds());
    this.minIntervalNanos = minInterval.toNanos();
    this.timeoutNanos = timeout.toNanos();
    this.backoffMinNanos = backoffMin.toNanos();
    this.backoffMaxNanos = Math.max(backoffMin.toNanos(), backoffMax.toNanos());
    this.appliedRevision = new AtomicLong(revision);
  }

  /**
   * Starts registering a client in the background, with a jetcd client and a thread of its own.
   * Never throws for an etcd problem: when even the jetcd client cannot be built, the failure is
   * logged and the registration does nothing.
   *
   * @param etcd where the topology is (endpoints, credentials, cluster, timeouts)
   * @param clientId the id, {@link TopologyKeys#CLIENT_ID_PATTERN}
   * @param revision the revision of the topology applied now
   * @param since when the client started
   */
  public static ClientRegistration start(
      EtcdTopologyOptions etcd, String clientId, long revision, Instant since) {
    Identity identity =
        new Identity(
            localHostName(), ProcessHandle.current().pid(), since, driverVersion(), etcd.cluster());
    requireClientId(clientId);
    String where = "etcd " + etcd.endpointList();
    RegistryStore store;
    try {
      store = new EtcdRegistryStore(EtcdClients.create(etcd));
    } catch (RuntimeException e) {
      LOG.warn("client {} will not register in {}: {}", clientId, where, EtcdClients.describe(e));
      store = null;
    }
    RegistryScheduler scheduler =
        store == null ? null : RegistryScheduler.thread("jumpgate-registry-" + etcd.cluster());
    ClientRegistration registration =
        new ClientRegistration(
            store,
            scheduler,
            etcd.cluster(),
            clientId,
            where,
            identity,
            revision,
            LEASE_TTL,
            MIN_UPDATE_INTERVAL,
            etcd.requestTimeout(),
            etcd.retryBackoffMin(),
            etcd.retryBackoffMax());
    registration.start();
    return registration;
  }

  /** Starts registering. */
  void start() {
    if (store == null) {
      closeCalled.set(true);
      closing = true;
      closed.complete(null);
      return;
    }
    onThread(this::registerIfIdle);
  }

  /** The client id. */
  public String clientId() {
    return clientId;
  }

  /** The etcd key. */
  public String key() {
    return key;
  }

  /** A topology revision was applied; never blocks. */
  public void revisionApplied(long revision) {
    appliedRevision.accumulateAndGet(revision, Math::max);
    if (!closing && flushQueued.compareAndSet(false, true)) {
      onThread(this::flush);
    }
  }

  /**
   * The client drained this map revision for a migration's freeze. An urgent one (a mover waits for
   * it) is written at once, not held back by the interval between revision updates; the others go
   * with the next update. Never blocks.
   */
  public void drained(long revision, boolean urgent) {
    drainedRevision.accumulateAndGet(revision, Math::max);
    appliedRevision.accumulateAndGet(revision, Math::max);
    if (urgent) {
      urgentDrained.accumulateAndGet(revision, Math::max);
    }
    if (!closing && flushQueued.compareAndSet(false, true)) {
      onThread(this::flush);
    }
  }

  /** How many times the key was written under a new lease. */
  long registrations() {
    return registrations.get();
  }

  /** How many times the key was written, registrations included. */
  long writes() {
    return writes.get();
  }

  /** How many times the keep-alive of a lease that lived on was opened again after it broke. */
  long keepAliveReopens() {
    return keepAliveReopens.get();
  }

  // ---- registering -----------------------------------------------------------------------------

  private void registerIfIdle() {
    if (state == State.IDLE && !closing) {
      register();
    }
  }

  private void register() {
    state = State.REGISTERING;
    long attempt = ++generation;
    CompletableFuture<Long> grant = call(() -> store.grant(ttlSeconds));
    step(
        grant,
        "cannot get a lease",
        (lease, error) -> {
          if (error instanceof TimeoutException) {
            // given up on: a lease it still grants is nobody's
            grant.thenAccept(late -> onThread(() -> revokeQuietly(late)));
          }
          if (attempt != generation) {
            if (lease != null) {
              revokeQuietly(lease); // a close or a loss came first
            }
            return;
          }
          if (error != null) {
            failed("cannot get a lease", error);
          } else if (closing) {
            leaseId = lease; // close() revokes it
          } else {
            granted(attempt, lease);
          }
        });
  }

  private void granted(long attempt, long lease) {
    leaseId = lease;
    try {
      openKeepAlive(attempt, lease);
    } catch (RuntimeException e) {
      dropLease();
      failed("cannot keep a lease alive", e);
      return;
    }
    long revision = appliedRevision.get();
    long drained = drainedRevision.get();
    writing = true;
    lastWriteNanos = scheduler.nanoTime();
    step(
        call(() -> store.put(key, value(revision, drained), lease)),
        "cannot write " + key,
        (ignored, error) -> {
          writing = false;
          if (attempt != generation) {
            return;
          }
          if (error != null) {
            dropLease();
            failed("cannot write " + key, error);
            return;
          }
          state = State.REGISTERED;
          writtenRevision = revision;
          writtenDrained = drained;
          failures = 0;
          registrations.incrementAndGet();
          writes.incrementAndGet();
          if (lastLoggedError != null) {
            LOG.info("client {} registered again in {} at revision {}", clientId, where, revision);
            lastLoggedError = null;
          } else {
            LOG.debug("client {} registered in {} at revision {}", clientId, where, revision);
          }
          flush();
        });
  }

  // ---- keeping the lease alive -----------------------------------------------------------------

  /** Keeps the lease alive; its signals reach the registry thread while this handle is current. */
  private void openKeepAlive(long attempt, long lease) {
    long serial = ++keepAliveSerial;
    keepAlive =
        store.keepAlive(
            lease,
            new RegistryStore.KeepAliveListener() {
              @Override
              public void leaseGone(Throwable error) {
                onThread(
                    () -> {
                      if (serial == keepAliveSerial) {
                        leaseLost(attempt, lease, describe(error));
                      }
                    });
              }

              @Override
              public void keepAliveBroken(Throwable errorOrNull) {
                onThread(
                    () -> {
                      if (serial == keepAliveSerial) {
                        onKeepAliveBroken(attempt, lease, errorOrNull);
                      }
                    });
              }
            });
  }

  /**
   * The keep-alive broke, but the lease may live on (etcd restarted, a GOAWAY, a short outage): ask
   * etcd before giving it up, so that a healthy lease and its key stay put.
   */
  private void onKeepAliveBroken(long attempt, long lease, Throwable errorOrNull) {
    if (attempt != generation || lease != leaseId || closing || checkingLease) {
      return; // stale, or a check is already under way (jetcd repeats the error every 500 ms)
    }
    checkingLease = true;
    LOG.debug(
        "client {}: the keep-alive of lease {} broke ({}); asking etcd whether the lease lives",
        clientId,
        lease,
        errorOrNull == null ? "no answer for a whole TTL" : describe(errorOrNull));
    checkLease(attempt, lease);
  }

  private void checkLease(long attempt, long lease) {
    if (attempt != generation || lease != leaseId || closing) {
      return; // the lease was dropped meanwhile; dropLease ended the check
    }
    step(
        call(() -> store.timeToLive(lease)),
        "cannot check lease " + lease,
        (secondsLeft, error) -> {
          if (attempt != generation || lease != leaseId || closing) {
            return;
          }
          if (error != null) {
            warn(
                "cannot check lease "
                    + lease
                    + " after its keep-alive broke: "
                    + describe(error)
                    + "; asking again");
            leaseCheckFailures++;
            schedule(() -> checkLease(attempt, lease), backoffNanos(leaseCheckFailures));
            return;
          }
          checkingLease = false;
          leaseCheckFailures = 0;
          if (secondsLeft <= 0) {
            leaseLost(attempt, lease, "etcd no longer knows it");
            return;
          }
          closeKeepAlive();
          try {
            openKeepAlive(attempt, lease);
          } catch (RuntimeException e) {
            dropLease();
            failed("cannot keep a lease alive", e);
            return;
          }
          keepAliveReopens.incrementAndGet();
          if (lastLoggedError != null) {
            LOG.info(
                "client {}: lease {} lives on in {} ({} s left); keeping it alive again",
                clientId,
                lease,
                where,
                secondsLeft);
            lastLoggedError = null;
          } else {
            LOG.debug(
                "client {}: lease {} lives on ({} s left); keeping it alive again",
                clientId,
                lease,
                secondsLeft);
          }
        });
  }

  private void leaseLost(long attempt, long lease, String reason) {
    if (attempt != generation || lease != leaseId || closing) {
      return;
    }
    warn("lease " + lease + " lost: " + reason + "; registering again");
    dropLease();
    state = State.IDLE;
    retryAfterBackoff();
  }

  /** A registration step failed: no lease is held any more; try again after a backoff. */
  private void failed(String what, Throwable error) {
    state = State.IDLE;
    warn(what + ": " + describe(error) + "; trying again");
    retryAfterBackoff();
  }

  private void retryAfterBackoff() {
    if (closing) {
      return;
    }
    long delay = failures == 0 ? 0 : backoffNanos(failures);
    failures++;
    if (delay == 0) {
      register();
    } else {
      schedule(this::registerIfIdle, delay);
    }
  }

  /** Forgets the lease (stops its keep-alive and revokes it, both quietly). */
  private void dropLease() {
    generation++;
    checkingLease = false;
    leaseCheckFailures = 0;
    closeKeepAlive();
    if (leaseId != 0) {
      revokeQuietly(leaseId);
      leaseId = 0;
    }
    writtenRevision = -1;
    writtenDrained = -1;
  }

  private void closeKeepAlive() {
    AutoCloseable handle = keepAlive;
    keepAlive = null;
    keepAliveSerial++;
    if (handle != null) {
      try {
        handle.close();
      } catch (Exception e) {
        LOG.debug("closing the keep-alive of client {} failed", clientId, e);
      }
    }
  }

  private void revokeQuietly(long lease) {
    within(call(() -> store.revoke(lease)), "revoke")
        .whenComplete(
            (ignored, error) -> {
              if (error != null) {
                LOG.debug("revoking lease {} of client {}: {}", lease, clientId, describe(error));
              }
            });
  }

  // ---- updating the revision -------------------------------------------------------------------

  private void flush() {
    flushQueued.set(false);
    if (state != State.REGISTERED || writing || closing) {
      return; // a registration or a write in progress flushes when it ends
    }
    long revision = appliedRevision.get();
    long drained = drainedRevision.get();
    if (revision == writtenRevision && drained == writtenDrained) {
      return;
    }
    long now = scheduler.nanoTime();
    long wait = lastWriteNanos + minIntervalNanos - now;
    // an acknowledgement a mover's cutover waits for goes at once
    if (wait > 0 && urgentDrained.get() <= writtenDrained) {
      if (!flushTimerSet) {
        flushTimerSet = true;
        schedule(
            () -> {
              flushTimerSet = false;
              flush();
            },
            wait);
      }
      return;
    }
    writing = true;
    lastWriteNanos = now;
    long attempt = generation;
    long lease = leaseId;
    step(
        call(() -> store.put(key, value(revision, drained), lease)),
        "cannot update " + key,
        (ignored, error) -> {
          writing = false;
          if (attempt != generation || closing) {
            return;
          }
          if (error != null) {
            if (EtcdRegistryStore.isLeaseNotFound(error)) {
              leaseLost(attempt, leaseId, describe(error));
              return;
            }
            warn("cannot update " + key + ": " + describe(error) + "; trying again");
            failures++;
            schedule(this::flush, backoffNanos(failures));
            return;
          }
          writtenRevision = revision;
          writtenDrained = drained;
          failures = 0;
          writes.incrementAndGet();
          flush();
        });
  }

  // ---- closing ---------------------------------------------------------------------------------

  /**
   * Stops registering and revokes the lease, which deletes the key. Completes when that is done, or
   * after {@link #MAX_CLOSE_WAIT} (at most the request timeout) if etcd is slow to answer: the
   * revoke (bounded by the request timeout) and the release of the jetcd client then finish in the
   * background, and a key left behind goes when its lease expires. Never completes exceptionally.
   * Idempotent.
   */
  public CompletableFuture<Void> close() {
    if (!closeCalled.compareAndSet(false, true)) {
      return closed.copy();
    }
    closing = true;
    if (!onThread(this::closeOnThread)) {
      finish();
      return closed.copy();
    }
    schedule(() -> closed.complete(null), Math.min(timeoutNanos, MAX_CLOSE_WAIT.toNanos()));
    return closed.copy();
  }

  private void closeOnThread() {
    // Let the etcd call in progress end first (bounded), so that a lease it grants is revoked too.
    lastStep.whenComplete(
        (ignored, error) ->
            onThreadOrNow(
                () -> {
                  state = State.CLOSED;
                  generation++;
                  closeKeepAlive();
                  long lease = leaseId;
                  leaseId = 0;
                  if (lease == 0) {
                    finish();
                    return;
                  }
                  within(call(() -> store.revoke(lease)), "revoke")
                      .whenComplete(
                          (revoked, revokeError) -> {
                            if (revokeError != null) {
                              LOG.debug(
                                  "client {}: revoking lease {} on close failed ({}); the key"
                                      + " goes when the lease expires",
                                  clientId,
                                  lease,
                                  describe(revokeError));
                            }
                            onThreadOrNow(this::finish);
                          });
                }));
  }

  private void finish() {
    try {
      if (store != null) {
        store.close();
      }
    } catch (RuntimeException e) {
      LOG.debug("closing the etcd client of client {} failed", clientId, e);
    } finally {
      if (scheduler != null) {
        scheduler.shutdown();
      }
      closed.complete(null);
    }
  }

  // ---- plumbing --------------------------------------------------------------------------------

  /**
   * Runs an etcd call bounded by the request timeout; {@code then} runs on the registry thread with
   * its result.
   */
  private <T> void step(CompletableFuture<T> call, String what, BiConsumer<T, Throwable> then) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    lastStep = done;
    within(call, what)
        .whenComplete(
            (value, error) -> {
              boolean queued =
                  onThread(
                      () -> {
                        try {
                          then.accept(value, error);
                        } finally {
                          done.complete(null);
                        }
                      });
              if (!queued) {
                done.complete(null);
              }
            });
  }

  /** Starts an etcd call; one that throws (a closed etcd client) fails its future instead. */
  private static <T> CompletableFuture<T> call(Supplier<CompletableFuture<T>> start) {
    try {
      return start.get();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private <T> CompletableFuture<T> within(CompletableFuture<T> call, String what) {
    CompletableFuture<T> bounded = new CompletableFuture<>();
    Runnable cancel;
    try {
      cancel =
          scheduler.schedule(
              () ->
                  bounded.completeExceptionally(
                      new TimeoutException(
                          what
                              + ": no answer within "
                              + Duration.ofNanos(timeoutNanos).toMillis()
                              + " ms")),
              timeoutNanos);
    } catch (RejectedExecutionException shutDown) {
      cancel = () -> {};
    }
    Runnable cancelTimer = cancel;
    call.whenComplete(
        (value, error) -> {
          cancelTimer.run();
          if (error != null) {
            bounded.completeExceptionally(error);
          } else {
            bounded.complete(value);
          }
        });
    return bounded;
  }

  /** Queues a task on the registry thread; false once it is shut down. */
  private boolean onThread(Runnable task) {
    try {
      scheduler.execute(task);
      return true;
    } catch (RejectedExecutionException shutDown) {
      return false;
    }
  }

  private void onThreadOrNow(Runnable task) {
    if (!onThread(task)) {
      task.run();
    }
  }

  private void schedule(Runnable task, long delayNanos) {
    try {
      scheduler.schedule(task, delayNanos);
    } catch (RejectedExecutionException shutDown) {
      // closed
    }
  }

  private long backoffNanos(int failures) {
    long step = backoffMinNanos << Math.min(failures - 1, 20);
    long capped = step <= 0 ? backoffMaxNanos : Math.min(step, backoffMaxNanos);
    // jitter: between half and all of the step
    return capped / 2 + (long) (ThreadLocalRandom.current().nextDouble() * (capped / 2.0));
  }

  private void warn(String message) {
    if (message.equals(lastLoggedError)) {
      LOG.debug("client {} in {}: {}", clientId, where, message);
      return;
    }
    lastLoggedError = message;
    LOG.warn("client {} in {}: {}", clientId, where, message);
  }

  private static String describe(Throwable error) {
    return EtcdClients.describe(error);
  }

  /** The registration value for a revision. */
  byte[] value(long revision) {
    return value(identity, revision, drainedRevision.get());
  }

  byte[] value(long revision, long drained) {
    return value(identity, revision, drained);
  }

  static byte[] value(Identity identity, long revision) {
    return value(identity, revision, -1);
  }

  /**
   * The registration value; {@code "drained"} is left out while it is not known ({@code -1}): such
   * a client does not take part in migrations yet.
   */
  static byte[] value(Identity identity, long revision, long drained) {
    return new RegistrationValue(
            identity.host(),
            identity.pid(),
            revision,
            drained >= 0 ? OptionalLong.of(drained) : OptionalLong.empty(),
            identity.since().truncatedTo(ChronoUnit.SECONDS).toString(),
            identity.version(),
            identity.cluster())
        .encode();
  }

  // ---- ids -------------------------------------------------------------------------------------

  /**
   * A client id for this process: {@code <host>:<pid>:<6 hex digits>}, the host cut to what the id
   * pattern allows.
   */
  public static String defaultClientId() {
    return defaultClientId(
        localHostName(), ProcessHandle.current().pid(), ThreadLocalRandom.current().nextInt());
  }

  static String defaultClientId(String host, long pid, int random) {
    String safeHost = host.replaceAll("[^A-Za-z0-9._-]", "-");
    if (safeHost.isEmpty()) {
      safeHost = "host";
    }
    String suffix = ":" + pid + ":" + String.format(Locale.ROOT, "%06x", random & 0xffffff);
    int room = 128 - suffix.length();
    return (safeHost.length() > room ? safeHost.substring(0, room) : safeHost) + suffix;
  }

  /** This machine's host name, or {@code HOSTNAME}, or {@code unknown}. */
  static String localHostName() {
    try {
      String name = InetAddress.getLocalHost().getHostName();
      if (name != null && !name.isBlank()) {
        return name;
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("cannot read the local host name", e);
    }
    String variable = System.getenv("HOSTNAME");
    return variable == null || variable.isBlank() ? "unknown" : variable;
  }

  /** The driver's version (filled in by the build), or null. */
  static String driverVersion() {
    try (InputStream in =
        ClientRegistration.class.getResourceAsStream("/io/jumpgate/driver/version.properties")) {
      if (in == null) {
        return null;
      }
      Properties properties = new Properties();
      properties.load(in);
      String version = properties.getProperty("version");
      return version == null || version.startsWith("${") ? null : version;
    } catch (IOException e) {
      return null;
    }
  }

  @Override
  public String toString() {
    return "ClientRegistration{" + key + " in " + where + "}";
  }

  static String requireClientId(String clientId) {
    Objects.requireNonNull(clientId, "clientId");
    if (!TopologyKeys.CLIENT_ID_PATTERN.matcher(clientId).matches()) {
      throw new IllegalArgumentException(
          "clientId must match "
              + TopologyKeys.CLIENT_ID_PATTERN.pattern()
              + ", was '"
              + clientId
              + "'");
    }
    return clientId;
  }
}
