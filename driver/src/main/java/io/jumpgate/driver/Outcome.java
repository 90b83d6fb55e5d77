package io.jumpgate.driver;

/**
 * What is known about whether a command ran on a server. One word for one idea, used by every
 * exception of the driver ({@link CommandFailedException#outcome()}), by the parts of a failed
 * fan-out, and by the documentation.
 *
 * <ul>
 *   <li>{@link #APPLIED}: the server answered; the command ran (only for the parts of a fan-out or
 *       the nodes of a broadcast that answered).
 *   <li>{@link #NOT_RUN}: no try of the command can have run: none reached a server, or every one
 *       that did was refused before running (READONLY, MOVED, TRYAGAIN, LOADING, ...). Sending it
 *       again is safe whatever the command.
 *   <li>{@link #UNKNOWN}: at least one try may have run (it was written and then the answer did not
 *       come: a timeout, a connection lost after the write). An INCR with this outcome may have
 *       been applied.
 * </ul>
 *
 * <p>Immutable; safe from any thread.
 */
public enum Outcome {
  /** The server answered: the command ran. */
  APPLIED,
  /** No try can have run: sending the command again is safe. */
  NOT_RUN,
  /** A try may have run: the caller must not assume either way. */
  UNKNOWN;

  /** True for {@link #UNKNOWN}: a try may have run and its effect may be on the server. */
  public boolean mayHaveRun() {
    return this != NOT_RUN;
  }
}
