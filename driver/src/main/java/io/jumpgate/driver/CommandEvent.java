package io.jumpgate.driver;

import java.time.Duration;

/**
 * How one command (or one part of a fan-out) ended. Immutable.
 *
 * @param command the command's name, e.g. {@code GET}
 * @param shard the shard it was routed by, or -1 for a command sent to a chosen node
 * @param nodeId the node of the last try, or null when no node was chosen
 * @param address {@code host:port} of that node, or null
 * @param revision the topology revision the last try was routed with
 * @param attempts how many tries were made
 * @param success whether it got an answer (a server error answer counts as failure)
 * @param elapsed from the first try's start to the end
 */
public record CommandEvent(
    String command,
    int shard,
    String nodeId,
    String address,
    long revision,
    int attempts,
    boolean success,
    Duration elapsed) {}
