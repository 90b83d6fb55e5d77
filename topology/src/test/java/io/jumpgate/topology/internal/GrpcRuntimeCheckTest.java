package io.jumpgate.topology.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.grpc.LoadBalancerRegistry;
import io.grpc.NameResolver;
import io.grpc.NameResolverProvider;
import io.grpc.NameResolverRegistry;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.GrpcRuntimeMissingException;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The check of gRPC's runtime pieces, with empty or partial registries and a class loader that
 * hides the protobuf marshallers, as a fat jar without merged service files or without
 * grpc-protobuf-lite would have them.
 */
class GrpcRuntimeCheckTest {

  private static final ClassLoader CLASSES = GrpcRuntimeCheckTest.class.getClassLoader();

  /** A resolver provider for one scheme, never asked to resolve. */
  private static final class SchemeOnly extends NameResolverProvider {
    private final String scheme;

    SchemeOnly(String scheme) {
      this.scheme = scheme;
    }

    @Override
    protected boolean isAvailable() {
      return true;
    }

    @Override
    protected int priority() {
      return 5;
    }

    @Override
    public NameResolver newNameResolver(URI targetUri, NameResolver.Args args) {
      throw new UnsupportedOperationException();
    }

    @Override
    public String getDefaultScheme() {
      return scheme;
    }
  }

  /** A class loader that does not find classes under {@code hiddenPackage}. */
  private static ClassLoader hiding(String hiddenPackage) {
    return new ClassLoader(CLASSES) {
      @Override
      protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.startsWith(hiddenPackage)) {
          throw new ClassNotFoundException(name);
        }
        return super.loadClass(name, resolve);
      }
    };
  }

  @Test
  void theTestClassPathHasEveryPiece() {
    assertThat(
            GrpcRuntimeCheck.missingPieces(
                NameResolverRegistry.getDefaultRegistry(),
                LoadBalancerRegistry.getDefaultRegistry(),
                CLASSES))
        .isEmpty();
    assertThatCode(GrpcRuntimeCheck::check).doesNotThrowAnyException();
  }

  @Test
  void unmergedServiceFilesNameTheResolverAndTheBalancer() {
    List<String> missing =
        GrpcRuntimeCheck.missingPieces(
            new NameResolverRegistry(), new LoadBalancerRegistry(), CLASSES);

    assertThat(missing).hasSize(2);
    assertThat(missing.get(0))
        .contains("scheme 'ip'", "IPResolverProvider", "nor gRPC's own for 'dns'");
    assertThat(missing.get(1)).contains("io.grpc.LoadBalancerProvider for 'round_robin'");
  }

  @Test
  void aResolverForOtherSchemesOnlyNamesJetcdsScheme() {
    NameResolverRegistry resolvers = new NameResolverRegistry();
    resolvers.register(new SchemeOnly("dns"));

    List<String> missing =
        GrpcRuntimeCheck.missingPieces(
            resolvers, LoadBalancerRegistry.getDefaultRegistry(), CLASSES);

    assertThat(missing)
        .singleElement()
        .asString()
        .contains("scheme 'ip'", "io.etcd.jetcd.resolver.IPResolverProvider", "jetcd-core")
        .doesNotContain("'dns'");
  }

  @Test
  void aMissingProtobufLiteIsNamedByItsArtifact() {
    List<String> missing =
        GrpcRuntimeCheck.missingPieces(
            NameResolverRegistry.getDefaultRegistry(),
            LoadBalancerRegistry.getDefaultRegistry(),
            hiding("io.grpc.protobuf.lite."));

    assertThat(missing)
        .singleElement()
        .asString()
        .contains("io.grpc.protobuf.lite.ProtoLiteUtils", "grpc-protobuf-lite");
  }

  @Test
  void theErrorIsATypedTopologyFailureThatSaysHowToFixIt() {
    GrpcRuntimeMissingException error =
        new GrpcRuntimeMissingException(
            GrpcRuntimeCheck.missingPieces(
                new NameResolverRegistry(),
                new LoadBalancerRegistry(),
                hiding("io.grpc.protobuf")));

    assertThat(error).isInstanceOf(TopologyUnavailableException.class);
    assertThat(error.missingPieces()).hasSize(4);
    assertThat(error.getMessage())
        .contains("the class path lacks part of gRPC's runtime")
        .contains("ServicesResourceTransformer", "mergeServiceFiles()")
        .contains("grpc-protobuf-lite", "grpc-protobuf)");
  }
}
