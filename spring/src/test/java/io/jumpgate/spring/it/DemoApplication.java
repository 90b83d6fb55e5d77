package io.jumpgate.spring.it;

import io.jumpgate.driver.JumpgateCommands;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * What an application that adds only the starter looks like: it injects the auto-configured
 * commands and serves keys over HTTP. Nothing here configures Jumpgate.
 */
@SpringBootApplication
public class DemoApplication {

  /** GET and PUT /kv/{key}, through the injected {@link JumpgateCommands}. */
  @RestController
  static class KeyValueController {
    private final JumpgateCommands<String, String> redis;

    KeyValueController(JumpgateCommands<String, String> redis) {
      this.redis = redis;
    }

    @GetMapping("/kv/{key}")
    ResponseEntity<String> get(@PathVariable("key") String key) {
      String value = redis.get(key);
      return value == null ? ResponseEntity.notFound().build() : ResponseEntity.ok(value);
    }

    @PutMapping("/kv/{key}")
    String put(@PathVariable("key") String key, @RequestBody String value) {
      return redis.set(key, value);
    }
  }
}
