package io.jumpgate.bench.timing;

import io.jumpgate.migration.CopyMethod;
import io.jumpgate.migration.MoverOptions;
import io.jumpgate.migration.ShardCopierOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * The mover's flags of {@link MigrationRun}, also understood by {@link MoverChildMain}: {@code
 * [--copy-rate KEYS_PER_SECOND] [--batch-size KEYS] [--pipeline-depth BATCHES] [--group-size
 * SHARDS] [--scan-count KEYS] [--copy-method migrate|dump-restore|script]}; every flag absent keeps
 * the default of {@link ShardCopierOptions} and {@link MoverOptions}. Stateless.
 */
final class MoverFlags {

  /** The options, and the flags they came from (to hand to a mover of its own JVM). */
  record Parsed(MoverOptions options, List<String> flags) {}

  private MoverFlags() {}

  /**
   * Removes the mover's flags from {@code rest}.
   *
   * @throws IllegalArgumentException naming the flag, when a value is missing or wrong
   */
  static Parsed parse(String program, List<String> rest) {
    List<String> flags = new ArrayList<>();
    int copyRate = intOption(program, rest, "--copy-rate", flags);
    int batchSize = intOption(program, rest, "--batch-size", flags);
    int pipelineDepth = intOption(program, rest, "--pipeline-depth", flags);
    int groupSize = intOption(program, rest, "--group-size", flags);
    int scanCount = intOption(program, rest, "--scan-count", flags);
    String copyMethod = null;
    int methodAt = rest.indexOf("--copy-method");
    if (methodAt >= 0) {
      if (methodAt + 1 >= rest.size()) {
        throw new IllegalArgumentException(
            program + ": --copy-method needs migrate, dump-restore or script");
      }
      copyMethod = rest.get(methodAt + 1);
      flags.addAll(rest.subList(methodAt, methodAt + 2));
      rest.subList(methodAt, methodAt + 2).clear();
    }
    ShardCopierOptions.Builder copier = ShardCopierOptions.builder();
    if (copyRate > 0) {
      copier.copyKeysPerSecond(copyRate);
    }
    if (batchSize > 0) {
      copier.batchSize(batchSize);
    }
    if (pipelineDepth > 0) {
      copier.pipelineDepth(pipelineDepth);
    }
    if (scanCount > 0) {
      copier.scanCount(scanCount);
    }
    if (copyMethod != null) {
      copier.copyMethod(
          switch (copyMethod) {
            case "migrate" -> CopyMethod.MIGRATE;
            case "dump-restore" -> CopyMethod.DUMP_RESTORE;
            case "script" -> CopyMethod.SCRIPT;
            default ->
                throw new IllegalArgumentException(
                    program
                        + ": --copy-method is migrate, dump-restore or script, was "
                        + copyMethod);
          });
    }
    MoverOptions.Builder mover = MoverOptions.builder().copier(copier.build());
    if (groupSize > 0) {
      mover.groupSize(groupSize);
    }
    return new Parsed(mover.build(), List.copyOf(flags));
  }

  /** Removes {@code name} and its value from {@code rest}; 0 when the flag is absent. */
  static int intOption(String program, List<String> rest, String name, List<String> flags) {
    int at = rest.indexOf(name);
    if (at < 0) {
      return 0;
    }
    if (at + 1 >= rest.size() || !rest.get(at + 1).matches("[1-9][0-9]{0,8}")) {
      throw new IllegalArgumentException(
          program + ": " + name + " needs a positive whole number (1 to 999999999)");
    }
    int value = Integer.parseInt(rest.get(at + 1));
    flags.addAll(rest.subList(at, at + 2));
    rest.subList(at, at + 2).clear();
    return value;
  }
}
