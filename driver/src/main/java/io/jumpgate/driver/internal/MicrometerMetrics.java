package io.jumpgate.driver.internal;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologySource;
import io.jumpgate.spi.TopologySourceStatus;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Micrometer binding of {@link DriverMetrics}: the meters of docs/metrics.md, each tagged with
 * {@code cluster} and, when the application named the client, {@code client}.
 *
 * <p>Only loaded when the options carry a registry: callers reach it through {@link #create}, whose
 * signature names no Micrometer type, so the driver runs without Micrometer on the class path.
 *
 * <p>Hot path: every meter is built once and cached (command timers in an array indexed by {@link
 * CommandType#ordinal()}, other command keywords and nodes in concurrent maps), so recording is an
 * array or map read and the meter's own update: no tag is built and nothing is allocated per call,
 * and no lock is taken once a meter exists. Gauges are read by the registry when it publishes.
 *
 * <p>{@link #close()} withdraws every meter this instance registered. Two clients that share a
 * registry and a cluster need distinct client ids, else they share (and withdraw) the same meters;
 * a warning says so when it happens.
 *
 * <p>Thread-safe.
 */
public final class MicrometerMetrics implements DriverMetrics {

  private static final Logger LOG = LoggerFactory.getLogger(MicrometerMetrics.class);

  /** Timer of every command, tags {@code command}, {@code outcome}. */
  public static final String COMMANDS = "jumpgate.commands";

  /** Timer of the commands whose last try went to a node, tags {@code node}, {@code outcome}. */
  public static final String NODE_COMMANDS = "jumpgate.node.commands";

  /** Counter of tries sent again, tag {@code reason}. */
  public static final String RETRIES = "jumpgate.retries";

  /** Counter of MOVED answers followed. */
  public static final String REDIRECTS = "jumpgate.redirects";

  /** Distribution summary of the nodes a multi-key or broadcast command went to. */
  public static final String FANOUT_NODES = "jumpgate.fanout.nodes";

  /** Gauge of the revision of the topology in force. */
  public static final String TOPOLOGY_REVISION = "jumpgate.topology.revision";

  /** Gauge of the seconds since the topology source last confirmed its snapshot. */
  public static final String TOPOLOGY_AGE = "jumpgate.topology.age";

  /** Counter of topologies applied. */
  public static final String TOPOLOGY_UPDATES = "jumpgate.topology.updates";

  /** Gauge of the invalid entries of the topology in force. */
  public static final String TOPOLOGY_INVALID = "jumpgate.topology.invalid";

  /** Gauge of the open node connections. */
  public static final String CONNECTIONS = "jumpgate.connections";

  /** Gauge: requests held now because their shard is frozen for a migration's cutover. */
  public static final String FREEZE_HELD = "jumpgate.freeze.held";

  /** Timer: how long each held request was held (sent on, or failed at its bound). */
  public static final String FREEZE_HOLD_TIME = "jumpgate.freeze.hold.time";

  /** Counter: maps that froze shards this client acknowledged (cutovers seen). */
  public static final String FREEZES = "jumpgate.freezes";

  /** How many distinct non-{@link CommandType} keywords get a timer of their own. */
  static final int MAX_OTHER_COMMANDS = 256;

  /** The {@code command} tag of keywords beyond {@link #MAX_OTHER_COMMANDS}. */
  static final String OTHER_COMMAND = "OTHER";

  private static final int SUCCESS = 0;
  private static final int FAILURE = 1;
  private static final String[] OUTCOMES = {"success", "failure"};
  private static final CommandType[] COMMAND_TYPES = CommandType.values();

  private final MeterRegistry registry;
  private final Tags tags;
  private final Supplier<TopologySourceStatus> status;
  private final Clock clock;
  private final Queue<Meter> meters = new ConcurrentLinkedQueue<>();
  private final AtomicReferenceArray<Timer> commandTimers =
      new AtomicReferenceArray<>(COMMAND_TYPES.length * 2);
  private final ConcurrentHashMap<ProtocolKeyword, Timer[]> otherCommandTimers =
      new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Timer[]> nodeTimers = new ConcurrentHashMap<>();
  private final Counter[] retries;
  private final Counter redirects;
  private final DistributionSummary fanOut;
  private final Counter topologyUpdates;
  private final Timer holdTime;
  private final Counter freezes;
  private final java.util.concurrent.atomic.AtomicInteger held =
      new java.util.concurrent.atomic.AtomicInteger();
  private final AtomicBoolean connectionsBound = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();

  private volatile Timer[] otherCommandTimer;
  private volatile long revision = -1;
  private volatile int invalidEntries;
  private volatile boolean closing;

  private MicrometerMetrics(
      MeterRegistry registry, Tags tags, Supplier<TopologySourceStatus> status, Clock clock) {
    this.registry = registry;
    this.tags = tags;
    this.status = status;
    this.clock = clock;
    FailureKind[] kinds = FailureKind.values();
    this.retries = new Counter[kinds.length];
    for (FailureKind kind : kinds) {
      retries[kind.ordinal()] =
          track(
              Counter.builder(RETRIES)
                  .description("Tries of commands sent again, by the reason of the failed try")
                  .tags(tags)
                  .tag("reason", kind.name().toLowerCase(Locale.ROOT))
                  .register(registry));
    }
    this.redirects =
        track(
            Counter.builder(REDIRECTS)
                .description("MOVED answers followed to the node they named")
                .tags(tags)
                .register(registry));
    this.fanOut =
        track(
            DistributionSummary.builder(FANOUT_NODES)
                .description("Parts (one per node) a multi-key command was split into")
                .baseUnit("nodes")
                .tags(tags)
                .register(registry));
    this.topologyUpdates =
        track(
            Counter.builder(TOPOLOGY_UPDATES)
                .description("Topology snapshots applied (the first one included)")
                .tags(tags)
                .register(registry));
    this.holdTime =
        track(
            Timer.builder(FREEZE_HOLD_TIME)
                .description("How long requests to frozen shards were held")
                .tags(tags)
                .register(registry));
    this.freezes =
        track(
            Counter.builder(FREEZES)
                .description("Maps that froze shards for a cutover, acknowledged by this client")
                .tags(tags)
                .register(registry));
    gauge(
        FREEZE_HELD,
        "Requests held now because their shard is frozen for a cutover",
        "requests",
        m -> m.held.get());
    gauge(
        TOPOLOGY_REVISION,
        "Revision of the topology in force (-1 before the first)",
        null,
        m -> m.revision);
    gauge(
        TOPOLOGY_AGE,
        "Seconds since the topology source last confirmed its snapshot was current",
        "seconds",
        MicrometerMetrics::ageSeconds);
    gauge(
        TOPOLOGY_INVALID,
        "Entries of the topology in force that failed validation",
        "entries",
        m -> m.invalidEntries);
  }

  /**
   * Binds the driver's meters to a registry.
   *
   * @param registry an {@code io.micrometer.core.instrument.MeterRegistry}; typed Object so that
   *     callers need not load Micrometer
   * @param cluster the {@code cluster} tag
   * @param client the {@code client} tag, or null for none
   * @param source the topology source, read by the age gauge
   * @param clock the clock of the source's status times
   * @throws IllegalArgumentException if {@code registry} is not a MeterRegistry
   */
  public static DriverMetrics create(
      Object registry, String cluster, String client, TopologySource source, Clock clock) {
    if (!(registry instanceof MeterRegistry meterRegistry)) {
      throw new IllegalArgumentException(
          "meterRegistry must be an io.micrometer.core.instrument.MeterRegistry, was "
              + (registry == null ? "null" : registry.getClass().getName()));
    }
    Objects.requireNonNull(cluster, "cluster");
    Tags tags = Tags.of("cluster", cluster);
    if (client != null) {
      tags = tags.and("client", client);
    }
    return new MicrometerMetrics(meterRegistry, tags, source::status, clock);
  }

  // ---- recording (hot paths) -------------------------------------------------------------------

  @Override
  public void commandEnded(ProtocolKeyword type, NodeHandle node, boolean success, long nanos) {
    if (closing) {
      return;
    }
    int outcome = success ? SUCCESS : FAILURE;
    commandTimer(type, outcome).record(nanos, TimeUnit.NANOSECONDS);
    if (node != null) {
      nodeTimer(node.node().id(), outcome).record(nanos, TimeUnit.NANOSECONDS);
    }
  }

  @Override
  public void retry(FailureKind reason) {
    retries[reason.ordinal()].increment();
  }

  @Override
  public void redirect() {
    redirects.increment();
  }

  @Override
  public void requestHeld() {
    held.incrementAndGet();
  }

  @Override
  public void requestReleased(long heldNanos) {
    held.decrementAndGet();
    holdTime.record(heldNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void freezeSeen() {
    freezes.increment();
  }

  @Override
  public void fanOut(int nodes) {
    fanOut.record(nodes);
  }

  @Override
  public void topologyApplied(TopologySnapshot snapshot) {
    topologyUpdates.increment();
    invalidEntries = snapshot.invalidEntries().size();
    forgetNodesNotIn(snapshot);
    revision = snapshot.revision(); // last: whoever sees it sees the rest
  }

  @Override
  public void connectionCount(IntSupplier openConnections) {
    Objects.requireNonNull(openConnections, "openConnections");
    if (connectionsBound.compareAndSet(false, true)) {
      gauge(
          CONNECTIONS, "Open connections to nodes", "connections", m -> openConnections.getAsInt());
    }
  }

  private Timer commandTimer(ProtocolKeyword type, int outcome) {
    if (type instanceof CommandType command) {
      int index = command.ordinal() * 2 + outcome;
      Timer timer = commandTimers.get(index);
      if (timer == null) {
        timer = commandTimer(command.toString(), outcome);
        commandTimers.set(index, timer);
      }
      return timer;
    }
    Timer[] pair = otherCommandTimers.get(type);
    if (pair == null) {
      if (otherCommandTimers.size() >= MAX_OTHER_COMMANDS) {
        pair = otherCommandTimer;
        if (pair == null) {
          pair = timerPair(OTHER_COMMAND);
          otherCommandTimer = pair;
        }
      } else {
        pair = otherCommandTimers.computeIfAbsent(type, key -> timerPair(key.toString()));
      }
    }
    return pair[outcome];
  }

  private Timer[] timerPair(String command) {
    return new Timer[] {commandTimer(command, SUCCESS), commandTimer(command, FAILURE)};
  }

  private Timer commandTimer(String command, int outcome) {
    return track(
        Timer.builder(COMMANDS)
            .description("Commands from first send to answer or final failure, retries included")
            .tags(tags)
            .tag("command", command)
            .tag("outcome", OUTCOMES[outcome])
            .register(registry));
  }

  private Timer nodeTimer(String node, int outcome) {
    Timer[] pair = nodeTimers.get(node);
    if (pair == null) {
      pair = nodeTimers.computeIfAbsent(node, this::nodeTimerPair);
    }
    return pair[outcome];
  }

  private Timer[] nodeTimerPair(String node) {
    Timer[] pair = new Timer[2];
    for (int outcome = SUCCESS; outcome <= FAILURE; outcome++) {
      pair[outcome] =
          track(
              Timer.builder(NODE_COMMANDS)
                  .description("Commands by the node their last try went to, retries included")
                  .tags(tags)
                  .tag("node", node)
                  .tag("outcome", OUTCOMES[outcome])
                  .register(registry));
    }
    return pair;
  }

  /** Withdraws the per-node timers of nodes the topology no longer names; topology thread. */
  private void forgetNodesNotIn(TopologySnapshot snapshot) {
    Set<String> referenced = null;
    for (String node : nodeTimers.keySet()) {
      if (snapshot.nodes().containsKey(node)) {
        continue;
      }
      if (referenced == null) {
        referenced = referencedNodes(snapshot);
      }
      if (!referenced.contains(node)) {
        Timer[] pair = nodeTimers.remove(node);
        if (pair != null) {
          for (Timer timer : pair) {
            registry.remove(timer);
            meters.remove(timer);
          }
        }
      }
    }
  }

  /** Every node a route names (a removed node may still lead shards until an admin fixes them). */
  private static Set<String> referencedNodes(TopologySnapshot snapshot) {
    Set<String> ids = new HashSet<>(snapshot.nodes().keySet());
    for (ShardRoute route : snapshot.routes()) {
      if (route.leader() != null) {
        ids.add(route.leader().id());
      }
      for (Node replica : route.replicas()) {
        ids.add(replica.id());
      }
    }
    return ids;
  }

  private double ageSeconds() {
    Duration age = status.get().ageAt(clock.instant());
    return age.isNegative() ? 0 : age.toNanos() / 1e9;
  }

  // ---- registration ----------------------------------------------------------------------------

  private void gauge(
      String name, String description, String baseUnit, ToDoubleFunction<MicrometerMetrics> value) {
    boolean taken =
        registry.find(name).tags(tags).gauges().stream()
            .anyMatch(gauge -> Tags.of(gauge.getId().getTags()).equals(tags));
    if (taken) {
      LOG.warn(
          "meter {} {} is already registered (another Jumpgate client of the same cluster in this"
              + " registry?): it keeps reporting the other client; give each client its own"
              + " clientId",
          name,
          tags);
    }
    Gauge.Builder<MicrometerMetrics> builder =
        Gauge.builder(name, this, value).description(description).tags(tags).strongReference(true);
    if (baseUnit != null) {
      builder.baseUnit(baseUnit);
    }
    track(builder.register(registry));
  }

  private <M extends Meter> M track(M meter) {
    meters.add(meter);
    if (closing) {
      // raced with close(): do not leave it behind
      registry.remove(meter);
    }
    return meter;
  }

  /** Withdraws every meter from the registry; later recordings do nothing visible. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    closing = true;
    Meter meter;
    while ((meter = meters.poll()) != null) {
      registry.remove(meter);
    }
  }
}
