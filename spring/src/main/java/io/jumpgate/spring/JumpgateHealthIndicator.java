package io.jumpgate.spring;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.spring.internal.HealthCheck;
import java.time.Clock;
import java.util.Objects;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code jumpgate} health of a {@link JumpgateClient}, for Spring Boot's actuator.
 *
 * <p>UP with the topology's {@code revision}, {@code topologyAge} (since the source last confirmed
 * its snapshot), {@code shards}, {@code nodes} and {@code leaders}. DOWN, with a {@code reason}
 * detail, when:
 *
 * <ul>
 *   <li>no valid topology is loaded;
 *   <li>the topology is older than {@code jumpgate.health.max-topology-age} (30 s): the source lost
 *       its store (etcd) and serves its last snapshot;
 *   <li>a shard has no leader in the topology, or its leader did not answer PING ({@code
 *       unreachableLeaders} names them with their address).
 * </ul>
 *
 * <p>The leaders are checked with the driver's broadcast PING, at most once per {@code
 * jumpgate.health.ping-interval} (5 s) however often health is asked; while a round is in flight a
 * check answers from the last one that ended, and the first check waits at most {@code
 * jumpgate.health.ping-timeout} (1 s). A replica that does not answer is listed in {@code
 * unreachableReplicas} and does not make the client DOWN. Turn the leader check off with {@code
 * jumpgate.health.check-leaders=false}, the whole indicator with {@code
 * management.health.jumpgate.enabled=false}.
 *
 * <p>The auto-configuration makes one for the application's single {@code JumpgateClient}; an
 * application with several clients can declare one per client.
 */
public class JumpgateHealthIndicator implements HealthIndicator {

  private final HealthCheck check;

  /** The health of {@code client}, with the thresholds of {@code settings}. */
  public JumpgateHealthIndicator(JumpgateClient client, JumpgateProperties.Health settings) {
    this(HealthCheck.of(client, HealthCheck.Settings.from(settings), Clock.systemUTC()));
  }

  JumpgateHealthIndicator(HealthCheck check) {
    this.check = Objects.requireNonNull(check, "check");
  }

  @Override
  public Health health() {
    HealthCheck.Result result = check.check();
    return (result.up() ? Health.up() : Health.down()).withDetails(result.details()).build();
  }
}
