package example;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Spring Boot 3.5's own versions (Netty 4.1, Lettuce 6.6): the start fails at once, saying which
 * versions are on the class path and what to set, instead of a NoClassDefFoundError inside jetcd.
 */
@ExtendWith(OutputCaptureExtension.class)
class Boot35DefaultsTest {

  @SpringBootApplication
  static class App {}

  @Test
  void should_refuse_to_start_naming_netty_and_lettuce_and_what_to_set(CapturedOutput output) {
    assertThat(io.netty.util.Version.identify().get("netty-common").artifactVersion())
        .startsWith("4.1.");
    SpringApplication application = new SpringApplication(App.class);
    application.setWebApplicationType(WebApplicationType.NONE);
    assertThatThrownBy(() -> application.run("--jumpgate.etcd.endpoints=http://127.0.0.1:2379"))
        .hasRootCauseInstanceOf(
            io.jumpgate.spring.internal.IncompatibleDependenciesException.class);
    assertThat(output)
        .contains("APPLICATION FAILED TO START")
        .contains("Jumpgate needs Netty 4.2")
        .contains("Jumpgate needs Lettuce 7")
        .contains("Lettuce 6.6.")
        .contains("<netty.version>4.2")
        .contains("<lettuce.version>7.");
  }
}
