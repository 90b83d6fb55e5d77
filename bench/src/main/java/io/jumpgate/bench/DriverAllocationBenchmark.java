package io.jumpgate.bench;

import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.spi.InMemoryTopologySource;
import io.jumpgate.spi.Node;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The driver's own allocation per routed GET: a Jumpgate async GET next to a raw Lettuce async GET
 * on the same redis-server, with the same codec (UTF-8 strings) and the same {@code
 * ClientResources}; each invocation sends one GET of a 100-byte value and waits for it. The
 * difference in {@code gc.alloc.rate.norm} between {@link #jumpgateGet} and {@link #lettuceGet} is
 * what the driver adds per command: routing, its command wrapper, the deadline, the future it hands
 * back, and whatever its Lettuce configuration adds (per-command timeouts). {@link
 * #jumpgateSyncGet} and {@link #lettuceSyncGet} do the same through both {@code sync()} APIs.
 *
 * <p>The driver builds its Lettuce connections itself ({@code NodeConnector}, no hook for a stub),
 * so the node is a real redis-server started in {@code @Setup} by the IT fixture. The driver's map
 * is a fixed one ({@link InMemoryTopologySource}: 1024 shards, all on that node), so no etcd.
 *
 * <p>Run (after {@code mvn -B -ntp -pl bench -am package -DskipTests}):
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar DriverAllocationBenchmark -prof gc -f 2 -wi 3 -w 2s -i 5 -r 3s
 * </pre>
 *
 * <p>Read {@code gc.alloc.rate.norm} (bytes per operation) of both; the time per operation is a
 * loopback round trip and says little here.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class DriverAllocationBenchmark {

  private static final String KEY = "allocation:key";

  private ProcessFixture fixture;
  private AutoCloseable scope;
  private ClientResources resources;
  private JumpgateClient client;
  private JumpgateAsyncCommands<String, String> jumpgate;
  private JumpgateCommands<String, String> jumpgateSync;
  private RedisClient lettuceClient;
  private StatefulRedisConnection<String, String> lettuceConnection;
  private RedisAsyncCommands<String, String> lettuce;
  private RedisCommands<String, String> lettuceSync;

  @Setup(Level.Trial)
  public void start() throws Exception {
    fixture = new ProcessFixture();
    scope = fixture.openScope("driver-allocation");
    RedisProcess redis = fixture.redis();
    resources = DefaultClientResources.create();
    client =
        JumpgateClient.create(
            JumpgateOptions.builder()
                .topologySource(
                    InMemoryTopologySource.roundRobin(
                        1024, List.of(Node.of("node-0", "127.0.0.1", redis.port()))))
                .clientResources(resources)
                .build());
    jumpgate = client.connect().async();
    jumpgateSync = client.connect().sync();
    lettuceClient = RedisClient.create(resources);
    lettuceConnection =
        lettuceClient.connect(StringCodec.UTF8, RedisURI.create("127.0.0.1", redis.port()));
    lettuce = lettuceConnection.async();
    lettuceSync = lettuceConnection.sync();
    lettuce.set(KEY, "v".repeat(100)).get(5, TimeUnit.SECONDS);
    String throughDriver = jumpgate.get(KEY).toCompletableFuture().get(5, TimeUnit.SECONDS);
    if (throughDriver == null || throughDriver.length() != 100) {
      throw new IllegalStateException("the driver read " + throughDriver + " for " + KEY);
    }
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    try {
      client.close();
      lettuceConnection.close();
      lettuceClient.shutdown();
      resources.shutdown(0, 2, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
    } finally {
      scope.close();
    }
  }

  /** GET through the driver: route, pick the node's connection, hand it to Lettuce, wait. */
  @Benchmark
  public String jumpgateGet() {
    return jumpgate.get(KEY).toCompletableFuture().join();
  }

  /** GET on a raw Lettuce connection to the same node: the baseline. */
  @Benchmark
  public String lettuceGet() throws Exception {
    return lettuce.get(KEY).get();
  }

  /** A blocking GET through the driver's {@code sync()} view. */
  @Benchmark
  public String jumpgateSyncGet() {
    return jumpgateSync.get(KEY);
  }

  /** A blocking GET through a raw Lettuce connection's {@code sync()}: the sync baseline. */
  @Benchmark
  public String lettuceSyncGet() {
    return lettuceSync.get(KEY);
  }
}
