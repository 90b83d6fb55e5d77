package io.jumpgate.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;

/**
 * Writes the JSON output of the verbs with Jackson's streaming {@link JsonGenerator}, so strings
 * are always escaped right.
 *
 * <p>Output is compact and pure ASCII: characters outside ASCII are written as {@code \}{@code
 * uXXXX} escapes, so the bytes are the same whatever charset stdout uses. Each call flushes the
 * writer, so a consumer sees every line as soon as it is written (for verbs that stream).
 *
 * <p>Stateless and thread-safe; the writer passed in is not, so use one writer from one thread.
 */
final class JsonOutput {

  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
          .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
          .build();

  /** Writes one JSON value. */
  @FunctionalInterface
  interface JsonWriting {
    /** Writes exactly one JSON value (object, array or scalar) with {@code generator}. */
    void writeTo(JsonGenerator generator) throws IOException;
  }

  private JsonOutput() {}

  /**
   * Writes one JSON value on one line (JSON Lines): the value, then {@code \n}.
   *
   * @throws UncheckedIOException if the generator fails
   */
  static void writeLine(PrintWriter out, JsonWriting value) {
    try (JsonGenerator generator = FACTORY.createGenerator(out)) {
      value.writeTo(generator);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write JSON output", e);
    }
    out.print('\n');
    out.flush();
  }
}
