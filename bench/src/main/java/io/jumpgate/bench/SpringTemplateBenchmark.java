package io.jumpgate.bench;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateOptions;
import io.jumpgate.it.fixture.ProcessFixture;
import io.jumpgate.it.fixture.RedisProcess;
import io.jumpgate.spi.InMemoryTopologySource;
import io.jumpgate.spi.Node;
import io.jumpgate.spring.data.JumpgateConnectionFactory;
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
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What Jumpgate's {@code RedisConnectionFactory} costs a Spring application: {@code
 * StringRedisTemplate.opsForValue().get} through {@link JumpgateConnectionFactory} next to the same
 * call through Spring's own {@code LettuceConnectionFactory} (its default: one shared native
 * connection), on the same redis-server, with the same Lettuce {@code ClientResources}, in the same
 * JVM and run. Each invocation reads one 100-byte value and waits for it. {@link #driverGet} (the
 * driver's {@code sync()} view, no Spring) splits the difference between Spring's template and the
 * factory's connection.
 *
 * <p>The redis-server is started in {@code @Setup} by the IT fixture. The driver's map is a fixed
 * one ({@link InMemoryTopologySource}: 1024 shards, all on that node): no etcd, whose watch is not
 * on the path of a command.
 *
 * <p>Run (after {@code mvn -B -ntp -pl bench -am package -DskipTests}):
 *
 * <pre>
 * java -jar bench/target/benchmarks.jar SpringTemplateBenchmark -f 1 -wi 3 -i 5 -prof gc
 * </pre>
 *
 * <p>The ratio is {@code jumpgateTemplateGet / lettuceTemplateGet} of the average times.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
public class SpringTemplateBenchmark {

  private static final String KEY = "spring:template:key";

  private ProcessFixture fixture;
  private AutoCloseable scope;
  private ClientResources resources;
  private JumpgateClient client;
  private JumpgateCommands<String, String> driver;
  private JumpgateConnectionFactory jumpgateFactory;
  private LettuceConnectionFactory lettuceFactory;
  private StringRedisTemplate jumpgateTemplate;
  private StringRedisTemplate lettuceTemplate;

  @Setup(Level.Trial)
  public void start() throws Exception {
    fixture = new ProcessFixture();
    scope = fixture.openScope("spring-template");
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
    driver = client.connect().sync();
    jumpgateFactory = new JumpgateConnectionFactory(client);
    jumpgateTemplate = new StringRedisTemplate(jumpgateFactory);

    lettuceFactory =
        new LettuceConnectionFactory(
            new RedisStandaloneConfiguration("127.0.0.1", redis.port()),
            LettuceClientConfiguration.builder().clientResources(resources).build());
    lettuceFactory.afterPropertiesSet();
    lettuceFactory.start();
    lettuceTemplate = new StringRedisTemplate(lettuceFactory);

    lettuceTemplate.opsForValue().set(KEY, "v".repeat(100));
    String throughJumpgate = jumpgateTemplate.opsForValue().get(KEY);
    if (throughJumpgate == null || throughJumpgate.length() != 100) {
      throw new IllegalStateException("Jumpgate's template read " + throughJumpgate);
    }
  }

  @TearDown(Level.Trial)
  public void stop() throws Exception {
    try {
      lettuceFactory.destroy();
      jumpgateFactory.close();
      client.close();
      resources.shutdown(0, 2, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
    } finally {
      scope.close();
    }
  }

  /**
   * The template on Jumpgate's factory: Spring's template, the factory's connection, the driver.
   */
  @Benchmark
  public String jumpgateTemplateGet() {
    return jumpgateTemplate.opsForValue().get(KEY);
  }

  /** The template on Spring's Lettuce factory, straight to the node: the baseline. */
  @Benchmark
  public String lettuceTemplateGet() {
    return lettuceTemplate.opsForValue().get(KEY);
  }

  /** The driver's blocking GET without Spring: what the factory's connection adds on top of it. */
  @Benchmark
  public String driverGet() {
    return driver.get(KEY);
  }
}
