package io.jumpgate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RouteCommandTest {

  private static final String NEWLINE = System.lineSeparator();

  private static final String USER_42_JSON =
      "{\"key\":\"user:42\",\"keyHex\":\"757365723a3432\",\"routingKeyHex\":\"757365723a3432\","
          + "\"hash\":\"15861654238046376386\",\"hashHex\":\"dc1fea7da8d2d1c2\",\"shard\":717}";

  private static final String FOLLOWING_JSON =
      "{\"key\":\"{user1000}.following\",\"keyHex\":\"7b75736572313030307d2e666f6c6c6f77696e67\","
          + "\"routingKeyHex\":\"7573657231303030\",\"hash\":\"3835311869322988311\","
          + "\"hashHex\":\"3539c3d325d60b17\",\"shard\":76}";

  @Test
  void jsonPrintsOneObjectPerKeyAndLine() {
    CliRunner.Result result =
        CliRunner.run("route", "--shards", "1024", "--json", "user:42", "{user1000}.following");

    assertThat(result.exitCode()).isZero();
    assertThat(result.err()).isEmpty();
    assertThat(result.out()).isEqualTo(USER_42_JSON + "\n" + FOLLOWING_JSON + "\n");
  }

  @Test
  void shardsDefaultsTo1024() {
    CliRunner.Result result = CliRunner.run("route", "--json", "user:42");

    assertThat(result.out()).isEqualTo(USER_42_JSON + "\n");
  }

  @Test
  void hexKeysAreTheKeyBytesInEitherCase() {
    CliRunner.Result result =
        CliRunner.run("route", "--json", "--hex", "757365723a3432", "757365723A3432");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out()).isEqualTo(USER_42_JSON + "\n" + USER_42_JSON + "\n");
  }

  @Test
  void emptyHexIsTheEmptyKey() {
    CliRunner.Result result = CliRunner.run("route", "--json", "--hex", "");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out())
        .isEqualTo(
            "{\"key\":\"\",\"keyHex\":\"\",\"routingKeyHex\":\"\",\"hash\":\"17241709254077376921\","
                + "\"hashHex\":\"ef46db3751d8e999\",\"shard\":332}\n");
  }

  @Test
  void keyIsNullWhenTheBytesAreNotUtf8() {
    CliRunner.Result result = CliRunner.run("route", "--json", "--hex", "000102ff", "c0af");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().split("\n"))
        .hasSize(2)
        .allSatisfy(line -> assertThat(line).startsWith("{\"key\":null,"));
    assertThat(result.out())
        .startsWith(
            "{\"key\":null,\"keyHex\":\"000102ff\",\"routingKeyHex\":\"000102ff\","
                + "\"hash\":\"15097424699235698920\",\"hashHex\":\"d184d3c63d2708e8\","
                + "\"shard\":396}\n");
  }

  @Test
  void jsonEscapesQuotesBackslashesControlsAndNonAscii() {
    CliRunner.Result result = CliRunner.run("route", "--json", "\"q\\\t\u0001é");

    assertThat(result.out()).startsWith("{\"key\":\"\\\"q\\\\\\t\\u0001\\u00E9\",");
  }

  @Test
  void hashHexIsZeroPadded() {
    // From routing-vectors.tsv: an XXH64 below 2^60.
    CliRunner.Result result = CliRunner.run("route", "--json", "--hex", "e0ba984c");

    assertThat(result.out())
        .contains("\"hash\":\"833376241440450\",\"hashHex\":\"0002f5f386d5d6c2\"");
  }

  @Test
  void tableIsAlignedWithAHeader() {
    CliRunner.Result result =
        CliRunner.run("route", "--shards", "1024", "user:42", "{user1000}.following");

    assertThat(result.exitCode()).isZero();
    assertThat(result.err()).isEmpty();
    assertThat(result.out())
        .isEqualTo(
            String.join(
                NEWLINE,
                "KEY                   ROUTING KEY                  HASH  SHARD",
                "user:42               user:42      15861654238046376386    717",
                "{user1000}.following  user1000      3835311869322988311     76",
                ""));
  }

  @Test
  void tableShowsKeysThatAreNotPrintableTextInHex() {
    CliRunner.Result result =
        CliRunner.run("route", "--hex", "7bfffe7d7461696c", "", "6865783a3030", "09");

    // 7bfffe7d7461696c ({\xff\xfe}tail) and its hash are from routing-vectors.tsv.
    assertThat(result.exitCode()).isZero();
    assertThat(result.out().lines())
        .containsExactly(
            "KEY                   ROUTING KEY                       HASH  SHARD",
            "hex:7bfffe7d7461696c  hex:fffe           2113544579718352415    386",
            "(empty)               (empty)           17241709254077376921    332",
            "hex:6865783a3030      hex:6865783a3030   4460541328308649012    262",
            "hex:09                hex:09             7394475315052748118    465");
  }

  @Test
  void helpExitsZero() {
    CliRunner.Result result = CliRunner.run("route", "--help");

    assertThat(result.exitCode()).isZero();
    assertThat(result.err()).isEmpty();
    assertThat(result.out())
        .startsWith("Usage: jumpgate route ")
        .contains("--shards=N", "--hex", "--json", "KEY...", "Exit codes:");
  }

  static Stream<Arguments> badArguments() {
    return Stream.of(
        Arguments.of(
            List.of("route", "--shards", "0", "x"),
            "jumpgate route: --shards must be between 1 and 2147483647, was 0"),
        Arguments.of(
            List.of("route", "--shards", "-1", "x"),
            "jumpgate route: --shards must be between 1 and 2147483647, was -1"),
        Arguments.of(
            List.of("route", "--shards=2147483648", "x"),
            "jumpgate route: --shards must be between 1 and 2147483647, was 2147483648"),
        Arguments.of(
            List.of("route", "--shards", "abc", "x"),
            "jumpgate route: --shards must be an integer between 1 and 2147483647, was 'abc'"),
        Arguments.of(
            List.of("route", "--shards"),
            "jumpgate route: Missing required parameter for option '--shards' (N)"),
        Arguments.of(
            List.of("route", "--hex", "00", "zz"), "jumpgate route: KEY 2 is not valid hex: 'zz'"),
        Arguments.of(
            List.of("route", "--hex", "abc"),
            "jumpgate route: KEY 1 is not valid hex (odd number of digits): 'abc'"),
        Arguments.of(List.of("route"), "jumpgate route: Missing required parameter: 'KEY'"),
        Arguments.of(
            List.of("route", "--shards", "8"), "jumpgate route: Missing required parameter: 'KEY'"),
        Arguments.of(List.of("route", "--bogus", "x"), "jumpgate route: Unknown option: '--bogus'"),
        Arguments.of(
            List.of("route", "--shard", "8", "x"),
            "jumpgate route: Unknown option: '--shard'; did you mean --shards?"),
        Arguments.of(
            List.of("route", "-x"),
            "jumpgate route: Unknown option: '-x' (put -- before arguments that start with '-')"),
        Arguments.of(
            List.of("route", "ok", "bad\uFFFD"),
            "jumpgate route: KEY 2 contains U+FFFD, which stands for bytes that could not be"
                + " decoded with the command line's encoding ("
                + System.getProperty("sun.jnu.encoding", "unknown")
                + "): give the key's bytes with --hex"));
  }

  @ParameterizedTest
  @MethodSource("badArguments")
  void badArgumentIsAUsageErrorNamingIt(List<String> arguments, String message) {
    CliRunner.Result result = CliRunner.run(arguments.toArray(String[]::new));

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.out()).isEmpty();
    assertThat(result.err()).isEqualTo(message + NEWLINE);
  }

  @Test
  void shardCountBoundsAreAccepted() {
    assertThat(CliRunner.run("route", "--json", "--shards", "1", "x").out())
        .endsWith("\"shard\":0}\n");
    // From routing-vectors.tsv.
    assertThat(CliRunner.run("route", "--json", "--hex", "--shards", "2147483647", "617d").out())
        .endsWith(
            "\"hash\":\"1750886304291917093\",\"hashHex\":\"184c65d1316a8d25\",\"shard\":1974822556}\n");
  }

  @Test
  void keysAfterDoubleDashMayStartWithADashOrAnAt() {
    CliRunner.Result result = CliRunner.run("route", "--json", "--", "-x", "@file");

    assertThat(result.exitCode()).isZero();
    assertThat(result.out().lines())
        .hasSize(2)
        .satisfiesExactly(
            line -> assertThat(line).startsWith("{\"key\":\"-x\","),
            line -> assertThat(line).startsWith("{\"key\":\"@file\","));
  }
}
