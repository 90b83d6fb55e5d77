package io.jumpgate.bench.timing;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.openjdk.jol.vm.VM;
import org.openjdk.jol.vm.VirtualMachine;

/**
 * The shallow sizes of the objects reachable from some roots without passing through a boundary: an
 * object the boundary predicate accepts is neither counted nor walked into. Sizes come from JOL's
 * {@link VM}, fields are read through it too (so JDK-internal and hidden classes are walked like
 * any other). Static fields are not followed.
 *
 * <p>Not thread-safe; the objects should not change while walked.
 */
final class BoundedGraph {

  private final Predicate<Object> boundary;
  private final Map<Class<?>, List<Long>> referenceOffsets = new HashMap<>();
  private final Set<Object> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
  private final Map<Class<?>, long[]> byClass = new HashMap<>();
  private final VirtualMachine vm = VM.current();
  private long bytes;
  private long objects;

  /**
   * @param boundary objects that are not counted nor walked into
   * @param excluded objects already counted elsewhere: not counted nor walked into either
   */
  BoundedGraph(Predicate<Object> boundary, Set<Object> excluded) {
    this.boundary = boundary;
    this.seen.addAll(excluded);
  }

  /** Walks from {@code roots}; returns this, for chaining. */
  BoundedGraph walk(Object... roots) {
    Deque<Object> pending = new ArrayDeque<>();
    for (Object root : roots) {
      offer(root, pending);
    }
    while (!pending.isEmpty()) {
      Object current = pending.pop();
      long size = vm.sizeOf(current);
      bytes += size;
      objects++;
      long[] entry = byClass.computeIfAbsent(current.getClass(), type -> new long[2]);
      entry[0] += size;
      entry[1]++;
      Class<?> type = current.getClass();
      if (type.isArray()) {
        if (!type.getComponentType().isPrimitive()) {
          for (Object element : (Object[]) current) {
            offer(element, pending);
          }
        }
      } else {
        for (long offset : offsetsOf(type)) {
          offer(vm.getObject(current, offset), pending);
        }
      }
    }
    return this;
  }

  private void offer(Object candidate, Deque<Object> pending) {
    if (candidate != null && !boundary.test(candidate) && seen.add(candidate)) {
      pending.push(candidate);
    }
  }

  private List<Long> offsetsOf(Class<?> type) {
    List<Long> offsets = referenceOffsets.get(type);
    if (offsets == null) {
      offsets = new ArrayList<>();
      for (Class<?> level = type; level != null; level = level.getSuperclass()) {
        for (Field field : level.getDeclaredFields()) {
          if (!Modifier.isStatic(field.getModifiers()) && !field.getType().isPrimitive()) {
            offsets.add(vm.fieldOffset(field));
          }
        }
      }
      referenceOffsets.put(type, offsets);
    }
    return offsets;
  }

  /** Every object counted so far (and the excluded ones given at construction). */
  Set<Object> seen() {
    return seen;
  }

  long bytes() {
    return bytes;
  }

  long objects() {
    return objects;
  }

  /** The classes holding the most bytes: class, bytes, count. */
  List<Map<String, Object>> topClasses(int limit) {
    List<Map<String, Object>> rows = new ArrayList<>();
    byClass.entrySet().stream()
        .sorted(Comparator.comparingLong((Map.Entry<Class<?>, long[]> e) -> -e.getValue()[0]))
        .limit(limit)
        .forEach(
            entry -> {
              Map<String, Object> row = new LinkedHashMap<>();
              row.put("class", entry.getKey().getName());
              row.put("bytes", entry.getValue()[0]);
              row.put("count", entry.getValue()[1]);
              rows.add(row);
            });
    return rows;
  }
}
