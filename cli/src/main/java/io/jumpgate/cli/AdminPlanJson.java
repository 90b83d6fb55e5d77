package io.jumpgate.cli;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.jumpgate.spi.ShardState;
import io.jumpgate.topology.Plan;
import io.jumpgate.topology.TopologyAdminPlan;
import java.io.IOException;

/**
 * The JSON mapper of the admin verbs' {@code --json} document: a {@link TopologyAdminPlan} printed
 * with the contract's spellings. A {@link ShardState} is written as its {@link
 * ShardState#wireName()} ({@code "active"}, as in etcd and {@code topology show --json}), and the
 * plan's placement change ({@link TopologyAdminPlan#plan()}) is named {@code "placement"}, so the
 * document reads {@code {"plan":{"cluster":..,"etcdRevision":..,"revision":..,"placement":
 * {"operation":..,"steps":..}}}} instead of a plan inside a plan. {@code "revision"} is the map's
 * revision the plan was read at, the one {@code topology show} reports; {@code "etcdRevision"} is
 * etcd's own revision at that read, which client registrations and the migration lock move too.
 *
 * <p>Stateless; the mapper is thread-safe once built.
 */
final class AdminPlanJson {

  /** The document's mapper. */
  static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .addModule(
              new SimpleModule("jumpgate-wire-names")
                  .addSerializer(ShardState.class, new ShardStateSerializer()))
          .addMixIn(TopologyAdminPlan.class, PlanNames.class)
          .build();

  private AdminPlanJson() {}

  /**
   * Renames {@link TopologyAdminPlan#plan()}, {@link TopologyAdminPlan#mapRevision()} (the map's
   * revision, {@code "revision"} as in {@code topology show --json}) and {@link
   * TopologyAdminPlan#readRevision()} (etcd's own revision, {@code "etcdRevision"}) in the
   * document.
   */
  private abstract static class PlanNames {
    @JsonProperty("placement")
    abstract Plan plan();

    @JsonProperty("revision")
    abstract long mapRevision();

    @JsonProperty("etcdRevision")
    abstract long readRevision();
  }

  /** Writes a shard state as its wire name. */
  private static final class ShardStateSerializer extends JsonSerializer<ShardState> {
    @Override
    public void serialize(ShardState state, JsonGenerator generator, SerializerProvider provider)
        throws IOException {
      generator.writeString(state.wireName());
    }
  }
}
