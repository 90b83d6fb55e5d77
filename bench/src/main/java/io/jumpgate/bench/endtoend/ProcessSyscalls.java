package io.jumpgate.bench.endtoend;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This JVM's read and write system calls so far, from Linux's {@code /proc/self/io}: {@code syscr}
 * (read, readv, pread and the like) plus {@code syscw} (write, writev, pwrite), over all threads of
 * the process, dead ones included. Socket reads and writes through {@code read}/{@code write}/
 * {@code writev} (what Netty's NIO and epoll transports use) count; {@code epoll_wait}, {@code
 * futex}, {@code sendmsg}/{@code recvmsg} and io_uring submissions do not. Reading the file costs
 * about two read calls of its own. Stateless and thread-safe.
 *
 * <p>Not {@code perf stat}: counting every system call with a tracepoint would slow the measured
 * run, and the read and write calls are the ones that issue 14 is about (one write per command).
 */
final class ProcessSyscalls {
  private static final Path FILE = Path.of("/proc/self/io");

  private ProcessSyscalls() {}

  /** {@code syscr + syscw} now, or -1 when {@code /proc/self/io} cannot be read. */
  static long readWriteCalls() {
    try {
      return parse(new String(Files.readAllBytes(FILE), StandardCharsets.US_ASCII));
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * {@code syscr + syscw} of a {@code /proc/PID/io} text.
   *
   * @throws IllegalArgumentException when either line is missing or not a number
   */
  static long parse(String text) {
    long reads = -1;
    long writes = -1;
    for (String line : text.split("\n")) {
      if (line.startsWith("syscr:")) {
        reads = Long.parseLong(line.substring("syscr:".length()).trim());
      } else if (line.startsWith("syscw:")) {
        writes = Long.parseLong(line.substring("syscw:".length()).trim());
      }
    }
    if (reads < 0 || writes < 0) {
      throw new IllegalArgumentException("no syscr and syscw lines in /proc/self/io: " + text);
    }
    return reads + writes;
  }

  /** Calls per request over a window, or -1 when either reading or the request count is missing. */
  static double perRequest(long before, long after, long requests) {
    if (before < 0 || after < before || requests <= 0) {
      return -1;
    }
    return (double) (after - before) / requests;
  }
}
