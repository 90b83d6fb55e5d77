package io.jumpgate.spring.internal;

import java.util.List;

/**
 * The class path lacks what the Jumpgate driver is built on (Netty 4.2, Lettuce 7); {@link
 * JumpgateFailureAnalyzer} explains it at startup.
 */
public final class IncompatibleDependenciesException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  IncompatibleDependenciesException(List<String> problems) {
    super("Jumpgate cannot run with these dependencies: " + String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  /** What is missing, one sentence each. */
  public List<String> problems() {
    return problems;
  }
}
