package io.jumpgate.spring.sessionapp;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.ResponseEntity;
import org.springframework.session.SessionIdGenerator;
import org.springframework.session.UuidSessionIdGenerator;
import org.springframework.session.data.redis.config.annotation.web.http.EnableRedisHttpSession;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * A web application with HTTP sessions in Redis as Spring Session's reference shows it ({@code
 * EnableRedisHttpSession}, Spring Session's default {@code RedisSessionRepository}), on the
 * starter's connection factory. It does not scan (its own package holds another application), and
 * its session ids come from {@link ScriptedSessionIds}, so a test can choose on which shard a
 * session lands.
 */
@EnableAutoConfiguration
@EnableRedisHttpSession
@Import(SessionApplication.CartController.class)
public class SessionApplication {

  /** The session ids a test queued, in order, then random UUIDs as Spring Session's default. */
  @Bean
  ScriptedSessionIds sessionIdGenerator() {
    return new ScriptedSessionIds();
  }

  /** Session ids: the queued ones first, then Spring Session's UUIDs. Thread-safe. */
  public static final class ScriptedSessionIds implements SessionIdGenerator {
    private final Queue<String> next = new ConcurrentLinkedQueue<>();

    /** The next ids to hand out, before any UUID. */
    public void queue(String... ids) {
      Collections.addAll(next, ids);
    }

    @Override
    public String generate() {
      String queued = next.poll();
      return queued != null ? queued : UuidSessionIdGenerator.getInstance().generate();
    }
  }

  /** A cart of one item in the HTTP session. */
  @RestController
  static class CartController {

    /** Puts the item in the session (made if there is none); answers the session id. */
    @PutMapping("/cart")
    String put(HttpSession session, @RequestBody String item) {
      session.setAttribute("item", item);
      return session.getId();
    }

    /** The item of the request's session; 404 without a session. */
    @GetMapping("/cart")
    ResponseEntity<String> get(HttpServletRequest request) {
      HttpSession session = request.getSession(false);
      return session == null
          ? ResponseEntity.notFound().build()
          : ResponseEntity.ok((String) session.getAttribute("item"));
    }

    /** A new id for the same session (Servlet's changeSessionId: Spring Session sends RENAME). */
    @PostMapping("/cart/change-id")
    String changeId(HttpServletRequest request) {
      return request.changeSessionId();
    }

    /**
     * A new session with the old one's attributes, the old one invalidated: what Spring Security's
     * {@code sessionFixation().migrateSession()} does at login (Spring Session sends DEL of the old
     * key, then HMSET and PEXPIREAT of the new one, no RENAME).
     */
    @PostMapping("/cart/migrate")
    String migrate(HttpServletRequest request) {
      HttpSession old = request.getSession();
      Map<String, Object> attributes = new HashMap<>();
      Collections.list(old.getAttributeNames())
          .forEach(name -> attributes.put(name, old.getAttribute(name)));
      old.invalidate();
      HttpSession session = request.getSession(true);
      attributes.forEach(session::setAttribute);
      return session.getId();
    }

    /** Ends the session (Spring Session sends DEL). */
    @DeleteMapping("/cart")
    void invalidate(HttpSession session) {
      session.invalidate();
    }
  }
}
