package io.jumpgate.driver.internal;

/**
 * Internal signal: a fan-out part's keys are no longer served by one node (the map moved); the
 * fan-out splits them again. Never reaches the caller. No stack trace: it is control flow.
 */
public final class RegroupNeededException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public RegroupNeededException() {
    super("the keys of this part are now served by different nodes", null, false, false);
  }
}
