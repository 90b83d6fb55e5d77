package io.jumpgate.it.chaos;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The accounting of one chaos run: the figures as an ordered JSON object, and the assertions it
 * broke ({@link #violations()}, empty when the run passed). Immutable once built.
 */
final class ChaosReport {
  private final Map<String, Object> fields;
  private final List<String> violations;

  ChaosReport(Map<String, Object> fields, List<String> violations) {
    Map<String, Object> all = new LinkedHashMap<>(fields);
    all.put("passed", violations.isEmpty());
    all.put("violations", List.copyOf(violations));
    this.fields = all;
    this.violations = List.copyOf(violations);
  }

  List<String> violations() {
    return violations;
  }

  boolean passed() {
    return violations.isEmpty();
  }

  Object get(String field) {
    return fields.get(field);
  }

  /** The main figures on a few lines, for the log. */
  String summary() {
    return String.format(
        java.util.Locale.ROOT,
        "seed %s, %s mode, %s ms of faults %s%n"
            + "  ops %s, failures %s, untyped %s, unknown outcome %s%n"
            + "  acked increments %s, counter total %s, lost graceful %s, lost crash %s"
            + " (%s within the replication lag, %s not explained), doubled %s,"
            + " expired unknown-outcome credits %s%n"
            + "  reads %s, deadline overruns ms %s, longest stall %s ms%n"
            + "  migrations %s%n"
            + "  placement %s%n"
            + "  recovery %s%n"
            + "  %s",
        fields.get("seed"),
        fields.get("mode"),
        fields.get("faultPhaseMs"),
        fields.get("faults"),
        fields.get("ops"),
        fields.get("failures"),
        fields.get("untypedFailures"),
        fields.get("unknownOutcomes"),
        fields.get("ackedIncrements"),
        fields.get("counterTotal"),
        fields.get("lostGraceful"),
        fields.get("lostCrash"),
        fields.get("lostCrashReplicated"),
        fields.get("lostCrashUnexplained"),
        fields.get("doubled"),
        fields.get("expiredUnknownIncrements"),
        fields.get("reads"),
        fields.get("deadlineOverrunsMs"),
        fields.get("longestStallMs"),
        fields.get("migrations"),
        fields.get("placement"),
        fields.get("recovery"),
        violations.isEmpty() ? "PASSED" : "FAILED: " + String.join("; ", violations));
  }

  /** The report as indented JSON. */
  String toJson() {
    StringBuilder json = new StringBuilder();
    write(json, fields, "");
    return json.append('\n').toString();
  }

  /** Writes {@link #toJson()} to {@code file}, creating its directory. */
  void writeTo(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    Files.writeString(file, toJson(), StandardCharsets.UTF_8);
  }

  private static void write(StringBuilder json, Object value, String indent) {
    if (value == null) {
      json.append("null");
    } else if (value instanceof Map<?, ?> map) {
      if (map.isEmpty()) {
        json.append("{}");
        return;
      }
      json.append("{\n");
      int index = 0;
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        json.append(indent).append("  ");
        string(json, String.valueOf(entry.getKey()));
        json.append(": ");
        write(json, entry.getValue(), indent + "  ");
        json.append(++index < map.size() ? ",\n" : "\n");
      }
      json.append(indent).append('}');
    } else if (value instanceof Collection<?> list) {
      if (list.isEmpty()) {
        json.append("[]");
        return;
      }
      json.append("[\n");
      int index = 0;
      for (Object item : list) {
        json.append(indent).append("  ");
        write(json, item, indent + "  ");
        json.append(++index < list.size() ? ",\n" : "\n");
      }
      json.append(indent).append(']');
    } else if (value instanceof Number || value instanceof Boolean) {
      json.append(value);
    } else {
      string(json, value.toString());
    }
  }

  private static void string(StringBuilder json, String text) {
    json.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\n' -> json.append("\\n");
        case '\r' -> json.append("\\r");
        case '\t' -> json.append("\\t");
        default -> {
          if (c < 0x20) {
            json.append(String.format("\\u%04x", (int) c));
          } else {
            json.append(c);
          }
        }
      }
    }
    json.append('"');
  }

  /** Collects figures and broken assertions while a run is summed up. */
  static final class Builder {
    private final Map<String, Object> fields = new LinkedHashMap<>();
    private final List<String> violations = new ArrayList<>();

    Builder put(String field, Object value) {
      fields.put(field, value);
      return this;
    }

    /** Records a broken assertion unless {@code holds}. */
    Builder check(boolean holds, String violation) {
      if (!holds) {
        violations.add(violation);
      }
      return this;
    }

    ChaosReport build() {
      return new ChaosReport(fields, violations);
    }
  }
}
