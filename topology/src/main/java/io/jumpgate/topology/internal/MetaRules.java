package io.jumpgate.topology.internal;

import io.jumpgate.spi.IncompatibleTopologyException;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.topology.TopologyCodec;
import io.jumpgate.topology.TopologyEntryException;
import io.jumpgate.topology.TopologyKeys;

/**
 * What a meta value must be for this release to use a cluster: decodable, a format it knows and the
 * {@code xxh64-jump} routing. Shared by readers (the topology sources) and the admin, which only
 * differ in the words of their errors. Stateless.
 */
public final class MetaRules {

  /** Who is asking: the words of the errors. */
  public enum Reader {
    /** A driver or a CLI verb that reads the map. */
    CLIENT("read", "this client reads", "upgrade the client", "this client"),
    /** The admin, which writes the map. */
    ADMIN("changed", "this admin writes", "upgrade jumpgate", "this admin");

    private final String verb;
    private final String reads;
    private final String upgrade;
    private final String subject;

    Reader(String verb, String reads, String upgrade, String subject) {
      this.verb = verb;
      this.reads = reads;
      this.upgrade = upgrade;
      this.subject = subject;
    }
  }

  private MetaRules() {}

  /**
   * The cluster's meta, when this release can use it.
   *
   * @param cluster the cluster as errors name it, e.g. {@code cluster 'x'}
   * @throws IncompatibleTopologyException when the value is invalid, of a newer format, or routed
   *     otherwise; the message names both values
   */
  public static TopologyMetadata usable(
      byte[] value, TopologyKeys keys, String cluster, Reader reader) {
    TopologyMetadata found;
    try {
      found = TopologyCodec.decodeMetadata(value);
    } catch (TopologyEntryException e) {
      throw new IncompatibleTopologyException(
          cluster
              + " cannot be "
              + reader.verb
              + ": its meta at "
              + keys.meta()
              + " is not valid: "
              + e.getMessage(),
          e);
    }
    if (found.format() > TopologyMetadata.CURRENT_FORMAT) {
      throw new IncompatibleTopologyException(
          cluster
              + " uses topology format "
              + found.format()
              + ", but "
              + reader.reads
              + " format "
              + TopologyMetadata.CURRENT_FORMAT
              + " only: "
              + reader.upgrade);
    }
    if (!TopologyMetadata.XXH64_JUMP.equals(found.routing())) {
      throw new IncompatibleTopologyException(
          cluster
              + " routes keys with '"
              + excerpt(found.routing())
              + "', but "
              + reader.subject
              + " supports only '"
              + TopologyMetadata.XXH64_JUMP
              + "'");
    }
    return found;
  }

  /** A value short enough for a message. */
  static String excerpt(String text) {
    return text.length() <= 64 ? text : text.substring(0, 64) + "...";
  }
}
