package io.jumpgate.it.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/** Checks that texts and exceptions hold no password. */
final class Secrets {

  private Secrets() {}

  /**
   * Everything an exception can show: its {@code toString()}, every cause's and suppressed
   * exception's message and {@code toString()}, and the printed stack trace (what a logger prints).
   */
  static String everything(Throwable error) {
    StringBuilder text = new StringBuilder();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    collect(error, text, seen);
    StringWriter trace = new StringWriter();
    error.printStackTrace(new PrintWriter(trace, true));
    return text.append('\n').append(trace).toString();
  }

  private static void collect(Throwable error, StringBuilder text, Set<Throwable> seen) {
    if (error == null || !seen.add(error)) {
      return;
    }
    text.append(error).append('\n');
    text.append(error.getMessage()).append('\n');
    text.append(error.getLocalizedMessage()).append('\n');
    collect(error.getCause(), text, seen);
    for (Throwable suppressed : error.getSuppressed()) {
      collect(suppressed, text, seen);
    }
  }

  /** Asserts that {@code text} (described by {@code what}) holds none of {@code secrets}. */
  static void assertAbsent(String what, String text, String... secrets) {
    for (String secret : secrets) {
      assertThat(text).as("%s must not show a password", what).doesNotContain(secret);
    }
  }

  /** Asserts that nothing {@code error} shows holds any of {@code secrets}. */
  static void assertAbsent(String what, Throwable error, String... secrets) {
    assertAbsent(what, everything(error), secrets);
  }
}
