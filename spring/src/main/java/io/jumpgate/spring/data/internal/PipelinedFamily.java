package io.jumpgate.spring.data.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.InvalidDataAccessApiUsageException;

/**
 * A command family of a pipelined connection: each call returns {@code null} at once, as Spring
 * expects while pipelining, and its answer takes the next slot of the {@link Pipeline}.
 *
 * <ul>
 *   <li>A command with an asynchronous counterpart (a method of the same name and parameters,
 *       declared to return a {@link CompletionStage}, on the family's asynchronous object: the
 *       driver's asynchronous view, converted to Spring's answer type) is sent at once and not
 *       waited for: many commands to many shards are in flight together.
 *   <li>Any other command runs blocking through the family's ordinary implementation, and its
 *       answer or error takes its slot: still in order, one round trip each.
 *   <li>A refusal ({@link InvalidDataAccessApiUsageException}: nothing was sent) is thrown at once.
 *   <li>A method returning {@code void} (RENAME, HMSET, ...) takes no slot, as with Spring's own
 *       connections, which leave status replies out of the pipeline's results.
 * </ul>
 *
 * <p>The table of counterparts is built once per pair of classes. Not thread-safe: it writes to its
 * connection's pipeline, which Spring uses from one thread.
 */
final class PipelinedFamily implements InvocationHandler {

  private static final Map<Class<?>, Map<Method, MethodHandle>> COUNTERPARTS =
      new java.util.concurrent.ConcurrentHashMap<>();

  private final Object blocking;
  private final Object asynchronous;
  private final Map<Method, MethodHandle> counterparts;
  private final Pipeline pipeline;

  private PipelinedFamily(
      Object blocking,
      Object asynchronous,
      Map<Method, MethodHandle> counterparts,
      Pipeline pipeline) {
    this.blocking = blocking;
    this.asynchronous = asynchronous;
    this.counterparts = counterparts;
    this.pipeline = pipeline;
  }

  /**
   * The pipelined form of a family.
   *
   * @param family Spring's interface, e.g. {@code RedisStringCommands}
   * @param blocking the family's ordinary implementation
   * @param asynchronous the asynchronous counterparts, or {@code null} for none
   */
  static <F> F of(Class<F> family, F blocking, Object asynchronous, Pipeline pipeline) {
    Map<Method, MethodHandle> counterparts =
        asynchronous == null
            ? Map.of()
            : COUNTERPARTS.computeIfAbsent(
                asynchronous.getClass(), type -> counterparts(family, type));
    return family.cast(
        Proxy.newProxyInstance(
            family.getClassLoader(),
            new Class<?>[] {family},
            new PipelinedFamily(blocking, asynchronous, counterparts, pipeline)));
  }

  /**
   * The asynchronous counterpart of each of the family's methods, found one by one with a method
   * handle lookup. Not with {@code Class.getDeclaredMethod}: that reads every method of the class,
   * and an asynchronous class may have a method whose parameter type only Spring Data Redis 4.1 has
   * ({@code SetCondition}), which would fail on the 3.5 line for all of them.
   */
  private static Map<Method, MethodHandle> counterparts(
      Class<?> family, Class<?> asynchronousType) {
    MethodHandles.Lookup lookup = MethodHandles.lookup();
    Map<Method, MethodHandle> found = new HashMap<>();
    for (Method method : family.getMethods()) {
      try {
        MethodHandle counterpart =
            lookup.findVirtual(
                asynchronousType,
                method.getName(),
                MethodType.methodType(CompletionStage.class, method.getParameterTypes()));
        found.put(method, counterpart.asFixedArity());
      } catch (NoSuchMethodException none) {
        // runs blocking
      } catch (IllegalAccessException notAccessible) {
        throw new IllegalStateException(notAccessible);
      }
    }
    return Map.copyOf(found);
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] arguments) throws Throwable {
    if (method.getDeclaringClass() == Object.class) {
      return method.invoke(blocking, arguments);
    }
    MethodHandle counterpart = counterparts.get(method);
    if (counterpart != null) {
      pipeline.add(send(counterpart, arguments));
      return null;
    }
    Object answer;
    try {
      answer = call(method, blocking, arguments);
    } catch (InvalidDataAccessApiUsageException refused) {
      throw refused;
    } catch (DataAccessException failed) {
      pipeline.addFailure(failed);
      return null;
    }
    if (method.getReturnType() != void.class) {
      pipeline.addAnswer(answer);
    }
    return null;
  }

  private CompletionStage<?> send(MethodHandle counterpart, Object[] arguments) {
    int count = arguments == null ? 0 : arguments.length;
    Object[] receiverAndArguments = new Object[count + 1];
    receiverAndArguments[0] = asynchronous;
    if (count > 0) {
      System.arraycopy(arguments, 0, receiverAndArguments, 1, count);
    }
    try {
      return (CompletionStage<?>) counterpart.invokeWithArguments(receiverAndArguments);
    } catch (RuntimeException failure) {
      throw ExceptionTranslation.translate(failure);
    } catch (Error error) {
      throw error;
    } catch (Throwable checked) {
      throw new IllegalStateException(checked);
    }
  }

  private static Object call(Method method, Object target, Object[] arguments) {
    try {
      return method.invoke(target, arguments);
    } catch (InvocationTargetException thrown) {
      if (thrown.getCause() instanceof RuntimeException failure) {
        throw ExceptionTranslation.translate(failure);
      }
      throw new IllegalStateException(thrown.getCause());
    } catch (IllegalAccessException notAccessible) {
      throw new IllegalStateException(notAccessible);
    }
  }
}
