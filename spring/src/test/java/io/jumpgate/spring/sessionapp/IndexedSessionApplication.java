package io.jumpgate.spring.sessionapp;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.session.data.redis.config.annotation.web.http.EnableRedisIndexedHttpSession;

/**
 * An application with Spring Session's indexed repository ({@code RedisIndexedSessionRepository}:
 * index sets, keyspace events, session events over pub/sub), which Jumpgate does not serve (see
 * docs/spring.md): its start asks every Redis for CONFIG GET notify-keyspace-events.
 */
@EnableAutoConfiguration
@EnableRedisIndexedHttpSession
public class IndexedSessionApplication {}
