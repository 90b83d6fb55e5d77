package io.jumpgate.it.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module rules of docs/architecture.md, checked on the sources of every module of the reactor
 * (main and test code, the Spring module's invoker projects too): a plain scan of the Java sources
 * for references to {@code io.jumpgate.*} packages (imports, static imports and fully qualified
 * names in code; comments and string literals are left out), each mapped to the module that
 * declares the package.
 *
 * <ul>
 *   <li>No class uses another module's {@code internal} package.
 *   <li>Main code uses only the modules the drawing lets it depend on ({@link #MAY_USE}, with their
 *       own dependencies); {@code spi} and {@code routing} use nothing of ours but {@code spi}.
 *   <li>Test code may also use what its module's tests depend on ({@link #TESTS_MAY_ALSO_USE}):
 *       {@code testkit} (main code only in the CLI's demo) and, for the bench, {@code
 *       integration-tests}.
 * </ul>
 *
 * <p>Runs without etcd or Redis, in the integration-tests module because every module's sources sit
 * beside it. A failure lists every offending file and reference.
 */
class ModuleRulesTest {

  /** What each module's main code may use directly (its dependencies' own rules add the rest). */
  static final Map<String, Set<String>> MAY_USE = new LinkedHashMap<>();

  /** What a module's test code may use besides what its main code may. */
  static final Map<String, Set<String>> TESTS_MAY_ALSO_USE = new LinkedHashMap<>();

  static {
    MAY_USE.put("spi", Set.of());
    MAY_USE.put("routing", Set.of("spi"));
    MAY_USE.put("topology", Set.of("spi"));
    MAY_USE.put("driver", Set.of("spi", "routing", "topology"));
    MAY_USE.put("migration", Set.of("spi", "routing", "topology"));
    MAY_USE.put("testkit", Set.of("topology", "driver"));
    MAY_USE.put("spring", Set.of("driver"));
    // The CLI's demo starts its local cluster with the testkit.
    MAY_USE.put("cli", Set.of("driver", "topology", "migration", "testkit"));
    MAY_USE.put("integration-tests", Set.of());
    // The bench is not published: its main code is a harness that starts servers like the tests,
    // and measures the starter's connection factory against Spring's own.
    MAY_USE.put(
        "bench",
        Set.of(
            "routing",
            "driver",
            "topology",
            "migration",
            "spring",
            "integration-tests",
            "testkit"));

    // testkit is for tests: test code uses it, in the modules that come after it (and the CLI's
    // demo, above).
    TESTS_MAY_ALSO_USE.put("migration", Set.of("testkit"));
    TESTS_MAY_ALSO_USE.put("spring", Set.of("testkit"));
    TESTS_MAY_ALSO_USE.put(
        "integration-tests",
        Set.of("spi", "routing", "topology", "driver", "migration", "cli", "testkit"));
  }

  private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");

  /** A reference to one of our packages: the lower-case segments after {@code io.jumpgate}. */
  private static final Pattern REFERENCE =
      Pattern.compile("\\bio\\.jumpgate((?:\\.[a-z_][a-z0-9_]*)+)");

  private static Path root;
  private static Map<String, String> moduleOfPackage;
  private static List<SourceFile> sources;

  /** One Java source: its module, whether it is main code, and the packages it refers to. */
  record SourceFile(String module, boolean main, Path path, Set<String> references) {}

  @BeforeAll
  static void scan() throws IOException {
    root = projectRoot();
    moduleOfPackage = new TreeMap<>();
    sources = new ArrayList<>();
    for (String module : MAY_USE.keySet()) {
      Path moduleDir = root.resolve(module);
      assertThat(moduleDir.resolve("pom.xml")).as("module %s", module).exists();
      for (Path file : javaFiles(moduleDir.resolve("src"))) {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        boolean main = isMain(moduleDir, file);
        Matcher declared = PACKAGE.matcher(text);
        if (main && declared.find() && declared.group(1).startsWith("io.jumpgate")) {
          moduleOfPackage.putIfAbsent(declared.group(1), module);
        }
        sources.add(new SourceFile(module, main, file, references(codeOnly(text))));
      }
    }
    // integration-tests has no main code: its own packages are declared by its tests.
    moduleOfPackage.putIfAbsent("io.jumpgate.it", "integration-tests");
  }

  @Test
  void no_class_uses_the_internal_package_of_another_module() {
    List<String> offences = new ArrayList<>();
    for (SourceFile source : sources) {
      for (String reference : source.references()) {
        String owner = ownerOf(reference);
        if (owner != null && !owner.equals(source.module()) && isInternal(reference)) {
          offences.add(describe(source, reference, owner));
        }
      }
    }
    assertThat(offences)
        .as("references to another module's internal package (make a public type instead)")
        .isEmpty();
  }

  @Test
  void every_module_uses_only_the_modules_it_may_depend_on() {
    List<String> offences = new ArrayList<>();
    for (SourceFile source : sources) {
      Set<String> allowed = allowed(source.module(), source.main());
      for (String reference : source.references()) {
        String owner = ownerOf(reference);
        if (owner != null && !owner.equals(source.module()) && !allowed.contains(owner)) {
          offences.add(describe(source, reference, owner));
        }
      }
    }
    assertThat(offences)
        .as("references against the dependency rules of docs/architecture.md")
        .isEmpty();
  }

  @Test
  void the_rules_see_every_module_and_its_packages() {
    assertThat(new LinkedHashSet<>(moduleOfPackage.values()))
        .as("modules that declare packages")
        .containsAll(List.of("spi", "routing", "topology", "driver", "migration", "cli", "bench"));
    assertThat(ownerOf("io.jumpgate.topology.internal")).isEqualTo("topology");
    assertThat(ownerOf("io.jumpgate.spring.data.internal")).isEqualTo("spring");
    assertThat(sources).hasSizeGreaterThan(500);
  }

  @Test
  void the_scan_finds_references_in_code_and_not_in_comments_or_strings() {
    String text =
        "import io.jumpgate.topology.internal.KeyChange;\n"
            + "// io.jumpgate.driver.internal.Dispatcher in a comment\n"
            + "/* io.jumpgate.migration.internal.Mover */ String s = \"io.jumpgate.cli.X\";\n"
            + "Object o = io.jumpgate.routing.HashTagScanner.start(1L);\n";
    assertThat(references(codeOnly(text)))
        .containsExactlyInAnyOrder("io.jumpgate.topology.internal", "io.jumpgate.routing");
  }

  // ---- rules ----------------------------------------------------------------------------------

  /** The modules a source may use: the closure of {@link #MAY_USE}, plus its tests' extras. */
  static Set<String> allowed(String module, boolean main) {
    Set<String> allowed = new LinkedHashSet<>();
    List<String> todo = new ArrayList<>(MAY_USE.get(module));
    if (!main) {
      todo.addAll(TESTS_MAY_ALSO_USE.getOrDefault(module, Set.of()));
    }
    while (!todo.isEmpty()) {
      String next = todo.remove(todo.size() - 1);
      if (allowed.add(next)) {
        todo.addAll(MAY_USE.getOrDefault(next, Set.of()));
      }
    }
    return allowed;
  }

  private static boolean isInternal(String reference) {
    return reference.endsWith(".internal") || reference.contains(".internal.");
  }

  /** The module that declares the longest package prefix of a reference, or null. */
  private static String ownerOf(String reference) {
    String candidate = reference;
    while (candidate.contains(".")) {
      String module = moduleOfPackage.get(candidate);
      if (module != null) {
        return module;
      }
      candidate = candidate.substring(0, candidate.lastIndexOf('.'));
    }
    return null;
  }

  private static String describe(SourceFile source, String reference, String owner) {
    return root.relativize(source.path())
        + " ("
        + source.module()
        + (source.main() ? " main" : " test")
        + ") uses "
        + reference
        + " of module "
        + owner;
  }

  // ---- scanning -------------------------------------------------------------------------------

  private static boolean isMain(Path moduleDir, Path file) {
    return file.startsWith(moduleDir.resolve("src/main"));
  }

  /** The packages a source refers to: every {@code io.jumpgate.a.b} prefix before a class name. */
  static Set<String> references(String code) {
    Set<String> packages = new LinkedHashSet<>();
    Matcher matcher = REFERENCE.matcher(code);
    while (matcher.find()) {
      packages.add("io.jumpgate" + matcher.group(1));
    }
    return packages;
  }

  /** The source with comments and string and character literals blanked out. */
  static String codeOnly(String text) {
    StringBuilder code = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (text.startsWith("//", i)) {
        int end = text.indexOf('\n', i);
        i = end < 0 ? text.length() : end;
      } else if (text.startsWith("/*", i)) {
        int end = text.indexOf("*/", i + 2);
        i = end < 0 ? text.length() : end + 2;
        code.append(' ');
      } else if (text.startsWith("\"\"\"", i)) {
        int end = text.indexOf("\"\"\"", i + 3);
        i = end < 0 ? text.length() : end + 3;
        code.append("\"\"");
      } else if (c == '"' || c == '\'') {
        int j = i + 1;
        while (j < text.length() && text.charAt(j) != c && text.charAt(j) != '\n') {
          j += text.charAt(j) == '\\' ? 2 : 1;
        }
        i = Math.min(j + 1, text.length());
        code.append(c).append(c);
      } else {
        code.append(c);
        i++;
      }
    }
    return code.toString();
  }

  private static List<Path> javaFiles(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(path -> path.toString().endsWith(".java"))
          .filter(path -> !path.toString().contains("/target/"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The reactor root: the first folder up from here whose pom.xml lists the modules. */
  private static Path projectRoot() throws IOException {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path pom = dir.resolve("pom.xml");
      if (Files.exists(pom)
          && Files.readString(pom).contains("<module>integration-tests</module>")) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "no reactor root (a pom.xml listing integration-tests) above "
            + Path.of("").toAbsolutePath());
  }
}
