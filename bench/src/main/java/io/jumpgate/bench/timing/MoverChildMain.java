package io.jumpgate.bench.timing;

import io.jumpgate.it.fixture.MoverProcessMain;

/**
 * The mover of {@link MigrationRun} {@code --mover-process}: the fixture's {@link MoverProcessMain}
 * (the one mover-in-a-JVM program and its line protocol), plus, with {@code
 * -Dmover.threadCpu=true}, the CPU time of this JVM's threads (JIT compiler and GC included, from
 * {@code /proc/self/task}) on stderr when it exits. Arguments: those of {@link MoverProcessMain}.
 */
public final class MoverChildMain {

  /** {@code -Dmover.threadCpu=true}: at the end, the CPU time of this JVM's threads to stderr. */
  static final String THREAD_CPU_PROPERTY = "mover.threadCpu";

  private MoverChildMain() {}

  public static void main(String[] args) throws Exception {
    if (Boolean.getBoolean(THREAD_CPU_PROPERTY)) {
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> TaskCpu.now().lines("mover-child thread CPU ").forEach(System.err::println),
                  "mover-child-thread-cpu"));
    }
    MoverProcessMain.main(args);
  }
}
