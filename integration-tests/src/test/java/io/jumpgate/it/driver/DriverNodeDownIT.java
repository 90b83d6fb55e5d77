package io.jumpgate.it.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import io.jumpgate.driver.CommandFailedException;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.driver.NodeUnavailableException;
import io.jumpgate.it.fixture.EtcdCluster;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.topology.EtcdTopologyOptions;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * No connect storm: once a connect to a node failed, commands to it fail at once as not run while
 * the driver reconnects in the background, instead of each command starting a connect of its own
 * and waiting for it. The node here accepts TCP connections and never answers the handshake (AUTH),
 * so every connect fails at the connect timeout.
 */
class DriverNodeDownIT {

  private static final Duration CONNECT_TIMEOUT = Duration.ofMillis(300);

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  @Test
  void should_fail_fast_as_not_run_while_a_node_is_down_and_not_connect_per_command()
      throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      List<Socket> accepted = new CopyOnWriteArrayList<>();
      Thread acceptor =
          new Thread(
              () -> {
                while (!silent.isClosed()) {
                  try {
                    accepted.add(silent.accept()); // never answers anything
                  } catch (java.io.IOException e) {
                    return;
                  }
                }
              },
              "silent-node");
      acceptor.setDaemon(true);
      acceptor.start();
      EtcdCluster etcd = fixture.etcd();
      writeMap(etcd, silent.getLocalPort());
      JumpgateCommands<String, String> redis =
          fixture
              .register(
                  JumpgateClient.create(
                      JumpgateOptions.builder()
                          .etcd(
                              EtcdTopologyOptions.builder()
                                  .endpoints(etcd.endpointList())
                                  .cluster("down")
                                  .build())
                          .registration(false)
                          .redisPassword("the-handshake-never-ends")
                          .commandTimeout(Duration.ofSeconds(2))
                          .connectTimeout(CONNECT_TIMEOUT)
                          .build()))
              .connect()
              .sync();
      // The first command meets the first connect and its failure.
      try {
        redis.incr("counter");
      } catch (CommandFailedException expected) {
        // the node is down
      }

      // Then: 20 commands in a row each fail at once, as not run
      long start = System.nanoTime();
      for (int command = 0; command < 20; command++) {
        long began = System.nanoTime();
        try {
          redis.incr("counter");
          throw new AssertionError("INCR answered by a node that never answers");
        } catch (CommandFailedException failure) {
          long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
          assertThat(failure)
              .as("INCR %d: %s", command, failure.getMessage())
              .isInstanceOf(NodeUnavailableException.class);
          assertThat(failure.mayHaveRun()).as("INCR %d may have run", command).isFalse();
          assertThat(tookMillis)
              .as("ms INCR %d took against a node that is down", command)
              .isLessThan(CONNECT_TIMEOUT.toMillis());
        }
      }
      long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      // and the connects are the driver's background ones (backoff from 100 ms), not one each
      System.out.printf(
          "20 INCRs to a down node took %d ms; connects: %d%n", tookMillis, accepted.size());
      assertThat(accepted.size()).as("connects to the down node").isLessThan(10);
      for (Socket socket : accepted) {
        socket.close();
      }
    }
  }

  private static void writeMap(EtcdCluster etcd, int port) throws Exception {
    try (Client client =
        Client.builder().endpoints(etcd.endpoints().toArray(String[]::new)).build()) {
      String root = "/jumpgate/down/";
      List<Op> puts = new ArrayList<>();
      puts.add(put(root + "nodes/n0", "{\"host\":\"127.0.0.1\",\"port\":" + port + "}"));
      for (int shard = 0; shard < 4; shard++) {
        puts.add(
            put(
                root + String.format("shards/%04d", shard),
                "{\"leader\":\"n0\",\"replicas\":[],\"epoch\":0}"));
      }
      puts.add(put(root + "meta", "{\"format\":1,\"shards\":4,\"routing\":\"xxh64-jump\"}"));
      client.getKVClient().txn().Then(puts.toArray(Op[]::new)).commit().get(10, TimeUnit.SECONDS);
    }
  }

  private static Op put(String key, String value) {
    return Op.put(
        ByteSequence.from(key, StandardCharsets.UTF_8),
        ByteSequence.from(value, StandardCharsets.UTF_8),
        PutOption.DEFAULT);
  }
}
