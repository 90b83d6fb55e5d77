package io.jumpgate.bench.endtoend;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * Turns the measured points into the results: the ratios of Jumpgate's throughput to each other
 * system's, computed per round from the adjacent measurements of one case and summarised as
 * min/median/max over the rounds; per-system throughput and latency; summary.json, points.csv and
 * the printed tables. Immutable; not thread-safe to build (one thread).
 *
 * <p>A cell (one system in one case) with any failed request, in any round, is invalid: none of its
 * figures goes into a median, a ratio, a table figure or a chart; summary.json, the tables and the
 * ratios that need it say {@code invalid} with the error count and the first error.
 */
final class Summary {
  static final String JUMPGATE = "jumpgate";

  /** The other systems and their key in summary.json's ratios, in order. */
  static final Map<String, String> COMPARISONS =
      Map.of(
          "direct", "vsDirect", "lettuceCluster", "vsLettuceCluster", "twemproxy", "vsTwemproxy");

  static final List<String> SYSTEM_ORDER =
      List.of(JUMPGATE, "direct", "lettuceCluster", "twemproxy");

  private final List<Point> points;

  /**
   * Why a cell, or a ratio between two cells, is not reported: the errors of the invalid cells.
   *
   * @param errors failed requests over the rounds, in every invalid cell involved
   * @param firstError the first error of the first invalid cell (in round order)
   * @param systems the systems whose cell is invalid
   */
  record Invalid(long errors, String firstError, List<String> systems) {}

  Summary(List<Point> points) {
    this.points = List.copyOf(points);
  }

  List<Point> points() {
    return points;
  }

  /** The cases ({@code get@16}, ...) in measurement order. */
  List<String> cases() {
    Set<String> cases = new LinkedHashSet<>();
    points.forEach(point -> cases.add(point.caseName()));
    return new ArrayList<>(cases);
  }

  /** The systems measured, in {@link #SYSTEM_ORDER}. */
  List<String> systems() {
    List<String> systems = new ArrayList<>();
    for (String system : SYSTEM_ORDER) {
      if (points.stream().anyMatch(point -> point.system().equals(system))) {
        systems.add(system);
      }
    }
    return systems;
  }

  /**
   * Jumpgate throughput / {@code other} throughput per round of {@code caseName}, over the rounds
   * where both were measured with a non-zero throughput; empty when there is no such round, or when
   * either cell is invalid ({@link #invalid}).
   */
  Optional<RatioStats> ratio(String caseName, String other) {
    if (invalid(caseName, JUMPGATE, other).isPresent()) {
      return Optional.empty();
    }
    Map<Integer, Double> jumpgate = throughputByRound(caseName, JUMPGATE);
    Map<Integer, Double> others = throughputByRound(caseName, other);
    List<Double> ratios = new ArrayList<>();
    jumpgate.forEach(
        (round, throughput) -> {
          Double denominator = others.get(round);
          if (denominator != null && denominator > 0) {
            ratios.add(throughput / denominator);
          }
        });
    return ratios.isEmpty() ? Optional.empty() : Optional.of(RatioStats.of(ratios));
  }

  private Map<Integer, Double> throughputByRound(String caseName, String system) {
    Map<Integer, Double> byRound = new LinkedHashMap<>();
    for (Point point : points) {
      if (point.caseName().equals(caseName) && point.system().equals(system)) {
        byRound.put(point.round(), point.result().throughput());
      }
    }
    return byRound;
  }

  /**
   * min/median/max over rounds of one metric of one system in one case; empty when the cell was not
   * measured or is invalid.
   */
  Optional<RatioStats> spread(String caseName, String system, ToDoubleFunction<Point> metric) {
    if (invalid(caseName, system).isPresent()) {
      return Optional.empty();
    }
    List<Double> values = new ArrayList<>();
    for (Point point : points) {
      if (point.caseName().equals(caseName) && point.system().equals(system)) {
        values.add(metric.applyAsDouble(point));
      }
    }
    return values.isEmpty() ? Optional.empty() : Optional.of(RatioStats.of(values));
  }

  /**
   * The errors that make any of these systems' cells of {@code caseName} invalid; empty when every
   * one had no failed request in any round (or was not measured).
   */
  Optional<Invalid> invalid(String caseName, String... systems) {
    long errors = 0;
    String firstError = null;
    List<String> invalidSystems = new ArrayList<>();
    for (String system : systems) {
      for (Point point : points) {
        if (point.caseName().equals(caseName)
            && point.system().equals(system)
            && point.result().errors() > 0) {
          errors += point.result().errors();
          if (firstError == null) {
            firstError = String.valueOf(point.result().firstError());
          }
          if (!invalidSystems.contains(system)) {
            invalidSystems.add(system);
          }
        }
      }
    }
    return errors == 0
        ? Optional.empty()
        : Optional.of(new Invalid(errors, firstError, List.copyOf(invalidSystems)));
  }

  /** The invalid cells, as {@code case system} labels in measurement order. */
  List<String> invalidCells() {
    List<String> cells = new ArrayList<>();
    for (String caseName : cases()) {
      for (String system : systems()) {
        if (invalid(caseName, system).isPresent()) {
          cells.add(caseName + " " + system);
        }
      }
    }
    return cells;
  }

  private static void writeInvalid(JsonGenerator json, Invalid invalid) throws IOException {
    json.writeBooleanField("invalid", true);
    json.writeNumberField("errors", invalid.errors());
    json.writeStringField("firstError", invalid.firstError());
    json.writeArrayFieldStart("invalidSystems");
    for (String system : invalid.systems()) {
      json.writeString(system);
    }
    json.writeEndArray();
  }

  private static String invalidText(Invalid invalid) {
    return "INVALID (" + invalid.errors() + " errors: " + invalid.firstError() + ")";
  }

  /**
   * Writes summary.json. {@code timingFiles} are the JSON files written by the timing runs of this
   * run, by the field they go under ({@code propagation}, {@code failover}, {@code migration}),
   * copied in as they are, in the map's order; a null or missing file leaves its field out (a
   * timing run that failed or was skipped is absent, never taken from an earlier run).
   *
   * @throws IllegalArgumentException when one of those files is not a JSON object
   */
  void writeJson(Path file, String machine, Map<String, Object> run, Map<String, Path> timingFiles)
      throws IOException {
    try (OutputStream out = Files.newOutputStream(file)) {
      out.write(toJson(machine, run, timingFiles).getBytes(JsonEncoding.UTF8.getJavaName()));
    }
  }

  String toJson(String machine, Map<String, Object> run, Map<String, Path> timingFiles)
      throws IOException {
    JsonFactory factory = new JsonFactory();
    StringWriter text = new StringWriter();
    try (JsonGenerator json = factory.createGenerator(text)) {
      json.useDefaultPrettyPrinter();
      json.writeStartObject();
      json.writeStringField("machine", machine);
      json.writeObjectFieldStart("run");
      for (Map.Entry<String, Object> entry : run.entrySet()) {
        json.writeFieldName(entry.getKey());
        writeScalar(json, entry.getValue());
      }
      json.writeEndObject();
      json.writeObjectFieldStart("ratios");
      for (String caseName : cases()) {
        json.writeObjectFieldStart(caseName);
        for (String other : SYSTEM_ORDER.subList(1, SYSTEM_ORDER.size())) {
          if (!systems().contains(other)) {
            continue;
          }
          Optional<Invalid> invalid = invalid(caseName, JUMPGATE, other);
          Optional<RatioStats> ratio = ratio(caseName, other);
          if (invalid.isPresent()) {
            json.writeObjectFieldStart(COMPARISONS.get(other));
            writeInvalid(json, invalid.get());
            json.writeEndObject();
          } else if (ratio.isPresent()) {
            json.writeFieldName(COMPARISONS.get(other));
            writeStats(json, ratio.get(), 3);
          }
        }
        json.writeEndObject();
      }
      json.writeEndObject();
      json.writeObjectFieldStart("systems");
      for (String system : systems()) {
        json.writeObjectFieldStart(system);
        for (String caseName : cases()) {
          Optional<Invalid> invalid = invalid(caseName, system);
          if (invalid.isPresent()) {
            json.writeObjectFieldStart(caseName);
            writeInvalid(json, invalid.get());
            json.writeEndObject();
            continue;
          }
          Optional<RatioStats> throughput =
              spread(caseName, system, point -> point.result().throughput());
          if (throughput.isEmpty()) {
            continue;
          }
          json.writeObjectFieldStart(caseName);
          json.writeFieldName("throughput");
          writeStats(json, throughput.get(), 0);
          json.writeNumberField(
              "p50Us", median(caseName, system, point -> point.result().p50Micros()));
          json.writeNumberField(
              "p99Us", median(caseName, system, point -> point.result().p99Micros()));
          json.writeNumberField(
              "p999Us", median(caseName, system, point -> point.result().p999Micros()));
          json.writeNumberField(
              "clientCpuUsPerRequest",
              round(
                  spread(caseName, system, point -> point.result().clientCpuMicros())
                      .map(RatioStats::median)
                      .orElse(-1.0),
                  2));
          json.writeNumberField(
              "readWriteSyscallsPerRequest",
              round(
                  spread(caseName, system, point -> point.result().readWriteSyscallsPerRequest())
                      .map(RatioStats::median)
                      .orElse(-1.0),
                  3));
          json.writeNumberField("errors", 0);
          json.writeEndObject();
        }
        json.writeEndObject();
      }
      json.writeEndObject();
      for (Map.Entry<String, Path> timing : timingFiles.entrySet()) {
        Path timingFile = timing.getValue();
        if (timingFile != null && Files.isRegularFile(timingFile)) {
          json.writeFieldName(timing.getKey());
          copyObject(factory, timingFile, json);
        }
      }
      json.writeEndObject();
    }
    return text.toString();
  }

  private double median(String caseName, String system, ToDoubleFunction<Point> metric) {
    return round(spread(caseName, system, metric).map(RatioStats::median).orElse(0.0), 1);
  }

  private static void writeScalar(JsonGenerator json, Object value) throws IOException {
    if (value == null) {
      json.writeNull();
    } else if (value instanceof Map<?, ?> map) {
      json.writeStartObject();
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        json.writeFieldName(String.valueOf(entry.getKey()));
        writeScalar(json, entry.getValue());
      }
      json.writeEndObject();
    } else if (value instanceof List<?> list) {
      json.writeStartArray();
      for (Object element : list) {
        writeScalar(json, element);
      }
      json.writeEndArray();
    } else if (value instanceof Integer || value instanceof Long) {
      json.writeNumber(((Number) value).longValue());
    } else if (value instanceof Number number) {
      json.writeNumber(number.doubleValue());
    } else if (value instanceof Boolean bool) {
      json.writeBoolean(bool);
    } else {
      json.writeString(value.toString());
    }
  }

  private static void writeStats(JsonGenerator json, RatioStats stats, int decimals)
      throws IOException {
    json.writeStartObject();
    json.writeNumberField("min", round(stats.min(), decimals));
    json.writeNumberField("median", round(stats.median(), decimals));
    json.writeNumberField("max", round(stats.max(), decimals));
    json.writeEndObject();
  }

  static double round(double value, int decimals) {
    double scale = Math.pow(10, decimals);
    return Math.round(value * scale) / scale;
  }

  private static void copyObject(JsonFactory factory, Path file, JsonGenerator json)
      throws IOException {
    try (JsonParser parser = factory.createParser(file.toFile())) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new IllegalArgumentException(file + " does not hold a JSON object");
      }
      json.copyCurrentStructure(parser);
    }
  }

  /**
   * points.csv: one line per measured point, invalid ones included (the raw measurements; their
   * errors column says which).
   */
  void writeCsv(Path file) throws IOException {
    StringBuilder csv =
        new StringBuilder(
            "round,workload,inflight,system,position,throughput,p50Us,p99Us,p999Us,completed,errors,"
                + "clientCpuUsPerRequest,readWriteSyscallsPerRequest\n");
    for (Point point : points) {
      ClosedLoop.Result result = point.result();
      csv.append(
          String.format(
              Locale.ROOT,
              "%d,%s,%d,%s,%d,%.1f,%.1f,%.1f,%.1f,%d,%d,%.2f,%.3f%n",
              point.round(),
              point.workload().label(),
              point.inflight(),
              point.system(),
              point.position(),
              result.throughput(),
              result.p50Micros(),
              result.p99Micros(),
              result.p999Micros(),
              result.completed(),
              result.errors(),
              result.clientCpuMicros(),
              result.readWriteSyscallsPerRequest()));
    }
    Files.writeString(file, csv);
  }

  /** The ratio table: median (min-max) of Jumpgate / each other system per case, as Markdown. */
  String ratioTable() {
    StringBuilder table = new StringBuilder("| case | jumpgate ops/s |");
    List<String> others = new ArrayList<>();
    for (String system : systems()) {
      if (!system.equals(JUMPGATE)) {
        others.add(system);
        table.append(' ').append(COMPARISONS.get(system)).append(" |");
      }
    }
    table.append("\n|---|---:|");
    others.forEach(other -> table.append("---:|"));
    table.append('\n');
    for (String caseName : cases()) {
      table
          .append("| ")
          .append(caseName)
          .append(" | ")
          .append(
              invalid(caseName, JUMPGATE)
                  .map(Summary::invalidText)
                  .orElseGet(
                      () ->
                          spread(caseName, JUMPGATE, point -> point.result().throughput())
                              .map(stats -> String.format(Locale.ROOT, "%.0f", stats.median()))
                              .orElse("-")))
          .append(" |");
      for (String other : others) {
        Optional<Invalid> invalid = invalid(caseName, JUMPGATE, other);
        if (invalid.isPresent()) {
          table.append(" INVALID |");
          continue;
        }
        table
            .append(' ')
            .append(
                ratio(caseName, other)
                    .map(
                        stats ->
                            String.format(
                                Locale.ROOT,
                                "%.2f (%.2f-%.2f)",
                                stats.median(),
                                stats.min(),
                                stats.max()))
                    .orElse("-"))
            .append(" |");
      }
      table.append('\n');
    }
    return table.toString();
  }

  /** Throughput and latency of every system per case, as Markdown (medians over rounds). */
  String systemTable() {
    StringBuilder table =
        new StringBuilder(
            "| case | system | ops/s (min-max) | p50 us | p99 us | p99.9 us | client CPU us/req |"
                + " read+write syscalls/req | errors |\n");
    table.append("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (String caseName : cases()) {
      for (String system : systems()) {
        Optional<Invalid> invalid = invalid(caseName, system);
        if (invalid.isPresent()) {
          table.append(
              String.format(
                  Locale.ROOT,
                  "| %s | %s | %s | - | - | - | - | - | %d |%n",
                  caseName,
                  system,
                  invalidText(invalid.get()),
                  invalid.get().errors()));
          continue;
        }
        Optional<RatioStats> throughput =
            spread(caseName, system, point -> point.result().throughput());
        if (throughput.isEmpty()) {
          continue;
        }
        table.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %.0f (%.0f-%.0f) | %.0f | %.0f | %.0f | %.1f | %.2f | 0 |%n",
                caseName,
                system,
                throughput.get().median(),
                throughput.get().min(),
                throughput.get().max(),
                median(caseName, system, point -> point.result().p50Micros()),
                median(caseName, system, point -> point.result().p99Micros()),
                median(caseName, system, point -> point.result().p999Micros()),
                median(caseName, system, point -> point.result().clientCpuMicros()),
                spread(caseName, system, point -> point.result().readWriteSyscallsPerRequest())
                    .map(RatioStats::median)
                    .orElse(-1.0)));
      }
    }
    return table.toString();
  }

  /** The throughput targets, each with the measured median (min-max) and met / not met. */
  String targetTable() {
    StringBuilder table = new StringBuilder("| target | measured median (min-max) | met |\n");
    table.append("|---|---:|---|\n");
    for (String caseName : List.of("get@16", "get@64", "set@16", "set@64")) {
      target(table, caseName, "direct", 0.95);
    }
    for (String caseName :
        List.of(
            "get@1", "get@16", "get@64", "set@1", "set@16", "set@64", "mix@1", "mix@16",
            "mix@64")) {
      target(table, caseName, "lettuceCluster", 1.0);
    }
    target(table, "get@64", "twemproxy", 1.3);
    target(table, "mget100@16", "lettuceCluster", 8.0);
    target(table, "mget10@16", "lettuceCluster", 2.5);
    target(table, "mget100@16", "twemproxy", 1.0);
    target(table, "mget10@16", "twemproxy", 1.0);
    // Issue 14: blocking calls from 16 threads cost no more than on raw Lettuce connections.
    for (String caseName :
        List.of("sync-get@16", "sync-set@16", "sync-hset@16", "sync-hgetall@16")) {
      target(table, caseName, "direct", 0.97);
    }
    return table.toString();
  }

  private void target(StringBuilder table, String caseName, String other, double minimum) {
    Optional<Invalid> invalid = invalid(caseName, JUMPGATE, other);
    if (invalid.isPresent()) {
      table.append(
          String.format(
              Locale.ROOT,
              "| %s %s >= %.2fx | %s | INVALID |%n",
              caseName,
              COMPARISONS.get(other),
              minimum,
              invalidText(invalid.get())));
      return;
    }
    Optional<RatioStats> ratio = ratio(caseName, other);
    table.append(
        String.format(
            Locale.ROOT,
            "| %s %s >= %.2fx | %s | %s |%n",
            caseName,
            COMPARISONS.get(other),
            minimum,
            ratio
                .map(
                    stats ->
                        String.format(
                            Locale.ROOT,
                            "%.2f (%.2f-%.2f)",
                            stats.median(),
                            stats.min(),
                            stats.max()))
                .orElse("not measured"),
            ratio.map(stats -> stats.median() >= minimum ? "met" : "NOT met").orElse("-")));
  }

  static void writeText(Path file, String text) {
    try {
      Files.writeString(file, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
