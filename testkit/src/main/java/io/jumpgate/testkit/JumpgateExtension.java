package io.jumpgate.testkit;

import io.jumpgate.driver.JumpgateClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The JUnit 5 extension behind {@link JumpgateTest}: starts one {@link LocalCluster} per test class
 * (on first use, with the settings of the class's {@link JumpgateTest}, or the defaults when it is
 * registered with {@code @ExtendWith} alone), injects it and new {@link JumpgateClient}s as
 * parameters, closes each client after the test method (or class) it was made for, and the cluster
 * after the class.
 *
 * <p>Stateless: its state lives in JUnit's extension context stores, so one instance serves any
 * number of classes. Safe for JUnit's parallel execution of classes (each has its own cluster); the
 * cluster of one class is created under a lock.
 */
public final class JumpgateExtension
    implements ParameterResolver, AfterEachCallback, AfterAllCallback {

  private static final Namespace NAMESPACE = Namespace.create(JumpgateExtension.class);
  private static final String CLUSTER = "cluster";
  private static final String CLIENTS = "clients";

  /** Made by JUnit. */
  public JumpgateExtension() {}

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == LocalCluster.class || type == JumpgateClient.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    LocalCluster cluster = cluster(context);
    if (parameter.getParameter().getType() == LocalCluster.class) {
      return cluster;
    }
    JumpgateClient client = cluster.newClient();
    clients(context).add(client);
    return client;
  }

  @Override
  public void afterEach(ExtensionContext context) {
    closeClients(context);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    closeClients(context);
    LocalCluster cluster = context.getStore(NAMESPACE).remove(CLUSTER, LocalCluster.class);
    if (cluster != null) {
      cluster.close();
    }
  }

  private static LocalCluster cluster(ExtensionContext context) {
    ExtensionContext classContext = classContext(context);
    ExtensionContext.Store store = classContext.getStore(NAMESPACE);
    synchronized (JumpgateExtension.class) {
      LocalCluster cluster = store.get(CLUSTER, LocalCluster.class);
      if (cluster == null) {
        cluster = builder(classContext.getRequiredTestClass()).start();
        store.put(CLUSTER, cluster);
      }
      return cluster;
    }
  }

  /** The builder for {@code testClass}'s {@link JumpgateTest}, or its enclosing class's. */
  static LocalCluster.Builder builder(Class<?> testClass) {
    LocalCluster.Builder builder = LocalCluster.builder();
    findAnnotation(testClass)
        .ifPresent(
            settings ->
                builder
                    .nodes(settings.nodes())
                    .replicasPerNode(settings.replicasPerNode())
                    .shards(settings.shards())
                    .cluster(settings.cluster()));
    return builder;
  }

  private static Optional<JumpgateTest> findAnnotation(Class<?> testClass) {
    for (Class<?> type = testClass; type != null; type = type.getEnclosingClass()) {
      JumpgateTest settings = type.getAnnotation(JumpgateTest.class);
      if (settings != null) {
        return Optional.of(settings);
      }
    }
    return Optional.empty();
  }

  private static ExtensionContext classContext(ExtensionContext context) {
    ExtensionContext current = context;
    while (current.getTestMethod().isPresent() && current.getParent().isPresent()) {
      current = current.getParent().get();
    }
    return current;
  }

  @SuppressWarnings("unchecked")
  private static List<JumpgateClient> clients(ExtensionContext context) {
    ExtensionContext.Store store = context.getStore(NAMESPACE);
    synchronized (JumpgateExtension.class) {
      List<JumpgateClient> clients = store.get(CLIENTS, List.class);
      if (clients == null) {
        clients = new ArrayList<>();
        store.put(CLIENTS, clients);
      }
      return clients;
    }
  }

  @SuppressWarnings("unchecked")
  private static void closeClients(ExtensionContext context) {
    List<JumpgateClient> clients;
    synchronized (JumpgateExtension.class) {
      clients = context.getStore(NAMESPACE).remove(CLIENTS, List.class);
    }
    if (clients == null) {
      return;
    }
    RuntimeException failure = null;
    for (JumpgateClient client : clients) {
      try {
        client.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
