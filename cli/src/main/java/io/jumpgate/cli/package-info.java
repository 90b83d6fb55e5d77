/**
 * The {@code jumpgate} command-line tool, built on picocli.
 *
 * <p>{@link io.jumpgate.cli.JumpgateCli} is the entry point and registers the verbs; each verb is
 * one class ({@link io.jumpgate.cli.RouteCommand}, ...). Shared helpers turn arguments into values
 * ({@code OptionValues}, {@code KeyArguments}) and write output ({@code TextTable} for humans,
 * {@code JsonOutput} for machines); {@code ErrorReporter} maps every error to one stderr line and
 * an exit code ({@link io.jumpgate.cli.ExitCodes}).
 *
 * <p>Threading: the CLI runs one verb on the main thread; command objects are filled by picocli for
 * one invocation and are not shared. The helpers are stateless.
 */
package io.jumpgate.cli;
