package io.jumpgate.bench.timing;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.LocalCluster;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.routing.Xxh64JumpRouter;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The heap one {@code JumpgateClient} holds with the full 1024-shard map and 3 node connections.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar io.jumpgate.bench.timing.MemoryRun --results DIR
 * [--quick]} ({@code --quick} changes nothing: the run takes a few seconds.)
 *
 * <p>It starts etcd and 3 redis-server leaders (the IT fixture's {@code LocalCluster}, 1024 shards)
 * and measures two ways:
 *
 * <ol>
 *   <li><b>Heap delta</b>: used heap after full GCs before and after creating a client and sending
 *       one SET to each node (so all 3 connections are open). Done for a first client (it pays for
 *       class statics and Netty's shared pools too), then a second and a third next to it (the
 *       marginal cost of one more client in a JVM that already has one). Direct (off-heap) buffer
 *       memory is reported alongside.
 *   <li><b>Jumpgate's own structures</b> ({@link BoundedGraph}, sizes from JOL): what is reachable
 *       from the client without passing through a Lettuce, Netty, jetcd, gRPC, Vert.x or Reactor
 *       object, a thread, a class or a reflection object: the snapshot, the routing table, the
 *       topology source's state, the rest (dispatcher, options, registration), each counted once.
 *       The libraries' share is the marginal heap delta minus that (a walk from a Lettuce
 *       connection or a jetcd client runs into JVM-wide machinery, so it is not measured apart).
 *       Private fields are read by reflection; the run fails naming the field if the driver's
 *       internals changed.
 * </ol>
 *
 * <p>Writes {@code DIR/memory.json} and prints one line. Not thread-safe: one run per JVM.
 */
public final class MemoryRun {

  static final int SHARDS = 1024;
  static final int NODES = 3;
  private static final int TOP_CLASSES = 15;

  private MemoryRun() {}

  public static void main(String[] args) throws Exception {
    // JOL cannot read field offsets of hidden (lambda) classes through Unsafe on JDK 17; this makes
    // it find them another way. Read when JOL's VM support loads: set before any JOL use.
    System.setProperty("jol.magicFieldOffset", "true");
    TimingArguments arguments;
    try {
      arguments = TimingArguments.parse("MemoryRun", args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    ProcessFixture fixture = new ProcessFixture();
    Map<String, Object> json;
    try (AutoCloseable scope = fixture.openScope("memory")) {
      json = run(fixture, arguments.quick());
    } catch (IllegalStateException | ReflectiveOperationException e) {
      System.err.println("memory: FAILED: " + e);
      System.exit(1);
      return;
    }
    Path file = arguments.results().resolve("memory.json");
    JsonText.writeFile(file, json);
    @SuppressWarnings("unchecked")
    Map<String, Object> graph = (Map<String, Object>) json.get("objectGraph");
    System.out.println(
        String.format(
                Locale.ROOT,
                "memory: one client (1024 shards, 3 connections): heap delta %.1f KiB (first"
                    + " client %.1f KiB, third %.1f KiB); Jumpgate's own structures %.1f KiB (snapshot %.1f KiB,"
                    + " routing table %.1f KiB, source state %.1f KiB); Lettuce, Netty and jetcd"
                    + " about %.1f KiB",
                kib(json.get("secondClientHeapDeltaBytes")),
                kib(json.get("firstClientHeapDeltaBytes")),
                kib(json.get("thirdClientHeapDeltaBytes")),
                kib(graph.get("jumpgateOwnBytes")),
                kib(graph.get("snapshotBytes")),
                kib(graph.get("routingTableBytes")),
                kib(graph.get("topologySourceStateBytes")),
                kib(graph.get("librariesBytesEstimate")))
            + " -> "
            + file);
    System.exit(0);
  }

  private static double kib(Object bytes) {
    return ((Number) bytes).doubleValue() / 1024;
  }

  private static Map<String, Object> run(ProcessFixture fixture, boolean quick) throws Exception {
    LocalCluster cluster = LocalCluster.start(fixture, "memory", SHARDS, NODES, 0);
    JumpgateOptions options = cluster.clientOptions().build();
    String[] keys = keysOfFirstShards(NODES);

    long heapBefore = settledHeap();
    long directBefore = directBytes();
    JumpgateClient first = fixture.register(JumpgateClient.create(options));
    touchEveryNode(first, keys);
    long heapAfterFirst = settledHeap();
    long directAfterFirst = directBytes();
    JumpgateClient second = fixture.register(JumpgateClient.create(options));
    touchEveryNode(second, keys);
    long heapAfterSecond = settledHeap();
    long directAfterSecond = directBytes();
    JumpgateClient third = fixture.register(JumpgateClient.create(options));
    touchEveryNode(third, keys);
    long heapAfterThird = settledHeap();
    long directAfterThird = directBytes();

    Map<String, Object> json = new LinkedHashMap<>();
    json.put("shards", SHARDS);
    json.put("connections", NODES);
    json.put("firstClientHeapDeltaBytes", heapAfterFirst - heapBefore);
    json.put("secondClientHeapDeltaBytes", heapAfterSecond - heapAfterFirst);
    json.put("thirdClientHeapDeltaBytes", heapAfterThird - heapAfterSecond);
    json.put("firstClientDirectDeltaBytes", directAfterFirst - directBefore);
    json.put("secondClientDirectDeltaBytes", directAfterSecond - directAfterFirst);
    json.put("thirdClientDirectDeltaBytes", directAfterThird - directAfterSecond);
    Map<String, Object> graph = objectGraph(second);
    long perClient = Math.min(heapAfterSecond - heapAfterFirst, heapAfterThird - heapAfterSecond);
    graph.put("librariesBytesEstimate", perClient - (Long) graph.get("jumpgateOwnBytes"));
    json.put("objectGraph", graph);
    Map<String, Object> setup = new LinkedHashMap<>();
    setup.put("quick", quick);
    setup.put(
        "heapDelta",
        "used heap after System.gc() (repeated until stable) before and after creating the client"
            + " and sending one SET to each of its 3 nodes; the second client is measured next to"
            + " the first (and the third next to both), so it excludes class statics and JVM-wide"
            + " pools");
    setup.put(
        "objectGraph",
        "Jumpgate's own structures of the second client (JOL sizes, walk bounded at library"
            + " objects, threads and classes; see boundaries); librariesBytesEstimate = the"
            + " smaller marginal heap delta minus Jumpgate's own");
    setup.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    setup.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
    json.put("setup", setup);
    return json;
  }

  private static Map<String, Object> objectGraph(JumpgateClient client) throws Exception {
    Object dispatcher = field(client, "dispatcher");
    Object connector = field(client, "connector");
    Object resources = field(client, "resources");
    Object source = field(client, "source");
    Object redisClient = field(connector, "redisClient");
    @SuppressWarnings("unchecked")
    Collection<Object> handles =
        (Collection<Object>)
            ((com.github.benmanes.caffeine.cache.Cache<?, ?>) field(dispatcher, "handles"))
                .asMap()
                .values();
    List<Object> connections = new ArrayList<>();
    for (Object handle : handles) {
      Object connection = field(handle, "connection");
      if (connection != null) {
        connections.add(connection);
      }
    }
    if (connections.size() != NODES) {
      throw new IllegalStateException(
          "expected " + NODES + " open connections, found " + connections.size());
    }

    // Jumpgate's own: stop at Lettuce, Netty, jetcd/gRPC/Vert.x objects and at threads and classes
    Set<Object> none = Set.of();
    BoundedGraph snapshot = new BoundedGraph(MemoryRun::notJumpgates, none).walk(client.topology());
    BoundedGraph table =
        new BoundedGraph(MemoryRun::notJumpgates, snapshot.seen()).walk(field(dispatcher, "table"));
    BoundedGraph sourceState =
        new BoundedGraph(MemoryRun::notJumpgates, table.seen()).walk(field(source, "state"));
    BoundedGraph rest = new BoundedGraph(MemoryRun::notJumpgates, sourceState.seen()).walk(client);
    long own = snapshot.bytes() + table.bytes() + sourceState.bytes() + rest.bytes();
    long ownObjects = snapshot.objects() + table.objects() + sourceState.objects() + rest.objects();
    BoundedGraph ownAll = new BoundedGraph(MemoryRun::notJumpgates, none).walk(client);

    Map<String, Object> json = new LinkedHashMap<>();
    json.put("jumpgateOwnBytes", own);
    json.put("jumpgateOwnObjects", ownObjects);
    json.put("snapshotBytes", snapshot.bytes());
    json.put("routingTableBytes", table.bytes());
    json.put("topologySourceStateBytes", sourceState.bytes());
    json.put("restOfJumpgateBytes", rest.bytes());
    json.put("jumpgateOwnTopClasses", ownAll.topClasses(TOP_CLASSES));
    json.put(
        "boundaries",
        "Jumpgate's own: the walk from the client stops at objects of io.lettuce, io.netty,"
            + " io.etcd, io.grpc, io.vertx, reactor, at threads, class loaders and classes."
            + " Static fields are never followed. Shallow sizes from JOL's VM.current().sizeOf."
            + " The libraries' part is not walked: from a Lettuce connection or a jetcd client the"
            + " graph runs into JVM-wide machinery (method handles, Netty's buffer pools), so it"
            + " is given as the heap delta minus Jumpgate's own.");
    return json;
  }

  private static final String[] LIBRARY_PACKAGES = {
    "io.lettuce.", "io.netty.", "io.etcd.", "io.grpc.", "io.vertx.", "reactor."
  };

  /** What no single client owns: threads, classes and reflection. */
  private static boolean structural(Object object) {
    return object instanceof Thread
        || object instanceof ClassLoader
        || object instanceof Class
        || object instanceof ThreadGroup
        || object instanceof java.lang.reflect.AccessibleObject;
  }

  /** The boundary of Jumpgate's own structures. */
  static boolean notJumpgates(Object object) {
    if (structural(object)) {
      return true;
    }
    String name = object.getClass().getName();
    for (String prefix : LIBRARY_PACKAGES) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  private static Object field(Object owner, String name) throws ReflectiveOperationException {
    for (Class<?> type = owner.getClass(); type != null; type = type.getSuperclass()) {
      try {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return field.get(owner);
      } catch (NoSuchFieldException next) {
        // look in the superclass
      }
    }
    throw new NoSuchFieldException(
        owner.getClass().getName() + " has no field '" + name + "' (driver internals changed?)");
  }

  /** One key for each of the first {@code count} shards: shard s is on leader s % 3. */
  private static String[] keysOfFirstShards(int count) {
    Xxh64JumpRouter router = Xxh64JumpRouter.forShards(SHARDS);
    String[] keys = new String[count];
    int found = 0;
    for (int candidate = 0; found < count; candidate++) {
      String key = "m" + candidate;
      int shard = router.shardOfUtf8(key);
      if (shard < count && keys[shard] == null) {
        keys[shard] = key;
        found++;
      }
    }
    return keys;
  }

  private static void touchEveryNode(JumpgateClient client, String[] keys) {
    JumpgateCommands<String, String> redis = client.connect().sync();
    for (String key : keys) {
      redis.set(key, "v");
    }
  }

  /** Used heap after full GCs, repeated until two readings agree within 1% (at most 10). */
  private static long settledHeap() throws InterruptedException {
    long previous = Long.MAX_VALUE;
    for (int round = 0; round < 10; round++) {
      System.gc();
      Thread.sleep(100); // let reference processing and finalisation run between collections
      long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      if (Math.abs(previous - used) <= used / 100) {
        return used;
      }
      previous = used;
    }
    return previous;
  }

  private static long directBytes() {
    long used = 0;
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      used += pool.getMemoryUsed();
    }
    return used;
  }
}
