package io.jumpgate.driver.internal;

import java.util.concurrent.atomic.LongAdder;

/**
 * Knows when every try that was routed with an older routing table has been handed to Lettuce, so
 * that a PING sent after that moment is written after each of them. This is what makes a freeze's
 * acknowledgement true: without it, a thread that read the map before a shard froze could write its
 * command to the old leader after the client said it held the shard.
 *
 * <p>Two counters, one per parity of the table's generation. A try enters the counter of the table
 * it read, then reads the table again: if it changed meanwhile, it leaves and starts over, so a try
 * counted under generation g really routes with table g. The publisher of table g + 1 first waits
 * until no try of generation g - 1 remains (the counter it is about to reuse), and the
 * acknowledgement for table g + 1 waits until no try of generation g remains. Routing and handing a
 * try to Lettuce takes microseconds, so the waits are short; they are bounded all the same.
 *
 * <p>Cost on the hot path: an increment and a decrement of a striped counter, and one more volatile
 * read of the table. Thread-safe.
 */
final class DispatchGate {

  /**
   * The two counters, indexed by the generation's parity. An array index rather than a branch on
   * the parity: before the first map change every try takes the same side of such a branch, the JIT
   * compiles the other side out, and the first change (the start of a migration) then throws the
   * compiled hot path away to be compiled again, in the application's JVM, while it moves data.
   */
  private final LongAdder[] counters = {new LongAdder(), new LongAdder()};

  /** The counter of the tries routed with a table of this generation. */
  LongAdder counterOf(long generation) {
    return counters[(int) (generation & 1)];
  }

  /**
   * Waits until no try counted under {@code generation}'s parity is between routing and Lettuce,
   * spinning at most {@code timeoutNanos} of real time; false when the bound passed first.
   */
  boolean awaitQuiet(long generation, long timeoutNanos) {
    LongAdder counter = counterOf(generation);
    if (counter.sum() == 0) {
      return true;
    }
    long start = System.nanoTime();
    int spins = 0;
    while (counter.sum() != 0) {
      if (System.nanoTime() - start > timeoutNanos) {
        return false;
      }
      if (++spins < 100) {
        Thread.onSpinWait();
      } else {
        Thread.yield();
      }
    }
    return true;
  }
}
