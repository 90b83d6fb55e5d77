package io.jumpgate.bench;

import io.jumpgate.spi.Node;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.topology.ShardAssignment;
import io.jumpgate.topology.TopologyCodec;
import io.jumpgate.topology.TopologyKeys;
import io.jumpgate.topology.internal.KeyChange;
import io.jumpgate.topology.internal.TopologyState;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one watcher's topology thread spends on one shard entry's change: {@link
 * TopologyState#apply} of one put event (one revision) to a map of {@code shards} shards over 3
 * nodes with one replica each, which decodes the key and the value, validates the shard and builds
 * the new {@link TopologySnapshot}. It is the part of {@code PropagationRun}'s change that each of
 * its 50 in-JVM watchers repeats (the rest is jetcd and gRPC).
 *
 * <p>Each invocation changes the next of 4,096 pre-encoded entries (shard {@code i * 37 mod
 * shards}, leader and replica moved on by one node, as the propagation run swaps them; the epoch
 * stays 0 so that the entries can repeat), at the next revision. No etcd and no thread hop: the
 * state is called directly.
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar TopologyChangeBenchmark -f 1 -wi 3 -i 5 -prof gc
 * </pre>
 *
 * <p>Read the time per operation (one change) and {@code gc.alloc.rate.norm} (bytes per change).
 * Not thread-safe: JMH's single benchmark thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class TopologyChangeBenchmark {

  private static final int CHANGES = 4096;
  private static final String[] NODES = {"node-0", "node-1", "node-2"};

  @Param({"1024", "16384"})
  public int shards;

  private TopologyState state;
  private List<List<KeyChange>> changes;
  private long revision;
  private int next;

  @Setup
  public void setUp() {
    TopologyKeys keys = TopologyKeys.forCluster("bench");
    state = new TopologyState(keys, shards, Clock.systemUTC());
    List<KeyChange> listing = new ArrayList<>();
    revision = 1;
    listing.add(
        KeyChange.put(
            keys.meta(), TopologyCodec.encodeMetadata(TopologyMetadata.of(shards)), revision));
    for (int index = 0; index < NODES.length; index++) {
      Node node = Node.of(NODES[index], "127.0.0.1", 16379 + index);
      listing.add(KeyChange.put(keys.node(node.id()), TopologyCodec.encodeNode(node), revision));
    }
    int[] swaps = new int[shards];
    for (int shard = 0; shard < shards; shard++) {
      listing.add(
          KeyChange.put(
              keys.shard(shard),
              TopologyCodec.encodeAssignment(assignment(shard, 0, 0)),
              revision));
    }
    state.reset(revision, listing);
    changes = new ArrayList<>(CHANGES);
    for (int index = 0; index < CHANGES; index++) {
      int shard = (int) ((index * 37L) % shards);
      // epoch 0 throughout: the entries repeat every 4,096 changes, and an older epoch than the
      // one in force would be refused; an equal one is accepted and validated the same way
      byte[] value = TopologyCodec.encodeAssignment(assignment(shard, ++swaps[shard], 0));
      // the revision is set at call time: the event's mod revision must grow
      changes.add(List.of(KeyChange.put(keys.shard(shard), value, 0)));
    }
  }

  private static ShardAssignment assignment(int shard, int swaps, long epoch) {
    int leader = (shard + swaps) % NODES.length;
    int replica = (shard + swaps + 1) % NODES.length;
    return ShardAssignment.of(shard, NODES[leader], List.of(NODES[replica]), epoch);
  }

  /** One shard entry's change, applied as one revision, and the new snapshot built. */
  @Benchmark
  public TopologySnapshot applyOneShardChange() {
    KeyChange template = changes.get(next).get(0);
    next = (next + 1) & (CHANGES - 1);
    long at = ++revision;
    return state.apply(at, List.of(new KeyChange(template.key(), template.value(), at)));
  }
}
