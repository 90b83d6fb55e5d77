package io.jumpgate.bench.endtoend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummaryTest {
  @TempDir Path dir;

  private static Point point(
      int round, Workload workload, int inflight, String system, double ops) {
    return new Point(
        round,
        workload,
        inflight,
        system,
        0,
        new ClosedLoop.Result(ops, 100, 400, 900, (long) ops, 0, null, 25.0, 2.5));
  }

  private static Point failed(int round, String system, double ops, long errors, String first) {
    return new Point(
        round,
        Workload.GET,
        16,
        system,
        0,
        new ClosedLoop.Result(ops, 100, 400, 900, (long) ops, errors, first, 25.0, 2.5));
  }

  /** Jumpgate 1000/1100/900 ops/s against direct 1000/1000/1000 and cluster 500/550/300. */
  private static Summary threeRounds() {
    List<Point> points = new ArrayList<>();
    double[] jumpgate = {1000, 1100, 900};
    double[] direct = {1000, 1000, 1000};
    double[] cluster = {500, 550, 300};
    for (int round = 1; round <= 3; round++) {
      points.add(point(round, Workload.GET, 16, "jumpgate", jumpgate[round - 1]));
      points.add(point(round, Workload.GET, 16, "direct", direct[round - 1]));
      points.add(point(round, Workload.GET, 16, "lettuceCluster", cluster[round - 1]));
    }
    return new Summary(points);
  }

  @Test
  void ratiosArePerRoundThenMinMedianMax() {
    Summary summary = threeRounds();

    RatioStats direct = summary.ratio("get@16", "direct").orElseThrow();
    assertThat(direct.min()).isEqualTo(0.9);
    assertThat(direct.median()).isEqualTo(1.0);
    assertThat(direct.max()).isCloseTo(1.1, org.assertj.core.data.Offset.offset(1e-12));
    // per round 2.0, 2.0, 3.0: not the ratio of medians (1000/500 = 2.0) nor of means
    RatioStats cluster = summary.ratio("get@16", "lettuceCluster").orElseThrow();
    assertThat(cluster.min()).isEqualTo(2.0);
    assertThat(cluster.median()).isEqualTo(2.0);
    assertThat(cluster.max()).isEqualTo(3.0);
    assertThat(summary.ratio("get@16", "twemproxy")).isEmpty();
    assertThat(summary.ratio("set@16", "direct")).isEmpty();
  }

  @Test
  void summaryJsonHasTheIssueShapeAndCopiesTheTimingFiles() throws IOException {
    Path propagation = dir.resolve("propagation.json");
    Files.writeString(propagation, "{\"clients\":52,\"p50Ms\":3.5,\"p99Ms\":12,\"maxMs\":20}");
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("mode", "quick");
    run.put("rounds", 3);

    String json =
        threeRounds()
            .toJson(
                "2 cores, \"test\" CPU",
                run,
                timingFiles(propagation, dir.resolve("missing.json")));

    Map<String, Object> flat = flatten(json);
    assertThat(flat)
        .containsEntry("machine", "2 cores, \"test\" CPU")
        .containsEntry("run.mode", "quick")
        .containsEntry("run.rounds", 3L)
        .containsEntry("ratios.get@16.vsDirect.min", 0.9)
        .containsEntry("ratios.get@16.vsDirect.median", 1.0)
        .containsEntry("ratios.get@16.vsDirect.max", 1.1)
        .containsEntry("ratios.get@16.vsLettuceCluster.max", 3.0)
        .containsEntry("systems.jumpgate.get@16.throughput.median", 1000.0)
        .containsEntry("systems.direct.get@16.p99Us", 400.0)
        .containsEntry("systems.direct.get@16.errors", 0L)
        .containsEntry("systems.direct.get@16.clientCpuUsPerRequest", 25.0)
        .containsEntry("systems.direct.get@16.readWriteSyscallsPerRequest", 2.5)
        .containsEntry("propagation.p99Ms", 12L)
        .containsEntry("propagation.clients", 52L);
    assertThat(flat).doesNotContainKey("ratios.get@16.vsTwemproxy.min");
    // a timing run that failed or did not run this time is absent, not null, not an old file
    assertThat(flat.keySet()).noneMatch(key -> key.startsWith("failover"));
    assertThat(flat.keySet()).noneMatch(key -> key.startsWith("migration"));
  }

  @Test
  void runFieldsMayHoldTheRoundOrderAsLists() throws IOException {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("roundOrder", RoundOrder.all(List.of("jumpgate", "direct"), 2));

    String json = threeRounds().toJson("m", run, Map.of());

    assertThat(json.replaceAll("\\s", ""))
        .contains(
            "\"roundOrder\":{\"1\":[\"jumpgate\",\"direct\"],\"2\":[\"direct\",\"jumpgate\"]}");
  }

  /** Jumpgate and direct over 3 rounds, direct failing 3 requests in round 2 only. */
  private static Summary directFailsInOneRound() {
    List<Point> points = new ArrayList<>();
    for (int round = 1; round <= 3; round++) {
      points.add(point(round, Workload.GET, 16, "jumpgate", 1000));
      points.add(
          round == 2
              ? failed(round, "direct", 10, 3, "RedisCommandTimeoutException: boom")
              : point(round, Workload.GET, 16, "direct", 1000));
      points.add(point(round, Workload.SET, 16, "jumpgate", 900));
      points.add(point(round, Workload.SET, 16, "direct", 1000));
    }
    return new Summary(points);
  }

  @Test
  void anErrorInOneRoundMarksTheWholeCellInvalidInTheJson() throws IOException {
    Summary summary = directFailsInOneRound();

    Map<String, Object> flat = flatten(summary.toJson("m", Map.of(), Map.of()));

    assertThat(flat)
        .containsEntry("systems.direct.get@16.invalid", true)
        .containsEntry("systems.direct.get@16.errors", 3L)
        .containsEntry("systems.direct.get@16.firstError", "RedisCommandTimeoutException: boom")
        .containsEntry("ratios.get@16.vsDirect.invalid", true)
        .containsEntry("ratios.get@16.vsDirect.errors", 3L)
        // the clean cells of the same run are reported as usual
        .containsEntry("systems.jumpgate.get@16.throughput.median", 1000.0)
        .containsEntry("ratios.set@16.vsDirect.median", 0.9);
    // none of the invalid cell's figures is averaged into a median
    assertThat(flat.keySet())
        .noneMatch(key -> key.startsWith("systems.direct.get@16.throughput"))
        .noneMatch(key -> key.startsWith("systems.direct.get@16.p99Us"))
        .noneMatch(key -> key.equals("ratios.get@16.vsDirect.median"));
    assertThat(summary.ratio("get@16", "direct")).isEmpty();
    assertThat(summary.spread("get@16", "direct", point -> point.result().throughput())).isEmpty();
    assertThat(summary.invalidCells()).containsExactly("get@16 direct");
  }

  @Test
  void anInvalidCellIsMarkedInEveryTableAndChartTitle() {
    Summary summary = directFailsInOneRound();

    assertThat(summary.ratioTable()).contains("| get@16 | 1000 | INVALID |");
    assertThat(summary.systemTable())
        .contains(
            "| get@16 | direct | INVALID (3 errors: RedisCommandTimeoutException: boom) | - | - |"
                + " - | - | - | 3 |");
    assertThat(summary.targetTable())
        .contains(
            "| get@16 vsDirect >= 0.95x | INVALID (3 errors: RedisCommandTimeoutException: boom)"
                + " | INVALID |");
    assertThat(Charts.invalidNote(summary, 16, null))
        .isEqualTo(" - invalid (errors), not drawn: get@16 direct");
    assertThat(Charts.invalidNote(summary, 64, null)).isEmpty();
    assertThat(Charts.invalidNote(summary, 0, "lettuceCluster")).isEmpty();
  }

  @Test
  void aTimingFileThatIsNotAnObjectIsRejected() throws IOException {
    Path bad = dir.resolve("failover.json");
    Files.writeString(bad, "[1,2]");

    assertThatThrownBy(() -> threeRounds().toJson("m", Map.of(), timingFiles(null, bad)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("failover.json");
  }

  /** The timing files as EndToEndBenchmark passes them; migration.json is never written here. */
  private Map<String, Path> timingFiles(Path propagation, Path failover) {
    Map<String, Path> files = new LinkedHashMap<>();
    files.put("propagation", propagation);
    files.put("failover", failover);
    files.put("migration", dir.resolve("migration.json"));
    return files;
  }

  @Test
  void csvHasOneLinePerPoint() throws IOException {
    Path csv = dir.resolve("points.csv");
    threeRounds().writeCsv(csv);

    List<String> lines = Files.readAllLines(csv);
    assertThat(lines).hasSize(10);
    assertThat(lines.get(0)).startsWith("round,workload,inflight,system,position,throughput");
    assertThat(lines.get(0)).endsWith(",clientCpuUsPerRequest,readWriteSyscallsPerRequest");
    assertThat(lines.get(1))
        .isEqualTo("1,get,16,jumpgate,0,1000.0,100.0,400.0,900.0,1000,0,25.00,2.500");
  }

  @Test
  void tablesShowMedianAndSpreadAndTargets() {
    Summary summary = threeRounds();

    assertThat(summary.ratioTable())
        .contains("| get@16 | 1000 | 1.00 (0.90-1.10) | 2.00 (2.00-3.00) |");
    assertThat(summary.targetTable())
        .contains("| get@16 vsDirect >= 0.95x | 1.00 (0.90-1.10) | met |")
        .contains("| get@64 vsDirect >= 0.95x | not measured | - |");
  }

  /** The JSON as dotted paths to scalar values (numbers as Long or Double, null kept). */
  private static Map<String, Object> flatten(String json) throws IOException {
    Map<String, Object> flat = new HashMap<>();
    try (JsonParser parser = new JsonFactory().createParser(json)) {
      List<String> path = new ArrayList<>();
      JsonToken token;
      while ((token = parser.nextToken()) != null) {
        switch (token) {
          case START_OBJECT -> path.add("");
          case END_OBJECT -> {
            path.remove(path.size() - 1);
          }
          case FIELD_NAME -> path.set(path.size() - 1, parser.currentName());
          case VALUE_NUMBER_INT -> flat.put(String.join(".", path), parser.getLongValue());
          case VALUE_NUMBER_FLOAT -> flat.put(String.join(".", path), parser.getDoubleValue());
          case VALUE_STRING -> flat.put(String.join(".", path), parser.getText());
          case VALUE_NULL -> flat.put(String.join(".", path), null);
          case VALUE_TRUE, VALUE_FALSE ->
              flat.put(String.join(".", path), parser.getBooleanValue());
          default -> {}
        }
      }
    }
    return flat;
  }
}
