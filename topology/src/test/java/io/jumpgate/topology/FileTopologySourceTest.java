package io.jumpgate.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.spi.IncompatibleTopologyException;
import io.jumpgate.spi.InvalidEntry;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologySourceStatus;
import io.jumpgate.spi.TopologyUnavailableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileTopologySourceTest {

  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir Path directory;

  private FileTopologySource source;

  @AfterEach
  void closeSource() {
    if (source != null) {
      source.close();
    }
  }

  /** Two shards on node a (and b as replica of shard 1), at the given address of a. */
  private static String document(long revision, String hostOfA, int portOfA) {
    return """
        {"format":1,"cluster":"test","revision":%d,"shards":2,"routing":"xxh64-jump",
         "nodes":{"a":{"host":"%s","port":%d},"b":{"host":"10.0.0.2","port":6379}},
         "assignments":[{"shard":0,"leader":"a"},{"shard":1,"leader":"a","replicas":["b"]}]}
        """
        .formatted(revision, hostOfA, portOfA);
  }

  private Path write(String name, String content) throws IOException {
    return Files.writeString(directory.resolve(name), content);
  }

  private FileTopologySource open(Path file) {
    source =
        FileTopologySource.builder(file)
            .checkInterval(Duration.ofMillis(20))
            .clock(Clock.fixed(NOW, ZoneOffset.UTC))
            .build();
    return source;
  }

  private static TopologySnapshot started(FileTopologySource source) throws Exception {
    return source.start().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
  }

  private static Throwable startFailure(FileTopologySource source) {
    CompletableFuture<TopologySnapshot> start = source.start().toCompletableFuture();
    return assertThatThrownBy(() -> start.get(WAIT.toSeconds(), TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .actual()
        .getCause();
  }

  private static TopologySnapshot next(BlockingQueue<TopologySnapshot> queue)
      throws InterruptedException {
    TopologySnapshot snapshot = queue.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(snapshot).as("a snapshot within %s", WAIT).isNotNull();
    return snapshot;
  }

  private static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
  }

  private static boolean threadAlive(String name) {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(thread -> thread.getName().equals(name) && thread.isAlive());
  }

  @Test
  void should_start_with_the_first_valid_snapshot() throws Exception {
    Path file = write("topology.json", document(0, "10.0.0.1", 6379));
    FileTopologySource source = open(file);

    TopologySnapshot snapshot = started(source);

    assertThat(snapshot.revision()).isEqualTo(1);
    assertThat(snapshot.cluster()).isEqualTo("test");
    assertThat(snapshot.route(1).replicas().get(0).address()).isEqualTo("10.0.0.2:6379");
    assertThat(snapshot.loadedAt()).isEqualTo(NOW);
    assertThat(source.current()).isSameAs(snapshot);
    assertThat(source.start() == source.start()).as("the same stage").isTrue();
    assertThat(source.description()).isEqualTo("file " + file + " (cluster 'test')");
    assertThat(source.status()).isEqualTo(new TopologySourceStatus(true, 1, NOW, null));
    assertThat(threadAlive("jumpgate-topology-file-topology.json")).isTrue();
  }

  @Test
  void should_fail_to_start_on_a_missing_file_naming_it() {
    Path missing = directory.resolve("missing.json");
    FileTopologySource source = open(missing);

    Throwable failure = startFailure(source);

    assertThat(failure)
        .isInstanceOf(TopologyUnavailableException.class)
        .hasMessage("topology file " + missing + " does not exist");
    assertThat(source.status().lastError()).isEqualTo(failure.getMessage());
    assertThatThrownBy(source::current).isInstanceOf(IllegalStateException.class);
    await("the thread is gone", () -> !threadAlive("jumpgate-topology-file-missing.json"));
  }

  @Test
  void should_fail_to_start_on_unreadable_json_naming_the_file() throws Exception {
    Path file = write("broken.json", "{\"cluster\":\"test\",");

    Throwable failure = startFailure(open(file));

    assertThat(failure)
        .isInstanceOf(TopologyUnavailableException.class)
        .hasMessageStartingWith("topology file " + file + " is not valid: not valid JSON");
  }

  @Test
  void should_fail_to_start_on_a_topology_it_cannot_serve() throws Exception {
    Path uninitialised = write("empty.json", "{\"cluster\":\"test\"}");
    assertThat(startFailure(open(uninitialised)))
        .isInstanceOf(TopologyUnavailableException.class)
        .hasMessage(
            "topology file "
                + uninitialised
                + ": cluster 'test' is not initialised at /jumpgate/test — run `jumpgate init`");

    Path file = write("topology.json", document(0, "10.0.0.1", 6379));
    source = FileTopologySource.builder(file).expectedShards(1024).build();
    assertThat(startFailure(source))
        .isInstanceOf(IncompatibleTopologyException.class)
        .hasMessage(
            "topology file "
                + file
                + ": cluster 'test' has 2 shards, but the client is configured for 1024");

    source.close();
    source = FileTopologySource.builder(file).cluster("other").build();
    assertThat(startFailure(source))
        .isInstanceOf(TopologyUnavailableException.class)
        .hasMessage(
            "topology file "
                + file
                + " holds cluster 'test', but this source serves cluster 'other'");
  }

  @Test
  void should_notify_listeners_of_an_edit_after_current_returns_it() throws Exception {
    Path file = write("topology.json", document(0, "10.0.0.1", 6379));
    FileTopologySource source = open(file);
    BlockingQueue<TopologySnapshot> seen = new LinkedBlockingQueue<>();
    BlockingQueue<TopologySnapshot> currentWhenNotified = new LinkedBlockingQueue<>();
    source.subscribe(
        (previous, current) -> {
          currentWhenNotified.add(source.current());
          seen.add(current);
        });
    TopologySnapshot first = started(source);
    assertThat(next(seen)).isSameAs(first);

    Files.writeString(file, document(0, "10.0.0.11", 6390));

    TopologySnapshot edited = next(seen);
    assertThat(edited.revision()).isEqualTo(2);
    assertThat(edited.route(0).leader().address()).isEqualTo("10.0.0.11:6390");
    assertThat(next(currentWhenNotified)).isSameAs(first);
    assertThat(next(currentWhenNotified)).isSameAs(edited);
  }

  @Test
  void should_see_a_file_replaced_by_a_rename() throws Exception {
    Path file = write("topology.json", document(0, "10.0.0.1", 6379));
    FileTopologySource source = open(file);
    BlockingQueue<TopologySnapshot> seen = new LinkedBlockingQueue<>();
    started(source);
    source.subscribe((previous, current) -> seen.add(current));

    Path replacement = write("topology.json.tmp", document(0, "10.0.0.12", 6379));
    Files.move(
        replacement, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

    assertThat(next(seen).route(0).leader().host()).isEqualTo("10.0.0.12");
  }

  @Test
  void should_keep_the_last_snapshot_while_the_file_is_invalid() throws Exception {
    Path file = write("topology.json", document(0, "10.0.0.1", 6379));
    FileTopologySource source = open(file);
    TopologySnapshot first = started(source);
    BlockingQueue<TopologySnapshot> seen = new LinkedBlockingQueue<>();
    source.subscribe((previous, current) -> seen.add(current));

    replace(file, "{\"cluster\":\"test\",\"nodes\":");
    await("the error is reported", () -> source.status().lastError() != null);

    assertThat(source.current()).isSameAs(first);
    assertThat(source.status().connected()).isTrue();
    assertThat(source.status().lastError())
        .startsWith("topology file " + file + " is not valid: not valid JSON");

    replace(file, document(0, "10.0.0.13", 6379));

    assertThat(next(seen).route(0).leader().host()).isEqualTo("10.0.0.13");
    assertThat(source.status().lastError()).isNull();
  }

  @Test
  void should_report_invalid_entries_of_an_edit_and_keep_their_last_valid_values()
      throws Exception {
    Path file = write("topology.json", document(0, "10.0.0.1", 6379));
    FileTopologySource source = open(file);
    started(source);
    BlockingQueue<TopologySnapshot> seen = new LinkedBlockingQueue<>();
    source.subscribe((previous, current) -> seen.add(current));

    replace(file, document(0, "10.0.0.14", 70000));

    TopologySnapshot snapshot = next(seen);
    assertThat(snapshot.route(0).leader().address()).isEqualTo("10.0.0.1:6379");
    assertThat(snapshot.invalidEntries())
        .containsExactly(
            new InvalidEntry(
                "/jumpgate/test/nodes/a", "port must be between 1 and 65535, was 70000", 0));
    assertThat(source.status().lastError()).isNull();
  }

  @Test
  void should_follow_a_higher_document_revision_and_count_on_from_it() throws Exception {
    Path file = write("topology.json", document(40, "10.0.0.1", 6379));
    FileTopologySource source = open(file);
    assertThat(started(source).revision()).isEqualTo(40);
    BlockingQueue<TopologySnapshot> seen = new LinkedBlockingQueue<>();
    source.subscribe((previous, current) -> seen.add(current));

    replace(file, document(50, "10.0.0.15", 6379));
    assertThat(next(seen).revision()).isEqualTo(50);

    replace(file, document(10, "10.0.0.16", 6379));
    assertThat(next(seen).revision()).isEqualTo(51);
  }

  @Test
  void should_report_a_deleted_file_and_recover_when_it_comes_back() throws Exception {
    Path file = write("topology.json", document(0, "10.0.0.1", 6379));
    FileTopologySource source = open(file);
    TopologySnapshot first = started(source);

    Files.delete(file);
    await("the source is disconnected", () -> !source.status().connected());

    assertThat(source.status().lastError()).isEqualTo("topology file " + file + " does not exist");
    assertThat(source.current()).isSameAs(first);

    replace(file, document(0, "10.0.0.1", 6379));
    await("the source is connected again", () -> source.status().connected());

    assertThat(source.status().lastError()).isNull();
    assertThat(source.current()).isSameAs(first);
  }

  @Test
  void should_keep_notifying_when_a_listener_throws() throws Exception {
    Path file = write("topology.json", document(0, "10.0.0.1", 6379));
    FileTopologySource source = open(file);
    BlockingQueue<TopologySnapshot> seen = new LinkedBlockingQueue<>();
    source.subscribe(
        (previous, current) -> {
          throw new IllegalStateException("listener bug");
        });
    source.subscribe((previous, current) -> seen.add(current));

    started(source);
    assertThat(next(seen).revision()).isEqualTo(1);

    replace(file, document(0, "10.0.0.17", 6379));
    assertThat(next(seen).revision()).isEqualTo(2);
  }

  @Test
  void should_stop_its_thread_and_notifications_when_closed() throws Exception {
    Path file = write("closing.json", document(0, "10.0.0.1", 6379));
    FileTopologySource source = open(file);
    TopologySnapshot first = started(source);
    BlockingQueue<TopologySnapshot> seen = new LinkedBlockingQueue<>();
    AutoCloseable subscription = source.subscribe((previous, current) -> seen.add(current));

    source.close();
    source.close();

    assertThat(threadAlive("jumpgate-topology-file-closing.json")).isFalse();
    replace(file, document(0, "10.0.0.18", 6379));
    assertThat(source.current()).isSameAs(first);
    assertThat(seen).isEmpty();
    subscription.close();
    source.subscribe((previous, current) -> seen.add(current)).close();
  }

  @Test
  void should_fail_a_pending_start_when_closed_first() {
    FileTopologySource source = open(directory.resolve("never.json"));

    source.close();

    assertThat(startFailure(source))
        .isInstanceOf(TopologyUnavailableException.class)
        .hasMessageContaining("was closed before its first snapshot was loaded");
  }

  @Test
  void should_fail_fast_on_bad_options_naming_them() {
    Path file = directory.resolve("topology.json");

    assertThatThrownBy(() -> FileTopologySource.builder(file).checkInterval(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("checkInterval must be positive, was PT0S");
    assertThatThrownBy(() -> FileTopologySource.builder(file).checkInterval(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("checkInterval must be positive, was null");
    assertThatThrownBy(() -> FileTopologySource.builder(file).expectedShards(65537))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expectedShards must be 0 (any) or between 1 and 65536, was 65537");
    assertThatThrownBy(() -> FileTopologySource.builder(file).cluster("Bad"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cluster must match [a-z0-9][a-z0-9_-]{0,62}, was Bad");
    assertThatThrownBy(() -> FileTopologySource.builder(file).clock(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("clock must not be null");
    assertThatThrownBy(() -> FileTopologySource.builder(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("file must not be null");
    assertThat(FileTopologySource.create(file).description()).isEqualTo("file " + file);
  }

  /** Writes the content to a temporary file and renames it over the file, as editors do. */
  private void replace(Path file, String content) throws IOException {
    Path temporary = Files.writeString(directory.resolve(file.getFileName() + ".tmp"), content);
    Files.move(
        temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }
}
