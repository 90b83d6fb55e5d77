package io.jumpgate.topology.internal;

import io.grpc.LoadBalancerRegistry;
import io.grpc.NameResolverRegistry;
import io.jumpgate.topology.GrpcRuntimeMissingException;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks, before a jetcd client is built, that the pieces of gRPC's runtime it needs are on the
 * class path: the name resolver for jetcd's {@code ip:///host:port,..} target (jetcd-core's {@code
 * IPResolverProvider}, found through {@code META-INF/services/io.grpc.NameResolverProvider}), the
 * {@code round_robin} load balancer jetcd asks for (grpc-util, through {@code
 * META-INF/services/io.grpc.LoadBalancerProvider}), and the protobuf marshallers of jetcd's stubs
 * (grpc-protobuf and grpc-protobuf-lite). Without them jetcd builds a client that never connects,
 * and the failure would surface only as "no topology from etcd" at the start timeout.
 *
 * <p>Cheap: two registry lookups (the registries are built once per JVM by gRPC) and two class
 * look-ups without initialisation. Stateless and thread-safe.
 */
public final class GrpcRuntimeCheck {

  /** The scheme of the target jetcd builds from the endpoints. */
  static final String JETCD_TARGET_SCHEME = "ip";

  /** The load-balancing policy jetcd uses unless told otherwise. */
  static final String JETCD_LOAD_BALANCER = "round_robin";

  private GrpcRuntimeCheck() {}

  /**
   * Checks gRPC's default registries and the class loader of this class.
   *
   * @throws GrpcRuntimeMissingException naming every missing piece
   */
  public static void check() {
    List<String> missing =
        missingPieces(
            NameResolverRegistry.getDefaultRegistry(),
            LoadBalancerRegistry.getDefaultRegistry(),
            GrpcRuntimeCheck.class.getClassLoader());
    if (!missing.isEmpty()) {
      throw new GrpcRuntimeMissingException(missing);
    }
  }

  /**
   * The missing pieces, described for people; empty when all are there.
   *
   * @param nameResolvers where jetcd's target scheme must have a provider
   * @param loadBalancers where jetcd's policy must have a provider
   * @param loader where the protobuf marshallers must be found
   */
  static List<String> missingPieces(
      NameResolverRegistry nameResolvers, LoadBalancerRegistry loadBalancers, ClassLoader loader) {
    List<String> missing = new ArrayList<>();
    if (nameResolvers.getProviderForScheme(JETCD_TARGET_SCHEME) == null) {
      boolean none = nameResolvers.getProviderForScheme("dns") == null;
      missing.add(
          "no io.grpc.NameResolverProvider for the scheme '"
              + JETCD_TARGET_SCHEME
              + "' that jetcd's target uses (io.etcd.jetcd.resolver.IPResolverProvider, listed in"
              + " jetcd-core's META-INF/services/io.grpc.NameResolverProvider)"
              + (none
                  ? ", nor gRPC's own for 'dns' (grpc-core's): no such service file was read"
                  : ""));
    }
    if (loadBalancers.getProvider(JETCD_LOAD_BALANCER) == null) {
      missing.add(
          "no io.grpc.LoadBalancerProvider for '"
              + JETCD_LOAD_BALANCER
              + "' (grpc-util's META-INF/services/io.grpc.LoadBalancerProvider)");
    }
    requireClass(loader, "io.grpc.protobuf.ProtoUtils", "grpc-protobuf", missing);
    requireClass(loader, "io.grpc.protobuf.lite.ProtoLiteUtils", "grpc-protobuf-lite", missing);
    return missing;
  }

  private static void requireClass(
      ClassLoader loader, String className, String artifact, List<String> missing) {
    try {
      Class.forName(className, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      missing.add("no class " + className + " (artifact io.grpc:" + artifact + ")");
    }
  }
}
