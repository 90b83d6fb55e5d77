package io.jumpgate.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a JUnit 5 test class against a {@link LocalCluster} that the {@link JumpgateExtension}
 * starts for it: test methods, lifecycle methods and constructors may declare parameters of type
 * {@link LocalCluster} and {@link io.jumpgate.driver.JumpgateClient}.
 *
 * <pre>{@code
 * @JumpgateTest(nodes = 3, replicasPerNode = 1)
 * class CartTest {
 *   @Test
 *   void should_keep_the_cart(JumpgateClient client) {
 *     client.connect().sync().set("cart:7", "3 apples");
 *   }
 * }
 * }</pre>
 *
 * <p>One cluster per test class (a {@code @Nested} class gets its own), started when a parameter
 * first needs it and stopped after the class's last test: tests of one class share its data and its
 * faults, so a test that pauses or kills a node should bring it back (or the class should hold one
 * such test). Each injected client is new and is closed after the test method (or, when injected
 * into a constructor or an {@code @BeforeAll} method, after the class).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(JumpgateExtension.class)
public @interface JumpgateTest {

  /** Leader redis-servers. */
  int nodes() default LocalCluster.DEFAULT_NODES;

  /** Replica servers per leader. */
  int replicasPerNode() default LocalCluster.DEFAULT_REPLICAS_PER_NODE;

  /** Shards of the map. */
  int shards() default LocalCluster.DEFAULT_SHARDS;

  /** The cluster name. */
  String cluster() default LocalCluster.DEFAULT_CLUSTER;
}
