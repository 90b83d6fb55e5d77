package io.jumpgate.topology.internal;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.jumpgate.topology.TopologyKeys;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Lists the names of the clusters that have keys under {@link TopologyKeys#PREFIX}, to tell a
 * client that asked for a cluster that is not there which ones are. One keys-only GET of one key
 * per cluster found (the next one starts past the last cluster's keys), so the cost does not grow
 * with the size of the maps; at most {@link #MAX_NAMES} names.
 *
 * <p>Stateless and thread-safe; the answer completes on a jetcd thread, never blocking it.
 */
public final class ClusterNames {

  /** The most names listed (and GETs made) by one {@link #list}. */
  public static final int MAX_NAMES = 20;

  private static final String PREFIX_END =
      TopologyKeys.PREFIX.substring(0, TopologyKeys.PREFIX.length() - 1) + "0";

  private ClusterNames() {}

  /**
   * The cluster names under the prefix, in key order; fails with the etcd error if a GET fails
   * (access refused by RBAC, no answer within {@code timeout}).
   */
  public static CompletionStage<List<String>> list(KV kv, Duration timeout) {
    CompletableFuture<List<String>> result = new CompletableFuture<>();
    next(kv, TopologyKeys.PREFIX, new ArrayList<>(), timeout, result);
    return result;
  }

  /**
   * The sentence that follows "cluster 'x' is not initialised": the clusters found, or that there
   * are none.
   */
  public static String describe(List<String> names) {
    if (names.isEmpty()) {
      return "no cluster exists under " + TopologyKeys.PREFIX;
    }
    return "clusters under "
        + TopologyKeys.PREFIX
        + ": "
        + String.join(", ", names)
        + (names.size() >= MAX_NAMES ? ", ..." : "");
  }

  private static void next(
      KV kv,
      String from,
      List<String> found,
      Duration timeout,
      CompletableFuture<List<String>> result) {
    kv.get(
            bytes(from),
            GetOption.builder()
                .withRange(bytes(PREFIX_END))
                .withKeysOnly(true)
                .withLimit(1)
                .build())
        .orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS)
        .whenComplete(
            (response, error) -> {
              if (error != null) {
                result.completeExceptionally(error);
                return;
              }
              String after = onePage(response, found);
              if (after == null || found.size() >= MAX_NAMES) {
                result.complete(List.copyOf(found));
              } else {
                next(kv, after, found, timeout, result);
              }
            });
  }

  /** Adds the name of the page's key; returns the key to continue from, or null at the end. */
  private static String onePage(GetResponse response, List<String> found) {
    if (response.getKvs().isEmpty()) {
      return null;
    }
    String key = response.getKvs().get(0).getKey().toString(StandardCharsets.UTF_8);
    String rest = key.substring(TopologyKeys.PREFIX.length());
    int slash = rest.indexOf('/');
    String name = slash < 0 ? rest : rest.substring(0, slash);
    // a key right under the prefix is no cluster's root
    if (slash >= 0 && TopologyKeys.CLUSTER_PATTERN.matcher(name).matches()) {
      found.add(name);
    }
    // '0' follows '/': "<name>0" is past every "<name>/..." key; "\0" is the key's next one.
    return slash < 0 ? key + '\0' : TopologyKeys.PREFIX + name + '0';
  }

  private static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }
}
