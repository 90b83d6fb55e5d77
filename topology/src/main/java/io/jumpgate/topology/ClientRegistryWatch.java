package io.jumpgate.topology;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watch behind {@link MigrationStore#watchClients}: lists {@code <root>/clients/}, hands the
 * registry to the listener, watches the prefix from the listing's revision + 1 and hands the
 * registry again after each watch response with events. A watch error or end, or a compaction,
 * lists again after a backoff ({@link EtcdTopologyOptions#retryBackoffMin()} doubling to {@link
 * EtcdTopologyOptions#retryBackoffMax()}). Every jetcd callback is handed to one thread of this
 * watch, where the listener runs.
 */
final class ClientRegistryWatch implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClientRegistryWatch.class);

  private final Client client;
  private final TopologyKeys keys;
  private final EtcdTopologyOptions options;
  private final Consumer<ClientRegistrySnapshot> listener;
  private final ScheduledThreadPoolExecutor thread;
  private final ByteSequence prefix;

  // Confined to the thread.
  private final Map<String, RegisteredClient> clients = new TreeMap<>();
  private Watch.Watcher watcher;
  private long generation;
  private Duration backoff;
  private volatile boolean closed;

  private ClientRegistryWatch(
      Client client,
      TopologyKeys keys,
      EtcdTopologyOptions options,
      Consumer<ClientRegistrySnapshot> listener) {
    this.client = client;
    this.keys = keys;
    this.options = options;
    this.listener = listener;
    this.prefix = EtcdCalls.bytes(keys.clientsPrefix());
    this.backoff = options.retryBackoffMin();
    this.thread =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread named = new Thread(runnable, "jumpgate-registry-" + keys.cluster());
              named.setDaemon(true);
              return named;
            });
    thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  static ClientRegistryWatch start(
      Client client,
      TopologyKeys keys,
      EtcdTopologyOptions options,
      Consumer<ClientRegistrySnapshot> listener) {
    ClientRegistryWatch watch =
        new ClientRegistryWatch(client, keys, options, java.util.Objects.requireNonNull(listener));
    watch.onThread(watch::list);
    return watch;
  }

  private void list() {
    if (closed) {
      return;
    }
    long mine = ++generation;
    client
        .getKVClient()
        .get(prefix, GetOption.builder().isPrefix(true).build())
        .orTimeout(options.requestTimeout().toNanos(), TimeUnit.NANOSECONDS)
        .whenComplete((response, error) -> onThread(() -> listed(mine, response, error)));
  }

  private void listed(long mine, GetResponse response, Throwable error) {
    if (closed || mine != generation) {
      return;
    }
    if (error != null) {
      retry("listing " + keys.clientsPrefix() + " failed: " + EtcdClients.describe(error));
      return;
    }
    clients.clear();
    for (KeyValue value : response.getKvs()) {
      RegisteredClient registered = ClientRegistrySnapshot.decode(keys, value);
      if (registered != null) {
        clients.put(registered.clientId(), registered);
      }
    }
    long revision = response.getHeader().getRevision();
    deliver(revision);
    backoff = options.retryBackoffMin();
    WatchOption option = WatchOption.builder().isPrefix(true).withRevision(revision + 1).build();
    watcher =
        client
            .getWatchClient()
            .watch(
                prefix,
                option,
                Watch.listener(
                    watched -> onThread(() -> watched(mine, watched)),
                    failure ->
                        onThread(
                            () -> broken(mine, "watch failed: " + EtcdClients.describe(failure))),
                    () -> onThread(() -> broken(mine, "watch ended by etcd"))));
  }

  private void watched(long mine, WatchResponse response) {
    if (closed || mine != generation || response.getEvents().isEmpty()) {
      return;
    }
    long revision = 0;
    for (WatchEvent event : response.getEvents()) {
      KeyValue value = event.getKeyValue();
      revision = Math.max(revision, value.getModRevision());
      String key = value.getKey().toString(StandardCharsets.UTF_8);
      if (!key.startsWith(keys.clientsPrefix())) {
        continue;
      }
      String clientId = key.substring(keys.clientsPrefix().length());
      if (event.getEventType() == WatchEvent.EventType.DELETE) {
        clients.remove(clientId);
      } else {
        RegisteredClient registered = ClientRegistrySnapshot.decode(keys, value);
        if (registered != null) {
          clients.put(clientId, registered);
        }
      }
    }
    deliver(revision);
  }

  private void broken(long mine, String why) {
    if (closed || mine != generation) {
      return;
    }
    retry(why);
  }

  private void retry(String why) {
    closeWatcher();
    generation++;
    LOG.warn(
        "cluster '{}' registry watch: {}; listing again in {} ms",
        keys.cluster(),
        why,
        backoff.toMillis());
    Duration delay = backoff;
    backoff = backoff.multipliedBy(2);
    if (backoff.compareTo(options.retryBackoffMax()) > 0) {
      backoff = options.retryBackoffMax();
    }
    try {
      thread.schedule(this::list, delay.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException closing) {
      // closed
    }
  }

  private void deliver(long revision) {
    ClientRegistrySnapshot snapshot = new ClientRegistrySnapshot(revision, new TreeMap<>(clients));
    try {
      listener.accept(snapshot);
    } catch (RuntimeException e) {
      LOG.error("cluster '{}' registry watch: the listener failed", keys.cluster(), e);
    }
  }

  private void closeWatcher() {
    if (watcher != null) {
      try {
        watcher.close();
      } catch (RuntimeException e) {
        LOG.debug("closing the registry watcher failed", e);
      }
      watcher = null;
    }
  }

  private void onThread(Runnable action) {
    try {
      thread.execute(action);
    } catch (RejectedExecutionException closing) {
      // closed
    }
  }

  /** Stops the watch; waits (up to the request timeout) for a listener call under way. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    onThread(this::closeWatcher);
    thread.shutdown();
    try {
      if (!thread.awaitTermination(options.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
        thread.shutdownNow();
      }
    } catch (InterruptedException e) {
      thread.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
