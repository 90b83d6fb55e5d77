package io.jumpgate.bench.timing;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.Poll;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * etcd, {@code leaders} redis-server leaders with one replica each, and a map where shard s is led
 * by {@code leader-(s % leaders)} and replicated by {@code replica-(s % leaders)}, epoch 0.
 *
 * <p>Like the IT fixture's {@code LocalCluster}, but etcd accepts transactions of up to {@value
 * #MAX_TRANSACTION_OPERATIONS} operations ({@code --max-txn-ops}; etcd's default is 128), so that
 * failing over every shard of one leader of a 1024-shard map is one transaction, one revision.
 * Processes belong to the fixture's current scope. Not thread-safe.
 */
final class FailoverCluster implements AutoCloseable {

  static final int MAX_TRANSACTION_OPERATIONS = 4096;

  private final EtcdCluster etcd;
  private final String cluster;
  private final int shards;
  private final List<RedisProcess> leaders;
  private final List<RedisProcess> replicas;
  private final Client client;

  private FailoverCluster(
      EtcdCluster etcd,
      String cluster,
      int shards,
      List<RedisProcess> leaders,
      List<RedisProcess> replicas) {
    this.etcd = etcd;
    this.cluster = cluster;
    this.shards = shards;
    this.leaders = leaders;
    this.replicas = replicas;
    this.client = Client.builder().endpoints(etcd.endpoints().toArray(String[]::new)).build();
  }

  static FailoverCluster start(ProcessFixture fixture, String cluster, int shards, int leaderCount)
      throws Exception {
    EtcdCluster etcd =
        fixture.etcd(
            EtcdCluster.options()
                .extraArgs("--max-txn-ops", Integer.toString(MAX_TRANSACTION_OPERATIONS)));
    List<RedisProcess> leaders = new ArrayList<>();
    List<RedisProcess> replicas = new ArrayList<>();
    for (int index = 0; index < leaderCount; index++) {
      RedisProcess leader = fixture.redis("--repl-diskless-sync-delay", "0");
      leaders.add(leader);
      replicas.add(
          fixture.redis(
              "--replicaof",
              "127.0.0.1",
              Integer.toString(leader.port()),
              "--repl-diskless-sync-delay",
              "0"));
    }
    for (RedisProcess replica : replicas) {
      Poll.until(
          Duration.ofSeconds(20),
          "replica " + replica.address() + " to finish its first sync",
          () ->
              String.valueOf(replica.call("INFO", "replication"))
                  .contains("master_link_status:up"));
    }
    FailoverCluster local =
        fixture.register(new FailoverCluster(etcd, cluster, shards, leaders, replicas));
    local.writeMap();
    return local;
  }

  private void writeMap() throws Exception {
    List<Op> batch = new ArrayList<>();
    for (int index = 0; index < leaders.size(); index++) {
      batch.add(put("nodes/" + leaderId(index), nodeJson(leaders.get(index))));
      batch.add(put("nodes/" + replicaId(index), nodeJson(replicas.get(index))));
    }
    for (int shard = 0; shard < shards; shard++) {
      int leader = shard % leaders.size();
      batch.add(
          put(shardKey(shard), assignmentJson(leaderId(leader), List.of(replicaId(leader)), 0)));
    }
    commit(batch);
    commit(
        List.of(
            put("meta", "{\"format\":1,\"shards\":" + shards + ",\"routing\":\"xxh64-jump\"}")));
  }

  EtcdCluster etcd() {
    return etcd;
  }

  String cluster() {
    return cluster;
  }

  RedisProcess leader(int index) {
    return leaders.get(index);
  }

  RedisProcess replica(int index) {
    return replicas.get(index);
  }

  static String leaderId(int index) {
    return "leader-" + index;
  }

  static String replicaId(int index) {
    return "replica-" + index;
  }

  static String shardKey(int shard) {
    return String.format("shards/%04d", shard);
  }

  static String assignmentJson(String leaderId, List<String> replicaIds, long epoch) {
    StringBuilder json =
        new StringBuilder("{\"leader\":\"").append(leaderId).append("\",\"replicas\":[");
    for (int index = 0; index < replicaIds.size(); index++) {
      json.append(index == 0 ? "" : ",").append('"').append(replicaIds.get(index)).append('"');
    }
    return json.append("],\"epoch\":").append(epoch).append('}').toString();
  }

  private static String nodeJson(RedisProcess process) {
    return "{\"host\":\"127.0.0.1\",\"port\":" + process.port() + "}";
  }

  /** Writes keys (relative to the cluster root) in one transaction; returns its revision. */
  long commitRelative(Map<String, String> values) throws Exception {
    List<Op> batch = new ArrayList<>();
    values.forEach((key, value) -> batch.add(put(key, value)));
    return commit(batch);
  }

  private Op put(String relativeKey, String value) {
    return Op.put(
        bytes("/jumpgate/" + cluster + "/" + relativeKey), bytes(value), PutOption.DEFAULT);
  }

  private long commit(List<Op> batch) throws Exception {
    return client
        .getKVClient()
        .txn()
        .Then(batch.toArray(Op[]::new))
        .commit()
        .get(10, TimeUnit.SECONDS)
        .getHeader()
        .getRevision();
  }

  private static ByteSequence bytes(String text) {
    return ByteSequence.from(text, StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    client.close();
  }
}
