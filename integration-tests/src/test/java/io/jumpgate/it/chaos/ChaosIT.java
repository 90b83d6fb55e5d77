package io.jumpgate.it.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.jumpgate.it.fixture.ProcessFixture;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The chaos run with exact accounting (see {@link ChaosRun}): doubled increments, increments lost
 * without a crash, untyped failures, calls past their deadline + margin, reads that go back within
 * an epoch, failures after the faults stopped, writes to a source after a migration's cutover, and
 * keys not on exactly their owner at the end (shards migrate with their data, and movers are killed
 * and resumed) must all be zero.
 *
 * <p>Short mode by default (inside {@code bin/test}: about 60 s of faults, every fault type at
 * least once, under 2 minutes with startup). {@code bin/chaos --minutes N} runs it in long mode
 * through the system properties {@code chaos.minutes}, {@code chaos.seed} and {@code chaos.report}.
 * The accounting goes to {@code chaos-report.json} in the build folder unless {@code chaos.report}
 * says otherwise; the seed is printed first, and {@code -Dchaos.seed=S} runs the same sequence of
 * faults again. The integration tests' default timeout (2 minutes, junit-platform.properties)
 * covers the short mode; {@code bin/chaos} raises it for the long mode with {@code
 * -Djunit.jupiter.execution.timeout.default}.
 */
class ChaosIT {

  @RegisterExtension final ProcessFixture fixture = new ProcessFixture();

  @Test
  void should_count_every_increment_exactly_and_recover_while_faults_hit_the_cluster()
      throws Exception {
    ChaosSettings settings = ChaosSettings.fromSystemProperties(defaultReport());
    ChaosReport report = new ChaosRun(fixture, settings, System.out).run();
    report.writeTo(settings.report());
    System.out.println("[chaos] report written to " + settings.report().toAbsolutePath());
    assertThat(report.violations())
        .as(
            "chaos run with seed %d broke its guarantees; accounting:%n%s",
            settings.seed(), report.toJson())
        .isEmpty();
  }

  /** {@code <build folder>/chaos-report.json}: the folder that holds the test classes. */
  private static Path defaultReport() throws URISyntaxException {
    Path testClasses =
        Path.of(ChaosIT.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return testClasses.getParent().resolve("chaos-report.json");
  }
}
