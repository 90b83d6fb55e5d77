package io.jumpgate.driver.internal;

import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.CommandOutput;

/**
 * Makes a fresh output for a command (an output fills up as the reply is read, so every try needs
 * its own). Factories are stateless singletons (constructor references kept in static fields), so
 * holding one per command allocates nothing.
 */
@FunctionalInterface
public interface OutputFactory<K, V, T> {
  CommandOutput<K, V, T> create(RedisCodec<K, V> codec);
}
