package io.jumpgate.topology;

import io.jumpgate.spi.TopologyUnavailableException;
import java.util.List;

/**
 * The class path lacks a piece of gRPC's runtime that the etcd client needs, found when the client
 * is built (by {@link EtcdTopologySource#create}, and so by {@code JumpgateClient.create}) instead
 * of surfacing later as "no topology from etcd". Typical causes: a fat jar whose {@code
 * META-INF/services} files were not merged (maven-shade-plugin's {@code
 * ServicesResourceTransformer}, Gradle Shadow's {@code mergeServiceFiles()}), or an excluded {@code
 * grpc-protobuf-lite}, {@code grpc-util} or {@code jetcd-core} artifact. The message names each
 * missing piece and the fix; retrying does not help.
 *
 * <p>Immutable and thread-safe.
 */
public class GrpcRuntimeMissingException extends TopologyUnavailableException {

  private static final long serialVersionUID = 1L;

  /** What is missing, one entry per piece, for people. */
  private final List<String> missingPieces;

  /**
   * @param missingPieces one description per missing piece, at least one
   */
  public GrpcRuntimeMissingException(List<String> missingPieces) {
    super(message(missingPieces));
    this.missingPieces = List.copyOf(missingPieces);
  }

  /** Each missing piece, described for people; never empty. */
  public List<String> missingPieces() {
    return missingPieces;
  }

  private static String message(List<String> missingPieces) {
    if (missingPieces.isEmpty()) {
      throw new IllegalArgumentException("no missing piece named");
    }
    return "the etcd client cannot run: the class path lacks part of gRPC's runtime: "
        + String.join("; ", missingPieces)
        + ". In a fat jar, merge the META-INF/services files (maven-shade-plugin:"
        + " ServicesResourceTransformer; Gradle Shadow: mergeServiceFiles()); otherwise keep the"
        + " artifacts named above on the class path (jumpgate-topology depends on them)";
  }
}
