package io.jumpgate.driver.internal;

import io.jumpgate.driver.CommandTimeoutException;
import io.jumpgate.driver.JumpgateAsyncCommands;
import io.jumpgate.driver.JumpgateCommands;
import io.jumpgate.driver.JumpgateConnection;
import io.jumpgate.driver.JumpgateReactiveCommands;
import io.jumpgate.spi.JumpgateException;
import io.netty.util.internal.ThreadExecutorMap;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The blocking and reactive views over the asynchronous commands. They are thin on purpose: each
 * blocking or reactive method calls the asynchronous method with the same name and parameters, so
 * the three views cannot differ in routing, retries or errors (CommandViewsParityTest checks that
 * every method has its mirror).
 */
public final class Views {

  /** Margin past the command deadline for a blocking wait: the deadline itself ends the future. */
  private static final long BLOCKING_MARGIN_NANOS = TimeUnit.SECONDS.toNanos(1);

  private Views() {}

  /**
   * A connection whose three views share these asynchronous commands; the blocking view calls
   * {@code blocking}, the same commands made by {@link CommandExecutor#forBlockingCaller()}.
   */
  public static <K, V> JumpgateConnection<K, V> connection(
      AsyncCommands<K, V> async, AsyncCommands<K, V> blocking, Duration commandTimeout) {
    JumpgateCommands<K, V> sync = sync(blocking, commandTimeout);
    JumpgateReactiveCommands<K, V> reactive = reactive(async);
    return new JumpgateConnection<>() {
      @Override
      public JumpgateCommands<K, V> sync() {
        return sync;
      }

      @Override
      public JumpgateAsyncCommands<K, V> async() {
        return async;
      }

      @Override
      public JumpgateReactiveCommands<K, V> reactive() {
        return reactive;
      }

      @Override
      public void close() {}

      @Override
      public String toString() {
        return "JumpgateConnection[" + async + "]";
      }
    };
  }

  @SuppressWarnings("unchecked")
  static <K, V> JumpgateCommands<K, V> sync(AsyncCommands<K, V> async, Duration commandTimeout) {
    MethodMirror targets = new MethodMirror(mirror(JumpgateCommands.class));
    long waitNanos = commandTimeout.toNanos() + BLOCKING_MARGIN_NANOS;
    InvocationHandler handler =
        (proxy, method, args) -> {
          Method target = targets.get(method);
          if (target == null) {
            return objectMethod(proxy, method, args, "JumpgateCommands[" + async + "]");
          }
          requireNotEventLoop(method);
          CompletionStage<?> stage = (CompletionStage<?>) invoke(target, async, args);
          return await(stage, waitNanos, method.getName());
        };
    return (JumpgateCommands<K, V>)
        Proxy.newProxyInstance(
            JumpgateCommands.class.getClassLoader(),
            new Class<?>[] {JumpgateCommands.class},
            handler);
  }

  @SuppressWarnings("unchecked")
  static <K, V> JumpgateReactiveCommands<K, V> reactive(AsyncCommands<K, V> async) {
    Map<Method, Method> targets = mirror(JumpgateReactiveCommands.class);
    InvocationHandler handler =
        (proxy, method, args) -> {
          Method target = targets.get(method);
          if (target == null) {
            return objectMethod(proxy, method, args, "JumpgateReactiveCommands[" + async + "]");
          }
          Mono<Object> mono =
              Mono.fromCompletionStage(
                  () -> (CompletionStage<Object>) invokeUnchecked(target, async, args));
          if (Flux.class.isAssignableFrom(method.getReturnType())) {
            return mono.flatMapIterable(answer -> (Iterable<Object>) answer);
          }
          return mono;
        };
    return (JumpgateReactiveCommands<K, V>)
        Proxy.newProxyInstance(
            JumpgateReactiveCommands.class.getClassLoader(),
            new Class<?>[] {JumpgateReactiveCommands.class},
            handler);
  }

  /** For each method of a view, the asynchronous method with the same name and parameters. */
  static Map<Method, Method> mirror(Class<?> view) {
    Map<Method, Method> targets = new HashMap<>();
    for (Method method : view.getMethods()) {
      try {
        targets.put(
            method,
            JumpgateAsyncCommands.class.getMethod(method.getName(), method.getParameterTypes()));
      } catch (NoSuchMethodException e) {
        throw new IllegalStateException(
            view.getSimpleName() + "." + method.getName() + " has no asynchronous mirror", e);
      }
    }
    return targets;
  }

  private static Object invoke(Method target, Object async, Object[] args) throws Throwable {
    try {
      return target.invoke(async, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static Object invokeUnchecked(Method target, Object async, Object[] args) {
    try {
      return invoke(target, async, args);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new JumpgateException(target.getName() + " failed: " + e, e);
    }
  }

  /**
   * The view's method -> the asynchronous method. The proxy hands over the same {@link Method}
   * objects on every call, so after the first call of a method it is found by identity (no {@code
   * Method.equals}, which compares parameter types); the identity table is copied on write, which
   * happens once per method. Thread-safe.
   */
  static final class MethodMirror {
    private final Map<Method, Method> byEquality;
    private volatile IdentityHashMap<Method, Method> byIdentity = new IdentityHashMap<>();

    MethodMirror(Map<Method, Method> byEquality) {
      this.byEquality = Map.copyOf(byEquality);
    }

    /** The mirror of {@code method}, or null when the view does not declare it. */
    Method get(Method method) {
      Method target = byIdentity.get(method);
      if (target != null) {
        return target;
      }
      target = byEquality.get(method);
      if (target != null) {
        IdentityHashMap<Method, Method> copy = new IdentityHashMap<>(byIdentity);
        copy.put(method, target);
        byIdentity = copy;
      }
      return target;
    }
  }

  private static Object await(CompletionStage<?> stage, long waitNanos, String command)
      throws Throwable {
    try {
      if (stage instanceof RoutedCommand<?, ?, ?> routed && routed.callerWatchesDeadline()) {
        return awaitWatched(routed, waitNanos);
      }
      return stage.toCompletableFuture().get(waitNanos, TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException || cause instanceof Error) {
        throw cause;
      }
      throw new JumpgateException(command + " failed: " + cause, cause);
    } catch (TimeoutException e) {
      throw new CommandTimeoutException(
          command + " did not end within its deadline",
          command,
          List.of(),
          io.jumpgate.driver.Outcome.UNKNOWN,
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new JumpgateException("interrupted while waiting for " + command, e);
    }
  }

  /**
   * Waits for a command whose deadline this thread watches (Lettuce armed no timer for its tries):
   * until the deadline, then ends the try in flight as timed out, as the timer would have, and
   * waits for the dispatcher to fail the command; a try that was between two tries at that moment
   * is ended by its own bounded wait, or at the next look, every 10 ms. At most {@code waitNanos}
   * in all, like any blocking call; a caller that stops waiting (interrupted, or past that) gives
   * the command up, as cancelling its future would.
   */
  private static Object awaitWatched(RoutedCommand<?, ?, ?> command, long waitNanos)
      throws ExecutionException, TimeoutException, InterruptedException {
    Dispatcher dispatcher = command.dispatcher();
    long giveUpAt = command.startNanos() + waitNanos;
    long left = command.deadlineNanos() - dispatcher.nanoTime();
    while (true) {
      try {
        return command.get(Math.max(0, left), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        command.cancel(false); // given up: no timer would end it otherwise
        throw e;
      } catch (TimeoutException e) {
        long now = dispatcher.nanoTime();
        if (now - giveUpAt >= 0) {
          command.cancel(false);
          throw e;
        }
        if (now - command.deadlineNanos() >= 0) {
          command.expireAtDeadline();
          left = Math.min(EXPIRY_LOOK_NANOS, giveUpAt - now);
        } else {
          left = command.deadlineNanos() - now;
        }
      }
    }
  }

  /** How often a blocked caller looks again at a command past its deadline. */
  private static final long EXPIRY_LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  /**
   * Whether the calling thread runs a Netty event executor: an I/O event loop of Lettuce or jetcd,
   * or one of Lettuce's computation threads. A blocking wait there would stall (or deadlock) the
   * very thread that completes the answer. One thread-local read, no lock, no allocation
   * (EventLoopCheckTest measures it).
   */
  public static boolean onEventLoop() {
    return ThreadExecutorMap.currentExecutor() != null;
  }

  private static void requireNotEventLoop(Method method) {
    if (onEventLoop()) {
      throw new IllegalStateException(
          "blocking call "
              + method.getName()
              + " on event-loop thread "
              + Thread.currentThread().getName()
              + ": it would deadlock; use async() or reactive() there");
    }
  }

  private static Object objectMethod(Object proxy, Method method, Object[] args, String name) {
    switch (method.getName()) {
      case "toString":
        return name;
      case "hashCode":
        return System.identityHashCode(proxy);
      case "equals":
        return proxy == args[0];
      default:
        throw new UnsupportedOperationException(method.toString());
    }
  }
}
