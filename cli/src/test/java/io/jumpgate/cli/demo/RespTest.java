package io.jumpgate.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RespTest {

  @Test
  void commandsAreArraysOfBulkStrings() {
    assertThat(new String(Resp.encode("SET", "k", ""), StandardCharsets.UTF_8))
        .isEqualTo("*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$0\r\n\r\n");
  }

  @Test
  void repliesOfEveryTypeAreRead() throws Exception {
    String replies = "*5\r\n+master\r\n:42\r\n$5\r\nab\r\nc\r\n$-1\r\n-ERR wrong\r\n";

    Object reply = Resp.read(new ByteArrayInputStream(replies.getBytes(StandardCharsets.UTF_8)));

    assertThat(reply)
        .isEqualTo(Arrays.asList("master", 42L, "ab\r\nc", null, new Resp.Error("ERR wrong")));
  }

  @Test
  void aCutReplyIsAnError() {
    assertThatThrownBy(
            () -> Resp.read(new ByteArrayInputStream("$5\r\nab".getBytes(StandardCharsets.UTF_8))))
        .isInstanceOf(EOFException.class);
  }
}
