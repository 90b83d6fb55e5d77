package io.jumpgate.spring.data.internal;

import org.springframework.data.redis.connection.ReactiveGeoCommands;
import org.springframework.data.redis.connection.ReactiveHashCommands;
import org.springframework.data.redis.connection.ReactiveHyperLogLogCommands;
import org.springframework.data.redis.connection.ReactiveKeyCommands;
import org.springframework.data.redis.connection.ReactiveListCommands;
import org.springframework.data.redis.connection.ReactiveNumberCommands;
import org.springframework.data.redis.connection.ReactivePubSubCommands;
import org.springframework.data.redis.connection.ReactiveRedisConnection;
import org.springframework.data.redis.connection.ReactiveScriptingCommands;
import org.springframework.data.redis.connection.ReactiveServerCommands;
import org.springframework.data.redis.connection.ReactiveSetCommands;
import org.springframework.data.redis.connection.ReactiveStreamCommands;
import org.springframework.data.redis.connection.ReactiveStringCommands;
import org.springframework.data.redis.connection.ReactiveZSetCommands;
import reactor.core.publisher.Mono;

/**
 * Spring Data Redis's {@link ReactiveRedisConnection} on the driver's reactive view: a light handle
 * that holds no socket (the client's node connections are shared), so {@code ReactiveRedisTemplate}
 * getting and closing one per operation costs nothing. Every command is sent when its publisher is
 * subscribed, never before, each to its key's shard with the driver's retries, read policy and
 * freezes; the command families are {@link ReactiveCommandFamilies}'.
 *
 * <p>Thread-safe; closing it releases nothing and never blocks.
 */
public final class JumpgateReactiveRedisConnection implements ReactiveRedisConnection {

  private final ReactiveCommandFamilies families;

  /** A handle over the factory's shared families. */
  public JumpgateReactiveRedisConnection(ReactiveCommandFamilies families) {
    this.families = families;
  }

  /** Nothing to release; does not block (Spring's default would block on {@link #closeLater}). */
  @Override
  public void close() {}

  @Override
  public Mono<Void> closeLater() {
    return Mono.empty();
  }

  @Override
  public ReactiveKeyCommands keyCommands() {
    return families.keys();
  }

  @Override
  public ReactiveStringCommands stringCommands() {
    return families.strings();
  }

  @Override
  public ReactiveNumberCommands numberCommands() {
    return families.numbers();
  }

  @Override
  public ReactiveListCommands listCommands() {
    return families.lists();
  }

  @Override
  public ReactiveSetCommands setCommands() {
    return families.sets();
  }

  @Override
  public ReactiveZSetCommands zSetCommands() {
    return families.sortedSets();
  }

  @Override
  public ReactiveHashCommands hashCommands() {
    return families.hashes();
  }

  @Override
  public ReactiveGeoCommands geoCommands() {
    return families.geo();
  }

  @Override
  public ReactiveHyperLogLogCommands hyperLogLogCommands() {
    return families.hyperLogLog();
  }

  @Override
  public ReactivePubSubCommands pubSubCommands() {
    return families.publishSubscribe();
  }

  @Override
  public ReactiveScriptingCommands scriptingCommands() {
    return families.scripting();
  }

  @Override
  public ReactiveServerCommands serverCommands() {
    return families.server();
  }

  @Override
  public ReactiveStreamCommands streamCommands() {
    return families.streams();
  }

  @Override
  public Mono<String> ping() {
    return families.ping();
  }
}
