package io.jumpgate.driver;

import io.jumpgate.spi.JumpgateException;

/**
 * A command whose keys must live on one shard (EVAL, EVALSHA) named keys of different shards.
 * Nothing was sent. Put the keys under one hash tag ({@code {user42}.a}, {@code {user42}.b}) to
 * keep them together.
 *
 * <p>Immutable once thrown.
 */
public class CrossShardException extends JumpgateException {

  private static final long serialVersionUID = 1L;

  private final String command;
  private final int firstShard;
  private final int otherShard;

  public CrossShardException(String command, int firstShard, int otherShard, int otherKeyIndex) {
    super(
        command
            + " needs all its keys on one shard, but key 0 is on shard "
            + firstShard
            + " and key "
            + otherKeyIndex
            + " on shard "
            + otherShard
            + "; use one hash tag for all of them");
    this.command = command;
    this.firstShard = firstShard;
    this.otherShard = otherShard;
  }

  public String command() {
    return command;
  }

  public int firstShard() {
    return firstShard;
  }

  public int otherShard() {
    return otherShard;
  }
}
