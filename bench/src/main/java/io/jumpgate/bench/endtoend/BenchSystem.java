package io.jumpgate.bench.endtoend;

import java.util.concurrent.CompletionStage;

/**
 * One of the systems compared: it issues GET, SET, MGET and MSET asynchronously. Multi-key work is
 * prepared (keys looked up, and for the direct baseline grouped per node) before anything is timed;
 * only {@link #mget(Object)} and {@link #mset(Object)} of a prepared batch are timed.
 *
 * <p>Implementations are safe to call from many threads at once (the Netty threads that complete
 * the previous request issue the next).
 */
interface BenchSystem extends AutoCloseable {

  /** The name in results: {@code jumpgate}, {@code direct}, {@code lettuceCluster}, ... */
  String name();

  CompletionStage<?> get(int keyIndex);

  CompletionStage<?> set(int keyIndex);

  /** Turns a batch of key indexes into what {@link #mget} / {@link #mset} take; not timed. */
  Object prepare(int[] keyIndexes, boolean write);

  CompletionStage<?> mget(Object prepared);

  CompletionStage<?> mset(Object prepared);

  /** The same system's blocking API, for the {@code sync-*} workloads. */
  Blocking blocking();

  /**
   * Blocking calls through a system's sync API (Jumpgate's {@code sync()} view, Lettuce's sync
   * connections): each returns when the answer is there. Safe to call from many threads at once.
   */
  interface Blocking {
    Object get(int keyIndex);

    Object set(int keyIndex);

    /**
     * HSET of the 10 fields of {@link KeySpace#hashFields()} into hash record {@code hashIndex}.
     */
    Object hset(int hashIndex);

    Object hgetall(int hashIndex);
  }

  @Override
  void close();
}
