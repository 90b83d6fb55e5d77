package io.jumpgate.topology;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;

/**
 * The strict JSON reading shared by {@link TopologyCodec} and {@link TopologyDocument}: strict
 * UTF-8, duplicate field names rejected at every level, bounded nesting, typed field readers whose
 * messages name the field and the value. Every failure is a {@link TopologyEntryException}.
 *
 * <p>Stateless and thread-safe.
 */
final class TopologyJson {

  /** The largest nesting of objects and arrays a value may have. */
  static final int MAX_NESTING_DEPTH = 64;

  private static final int EXCERPT_LENGTH = 64;
  private static final int MESSAGE_EXCERPT_LENGTH = 200;

  static final JsonFactory FACTORY =
      JsonFactory.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
          .streamReadConstraints(
              StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build())
          .build();

  private TopologyJson() {}

  /** Reads the fields of the object a parser stands on, up to its end. */
  @FunctionalInterface
  interface ObjectReader<T> {
    T read(JsonParser parser) throws IOException;
  }

  /** Handles one field whose value the parser stands on; returns false to skip it. */
  @FunctionalInterface
  interface FieldHandler {
    boolean handle(String name) throws IOException;
  }

  /** Writes one value. */
  @FunctionalInterface
  interface Writer {
    void write(JsonGenerator generator) throws IOException;
  }

  /**
   * Parses {@code value} as one JSON object and hands it to {@code reader}; anything after the
   * object's end is an error.
   *
   * @throws TopologyEntryException for every failure, whatever the bytes
   */
  static <T> T readObject(byte[] value, int maxBytes, ObjectReader<T> reader) {
    try (JsonParser parser = openObject(value, maxBytes)) {
      T result = reader.read(parser);
      if (parser.nextToken() != null) {
        throw new TopologyEntryException("not valid JSON: more content after the object");
      }
      return result;
    } catch (TopologyEntryException e) {
      throw e;
    } catch (JsonProcessingException e) {
      throw notJson(e);
    } catch (IOException | RuntimeException e) {
      throw new TopologyEntryException("not valid JSON: " + excerpt(String.valueOf(e)), e);
    }
  }

  private static JsonParser openObject(byte[] value, int maxBytes) throws IOException {
    if (value == null) {
      throw new TopologyEntryException("the value is missing (null)");
    }
    if (value.length == 0) {
      throw new TopologyEntryException("not valid JSON: the value is empty");
    }
    if (value.length > maxBytes) {
      throw new TopologyEntryException(
          "the value is " + value.length + " bytes, more than the " + maxBytes + " allowed");
    }
    CharBuffer chars = decodeUtf8(value);
    JsonParser parser =
        FACTORY.createParser(
            chars.array(), chars.arrayOffset() + chars.position(), chars.remaining());
    JsonToken first = parser.nextToken();
    if (first != JsonToken.START_OBJECT) {
      String found = first == null ? "nothing" : describe(parser);
      parser.close();
      throw new TopologyEntryException("the value must be a JSON object, was " + found);
    }
    return parser;
  }

  /** Strict UTF-8; a leading byte order mark is skipped. */
  private static CharBuffer decodeUtf8(byte[] value) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder(); // reports malformed input
    ByteBuffer in = ByteBuffer.wrap(value);
    CharBuffer out = CharBuffer.allocate(value.length);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      throw new TopologyEntryException("not valid UTF-8 at byte " + in.position());
    }
    decoder.flush(out);
    out.flip();
    if (out.hasRemaining() && out.get(out.position()) == '\uFEFF') {
      out.position(out.position() + 1);
    }
    return out;
  }

  /** Calls {@code handler} for each field of the object the parser stands in, to its end. */
  static void forEachField(JsonParser parser, FieldHandler handler) throws IOException {
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String name = parser.currentName();
      parser.nextToken();
      if (!handler.handle(name)) {
        parser.skipChildren();
      }
    }
  }

  /** The integer the parser stands on, in {@code [min, max]}; {@code rule} describes the range. */
  static long integer(JsonParser parser, String field, long min, long max, String rule)
      throws IOException {
    if (parser.currentToken() != JsonToken.VALUE_NUMBER_INT) {
      throw new TopologyEntryException(
          quote(field) + " must be an integer " + rule + ", was " + describe(parser));
    }
    String text = parser.getText();
    long number;
    try {
      number = Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new TopologyEntryException(field + " must be " + rule + ", was " + excerpt(text));
    }
    if (number < min || number > max) {
      throw new TopologyEntryException(field + " must be " + rule + ", was " + number);
    }
    return number;
  }

  /** The string the parser stands on, not blank. */
  static String nonBlankString(JsonParser parser, String field) throws IOException {
    if (parser.currentToken() != JsonToken.VALUE_STRING) {
      throw new TopologyEntryException(quote(field) + " must be a string, was " + describe(parser));
    }
    String text = parser.getText();
    if (text.isBlank()) {
      throw new TopologyEntryException(quote(field) + " must not be blank");
    }
    return text;
  }

  /** The string the parser stands on, or null for JSON null (an optional field not set). */
  static String optionalString(JsonParser parser, String field) throws IOException {
    return parser.currentToken() == JsonToken.VALUE_NULL ? null : nonBlankString(parser, field);
  }

  /** The boolean the parser stands on; JSON null is {@code defaultValue}. */
  static boolean bool(JsonParser parser, String field, boolean defaultValue) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == JsonToken.VALUE_NULL) {
      return defaultValue;
    }
    if (token != JsonToken.VALUE_TRUE && token != JsonToken.VALUE_FALSE) {
      throw new TopologyEntryException(
          quote(field) + " must be true or false, was " + describe(parser));
    }
    return token == JsonToken.VALUE_TRUE;
  }

  /** What the parser stands on, for a message: a quoted excerpt of a string, a number, a kind. */
  static String describe(JsonParser parser) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == null) {
      return "nothing";
    }
    switch (token) {
      case VALUE_STRING:
        return quote(excerpt(parser.getText()));
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
        return excerpt(parser.getText());
      case START_OBJECT:
        return "an object";
      case START_ARRAY:
        return "an array";
      default:
        return token.asString() == null ? token.name() : token.asString();
    }
  }

  /** A JSON string literal of {@code text}. */
  static String quote(String text) {
    if (text == null) {
      return "null";
    }
    return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(text)) + "\"";
  }

  /** {@code text} cut to a short excerpt for messages. */
  static String excerpt(String text) {
    return text.length() <= EXCERPT_LENGTH ? text : text.substring(0, EXCERPT_LENGTH) + "...";
  }

  static TopologyEntryException notJson(JsonProcessingException e) {
    String message =
        e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage();
    if (message.length() > MESSAGE_EXCERPT_LENGTH) {
      message = message.substring(0, MESSAGE_EXCERPT_LENGTH) + "...";
    }
    JsonLocation location = e.getLocation();
    String where =
        location == null || location.getLineNr() < 1
            ? ""
            : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    return new TopologyEntryException("not valid JSON: " + message + where, e);
  }

  /** Compact UTF-8 JSON written by {@code writer}. */
  static byte[] write(Writer writer) {
    ByteArrayBuilder bytes = new ByteArrayBuilder(128);
    try (JsonGenerator generator = FACTORY.createGenerator(bytes)) {
      writer.write(generator);
    } catch (IOException e) {
      throw new UncheckedIOException("writing JSON to memory failed", e);
    }
    return bytes.toByteArray();
  }
}
