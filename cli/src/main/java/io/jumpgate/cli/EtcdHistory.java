package io.jumpgate.cli;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.options.GetOption;
import io.jumpgate.spi.TopologyException;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.EtcdClients;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.jumpgate.topology.TopologyKeys;
import io.jumpgate.topology.TopologyListing;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The shard map as etcd had it at an older revision: one ranged GET of the cluster's root prefix at
 * that revision, validated as a fresh listing is ({@link TopologyListing#snapshot}). For {@code
 * topology diff A etcd@REV}.
 *
 * <p>Fails with a {@link TopologyUnavailableException} whose message names the endpoints and the
 * revision: compacted, not reached yet, not initialised at that revision, access refused, no answer
 * in time. Stateless and thread-safe.
 */
final class EtcdHistory {

  private EtcdHistory() {}

  /**
   * The snapshot of {@code options.cluster()} at {@code revision}.
   *
   * @param revision the etcd revision, at least 1
   * @param timeout how long to wait for etcd's answer
   */
  static TopologySnapshot read(EtcdTopologyOptions options, long revision, Duration timeout) {
    TopologyKeys keys = TopologyKeys.forCluster(options.cluster());
    String where =
        "etcd at "
            + options.endpointList()
            + " (cluster '"
            + options.cluster()
            + "', revision "
            + revision
            + ")";
    GetResponse response;
    try (Client client = EtcdClients.create(options)) {
      response =
          client
              .getKVClient()
              .get(
                  ByteSequence.from(keys.rootPrefix(), StandardCharsets.UTF_8),
                  GetOption.builder().isPrefix(true).withRevision(revision).build())
              .get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw new TopologyUnavailableException(where + ": " + describe(e.getCause()), e.getCause());
    } catch (TimeoutException e) {
      throw new TopologyUnavailableException(
          where + ": no answer within " + timeout.toMillis() + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TopologyUnavailableException(where + ": interrupted", e);
    }
    try {
      return TopologyListing.snapshot(keys, revision, response.getKvs());
    } catch (TopologyException e) {
      throw new TopologyUnavailableException(where + ": " + e.getMessage(), e);
    }
  }

  private static String describe(Throwable error) {
    String text = EtcdClients.describe(error);
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.contains("required revision has been compacted")) {
      return "etcd has compacted its history past this revision (" + text + ")";
    }
    if (lower.contains("future revision")) {
      return "etcd has not reached this revision yet (" + text + ")";
    }
    if (EtcdClients.isAuthenticationFailure(error)) {
      return "authentication failed or permission denied (" + text + ")";
    }
    return text;
  }
}
