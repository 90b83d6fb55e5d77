/**
 * Spring Data Redis on Jumpgate: {@link io.jumpgate.spring.data.JumpgateConnectionFactory}, a
 * {@code RedisConnectionFactory} whose connections route every keyed command to its shard through
 * the Jumpgate driver, so that {@code RedisTemplate} and {@code StringRedisTemplate} work
 * unchanged. Needs {@code spring-data-redis} on the class path (an optional dependency of the
 * starter).
 */
package io.jumpgate.spring.data;
