package io.jumpgate.spring.internal;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.springframework.beans.factory.FactoryBean;

/**
 * The {@code jumpgate} health indicator on Spring Boot 3.5, whose health API ({@code
 * org.springframework.boot.actuate.health}) is not the one the starter is compiled against (Spring
 * Boot 4 moved it to {@code org.springframework.boot.health.contributor}, a class path has one or
 * the other). It makes an implementation of Boot 3's {@code HealthIndicator} at run time, a {@link
 * Proxy} whose {@code health()} runs the same {@link HealthCheck} as {@code
 * JumpgateHealthIndicator} and builds Boot 3's {@code Health} through its public static builders.
 *
 * <p>A {@link FactoryBean} so that the bean's type, which no Java signature here can name, is known
 * to the container before the bean exists ({@link #getObjectType()}): the health registry finds
 * indicators by type. Tested by the Spring Boot 3.5 application in {@code src/it/boot35-app}.
 */
public final class Boot3HealthIndicatorFactoryBean implements FactoryBean<Object> {

  static final String INDICATOR = "org.springframework.boot.actuate.health.HealthIndicator";
  static final String HEALTH = "org.springframework.boot.actuate.health.Health";

  private final Supplier<HealthCheck> check;
  private final Class<?> indicatorType;
  private final Method up;
  private final Method down;
  private final Method withDetails;
  private final Method build;

  /**
   * @param check makes the check when the indicator is made: the container may make this factory
   *     early, only to learn its type, and it must not pull the client in then
   * @throws IllegalStateException when Boot 3's health API is not on the starter's class loader
   */
  public Boot3HealthIndicatorFactoryBean(Supplier<HealthCheck> check) {
    this.check = Objects.requireNonNull(check, "check");
    ClassLoader classLoader = Boot3HealthIndicatorFactoryBean.class.getClassLoader();
    try {
      this.indicatorType = Class.forName(INDICATOR, false, classLoader);
      Class<?> health = Class.forName(HEALTH, false, classLoader);
      Class<?> builder = Class.forName(HEALTH + "$Builder", false, classLoader);
      this.up = health.getMethod("up");
      this.down = health.getMethod("down");
      this.withDetails = builder.getMethod("withDetails", Map.class);
      this.build = builder.getMethod("build");
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Spring Boot 3's health API is not usable: " + e, e);
    }
  }

  @Override
  public Class<?> getObjectType() {
    return indicatorType;
  }

  @Override
  public Object getObject() {
    HealthCheck healthCheck = check.get();
    InvocationHandler handler =
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "health":
              if (method.getParameterCount() == 0) {
                return health(healthCheck);
              }
              break;
            case "toString":
              return "JumpgateHealthIndicator (Spring Boot 3)";
            case "hashCode":
              return System.identityHashCode(proxy);
            case "equals":
              return proxy == args[0];
            default:
              break;
          }
          if (method.isDefault()) {
            return InvocationHandler.invokeDefault(proxy, method, args);
          }
          throw new UnsupportedOperationException(method.toString());
        };
    return Proxy.newProxyInstance(
        indicatorType.getClassLoader(), new Class<?>[] {indicatorType}, handler);
  }

  private Object health(HealthCheck healthCheck)
      throws IllegalAccessException, InvocationTargetException {
    HealthCheck.Result result = healthCheck.check();
    Object builder = (result.up() ? up : down).invoke(null);
    withDetails.invoke(builder, result.details());
    return build.invoke(builder);
  }
}
