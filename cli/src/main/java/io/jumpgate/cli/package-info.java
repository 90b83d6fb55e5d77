/**
 * The {@code jumpgate} command-line tool, built on picocli.
 *
 * <p>{@link io.jumpgate.cli.JumpgateCli} is the entry point and registers the verbs; each verb is
 * one class: {@link io.jumpgate.cli.RouteCommand}, and under {@link
 * io.jumpgate.cli.TopologyCommand} the read-only topology verbs {@code show}, {@code watch}, {@code
 * validate}, {@code export} and {@code diff}. Shared helpers turn arguments into values ({@code
 * OptionValues}, {@code KeyArguments}), say where a topology is read from ({@code EtcdOptions} and
 * {@code TopologyFileOption}, two picocli mixins resolved by {@code TopologyInput}; {@code
 * EtcdHistory} for an older etcd revision) and write output ({@code TextTable}, {@code
 * TopologyText} and {@code BarChart} for humans, {@code JsonOutput} and {@code SnapshotJson} for
 * machines); {@code ErrorReporter} maps every error to one stderr line and an exit code ({@link
 * io.jumpgate.cli.ExitCodes}); {@code CliLogging} keeps library logging off stdout.
 *
 * <p>Threading: the CLI runs one verb on the main thread; command objects are filled by picocli for
 * one invocation and are not shared. {@code topology watch} receives new snapshots on the topology
 * source's thread and prints them on the main thread. The helpers are stateless.
 */
package io.jumpgate.cli;
