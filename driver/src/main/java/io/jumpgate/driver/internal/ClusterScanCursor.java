package io.jumpgate.driver.internal;

import io.jumpgate.spi.Node;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Where a cluster-wide SCAN stands: which leader is being scanned and that leader's own SCAN
 * cursor.
 *
 * <p>The leaders are scanned one after the other in node id order (the natural order of the id
 * strings). The cursor's text is {@code <node id>:<node cursor>}, e.g. {@code leader-1:1536}; node
 * ids cannot contain {@code ':'}, so the text splits at its first one. {@code 0} starts a scan (and
 * is the text of a finished one, as with plain SCAN). The node cursor is passed to the node as it
 * is; it must be printable ASCII without spaces.
 *
 * <p>Going on from a cursor needs no state but the leaders in force: a cursor names its node, so
 * when that node is still a leader the scan goes on there; when it is not (it left the map, or is
 * now a replica), the scan goes on with the first leader whose id sorts after it, from that
 * leader's start. A leader that joined with an id sorting before the cursor's node is not scanned.
 *
 * <p>Immutable.
 */
final class ClusterScanCursor {

  /** The text of a cursor that starts a scan, and of a finished one. */
  static final String START_TEXT = "0";

  private static final ClusterScanCursor START = new ClusterScanCursor(null, START_TEXT);

  /** Where to send the next SCAN: the leader's position in the sorted ids and its cursor. */
  record Step(int position, String nodeCursor) {

    /** True when no leader is left to scan. */
    boolean finished(List<String> sortedIds) {
      return position >= sortedIds.size();
    }
  }

  private final String nodeId;
  private final String nodeCursor;

  private ClusterScanCursor(String nodeId, String nodeCursor) {
    this.nodeId = nodeId;
    this.nodeCursor = nodeCursor;
  }

  /** The cursor that starts a scan. */
  static ClusterScanCursor start() {
    return START;
  }

  /**
   * The cursor at a node.
   *
   * @throws IllegalArgumentException when the node id or the node cursor is invalid
   */
  static ClusterScanCursor at(String nodeId, String nodeCursor) {
    Objects.requireNonNull(nodeId, "nodeId");
    Objects.requireNonNull(nodeCursor, "nodeCursor");
    if (!Node.ID_PATTERN.matcher(nodeId).matches()) {
      throw new IllegalArgumentException(
          "node id must match " + Node.ID_PATTERN.pattern() + ", was '" + nodeId + "'");
    }
    if (!isNodeCursor(nodeCursor)) {
      throw new IllegalArgumentException(
          "the SCAN cursor of node '"
              + nodeId
              + "' must be printable ASCII without spaces, was '"
              + nodeCursor
              + "'");
    }
    return new ClusterScanCursor(nodeId, nodeCursor);
  }

  /**
   * Reads a cursor's text.
   *
   * @throws IllegalArgumentException naming the text when it is neither {@code 0} nor {@code <node
   *     id>:<node cursor>}
   */
  static ClusterScanCursor parse(String text) {
    Objects.requireNonNull(text, "cursor");
    if (START_TEXT.equals(text)) {
      return START;
    }
    int colon = text.indexOf(':');
    if (colon > 0 && colon < text.length() - 1) {
      String id = text.substring(0, colon);
      String cursor = text.substring(colon + 1);
      if (Node.ID_PATTERN.matcher(id).matches() && isNodeCursor(cursor)) {
        return new ClusterScanCursor(id, cursor);
      }
    }
    throw new IllegalArgumentException(
        "not a Jumpgate cluster SCAN cursor: '"
            + text
            + "' (expected '0' to start, or '<node id>:<node cursor>' as returned by scan)");
  }

  private static boolean isNodeCursor(String text) {
    if (text.isEmpty()) {
      return false;
    }
    for (int index = 0; index < text.length(); index++) {
      char c = text.charAt(index);
      if (c <= ' ' || c > '~') {
        return false;
      }
    }
    return true;
  }

  /** True for the cursor that starts a scan. */
  boolean isStart() {
    return nodeId == null;
  }

  /** The node being scanned, or null for the start. */
  String nodeId() {
    return nodeId;
  }

  /** The node's own SCAN cursor ({@code 0} for the start). */
  String nodeCursor() {
    return nodeCursor;
  }

  /** The cursor's text; see the class comment. */
  String encode() {
    return nodeId == null ? START_TEXT : nodeId + ":" + nodeCursor;
  }

  /**
   * Where the scan goes on among these leaders: the cursor's node with its cursor when it is among
   * them, else the first one whose id sorts after it, from its start.
   *
   * @param sortedIds the ids of the leaders in force, sorted
   */
  Step resume(List<String> sortedIds) {
    if (nodeId == null) {
      return new Step(0, START_TEXT);
    }
    int found = Collections.binarySearch(sortedIds, nodeId);
    return found >= 0 ? new Step(found, nodeCursor) : new Step(-found - 1, START_TEXT);
  }

  /**
   * The cursor after a leader answered a SCAN: at that leader while its own cursor is not {@code
   * 0}; else at the start of the next leader in id order among these; null when none is left (the
   * scan is finished).
   *
   * @param nodeId the leader that answered
   * @param answeredCursor the cursor it answered
   * @param sortedIds the ids of the leaders in force when it answered, sorted
   */
  static ClusterScanCursor after(String nodeId, String answeredCursor, List<String> sortedIds) {
    if (!START_TEXT.equals(answeredCursor)) {
      return at(nodeId, answeredCursor);
    }
    int found = Collections.binarySearch(sortedIds, nodeId);
    int next = found >= 0 ? found + 1 : -found - 1;
    return next < sortedIds.size() ? new ClusterScanCursor(sortedIds.get(next), START_TEXT) : null;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ClusterScanCursor that
        && Objects.equals(nodeId, that.nodeId)
        && nodeCursor.equals(that.nodeCursor);
  }

  @Override
  public int hashCode() {
    return Objects.hash(nodeId, nodeCursor);
  }

  @Override
  public String toString() {
    return encode();
  }
}
