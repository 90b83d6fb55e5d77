package io.jumpgate.spring.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.spring.JumpgateAutoConfiguration;
import io.lettuce.core.MaintNotificationsConfig;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * What a start with Spring Boot 3.5's own dependency set (Netty 4.1, Lettuce 6.6, neither of which
 * has these classes) reports, and the report for a topology that does not come.
 */
class DependencyCheckTest {

  @Test
  void should_pass_with_netty_4_2_and_lettuce_7() {
    assertThatCode(() -> DependencyCheck.requireSupportedDependencies(getClass().getClassLoader()))
        .doesNotThrowAnyException();
  }

  @Test
  void should_refuse_to_start_without_netty_4_2_and_lettuce_7_and_explain_what_to_set() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(JumpgateAutoConfiguration.class))
        .withClassLoader(
            new FilteredClassLoader(
                MaintNotificationsConfig.class, MultiThreadIoEventLoopGroup.class))
        .withPropertyValues("jumpgate.topology-file=" + Path.of("/nonexistent/topology.json"))
        .run(
            context -> {
              assertThat(context).hasFailed();
              Throwable failure = context.getStartupFailure();
              assertThat(failure).isInstanceOf(BeanCreationException.class);
              assertThat(failure)
                  .rootCause()
                  .isInstanceOf(IncompatibleDependenciesException.class)
                  .hasMessageContaining("Jumpgate needs Netty 4.2")
                  .hasMessageContaining("Jumpgate needs Lettuce 7");
              FailureAnalysis analysis = new JumpgateFailureAnalyzer().analyze(failure);
              assertThat(analysis).isNotNull();
              assertThat(analysis.getDescription()).contains("Lettuce").contains("Netty");
              assertThat(analysis.getAction())
                  .contains("<netty.version>4.2")
                  .contains("<lettuce.version>7.");
            });
  }

  @Test
  void should_explain_a_start_without_topology() {
    FailureAnalysis analysis =
        new JumpgateFailureAnalyzer()
            .analyze(
                new IllegalStateException(
                    "bean creation",
                    new TopologyUnavailableException(
                        "no topology from etcd http://127.0.0.1:1 cluster 'x' within 100 ms")));
    assertThat(analysis.getDescription()).contains("within 100 ms");
    assertThat(analysis.getAction()).contains("jumpgate.etcd.endpoints");
    assertThat(new JumpgateFailureAnalyzer().analyze(new IllegalStateException("other"))).isNull();
  }
}
