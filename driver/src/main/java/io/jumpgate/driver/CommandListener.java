package io.jumpgate.driver;

/**
 * Told when each command ends, with where it went: for tracing and debugging tools such as {@code
 * jumpgate exec --trace}. A multi-key or broadcast command ends once per part (per node).
 *
 * <p>Called on a Netty event loop or a retry thread, before the command's future completes: return
 * quickly and never block. An exception thrown here is logged and ignored. Methods default to doing
 * nothing, so new events never break an implementation. Set with {@link
 * JumpgateOptions.Builder#commandListener}; none by default (then nothing is allocated for it).
 */
public interface CommandListener {

  /** A command (or one part of a fan-out) ended. */
  default void commandEnded(CommandEvent event) {}
}
