package io.jumpgate.topology;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.api.Event;
import io.etcd.jetcd.api.KeyValue;
import io.etcd.jetcd.api.RangeResponse;
import io.etcd.jetcd.api.ResponseHeader;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchResponse;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A jetcd {@link Client} whose answers the test writes: each GET answers the listing set last, and
 * each watch is handed to the test, which then plays etcd's responses into its listener. Only what
 * {@link EtcdTopologySource} calls is implemented; anything else throws.
 *
 * <p>Thread-safe: the source calls it on its topology thread, the test on its own.
 */
final class FakeEtcd {

  /** One GET the source made. */
  record Listing(String key, String endKey) {}

  /** One watch the source opened, with the listener to play responses into. */
  static final class Watching {
    final String key;
    final String endKey;
    final long startRevision;
    final Watch.Listener listener;
    private final AtomicBoolean closed = new AtomicBoolean();

    Watching(String key, String endKey, long startRevision, Watch.Listener listener) {
      this.key = key;
      this.endKey = endKey;
      this.startRevision = startRevision;
      this.listener = listener;
    }

    /** Whether the source closed this watch. */
    boolean closed() {
      return closed.get();
    }
  }

  private final List<Listing> listings = new CopyOnWriteArrayList<>();
  private final BlockingQueue<Watching> watches = new LinkedBlockingQueue<>();
  private volatile GetResponse listing;

  /** The next GETs answer these keys and values, at store revision {@code revision}. */
  void listing(long revision, Map<String, String> entries) {
    RangeResponse.Builder range = RangeResponse.newBuilder().setHeader(header(revision));
    entries.forEach((key, value) -> range.addKvs(keyValue(key, value, revision)));
    range.setCount(entries.size());
    listing = new GetResponse(range.build(), ByteSequence.EMPTY);
  }

  /** The GETs made so far. */
  List<Listing> listings() {
    return List.copyOf(listings);
  }

  /** The next watch the source opens, waiting at most {@code timeout} for it. */
  Watching nextWatch(Duration timeout) throws InterruptedException {
    Watching watching = watches.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (watching == null) {
      throw new AssertionError("the source opened no watch within " + timeout.toMillis() + " ms");
    }
    return watching;
  }

  /** A response with one put per entry, all at {@code revision} (one transaction). */
  static WatchResponse puts(long revision, Map<String, String> entries) {
    io.etcd.jetcd.api.WatchResponse.Builder response =
        io.etcd.jetcd.api.WatchResponse.newBuilder().setHeader(header(revision));
    entries.forEach(
        (key, value) ->
            response.addEvents(
                Event.newBuilder()
                    .setType(Event.EventType.PUT)
                    .setKv(keyValue(key, value, revision))));
    return new WatchResponse(response.build());
  }

  /** A progress notification: no event, etcd's revision in the header. */
  static WatchResponse progress(long revision) {
    return new WatchResponse(
        io.etcd.jetcd.api.WatchResponse.newBuilder().setHeader(header(revision)).build());
  }

  Client client() {
    KV kv =
        proxy(
            KV.class,
            (name, args) -> {
              if (name.equals("get") && args.length == 2) {
                GetOption option = (GetOption) args[1];
                listings.add(
                    new Listing(
                        text((ByteSequence) args[0]),
                        option.getEndKey().map(FakeEtcd::text).orElse(null)));
                return CompletableFuture.completedFuture(listing);
              }
              return unsupported("KV", name);
            });
    Watch watch =
        proxy(
            Watch.class,
            (name, args) -> {
              if (name.equals("watch") && args.length == 3 && args[2] instanceof Watch.Listener) {
                WatchOption option = (WatchOption) args[1];
                Watching watching =
                    new Watching(
                        text((ByteSequence) args[0]),
                        option.getEndKey().map(FakeEtcd::text).orElse(null),
                        option.getRevision(),
                        (Watch.Listener) args[2]);
                watches.add(watching);
                return proxy(
                    Watch.Watcher.class,
                    (watcherMethod, watcherArgs) ->
                        switch (watcherMethod) {
                          case "close" -> {
                            watching.closed.set(true);
                            yield null;
                          }
                          case "isClosed" -> watching.closed();
                          case "requestProgress" -> null;
                          default -> unsupported("Watcher", watcherMethod);
                        });
              }
              if (name.equals("requestProgress") || name.equals("close")) {
                return null;
              }
              return unsupported("Watch", name);
            });
    return proxy(
        Client.class,
        (name, args) ->
            switch (name) {
              case "getKVClient" -> kv;
              case "getWatchClient" -> watch;
              case "close" -> null;
              default -> unsupported("Client", name);
            });
  }

  private interface Answer {
    Object answer(String method, Object[] args);
  }

  private static <T> T proxy(Class<T> type, Answer answer) {
    InvocationHandler handler =
        (self, method, args) -> {
          Object[] arguments = args == null ? new Object[0] : args;
          return switch (method.getName()) {
            case "toString" -> "fake " + type.getSimpleName();
            case "hashCode" -> System.identityHashCode(self);
            case "equals" -> self == arguments[0];
            default -> answer.answer(method.getName(), arguments);
          };
        };
    return type.cast(
        Proxy.newProxyInstance(FakeEtcd.class.getClassLoader(), new Class<?>[] {type}, handler));
  }

  private static Object unsupported(String type, String method) {
    throw new UnsupportedOperationException("the fake " + type + " has no " + method);
  }

  private static ResponseHeader header(long revision) {
    return ResponseHeader.newBuilder().setRevision(revision).build();
  }

  private static KeyValue keyValue(String key, String value, long revision) {
    return KeyValue.newBuilder()
        .setKey(ByteString.copyFromUtf8(key))
        .setValue(ByteString.copyFromUtf8(value))
        .setModRevision(revision)
        .setCreateRevision(revision)
        .setVersion(1)
        .build();
  }

  private static String text(ByteSequence bytes) {
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
