package io.jumpgate.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.topology.TopologyKeys;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The largest map the contract allows in practice, 65536 shards over 1000 nodes: what the state and
 * a snapshot hold in memory, and what one node change costs (the flapping case). Prints the figures
 * (docs/reliability.md quotes them); asserts only generous bounds.
 */
class TopologyStateScaleTest {

  private static final int SHARDS = 65536;
  private static final int NODES = 1000;
  private static final TopologyKeys KEYS = TopologyKeys.forCluster("big");

  @Test
  void should_hold_65536_shards_over_1000_nodes_in_bounded_memory_and_time() {
    long before = usedHeapAfterGc();
    List<KeyChange> listing = listing();
    long listed = usedHeapAfterGc();
    TopologyState state = new TopologyState(KEYS, 0, Clock.systemUTC());
    long start = System.nanoTime();
    TopologySnapshot snapshot = state.reset(1, listing);
    long resetMillis = (System.nanoTime() - start) / 1_000_000;
    listing = null; // the state keeps the values it needs
    long withState = usedHeapAfterGc();
    Reference.reachabilityFence(state);

    // A node rewritten 500 times: one revision each, staged then published.
    long stageNanos = 0;
    long publishNanos = 0;
    for (int write = 0; write < 500; write++) {
      long revision = 2 + write;
      byte[] value = node(2000 + write % 2);
      long a = System.nanoTime();
      assertThat(state.stage(revision, List.of(KeyChange.put(KEYS.node("n999"), value, revision))))
          .isTrue();
      long b = System.nanoTime();
      snapshot = state.publishStaged();
      stageNanos += b - a;
      publishNanos += System.nanoTime() - b;
    }
    assertThat(snapshot.route(999).leader().port()).isEqualTo(2001);
    assertThat(snapshot.route(998).replicas().get(0).port()).isEqualTo(2001);
    assertThat(snapshot.invalidEntries()).isEmpty();
    state = null;
    long snapshotOnly = usedHeapAfterGc();
    Reference.reachabilityFence(snapshot);
    snapshot = null;
    long after = usedHeapAfterGc();

    double stateMb = (withState - after) / 1e6;
    double snapshotMb = (snapshotOnly - after) / 1e6;
    System.out.printf(
        "topology at %d shards / %d nodes: reset %d ms; listing %.1f MB, state with its snapshot"
            + " %.1f MB, one snapshot %.1f MB; a node change: %.2f ms to apply, %.2f ms to build"
            + " the snapshot%n",
        SHARDS,
        NODES,
        resetMillis,
        (listed - before) / 1e6,
        stateMb,
        snapshotMb,
        stageNanos / 500e6,
        publishNanos / 500e6);
    // Generous (a shared 2-core machine): measured about 42 MB, 5 MB, 1 s, 0.3 ms and 2 ms.
    assertThat(stateMb).isLessThan(200);
    assertThat(snapshotMb).isLessThan(50);
    assertThat(resetMillis).isLessThan(30_000);
    assertThat(stageNanos / 500).isLessThan(50_000_000L);
  }

  private static List<KeyChange> listing() {
    List<KeyChange> listing = new ArrayList<>();
    listing.add(
        KeyChange.put(
            KEYS.meta(), utf8("{\"format\":1,\"shards\":65536,\"routing\":\"xxh64-jump\"}"), 1));
    for (int node = 0; node < NODES; node++) {
      listing.add(KeyChange.put(KEYS.node("n" + node), node(1000 + node), 1));
    }
    for (int shard = 0; shard < SHARDS; shard++) {
      String value =
          "{\"leader\":\"n"
              + shard % NODES
              + "\",\"replicas\":[\"n"
              + (shard + 1) % NODES
              + "\"],\"epoch\":0}";
      listing.add(KeyChange.put(KEYS.shard(shard), utf8(value), 1));
    }
    return listing;
  }

  private static byte[] node(int port) {
    return utf8("{\"host\":\"10.0.0.1\",\"port\":" + port + "}");
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Heap in use after full collections (best effort). */
  private static long usedHeapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
