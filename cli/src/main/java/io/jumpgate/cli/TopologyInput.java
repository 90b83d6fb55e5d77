package io.jumpgate.cli;

import io.jumpgate.spi.JumpgateException;
import io.jumpgate.spi.TopologyException;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologySource;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.EtcdTopologySource;
import io.jumpgate.topology.FileTopologySource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Where a verb reads its topology, resolved from {@link EtcdOptions} and {@link
 * TopologyFileOption}: etcd with its options, or a topology file; and how long to wait for the
 * first snapshot.
 *
 * <p>Exactly one of {@code --etcd} and {@code --topology-file} is used. {@code JUMPGATE_ETCD}
 * stands in for a missing {@code --etcd} when no {@code --topology-file} is given; the other {@code
 * JUMPGATE_*} variables are ignored for a file.
 *
 * <p>Loading fails with a {@link JumpgateException} whose one-line message names the endpoints or
 * the file (exit code 1): etcd unreachable, cluster not initialised, access refused, file not
 * valid, no answer within the timeout.
 *
 * <p>Immutable; the sources it creates are the caller's to close.
 */
final class TopologyInput {

  /** How much longer than its own start timeout an etcd source is given to fail by itself. */
  private static final Duration GRACE = Duration.ofSeconds(2);

  private final EtcdTopologyOptions etcd;
  private final Path file;
  private final String fileCluster;
  private final Duration timeout;

  private TopologyInput(EtcdTopologyOptions etcd, Path file, String fileCluster, Duration timeout) {
    this.etcd = etcd;
    this.file = file;
    this.fileCluster = fileCluster;
    this.timeout = timeout;
  }

  /**
   * The topology the verb's options name; one is required.
   *
   * @throws ParameterException if both or neither of {@code --etcd} and {@code --topology-file} are
   *     given (and {@code JUMPGATE_ETCD} is not set), or an option is wrong
   */
  static TopologyInput resolve(CommandSpec spec, EtcdOptions etcd, TopologyFileOption file) {
    Map<String, String> environment = JumpgateCli.environment(spec);
    if (file.file() != null && etcd.endpointsGiven()) {
      throw new ParameterException(
          spec.commandLine(),
          "--etcd and --topology-file cannot be used together: give one of them");
    }
    if (file.file() != null) {
      return forFile(spec, etcd, file.file());
    }
    if (!etcd.hasEndpoints(environment)) {
      throw new ParameterException(
          spec.commandLine(),
          "no topology to read: give --etcd URL[,URL...] (or set "
              + EtcdOptions.ENDPOINTS_VARIABLE
              + ") or --topology-file FILE");
    }
    return forEtcd(spec, etcd);
  }

  /**
   * The topology the verb's options name, when {@code --etcd} or {@code --topology-file} is on the
   * command line; empty when neither is ({@code JUMPGATE_ETCD} alone does not count).
   *
   * @throws ParameterException as {@link #resolve}, and if another source option is given without
   *     either
   */
  static Optional<TopologyInput> resolveIfGiven(
      CommandSpec spec, EtcdOptions etcd, TopologyFileOption file) {
    if (file.file() == null && !etcd.endpointsGiven()) {
      List<String> given = etcd.givenOptions();
      if (!given.isEmpty()) {
        throw new ParameterException(
            spec.commandLine(),
            given.get(0) + " needs --etcd or --topology-file, which read a topology");
      }
      return Optional.empty();
    }
    return Optional.of(resolve(spec, etcd, file));
  }

  /**
   * etcd, as the options name it.
   *
   * @throws ParameterException if no endpoint is given or an option is wrong
   */
  static TopologyInput forEtcd(CommandSpec spec, EtcdOptions etcd) {
    EtcdTopologyOptions options = etcd.toOptions(spec, JumpgateCli.environment(spec));
    return new TopologyInput(options, null, null, etcd.timeout(spec));
  }

  /**
   * A topology file, checked to exist; {@code --cluster}, when given, is the cluster it must hold.
   *
   * @throws ParameterException if the file does not exist or an etcd-only option is given
   */
  static TopologyInput forFile(CommandSpec spec, EtcdOptions etcd, Path file) {
    List<String> etcdOnly = etcd.givenEtcdOnlyOptions();
    if (!etcdOnly.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(), etcdOnly.get(0) + " applies to --etcd only, not to --topology-file");
    }
    String cluster =
        etcd.clusterGiven()
            ? EtcdOptions.checkedCluster(spec, etcd.clusterOption(), "--cluster")
            : null;
    return forFile(spec, "--topology-file", file, cluster, etcd.timeout(spec));
  }

  /**
   * A topology file, checked to exist.
   *
   * @param name the option or argument that named the file, for the error
   * @param cluster the cluster the file must hold, or null for any
   * @throws ParameterException if the file does not exist
   */
  static TopologyInput forFile(
      CommandSpec spec, String name, Path file, String cluster, Duration timeout) {
    return new TopologyInput(null, EtcdOptions.existingFile(spec, name, file), cluster, timeout);
  }

  /** Whether this is etcd (else a file). */
  boolean isEtcd() {
    return etcd != null;
  }

  /** The etcd options; only for {@link #isEtcd()}. */
  EtcdTopologyOptions etcdOptions() {
    return Objects.requireNonNull(etcd, "not an etcd input");
  }

  /** How long to wait for the first snapshot. */
  Duration timeout() {
    return timeout;
  }

  /** For messages: {@code etcd at http://...} or {@code topology file FILE}. */
  String description() {
    return etcd != null ? "etcd at " + etcd.endpointList() : "topology file " + file;
  }

  /** A source, not started yet; the caller closes it. */
  TopologySource create() {
    if (etcd != null) {
      return EtcdTopologySource.create(etcd);
    }
    FileTopologySource.Builder builder = FileTopologySource.builder(file);
    if (fileCluster != null) {
      builder.cluster(fileCluster);
    }
    return builder.build();
  }

  /**
   * Starts {@code source} and waits for its first snapshot. For etcd, when every endpoint refuses
   * the connection ({@link RefusedEndpoints}), fails at once instead of waiting the timeout out: a
   * refused connection is final for a CLI call.
   *
   * @throws JumpgateException with a one-line message naming the endpoints or file, if there is no
   *     snapshot within the timeout, or every etcd endpoint refuses the connection
   */
  TopologySnapshot awaitFirst(TopologySource source) {
    if (etcd != null) {
      Optional<String> refused = RefusedEndpoints.check(etcd.endpoints(), timeout);
      if (refused.isPresent()) {
        throw new TopologyUnavailableException(
            "no topology from "
                + description()
                + " for cluster '"
                + etcd.cluster()
                + "': "
                + refused.get()
                + " (is etcd running there?)");
      }
    }
    CompletableFuture<TopologySnapshot> first = source.start().toCompletableFuture();
    Duration wait = etcd != null ? timeout.plus(GRACE) : timeout;
    try {
      return first.get(wait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw failure(e.getCause());
    } catch (TimeoutException e) {
      throw new TopologyUnavailableException(
          "no topology from " + description() + " within " + timeout.toMillis() + " ms");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TopologyUnavailableException(
          "interrupted while waiting for the topology from " + description(), e);
    }
  }

  /**
   * Reads the topology once: creates a source, waits for its first snapshot, closes the source.
   *
   * @throws JumpgateException as {@link #awaitFirst}
   */
  TopologySnapshot load() {
    TopologySource source = create();
    try {
      return awaitFirst(source);
    } finally {
      close(source);
    }
  }

  /**
   * Closes a source. An etcd source is first given the time to finish the task its thread is
   * running: the first snapshot is announced from inside the listing task, which goes on to open
   * the watch, and a close in between makes that task fail (and log an error).
   */
  static void close(TopologySource source) {
    if (source instanceof EtcdTopologySource etcdSource) {
      etcdSource.lastAppliedRevision(); // runs after the task in progress; -1 once closed
    }
    source.close();
  }

  /** The failure as a one-line message that names where the topology was read. */
  JumpgateException failure(Throwable cause) {
    String message = cause.getMessage() == null ? cause.toString() : cause.getMessage();
    String where = etcd != null ? etcd.endpointList() : file.toString();
    if (message.contains(where)) {
      return cause instanceof JumpgateException jumpgate
          ? jumpgate
          : new TopologyUnavailableException(message, cause);
    }
    String text = description() + ": " + message;
    return cause instanceof TopologyException
        ? new TopologyUnavailableException(text, cause)
        : new TopologyUnavailableException("cannot read the topology from " + text, cause);
  }

  @Override
  public String toString() {
    return "TopologyInput{" + description() + ", timeout=" + timeout + "}";
  }
}
