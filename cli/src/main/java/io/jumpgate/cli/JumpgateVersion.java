package io.jumpgate.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * What {@code jumpgate --version} prints: the project version (from {@code version.properties},
 * which the build fills in) and the Java runtime.
 *
 * <p>Stateless and thread-safe. The version reads {@code unknown} if the resource is missing, as
 * when the classes were not built by Maven.
 */
final class JumpgateVersion implements IVersionProvider {

  private static final String RESOURCE = "version.properties";

  @Override
  public String[] getVersion() {
    return new String[] {
      "jumpgate " + projectVersion(), "Java ${java.version} (${java.vendor}, ${java.vm.name})"
    };
  }

  /** The project version, or {@code unknown}. */
  static String projectVersion() {
    try (InputStream in = JumpgateVersion.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return "unknown";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }
}
