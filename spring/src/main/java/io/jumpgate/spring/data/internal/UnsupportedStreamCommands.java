// Generated once from Spring Data Redis 4.1.1's RedisStreamCommands (one refusing method per
// abstract method); RoutedStreamCommands overrides the commands Jumpgate routes.
package io.jumpgate.spring.data.internal;

/**
 * Every method of Spring Data Redis's {@code RedisStreamCommands} refused with {@link
 * org.springframework.dao.InvalidDataAccessApiUsageException} naming the command, nothing sent: the
 * base of the routed implementation, so that a command Jumpgate does not route yet fails clearly.
 *
 * <p>Stateless and thread-safe.
 */
@SuppressWarnings({"deprecation", "removal"})
abstract class UnsupportedStreamCommands
    implements org.springframework.data.redis.connection.RedisStreamCommands {

  @Override
  public java.lang.Long xAck(
      byte[] key,
      java.lang.String group,
      org.springframework.data.redis.connection.stream.RecordId... recordIds) {
    throw Refusals.unsupported("XACK");
  }

  @Override
  public java.util.List<
          org.springframework.data.redis.connection.RedisStreamCommands.StreamEntryDeletionResult>
      xAckDel(
          byte[] key,
          java.lang.String group,
          org.springframework.data.redis.connection.RedisStreamCommands.XDelOptions options,
          org.springframework.data.redis.connection.stream.RecordId... recordIds) {
    throw Refusals.unsupported("XACKDEL");
  }

  @Override
  public org.springframework.data.redis.connection.stream.RecordId xAdd(
      org.springframework.data.redis.connection.stream.MapRecord<byte[], byte[], byte[]> record,
      org.springframework.data.redis.connection.RedisStreamCommands.XAddOptions options) {
    throw Refusals.unsupported("XADD");
  }

  @Override
  public java.util.List<org.springframework.data.redis.connection.stream.ByteRecord> xClaim(
      byte[] key,
      java.lang.String group,
      java.lang.String newOwner,
      org.springframework.data.redis.connection.RedisStreamCommands.XClaimOptions options) {
    throw Refusals.unsupported("XCLAIM");
  }

  @Override
  public java.util.List<org.springframework.data.redis.connection.stream.RecordId> xClaimJustId(
      byte[] key,
      java.lang.String group,
      java.lang.String newOwner,
      org.springframework.data.redis.connection.RedisStreamCommands.XClaimOptions options) {
    throw Refusals.unsupported("XCLAIMJUSTID");
  }

  @Override
  public java.lang.Long xDel(
      byte[] key, org.springframework.data.redis.connection.stream.RecordId... recordIds) {
    throw Refusals.unsupported("XDEL");
  }

  @Override
  public java.util.List<
          org.springframework.data.redis.connection.RedisStreamCommands.StreamEntryDeletionResult>
      xDelEx(
          byte[] key,
          org.springframework.data.redis.connection.RedisStreamCommands.XDelOptions options,
          org.springframework.data.redis.connection.stream.RecordId... recordIds) {
    throw Refusals.unsupported("XDELEX");
  }

  @Override
  public java.lang.String xGroupCreate(
      byte[] key,
      java.lang.String groupName,
      org.springframework.data.redis.connection.stream.ReadOffset readOffset,
      boolean mkStream) {
    throw Refusals.unsupported("XGROUP CREATE");
  }

  @Override
  public java.lang.String xGroupCreate(
      byte[] key,
      java.lang.String groupName,
      org.springframework.data.redis.connection.stream.ReadOffset readOffset) {
    throw Refusals.unsupported("XGROUP CREATE");
  }

  @Override
  public java.lang.Boolean xGroupDelConsumer(
      byte[] key, org.springframework.data.redis.connection.stream.Consumer consumer) {
    throw Refusals.unsupported("XGROUP DELCONSUMER");
  }

  @Override
  public java.lang.Boolean xGroupDestroy(byte[] key, java.lang.String groupName) {
    throw Refusals.unsupported("XGROUP DESTROY");
  }

  @Override
  public org.springframework.data.redis.connection.stream.StreamInfo.XInfoStream xInfo(byte[] key) {
    throw Refusals.unsupported("XINFO STREAM");
  }

  @Override
  public org.springframework.data.redis.connection.stream.StreamInfo.XInfoConsumers xInfoConsumers(
      byte[] key, java.lang.String groupName) {
    throw Refusals.unsupported("XINFO CONSUMERS");
  }

  @Override
  public org.springframework.data.redis.connection.stream.StreamInfo.XInfoGroups xInfoGroups(
      byte[] key) {
    throw Refusals.unsupported("XINFO GROUPS");
  }

  @Override
  public java.lang.Long xLen(byte[] key) {
    throw Refusals.unsupported("XLEN");
  }

  @Override
  public org.springframework.data.redis.connection.stream.PendingMessages xPending(
      byte[] key,
      java.lang.String groupName,
      org.springframework.data.redis.connection.RedisStreamCommands.XPendingOptions options) {
    throw Refusals.unsupported("XPENDING");
  }

  @Override
  public org.springframework.data.redis.connection.stream.PendingMessagesSummary xPending(
      byte[] key, java.lang.String groupName) {
    throw Refusals.unsupported("XPENDING");
  }

  @Override
  public java.util.List<org.springframework.data.redis.connection.stream.ByteRecord> xRange(
      byte[] key,
      org.springframework.data.domain.Range<java.lang.String> range,
      org.springframework.data.redis.connection.Limit limit) {
    throw Refusals.unsupported("XRANGE");
  }

  @Override
  public java.util.List<org.springframework.data.redis.connection.stream.ByteRecord> xRead(
      org.springframework.data.redis.connection.stream.StreamReadOptions readOptions,
      org.springframework.data.redis.connection.stream.StreamOffset<byte[]>... streams) {
    throw Refusals.unsupported("XREAD");
  }

  @Override
  public java.util.List<org.springframework.data.redis.connection.stream.ByteRecord> xReadGroup(
      org.springframework.data.redis.connection.stream.Consumer consumer,
      org.springframework.data.redis.connection.stream.StreamReadOptions readOptions,
      org.springframework.data.redis.connection.stream.StreamOffset<byte[]>... streams) {
    throw Refusals.unsupported("XREADGROUP");
  }

  @Override
  public java.util.List<org.springframework.data.redis.connection.stream.ByteRecord> xRevRange(
      byte[] key,
      org.springframework.data.domain.Range<java.lang.String> range,
      org.springframework.data.redis.connection.Limit limit) {
    throw Refusals.unsupported("XREVRANGE");
  }

  @Override
  public java.lang.Long xTrim(
      byte[] key,
      org.springframework.data.redis.connection.RedisStreamCommands.XTrimOptions options) {
    throw Refusals.unsupported("XTRIM");
  }

  @Override
  public java.lang.Long xTrim(byte[] key, long count, boolean approximateTrimming) {
    throw Refusals.unsupported("XTRIM");
  }

  @Override
  public java.lang.Long xTrim(byte[] key, long count) {
    throw Refusals.unsupported("XTRIM");
  }
}
