package example;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/** One redis-server on a free 127.0.0.1 port; {@link #close()} kills it. */
final class LocalRedis implements AutoCloseable {
  private final Process process;
  private final int port;

  LocalRedis(Path dir) throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    process =
        new ProcessBuilder(
                "redis-server",
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                dir.toString())
            .redirectErrorStream(true)
            .redirectOutput(Files.createTempFile(dir, "redis", ".log").toFile())
            .start();
    try {
      Awaitility.await("redis-server on 127.0.0.1:" + port + " to answer PING")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(50))
          .ignoreExceptions()
          .until(() -> "+PONG".equals(ping()));
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  int port() {
    return port;
  }

  private String ping() throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
      socket.setSoTimeout(2000);
      OutputStream out = socket.getOutputStream();
      out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      StringBuilder line = new StringBuilder();
      for (int read = in.read(); read != -1 && read != '\r'; read = in.read()) {
        line.append((char) read);
      }
      return line.toString();
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
