package io.jumpgate.spring.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.routing.Xxh64JumpRouter;
import io.jumpgate.spring.sessionapp.IndexedSessionApplication;
import io.jumpgate.spring.sessionapp.SessionApplication;
import io.jumpgate.spring.sessionapp.SessionApplication.ScriptedSessionIds;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.dao.InvalidDataAccessApiUsageException;

/**
 * Spring Session's Redis HTTP sessions ({@code @EnableRedisHttpSession}) on the starter's factory,
 * against a real etcd and three real redis-servers on 127.0.0.1: a session made by one request is
 * read by the next one with its cookie, from the leader of its key's shard and only there; a
 * session id change (RENAME) works in one shard and is refused across two, nothing lost; a new
 * session with the old one's attributes (Spring Security's migrateSession) works across shards; and
 * the indexed repository is refused at the start, naming what it asked for.
 */
class SpringSessionIT {

  private static final int SHARDS = 64;
  private static final String SESSION_KEY_PREFIX = "spring:session:sessions:";
  private static final Xxh64JumpRouter ROUTER = Xxh64JumpRouter.forShards(SHARDS);

  private static LocalNodes nodes;
  private static ConfigurableApplicationContext app;
  private static JumpgateClient client;
  private static JumpgateCommands<String, String> driver;
  private static ScriptedSessionIds sessionIds;
  private static String base;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void start() throws Exception {
    nodes = LocalNodes.start("default", SHARDS, 3);
    try {
      app =
          new SpringApplicationBuilder(SessionApplication.class)
              .properties(
                  "server.port=0",
                  "server.address=127.0.0.1",
                  "spring.main.banner-mode=off",
                  "jumpgate.etcd.endpoints=" + nodes.etcdEndpoint(),
                  "jumpgate.etcd.request-timeout=2s")
              .run();
      base = "http://127.0.0.1:" + app.getEnvironment().getRequiredProperty("local.server.port");
      client = app.getBean(JumpgateClient.class);
      @SuppressWarnings("unchecked")
      JumpgateCommands<String, String> commands = app.getBean(JumpgateCommands.class);
      driver = commands;
      sessionIds = app.getBean(ScriptedSessionIds.class);
    } catch (RuntimeException | Error failure) {
      nodes.close();
      throw failure;
    }
  }

  @AfterAll
  static void stop() {
    try {
      if (app != null) {
        app.close();
      }
    } finally {
      nodes.close();
    }
  }

  @Test
  void should_serve_each_session_across_requests_from_the_leader_of_its_shard() throws Exception {
    Set<String> leaders = new HashSet<>();
    for (int index = 0; index < 40; index++) {
      HttpResponse<String> made = send("PUT", "/cart", null, "item-" + index);
      assertThat(made.statusCode()).as("%s", made.body()).isEqualTo(200);
      String cookie = sessionCookie(made);
      String id = idOf(cookie);
      assertThat(made.body()).isEqualTo(id);

      // the session's hash sits on the leader of its key's shard, and only there, with an expiry
      String key = SESSION_KEY_PREFIX + id;
      String leader = leaderOf(key);
      leaders.add(leader);
      assertOnlyOn(leader, key);
      assertThat(nodes.pttl(leader, key)).isPositive().isLessThanOrEqualTo(1_800_000L);
      assertThat(driver.hkeys(key))
          .containsExactlyInAnyOrder(
              "creationTime", "lastAccessedTime", "maxInactiveInterval", "sessionAttr:item");

      // the next request with the cookie reads the item from it
      HttpResponse<String> read = send("GET", "/cart", cookie, null);
      assertThat(read.statusCode()).isEqualTo(200);
      assertThat(read.body()).isEqualTo("item-" + index);
    }
    assertThat(leaders).containsExactlyInAnyOrderElementsOf(nodes.redisPorts().keySet());
    assertThat(send("GET", "/cart", null, null).statusCode()).isEqualTo(404);
  }

  @Test
  void should_end_a_session_with_a_delete_on_its_leader() throws Exception {
    HttpResponse<String> made = send("PUT", "/cart", null, "book");
    String cookie = sessionCookie(made);
    String key = SESSION_KEY_PREFIX + idOf(cookie);
    assertOnlyOn(leaderOf(key), key);

    assertThat(send("DELETE", "/cart", cookie, null).statusCode()).isEqualTo(200);

    assertOnNoNode(key);
    assertThat(send("GET", "/cart", cookie, null).statusCode()).isEqualTo(404);
  }

  @Test
  void should_change_a_session_id_when_both_ids_are_on_one_shard() throws Exception {
    String before = idOnShard(shard -> true);
    int shard = shardOf(before);
    String after = idOnShard(other -> other == shard);
    sessionIds.queue(before, after);
    String cookie = sessionCookie(send("PUT", "/cart", null, "lamp"));
    assertThat(idOf(cookie)).isEqualTo(before);

    HttpResponse<String> changed = send("POST", "/cart/change-id", cookie, null);

    assertThat(changed.statusCode()).as("%s", changed.body()).isEqualTo(200);
    String newCookie = sessionCookie(changed);
    assertThat(idOf(newCookie)).isEqualTo(after).isEqualTo(changed.body());
    assertOnNoNode(SESSION_KEY_PREFIX + before);
    assertOnlyOn(leaderOf(SESSION_KEY_PREFIX + after), SESSION_KEY_PREFIX + after);
    assertThat(send("GET", "/cart", newCookie, null).body()).isEqualTo("lamp");
  }

  @Test
  @ExtendWith(OutputCaptureExtension.class)
  void should_refuse_a_session_id_change_across_shards_and_keep_the_session(CapturedOutput log)
      throws Exception {
    String before = idOnShard(shard -> true);
    int shard = shardOf(before);
    String after = idOnShard(other -> other != shard);
    sessionIds.queue(before, after);
    String cookie = sessionCookie(send("PUT", "/cart", null, "chair"));
    assertThat(idOf(cookie)).isEqualTo(before);

    HttpResponse<String> changed = send("POST", "/cart/change-id", cookie, null);

    // Spring Session's RENAME of the session key is refused before anything is sent: the request
    // fails (the exception leaves the session filter), the log names the command and the shards
    assertThat(changed.statusCode()).isEqualTo(500);
    assertThat(log.getOut())
        .contains("InvalidDataAccessApiUsageException")
        .contains("RENAME needs all its keys on one shard, but they are on 2 shards")
        .contains("shard " + shard + " (leader " + leaderOf(SESSION_KEY_PREFIX + before))
        .contains("nothing was sent");
    assertOnlyOn(leaderOf(SESSION_KEY_PREFIX + before), SESSION_KEY_PREFIX + before);
    assertOnNoNode(SESSION_KEY_PREFIX + after);
    HttpResponse<String> read = send("GET", "/cart", cookie, null);
    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(read.body()).isEqualTo("chair");
  }

  @Test
  void should_move_a_session_to_a_new_id_on_another_shard_by_copying_it() throws Exception {
    String before = idOnShard(shard -> true);
    int shard = shardOf(before);
    String after = idOnShard(other -> other != shard);
    sessionIds.queue(before, after);
    String cookie = sessionCookie(send("PUT", "/cart", null, "desk"));

    HttpResponse<String> migrated = send("POST", "/cart/migrate", cookie, null);

    assertThat(migrated.statusCode()).as("%s", migrated.body()).isEqualTo(200);
    String newCookie = sessionCookie(migrated);
    assertThat(idOf(newCookie)).isEqualTo(after);
    assertOnNoNode(SESSION_KEY_PREFIX + before);
    String key = SESSION_KEY_PREFIX + after;
    assertOnlyOn(leaderOf(key), key);
    assertThat(send("GET", "/cart", newCookie, null).body()).isEqualTo("desk");
    assertThat(send("GET", "/cart", cookie, null).statusCode()).isEqualTo(404);
  }

  @Test
  void should_refuse_the_indexed_repository_at_the_start_naming_the_command() {
    assertThatThrownBy(
            () ->
                new SpringApplicationBuilder(IndexedSessionApplication.class)
                    .properties(
                        "server.port=0",
                        "server.address=127.0.0.1",
                        "spring.main.banner-mode=off",
                        "jumpgate.registration.enabled=false",
                        "jumpgate.etcd.endpoints=" + nodes.etcdEndpoint())
                    .run()
                    .close())
        .hasRootCauseInstanceOf(InvalidDataAccessApiUsageException.class)
        .rootCause()
        .hasMessageStartingWith("CONFIG GET is not supported by Jumpgate's RedisConnection");
  }

  private static HttpResponse<String> send(String method, String path, String cookie, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(10))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", "text/plain");
    }
    if (cookie != null) {
      request.header("Cookie", cookie);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** {@code SESSION=<base64 id>} from the response's Set-Cookie. */
  private static String sessionCookie(HttpResponse<String> response) {
    String header =
        response
            .headers()
            .firstValue("Set-Cookie")
            .orElseThrow(
                () ->
                    new AssertionError(
                        "no Set-Cookie in " + response.statusCode() + " " + response.body()));
    assertThat(header).startsWith("SESSION=");
    return header.substring(0, header.indexOf(';'));
  }

  private static String idOf(String cookie) {
    return new String(
        Base64.getDecoder().decode(cookie.substring("SESSION=".length())), StandardCharsets.UTF_8);
  }

  /** A random session id whose session key is on a shard the test accepts. */
  private static String idOnShard(IntPredicate accepted) {
    for (int attempt = 0; attempt < 100_000; attempt++) {
      String id = UUID.randomUUID().toString();
      if (accepted.test(shardOf(id))) {
        return id;
      }
    }
    throw new AssertionError("no session id on an accepted shard in 100,000 random ids");
  }

  private static int shardOf(String id) {
    return ROUTER.shardOf((SESSION_KEY_PREFIX + id).getBytes(StandardCharsets.UTF_8));
  }

  private static String leaderOf(String key) {
    int shard = ROUTER.shardOf(key.getBytes(StandardCharsets.UTF_8));
    return client.topology().route(shard).leader().id();
  }

  private static void assertOnlyOn(String leader, String key) throws IOException {
    for (String node : nodes.redisPorts().keySet()) {
      assertThat(nodes.holds(node, key)).as("%s on %s", key, node).isEqualTo(node.equals(leader));
    }
  }

  private static void assertOnNoNode(String key) throws IOException {
    for (String node : nodes.redisPorts().keySet()) {
      assertThat(nodes.holds(node, key)).as("%s on %s", key, node).isFalse();
    }
  }
}
