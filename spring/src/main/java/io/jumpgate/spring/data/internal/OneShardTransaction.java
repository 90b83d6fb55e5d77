package io.jumpgate.spring.data.internal;

import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateClient;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.spi.Node;
import io.jumpgate.spi.ShardRoute;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Proxy;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.data.redis.RedisConnectionFailureException;

/**
 * WATCH, MULTI and EXEC of one connection, on one shard: the keys of WATCH and of every command
 * between MULTI and EXEC must hash to one shard, whose leader runs the transaction on a connection
 * of its own ({@link JumpgateClient#connectToNode}).
 *
 * <ul>
 *   <li>WATCH checks its keys, opens the connection to their shard's leader and sends WATCH at
 *       once.
 *   <li>Commands after MULTI are kept, not sent (each returns {@code null}, as Spring expects while
 *       queueing); their keys are read from the driver methods' key parameters.
 *   <li>EXEC first checks that WATCH's keys and every kept command's keys are on one shard: if not,
 *       {@link InvalidDataAccessApiUsageException} naming the commands and the shards, and nothing
 *       was written (MULTI was never sent). Else MULTI, the commands and EXEC go to that shard's
 *       leader; the answers come back in order (a status {@code OK} as {@code true}), or {@code
 *       null} when a watched key changed and Redis aborted the transaction.
 *   <li>The connection is closed after EXEC or DISCARD, and when the Spring connection closes.
 * </ul>
 *
 * <p>Not retried: a transaction's fate after a broken connection is unknown. Not thread-safe: it
 * belongs to one Spring connection, used by one thread.
 */
final class OneShardTransaction {

  private final JumpgateClient client;
  private final OneShardRule oneShard;
  private final CommandFamilies queueingFamilies;
  private final List<Queued> queued = new ArrayList<>();
  private final List<byte[]> watchedKeys = new ArrayList<>();
  private StatefulRedisConnection<byte[], byte[]> pinned;
  private boolean queueing;

  private record Queued(Method method, Object[] arguments, List<byte[]> keys) {}

  OneShardTransaction(
      JumpgateClient client,
      OneShardRule oneShard,
      JumpgateAsyncCommands<byte[], byte[]> asynchronous,
      Duration pipelineWait) {
    this.client = client;
    this.oneShard = oneShard;
    @SuppressWarnings("unchecked")
    JumpgateCommands<byte[], byte[]> recorder =
        (JumpgateCommands<byte[], byte[]>)
            Proxy.newProxyInstance(
                JumpgateCommands.class.getClassLoader(),
                new Class<?>[] {JumpgateCommands.class},
                (proxy, method, arguments) -> queue(method, arguments));
    this.queueingFamilies =
        new CommandFamilies(client, recorder, asynchronous, client::topology, pipelineWait);
  }

  boolean isQueueing() {
    return queueing;
  }

  /** The families whose commands are kept for EXEC. */
  CommandFamilies queueingFamilies() {
    return queueingFamilies;
  }

  void watch(byte[]... keys) {
    if (queueing) {
      throw new InvalidDataAccessApiUsageException("WATCH inside MULTI is not allowed by Redis");
    }
    List<byte[]> all = new ArrayList<>(watchedKeys);
    all.addAll(List.of(keys));
    int shard = oneShard.requireOneShard("WATCH", all.toArray(new byte[0][]));
    pin(shard);
    watchedKeys.addAll(List.of(keys));
    try {
      pinned.sync().watch(keys);
    } catch (RuntimeException failure) {
      end();
      throw ExceptionTranslation.translate(failure);
    }
  }

  void unwatch() {
    if (pinned != null && !queueing) {
      end();
    }
  }

  void multi() {
    if (queueing) {
      throw new InvalidDataAccessApiUsageException("MULTI calls can not be nested");
    }
    queueing = true;
  }

  void discard() {
    end();
  }

  List<Object> exec() {
    if (!queueing) {
      end();
      throw new InvalidDataAccessApiUsageException("EXEC without MULTI");
    }
    try {
      List<byte[]> keys = new ArrayList<>(watchedKeys);
      StringBuilder commands = new StringBuilder(watchedKeys.isEmpty() ? "" : "WATCH, ");
      commands.append("MULTI");
      for (Queued command : queued) {
        keys.addAll(command.keys());
        commands.append(", ").append(command.method().getName().toUpperCase(Locale.ROOT));
      }
      commands.append(", EXEC");
      if (keys.isEmpty()) {
        return List.of();
      }
      int shard = oneShard.requireOneShard(commands.toString(), keys.toArray(new byte[0][]));
      pin(shard);
      RedisCommands<byte[], byte[]> redis = pinned.sync();
      redis.multi();
      for (Queued command : queued) {
        send(redis, command);
      }
      TransactionResult result = redis.exec();
      if (result.wasDiscarded()) {
        return null;
      }
      List<Object> answers = new ArrayList<>(result.size());
      for (int index = 0; index < result.size(); index++) {
        Object answer = result.get(index);
        answers.add("OK".equals(answer) ? Boolean.TRUE : answer);
      }
      return answers;
    } catch (RuntimeException failure) {
      throw ExceptionTranslation.translate(failure);
    } finally {
      end();
    }
  }

  /** Closes the transaction's connection, if any, and forgets everything. */
  void end() {
    queueing = false;
    queued.clear();
    watchedKeys.clear();
    if (pinned != null) {
      StatefulRedisConnection<byte[], byte[]> closing = pinned;
      pinned = null;
      closing.closeAsync();
    }
  }

  private void pin(int shard) {
    if (pinned != null) {
      return;
    }
    ShardRoute route = client.topology().route(shard);
    Node leader = route == null ? null : route.leader();
    if (leader == null) {
      throw new RedisConnectionFailureException(
          "shard " + shard + " has no leader for the transaction");
    }
    Duration wait = client.options().connectTimeout().plusSeconds(1);
    try {
      pinned =
          client
              .connectToNode(leader, ByteArrayCodec.INSTANCE)
              .toCompletableFuture()
              .get(wait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new RedisConnectionFailureException("interrupted while connecting to " + leader.id());
    } catch (Exception failure) {
      throw new RedisConnectionFailureException(
          "cannot open the transaction's connection to " + leader.id() + " (shard " + shard + ")",
          failure);
    }
  }

  /** Keeps a driver call for EXEC; answers as Lettuce does inside MULTI (nothing yet). */
  private Object queue(Method method, Object[] arguments) {
    if (method.getDeclaringClass() == Object.class) {
      throw new UnsupportedOperationException(method.getName());
    }
    if (!queueing) {
      throw new IllegalStateException("not queueing");
    }
    Object[] given = arguments == null ? new Object[0] : arguments;
    if (!method.getName().equals("dispatch") && lettuceMethod(method) == null) {
      throw Refusals.unsupported(method.getName().toUpperCase(Locale.ROOT) + " inside MULTI");
    }
    queued.add(new Queued(method, given.clone(), keysOf(method, given)));
    Class<?> type = method.getReturnType();
    if (List.class.isAssignableFrom(type)) {
      return List.of();
    }
    if (Set.class.isAssignableFrom(type)) {
      return Set.of();
    }
    if (Map.class.isAssignableFrom(type)) {
      return Map.of();
    }
    return null;
  }

  @SuppressWarnings("unchecked")
  private static void send(RedisCommands<byte[], byte[]> redis, Queued command) {
    Object[] arguments = command.arguments();
    if (command.method().getName().equals("dispatch")) {
      redis.dispatch(
          (ProtocolKeyword) arguments[1],
          (CommandOutput<byte[], byte[], Object>) arguments[2],
          (CommandArgs<byte[], byte[]>) arguments[3]);
      return;
    }
    try {
      lettuceMethod(command.method()).invoke(redis, arguments);
    } catch (InvocationTargetException thrown) {
      if (thrown.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      throw new IllegalStateException(thrown.getCause());
    } catch (IllegalAccessException notAccessible) {
      throw new IllegalStateException(notAccessible);
    }
  }

  private static Method lettuceMethod(Method driverMethod) {
    try {
      return RedisCommands.class.getMethod(
          driverMethod.getName(), driverMethod.getParameterTypes());
    } catch (NoSuchMethodException none) {
      return null;
    }
  }

  /**
   * The arguments given for the driver method's key parameters (K, K..., Map of K, Iterable of K).
   * A hash command's fields are typed K too: only its first parameter is a key.
   */
  private static List<byte[]> keysOf(Method method, Object[] arguments) {
    List<byte[]> keys = new ArrayList<>();
    Type[] parameters = method.getGenericParameterTypes();
    int last = method.getName().startsWith("h") ? 1 : parameters.length;
    for (int index = 0; index < last && index < arguments.length; index++) {
      Type parameter = parameters[index];
      Object argument = arguments[index];
      if (argument == null) {
        continue;
      }
      if (isKey(parameter)) {
        keys.add((byte[]) argument);
      } else if (parameter instanceof GenericArrayType array
          && isKey(array.getGenericComponentType())) {
        keys.addAll(List.of((byte[][]) argument));
      } else if (parameter instanceof ParameterizedType generic
          && generic.getActualTypeArguments().length > 0
          && isKey(generic.getActualTypeArguments()[0])) {
        if (argument instanceof Map<?, ?> map) {
          map.keySet().forEach(key -> keys.add((byte[]) key));
        } else if (argument instanceof Iterable<?> iterable) {
          iterable.forEach(key -> keys.add((byte[]) key));
        }
      }
    }
    return keys;
  }

  private static boolean isKey(Type type) {
    return type instanceof TypeVariable<?> variable && variable.getName().equals("K");
  }
}
