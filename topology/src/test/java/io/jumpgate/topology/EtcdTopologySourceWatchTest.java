package io.jumpgate.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.topology.FakeEtcd.Listing;
import io.jumpgate.topology.FakeEtcd.Watching;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What {@link EtcdTopologySource} asks etcd for, and what it makes of the answers, with a fake
 * jetcd client that plays etcd's responses in an order the test chooses.
 */
class EtcdTopologySourceWatchTest {

  private static final TopologyKeys KEYS = TopologyKeys.forCluster("test");
  private static final Duration WAIT = Duration.ofSeconds(5);

  private final FakeEtcd etcd = new FakeEtcd();
  private EtcdTopologySource source;

  @AfterEach
  void closeSource() {
    if (source != null) {
      source.close();
    }
  }

  @Test
  void should_list_and_watch_only_the_map_range_when_started() throws Exception {
    // Given a map at revision 10
    // When the source starts
    started(10);
    Watching watch = etcd.nextWatch(WAIT);

    // Then it lists and watches from <root>/meta to <root>/shards0, never the whole root
    assertThat(etcd.listings())
        .containsExactly(new Listing("/jumpgate/test/meta", "/jumpgate/test/shards0"));
    assertThat(List.of(watch.key, watch.endKey))
        .as("watched key range")
        .containsExactly("/jumpgate/test/meta", "/jumpgate/test/shards0");
    assertThat(watch.startRevision).isEqualTo(11);
  }

  @Test
  void should_apply_the_events_below_a_progress_notification_that_ran_ahead_of_them()
      throws Exception {
    // Given a source at revision 10
    started(10);
    Watching watch = etcd.nextWatch(WAIT);

    // When etcd (before 3.4.25 / 3.5.8) answers a progress request at revision 20 before it has
    // sent the watch the event of revision 15 that moves shard 5 to n1
    watch.listener.onNext(FakeEtcd.progress(20));
    watch.listener.onNext(FakeEtcd.puts(15, Map.of(KEYS.shard(5), shard("n1", 1))));

    // Then the event is applied all the same
    await("the snapshot of revision 15", () -> source.current().revision() == 15);
    assertThat(source.current().route(5).leader().id()).isEqualTo("n1");
    assertThat(source.lastAppliedRevision()).isEqualTo(15);
    assertThat(source.statistics().watchEvents()).isEqualTo(1);
  }

  @Test
  void should_resume_from_the_last_event_and_not_from_a_progress_notification() throws Exception {
    // Given a source that applied revision 12 from its watch, then got a progress notification at
    // revision 30
    started(10);
    Watching first = etcd.nextWatch(WAIT);
    first.listener.onNext(FakeEtcd.puts(12, Map.of(KEYS.shard(3), shard("n1", 1))));
    first.listener.onNext(FakeEtcd.progress(30));
    await("the snapshot of revision 12", () -> source.current().revision() == 12);

    // When the watch fails
    first.listener.onError(Status.UNAVAILABLE.withDescription("connection lost").asException());

    // Then the source watches again from the revision after its last event
    Watching second = etcd.nextWatch(WAIT);
    assertThat(first.closed()).as("the failed watch is closed").isTrue();
    assertThat(second.startRevision).isEqualTo(13);
  }

  private void started(long revision) throws Exception {
    Map<String, String> map = new LinkedHashMap<>();
    map.put(KEYS.meta(), text(TopologyCodec.encodeMetadata(TopologyMetadata.of(8))));
    for (String node : List.of("n0", "n1")) {
      map.put(KEYS.node(node), text(TopologyCodec.encodeNode(Node.of(node, "127.0.0.1", 7000))));
    }
    for (int shard = 0; shard < 8; shard++) {
      map.put(KEYS.shard(shard), shard("n0", 0));
    }
    etcd.listing(revision, map);
    source =
        EtcdTopologySource.create(
            EtcdTopologyOptions.builder()
                .endpoints("http://127.0.0.1:2379")
                .cluster(KEYS.cluster())
                // the watchdog stays out of the way: the test plays every response
                .progressInterval(Duration.ofHours(1))
                .silenceTimeout(Duration.ofHours(2))
                .retryBackoff(Duration.ofMillis(1), Duration.ofMillis(10))
                .build(),
            etcd.client());
    source.start().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
  }

  private static String shard(String leader, long epoch) {
    return "{\"leader\":\"" + leader + "\",\"epoch\":" + epoch + "}";
  }

  private static String text(byte[] utf8) {
    return new String(utf8, StandardCharsets.UTF_8);
  }

  /** Waits until the condition holds, at most {@link #WAIT}; fails naming what was awaited. */
  private static void await(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out after " + WAIT.toMillis() + " ms waiting for " + what);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
  }
}
