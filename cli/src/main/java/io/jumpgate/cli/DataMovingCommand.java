package io.jumpgate.cli;

import io.jumpgate.migration.CopyMethod;
import io.jumpgate.migration.MapChange;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.migration.ShardCopierOptions;
import io.jumpgate.topology.MigrationStore;
import java.time.Duration;
import java.util.Objects;
import picocli.CommandLine.Option;

/**
 * An admin verb whose change moves leaderships ({@code add-node}, {@code remove-node}, {@code
 * move-shard}, {@code rebalance}): when it is applied, the data of every shard whose leader changes
 * moves with it through a {@link io.jumpgate.migration.MapChangeMover} (live copy, a freeze of
 * milliseconds, a compare-and-set cutover), unless {@code --map-only} is given, which writes the
 * map alone as these verbs did before the mover existed.
 *
 * <p>Options: {@code --map-only}; {@code --offline} (no change capture, no {@code CONFIG SET}: each
 * group of shards is frozen for the whole copy of its keys, {@link MoverOptions#offline()}; not
 * with {@code --map-only}); {@code --group-size} (default {@value MoverOptions#DEFAULT_GROUP_SIZE}
 * shards frozen and cut over together, {@value MoverOptions#DEFAULT_OFFLINE_GROUP_SIZE} offline),
 * {@code --ack-timeout} (default 2s, {@link MoverOptions#DEFAULT_ACKNOWLEDGEMENT_TIMEOUT}) and
 * {@code --cleanup-grace} (default 5s, {@link MoverOptions#DEFAULT_CLEANUP_GRACE}), {@code
 * --copy-rate} (keys per second of the bulk copy, {@link ShardCopierOptions#copyKeysPerSecond()};
 * default no bound), {@code --copy-method} ({@code migrate}, the default, {@code script} or {@code
 * dump-restore}: {@link ShardCopierOptions#copyMethod()}); every other mover option is {@link
 * MoverOptions#defaults()}.
 *
 * <p>Threading: picocli fills one instance per invocation; use it from one thread, once.
 */
abstract class DataMovingCommand extends AdminPlanCommand {

  @Option(
      names = "--map-only",
      description =
          "Change the map alone, as these verbs did before: the data stays where it is. For"
              + " servers that move their data themselves, or data copied beforehand.")
  boolean mapOnly;

  @Option(
      names = "--offline",
      description =
          "Move the data without change capture and without CONFIG SET, for servers that refuse"
              + " it: each group of shards is frozen for the whole copy of its keys (a SCAN of its"
              + " whole source), so clients wait longer, and a freeze longer than their hold bound"
              + " (5s by default) fails the held requests with a retryable error; no write is lost."
              + " Default group size "
              + MoverOptions.DEFAULT_OFFLINE_GROUP_SIZE
              + ".")
  boolean offline;

  @Option(
      names = "--group-size",
      paramLabel = "SHARDS",
      description =
          "Shards frozen and cut over together when the data moves, 1 to "
              + MigrationStore.MAX_SHARDS_PER_TRANSACTION
              + " (default "
              + MoverOptions.DEFAULT_GROUP_SIZE
              + ", "
              + MoverOptions.DEFAULT_OFFLINE_GROUP_SIZE
              + " with --offline).")
  String groupSizeValue;

  @Option(
      names = "--ack-timeout",
      paramLabel = "DURATION",
      description =
          "How long a freeze waits for every client's acknowledgement before it is lifted with"
              + " nothing moved and tried again later (default 2s).")
  String acknowledgementTimeoutValue;

  @Option(
      names = "--cleanup-grace",
      paramLabel = "DURATION",
      description =
          "How long after the last cutover the moved keys stay on their old leader before they"
              + " are removed; keep it above the clients' command timeout (default 5s).")
  String cleanupGraceValue;

  @Option(
      names = "--copy-rate",
      paramLabel = "KEYS_PER_SECOND",
      description =
          "The most keys per second the bulk copy moves, to leave the servers room for the"
              + " clients (a longer copy, never a longer freeze); default: no bound.")
  String copyRateValue;

  @Option(
      names = "--copy-method",
      paramLabel = "METHOD",
      description =
          "How the keys go from a source to its target: migrate (default: MIGRATE on the source,"
              + " which connects to the target itself), script (one EVAL of DUMP and PTTL per batch"
              + " on the source, one EVAL of RESTORE on the target: the source never waits for"
              + " the target; needs EVAL for the mover's user) or dump-restore (DUMP, PTTL and"
              + " RESTORE one key at a time through the mover, for servers that cannot reach each"
              + " other).")
  String copyMethodValue;

  @picocli.CommandLine.Mixin RedisCredentialsOptions redisCredentials;

  final DataMoveClient.Connector dataMover;
  final DataMoveClient.Estimator estimator;
  private MoverOptions moverOptions;

  DataMovingCommand(
      AdminPlanClient.Connector connector,
      DataMoveClient.Connector dataMover,
      DataMoveClient.Estimator estimator) {
    super(connector);
    this.dataMover = Objects.requireNonNull(dataMover, "dataMover");
    this.estimator = Objects.requireNonNull(estimator, "estimator");
  }

  /** The change this verb makes, as the mover carries it out. */
  abstract MapChange mapChange();

  /** Checks the data-move options; called before the verb's own arguments are checked. */
  @Override
  void checkDataMoveArguments() {
    if (mapOnly && offline) {
      throw usage(
          "--offline and --map-only cannot be used together: --map-only moves no data, --offline"
              + " says how the data moves");
    }
    if (mapOnly
        && (groupSizeValue != null
            || acknowledgementTimeoutValue != null
            || cleanupGraceValue != null
            || copyRateValue != null
            || copyMethodValue != null)) {
      throw usage(
          "--map-only moves no data: --group-size, --ack-timeout, --cleanup-grace, --copy-rate"
              + " and --copy-method cannot be used with it");
    }
    MoverOptions.Builder options =
        MoverOptions.builder().offline(offline).serverAddresses(redisCredentials.serverAddresses());
    if (groupSizeValue != null) {
      options.groupSize(
          OptionValues.intInRange(
              spec, "--group-size", groupSizeValue, 1, MigrationStore.MAX_SHARDS_PER_TRANSACTION));
    }
    if (acknowledgementTimeoutValue != null) {
      Duration timeout =
          OptionValues.positiveDuration(spec, "--ack-timeout", acknowledgementTimeoutValue);
      options.acknowledgementTimeout(timeout);
    }
    if (cleanupGraceValue != null) {
      options.cleanupGrace(
          OptionValues.positiveDuration(spec, "--cleanup-grace", cleanupGraceValue));
    }
    if (copyRateValue != null || copyMethodValue != null) {
      ShardCopierOptions.Builder copier = ShardCopierOptions.builder();
      if (copyRateValue != null) {
        copier.copyKeysPerSecond(
            OptionValues.intInRange(spec, "--copy-rate", copyRateValue, 1, Integer.MAX_VALUE));
      }
      if (copyMethodValue != null) {
        copier.copyMethod(copyMethod(copyMethodValue));
      }
      options.copier(copier.build());
    }
    moverOptions = options.build();
  }

  private CopyMethod copyMethod(String value) {
    return switch (value) {
      case "migrate" -> CopyMethod.MIGRATE;
      case "script" -> CopyMethod.SCRIPT;
      case "dump-restore" -> CopyMethod.DUMP_RESTORE;
      default ->
          throw usage("--copy-method must be migrate, script or dump-restore, was '" + value + "'");
    };
  }

  @Override
  DataMovingCommand dataMoving() {
    return mapOnly ? null : this;
  }

  /** The mover's options from the command line; after {@link #checkDataMoveArguments()}. */
  MoverOptions moverOptions() {
    return moverOptions;
  }
}
