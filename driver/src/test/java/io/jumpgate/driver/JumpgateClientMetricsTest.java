package io.jumpgate.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.internal.MicrometerMetrics;
import io.jumpgate.topology.EtcdTopologyOptions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.File;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's metrics and registration options, without etcd or Redis: a topology file, no command
 * sent. Also runs a client in a class loader without Micrometer.
 */
class JumpgateClientMetricsTest {

  @TempDir Path folder;

  /** Four shards on one node that is never connected to (port 1). */
  private Path topologyFile() throws Exception {
    Path file = folder.resolve("topology.json");
    Files.writeString(
        file,
        "{\"format\":1,\"cluster\":\"unit\",\"revision\":7,\"shards\":4,\"routing\":\"xxh64-jump\","
            + "\"nodes\":{\"n0\":{\"host\":\"127.0.0.1\",\"port\":1}},"
            + "\"assignments\":[{\"shard\":0,\"leader\":\"n0\"},{\"shard\":1,\"leader\":\"n0\"},"
            + "{\"shard\":2,\"leader\":\"n0\"},{\"shard\":3,\"leader\":\"n0\"}]}",
        StandardCharsets.UTF_8);
    return file;
  }

  @Test
  void should_register_meters_for_a_file_topology_and_withdraw_them_on_close() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Path file = topologyFile();
    JumpgateClient client =
        JumpgateClient.create(
            JumpgateOptions.builder()
                .topologyFile(file)
                .meterRegistry(registry)
                .clientId("unit-test")
                .build());
    try {
      String cluster = "file " + file;
      assertThat(
              registry
                  .get(MicrometerMetrics.TOPOLOGY_REVISION)
                  .tags("cluster", cluster, "client", "unit-test")
                  .gauge()
                  .value())
          .isEqualTo(7);
      assertThat(registry.get(MicrometerMetrics.TOPOLOGY_UPDATES).counter().count()).isEqualTo(1);
      assertThat(registry.get(MicrometerMetrics.CONNECTIONS).gauge().value()).isZero();
      assertThat(registry.get(MicrometerMetrics.TOPOLOGY_INVALID).gauge().value()).isZero();
      // no registration without etcd, but the id given is kept
      assertThat(client.options().registration()).isFalse();
      assertThat(client.clientId()).contains("unit-test");
    } finally {
      client.close();
    }
    assertThat(registry.getMeters()).isEmpty();
  }

  @Test
  void should_register_by_default_only_with_etcd_and_check_the_client_id() throws Exception {
    EtcdTopologyOptions etcd =
        EtcdTopologyOptions.builder().endpoints("http://127.0.0.1:2379").build();
    assertThat(JumpgateOptions.builder().etcd(etcd).build().registration()).isTrue();
    assertThat(JumpgateOptions.builder().etcd(etcd).registration(false).build().registration())
        .isFalse();
    assertThat(JumpgateOptions.builder().topologyFile(topologyFile()).build().registration())
        .isFalse();
    assertThatThrownBy(
            () ->
                JumpgateOptions.builder()
                    .registration(true)
                    .topologyFile(folder.resolve("t.json"))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("registration needs the topology in etcd");
    assertThatThrownBy(() -> JumpgateOptions.builder().clientId("has space"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("clientId must match")
        .hasMessageContaining("'has space'");
    assertThatThrownBy(() -> JumpgateOptions.builder().clientId("x".repeat(129)))
        .isInstanceOf(IllegalArgumentException.class);
    JumpgateOptions options =
        JumpgateOptions.builder()
            .etcd(etcd)
            .clientId("host-1:42:ab.c_d")
            .registration(false)
            .build();
    assertThat(options.clientId()).contains("host-1:42:ab.c_d");
    assertThat(options.mutate().build().clientId()).contains("host-1:42:ab.c_d");
    assertThat(options.mutate().build().registration()).isFalse();
    assertThat(JumpgateOptions.builder().etcd(etcd).build().clientId()).isEmpty();
  }

  @Test
  void should_run_a_client_without_micrometer_on_the_class_path() throws Exception {
    Path file = topologyFile();
    try (URLClassLoader loader = new URLClassLoader(classPathWithoutMicrometer(), parent())) {
      assertThatThrownBy(
              () -> Class.forName("io.micrometer.core.instrument.MeterRegistry", false, loader))
          .isInstanceOf(ClassNotFoundException.class);
      // the binding itself cannot load there: the check below would see a reference to it
      assertThatThrownBy(
              () ->
                  Class.forName("io.jumpgate.driver.internal.MicrometerMetrics", true, loader)
                      .getDeclaredFields())
          .isInstanceOf(NoClassDefFoundError.class);
      // every signature of the public driver types and of the client's wiring resolves
      for (String name :
          List.of(
              "io.jumpgate.driver.JumpgateClient",
              "io.jumpgate.driver.JumpgateOptions",
              "io.jumpgate.driver.JumpgateOptions$Builder",
              "io.jumpgate.driver.internal.DriverMetrics",
              "io.jumpgate.driver.internal.Dispatcher",
              "io.jumpgate.driver.internal.ClientRegistration")) {
        Class<?> type = Class.forName(name, true, loader);
        type.getDeclaredMethods();
        type.getDeclaredFields();
        type.getDeclaredConstructors();
      }
      // and a client starts, serves its topology and closes
      Class<?> optionsType = Class.forName("io.jumpgate.driver.JumpgateOptions", true, loader);
      Object builder = optionsType.getMethod("builder").invoke(null);
      builder.getClass().getMethod("topologyFile", Path.class).invoke(builder, file);
      Object options = builder.getClass().getMethod("build").invoke(builder);
      Class<?> clientType = Class.forName("io.jumpgate.driver.JumpgateClient", true, loader);
      Object client = clientType.getMethod("create", optionsType).invoke(null, options);
      try {
        Object topology = clientType.getMethod("topology").invoke(client);
        assertThat(topology.getClass().getMethod("revision").invoke(topology)).isEqualTo(7L);
        clientType.getMethod("connect").invoke(client);
      } finally {
        clientType.getMethod("close").invoke(client);
      }
    }
  }

  @Test
  void should_name_no_micrometer_type_in_a_public_driver_signature() throws Exception {
    for (Class<?> type :
        List.of(JumpgateClient.class, JumpgateOptions.class, JumpgateOptions.Builder.class)) {
      for (Method method : type.getDeclaredMethods()) {
        if (!Modifier.isPublic(method.getModifiers())) {
          continue;
        }
        assertThat(method.toGenericString()).as(type + "." + method).doesNotContain("micrometer");
      }
    }
  }

  private static ClassLoader parent() {
    return ClassLoader.getPlatformClassLoader();
  }

  /** The test class path (surefire's, when it hides it behind a manifest jar) minus Micrometer. */
  private static URL[] classPathWithoutMicrometer() throws Exception {
    String classPath = System.getProperty("surefire.test.class.path");
    if (classPath == null || classPath.isBlank()) {
      classPath = System.getProperty("java.class.path");
    }
    List<URL> urls = new ArrayList<>();
    for (String entry : classPath.split(File.pathSeparator)) {
      if (!entry.isBlank() && !entry.contains("micrometer")) {
        urls.add(Path.of(entry).toUri().toURL());
      }
    }
    assertThat(urls).anyMatch(url -> url.toString().contains("lettuce"));
    return urls.toArray(URL[]::new);
  }
}
