package io.jumpgate.spring.data.internal;

import org.springframework.data.redis.connection.RedisGeoCommands;
import org.springframework.data.redis.connection.RedisHashCommands;
import org.springframework.data.redis.connection.RedisHyperLogLogCommands;
import org.springframework.data.redis.connection.RedisKeyCommands;
import org.springframework.data.redis.connection.RedisListCommands;
import org.springframework.data.redis.connection.RedisScriptingCommands;
import org.springframework.data.redis.connection.RedisServerCommands;
import org.springframework.data.redis.connection.RedisSetCommands;
import org.springframework.data.redis.connection.RedisStreamCommands;
import org.springframework.data.redis.connection.RedisStringCommands;
import org.springframework.data.redis.connection.RedisZSetCommands;

/**
 * The command families of one pipelined connection, each a {@link PipelinedFamily} writing to the
 * same {@link Pipeline}: strings, hashes and keys have asynchronous counterparts for their common
 * commands; the rest run blocking, their answers in order.
 *
 * <p>Not thread-safe, like its pipeline.
 */
final class PipelinedFamilies {

  final RedisKeyCommands keys;
  final RedisStringCommands strings;
  final RedisHashCommands hashes;
  final RedisListCommands lists;
  final RedisSetCommands sets;
  final RedisZSetCommands sortedSets;
  final RedisServerCommands server;
  final RedisScriptingCommands scripting;
  final RedisGeoCommands geo;
  final RedisHyperLogLogCommands hyperLogLog;
  final RedisStreamCommands streams;

  PipelinedFamilies(CommandFamilies families, Pipeline pipeline) {
    keys =
        PipelinedFamily.of(
            RedisKeyCommands.class, families.keys(), families.asynchronousKeys(), pipeline);
    strings =
        PipelinedFamily.of(
            RedisStringCommands.class,
            families.strings(),
            families.asynchronousStrings(),
            pipeline);
    hashes =
        PipelinedFamily.of(
            RedisHashCommands.class, families.hashes(), families.asynchronousHashes(), pipeline);
    lists = PipelinedFamily.of(RedisListCommands.class, families.lists(), null, pipeline);
    sets = PipelinedFamily.of(RedisSetCommands.class, families.sets(), null, pipeline);
    sortedSets = PipelinedFamily.of(RedisZSetCommands.class, families.sortedSets(), null, pipeline);
    server = PipelinedFamily.of(RedisServerCommands.class, families.server(), null, pipeline);
    scripting =
        PipelinedFamily.of(RedisScriptingCommands.class, families.scripting(), null, pipeline);
    geo = PipelinedFamily.of(RedisGeoCommands.class, families.geo(), null, pipeline);
    hyperLogLog =
        PipelinedFamily.of(RedisHyperLogLogCommands.class, families.hyperLogLog(), null, pipeline);
    streams = PipelinedFamily.of(RedisStreamCommands.class, families.streams(), null, pipeline);
  }
}
