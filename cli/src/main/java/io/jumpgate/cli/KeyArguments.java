package io.jumpgate.cli;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Turns KEY arguments into key bytes: text keys are encoded in UTF-8, {@code --hex} keys are
 * decoded from hex (upper or lower case; the empty string is the empty key). A bad key throws
 * {@link ParameterException} naming it by position, {@code KEY 2 is not valid hex: 'zz'}, which the
 * CLI reports as a usage error (exit code 2).
 *
 * <p>A text key that contains U+FFFD is refused: the JVM puts that character where it could not
 * decode the command line's bytes (invalid UTF-8, or any non-ASCII byte in the C locale), so the
 * key would not be the one typed. {@code --hex} gives any bytes exactly.
 *
 * <p>Stateless and thread-safe.
 */
final class KeyArguments {

  /** The parameter label of keys in usage help and errors. */
  static final String LABEL = "KEY";

  private static final char REPLACEMENT_CHARACTER = '\uFFFD';

  private KeyArguments() {}

  /**
   * The bytes of each key, in order.
   *
   * @param spec the command the keys belong to, for errors
   * @param keys the arguments as given
   * @param hex whether each argument is the key's bytes in hex
   * @throws ParameterException if an argument is not a valid key
   */
  static List<byte[]> toBytes(CommandSpec spec, List<String> keys, boolean hex) {
    List<byte[]> bytes = new ArrayList<>(keys.size());
    for (int index = 0; index < keys.size(); index++) {
      String key = keys.get(index);
      String name = LABEL + " " + (index + 1);
      bytes.add(hex ? fromHex(spec, name, key) : fromText(spec, name, key));
    }
    return bytes;
  }

  private static byte[] fromHex(CommandSpec spec, String name, String key) {
    if (key.length() % 2 != 0) {
      throw new ParameterException(
          spec.commandLine(), name + " is not valid hex (odd number of digits): '" + key + "'");
    }
    try {
      return HexFormat.of().parseHex(key);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), name + " is not valid hex: '" + key + "'");
    }
  }

  private static byte[] fromText(CommandSpec spec, String name, String key) {
    if (key.indexOf(REPLACEMENT_CHARACTER) >= 0) {
      throw new ParameterException(
          spec.commandLine(),
          name
              + " contains U+FFFD, which stands for bytes that could not be decoded with the"
              + " command line's encoding ("
              + System.getProperty("sun.jnu.encoding", "unknown")
              + "): give the key's bytes with --hex");
    }
    try {
      ByteBuffer encoded =
          StandardCharsets.UTF_8
              .newEncoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .encode(CharBuffer.wrap(key));
      byte[] bytes = new byte[encoded.remaining()];
      encoded.get(bytes);
      return bytes;
    } catch (CharacterCodingException e) {
      throw new ParameterException(
          spec.commandLine(),
          name + " is not valid Unicode text (unpaired surrogate): give its bytes with --hex");
    }
  }
}
