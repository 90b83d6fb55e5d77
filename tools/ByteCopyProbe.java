import io.jumpgate.routing.Xxh64JumpRouter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * What a mover that never builds a client command per key would cost: one thread, three blocking
 * loopback sockets, RESP read and written as bytes. It makes one SCAN pass over a source (COUNT
 * 1000), routes every key with the routing core, and copies the keys of shards 0 to 255 (a quarter
 * of 1024) with pipelined {@code PTTL} + {@code DUMP} on the source and {@code RESTORE ... REPLACE}
 * on the target, in batches; the DUMP payload goes from the source's read buffer to the target's
 * write buffer without an object of its own. It prints keys moved per second and the copying
 * thread's CPU per key moved. No change capture, no error handling beyond failing: a probe, not a
 * mover. {@code tools/byte-copy-probe} starts the servers and runs it (docs/performance.md).
 *
 * <p>Arguments: {@code SOURCE_PORT TARGET_PORT KEYS BATCH [load]}; with {@code load} it only writes
 * KEYS string keys of 100 letters into the source, one in ten with a TTL of an hour.
 */
public class ByteCopyProbe {

  private static final int MOVED_SHARDS = 256;

  public static void main(String[] arguments) throws IOException {
    int sourcePort = Integer.parseInt(arguments[0]);
    int targetPort = Integer.parseInt(arguments[1]);
    int keys = Integer.parseInt(arguments[2]);
    int batchSize = Integer.parseInt(arguments[3]);
    if (arguments.length > 4 && arguments[4].equals("load")) {
      load(sourcePort, keys);
      return;
    }
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(1024);
    Connection scanner = new Connection(sourcePort);
    Connection source = new Connection(sourcePort);
    Connection target = new Connection(targetPort);
    Request scan = new Request();
    Request reads = new Request();
    Request restores = new Request();
    Batch batch = new Batch(batchSize);
    long cpuBefore = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    long start = System.nanoTime();
    long cursor = 0;
    long scanned = 0;
    long moved = 0;
    long restoresUnanswered = 0;
    do {
      byte[] cursorDigits = Long.toString(cursor).getBytes(StandardCharsets.US_ASCII);
      scan.raw(ascii("*4\r\n$4\r\nSCAN\r\n"))
          .bulk(cursorDigits, 0, cursorDigits.length)
          .raw(ascii("$5\r\nCOUNT\r\n$4\r\n1000\r\n"));
      scanner.send(scan);
      scanner.header(); // *2
      int cursorLength = (int) scanner.header();
      scanner.fill(cursorLength + 2);
      cursor = 0;
      for (int at = 0; at < cursorLength; at++) {
        cursor = cursor * 10 + (scanner.input[scanner.position + at] - '0');
      }
      scanner.position += cursorLength + 2;
      long pageKeys = scanner.header();
      for (long key = 0; key < pageKeys; key++) {
        int length = (int) scanner.header();
        scanner.fill(length + 2);
        scanned++;
        if (router.shardOf(scanner.input, scanner.position, length) < MOVED_SHARDS) {
          batch.add(scanner.input, scanner.position, length);
          reads.raw(PTTL).bulk(scanner.input, scanner.position, length);
          reads.raw(DUMP).bulk(scanner.input, scanner.position, length);
        }
        scanner.position += length + 2;
        if (batch.count == batchSize) {
          moved += copy(source, target, reads, restores, batch, restoresUnanswered);
          restoresUnanswered = batch.restored;
          batch.clear();
        }
      }
    } while (cursor != 0);
    if (batch.count > 0) {
      moved += copy(source, target, reads, restores, batch, restoresUnanswered);
      restoresUnanswered = batch.restored;
    }
    awaitRestores(target, restoresUnanswered);
    double seconds = (System.nanoTime() - start) / 1e9;
    long cpuNanos = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuBefore;
    System.out.printf(
        "scanned %d keys, moved %d in %.2f s: %.0f keys moved/s; copying thread CPU %.2f us per"
            + " key moved (%.3f us per key scanned)%n",
        scanned,
        moved,
        seconds,
        moved / seconds,
        cpuNanos / 1e3 / moved,
        cpuNanos / 1e3 / scanned);
  }

  private static final byte[] PTTL = ascii("*2\r\n$4\r\nPTTL\r\n");
  private static final byte[] DUMP = ascii("*2\r\n$4\r\nDUMP\r\n");
  private static final byte[] RESTORE = ascii("*5\r\n$7\r\nRESTORE\r\n");
  private static final byte[] REPLACE = ascii("$7\r\nREPLACE\r\n");

  /**
   * Sends the batch's reads, takes the previous batch's RESTORE answers while the source works,
   * then writes this batch's RESTOREs; returns how many keys it restores.
   */
  private static long copy(
      Connection source,
      Connection target,
      Request reads,
      Request restores,
      Batch batch,
      long restoresUnanswered)
      throws IOException {
    source.send(reads);
    awaitRestores(target, restoresUnanswered);
    batch.restored = 0;
    for (int index = 0; index < batch.count; index++) {
      long ttl = source.header();
      long length = source.header();
      if (length >= 0) {
        source.fill((int) length + 2);
      }
      if (length >= 0 && ttl != -2) {
        byte[] ttlDigits = Long.toString(Math.max(ttl, 0)).getBytes(StandardCharsets.US_ASCII);
        restores
            .raw(RESTORE)
            .bulk(batch.keys, batch.offsets[index], batch.lengths[index])
            .bulk(ttlDigits, 0, ttlDigits.length)
            .bulk(source.input, source.position, (int) length)
            .raw(REPLACE);
        batch.restored++;
      }
      source.position += Math.max(length, 0) + (length >= 0 ? 2 : 0);
    }
    target.send(restores);
    return batch.restored;
  }

  private static void awaitRestores(Connection target, long count) throws IOException {
    for (long answer = 0; answer < count; answer++) {
      target.header();
      if (target.lastType == '-') {
        throw new IllegalStateException("a RESTORE was refused");
      }
    }
  }

  /** The keys of one batch, copied out of the SCAN page. */
  private static final class Batch {
    byte[] keys = new byte[1 << 16];
    final int[] offsets;
    final int[] lengths;
    int count;
    int used;
    long restored;

    Batch(int size) {
      offsets = new int[size];
      lengths = new int[size];
    }

    void add(byte[] source, int offset, int length) {
      if (used + length > keys.length) {
        byte[] bigger = new byte[Math.max(keys.length * 2, used + length)];
        System.arraycopy(keys, 0, bigger, 0, used);
        keys = bigger;
      }
      System.arraycopy(source, offset, keys, used, length);
      offsets[count] = used;
      lengths[count] = length;
      used += length;
      count++;
    }

    void clear() {
      count = 0;
      used = 0;
    }
  }

  /** A blocking connection with its own read buffer. */
  private static final class Connection {
    final SocketChannel channel;
    byte[] input = new byte[1 << 20];
    int position;
    int limit;
    byte lastType;

    Connection(int port) throws IOException {
      channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
      channel.socket().setTcpNoDelay(true);
    }

    void send(Request request) throws IOException {
      ByteBuffer bytes = ByteBuffer.wrap(request.bytes, 0, request.length);
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
      request.length = 0;
    }

    /** Reads until {@code count} bytes past the position are in the buffer. */
    void fill(int count) throws IOException {
      if (limit - position >= count) {
        return;
      }
      System.arraycopy(input, position, input, 0, limit - position);
      limit -= position;
      position = 0;
      if (input.length < count) {
        byte[] bigger = new byte[Math.max(input.length * 2, count)];
        System.arraycopy(input, 0, bigger, 0, limit);
        input = bigger;
      }
      while (limit < count) {
        int read = channel.read(ByteBuffer.wrap(input, limit, input.length - limit));
        if (read < 0) {
          throw new IOException("the server closed the connection");
        }
        limit += read;
      }
    }

    /** Reads one reply line: its number for {@code : $ *}, 0 for {@code + -}. */
    long header() throws IOException {
      int lineEnd;
      while ((lineEnd = lineEnd()) < 0) {
        fill(limit - position + 1);
      }
      lastType = input[position];
      long number = 0;
      if (lastType != '+' && lastType != '-') {
        boolean negative = input[position + 1] == '-';
        for (int at = position + (negative ? 2 : 1); at < lineEnd; at++) {
          number = number * 10 + (input[at] - '0');
        }
        number = negative ? -number : number;
      }
      position = lineEnd + 2;
      return number;
    }

    private int lineEnd() {
      for (int at = position; at + 1 < limit; at++) {
        if (input[at] == '\r' && input[at + 1] == '\n') {
          return at;
        }
      }
      return -1;
    }
  }

  /** Bytes to send, written as RESP. */
  private static final class Request {
    byte[] bytes = new byte[1 << 20];
    int length;

    Request raw(byte[] data) {
      ensure(data.length);
      System.arraycopy(data, 0, bytes, length, data.length);
      length += data.length;
      return this;
    }

    Request bulk(byte[] source, int offset, int count) {
      byte[] digits = Integer.toString(count).getBytes(StandardCharsets.US_ASCII);
      ensure(count + digits.length + 5);
      bytes[length++] = '$';
      System.arraycopy(digits, 0, bytes, length, digits.length);
      length += digits.length;
      bytes[length++] = '\r';
      bytes[length++] = '\n';
      System.arraycopy(source, offset, bytes, length, count);
      length += count;
      bytes[length++] = '\r';
      bytes[length++] = '\n';
      return this;
    }

    private void ensure(int more) {
      if (length + more > bytes.length) {
        byte[] bigger = new byte[Math.max(bytes.length * 2, length + more)];
        System.arraycopy(bytes, 0, bigger, 0, length);
        bytes = bigger;
      }
    }
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  private static void load(int port, int keys) throws IOException {
    Connection connection = new Connection(port);
    Request request = new Request();
    Random random = new Random(1);
    byte[] value = new byte[100];
    int unanswered = 0;
    for (int index = 0; index < keys; index++) {
      byte[] key = ascii("key:" + index);
      for (int at = 0; at < value.length; at++) {
        value[at] = (byte) ('a' + random.nextInt(26));
      }
      boolean expires = index % 10 == 0;
      request.raw(ascii(expires ? "*5\r\n$3\r\nSET\r\n" : "*3\r\n$3\r\nSET\r\n"));
      request.bulk(key, 0, key.length).bulk(value, 0, value.length);
      if (expires) {
        request.raw(ascii("$2\r\nEX\r\n$4\r\n3600\r\n"));
      }
      if (++unanswered == 1000) {
        connection.send(request);
        for (; unanswered > 0; unanswered--) {
          connection.header();
        }
      }
    }
    connection.send(request);
    for (; unanswered > 0; unanswered--) {
      connection.header();
    }
  }
}
