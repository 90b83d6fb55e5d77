package io.jumpgate.topology.internal;

import io.jumpgate.spi.IncompatibleTopologyException;
import io.jumpgate.spi.InvalidEntry;
import io.jumpgate.spi.MigrationLock;
import io.jumpgate.spi.TopologyMetadata;
import io.jumpgate.spi.TopologySnapshot;
import io.jumpgate.spi.TopologyUnavailableException;
import io.jumpgate.topology.MigrationCodec;
import io.jumpgate.topology.TopologyEntryException;
import io.jumpgate.topology.TopologyKeys;
import io.jumpgate.topology.TopologyKeys.Kind;
import io.jumpgate.topology.TopologyKeys.ParsedKey;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last-good cache of one cluster's topology keys, and the snapshots built from it: the reading
 * rules of the topology contract in one place, shared by every topology source.
 *
 * <p>Validation is per key. An invalid value does not replace the last valid value of its key; it
 * is reported in {@link TopologySnapshot#invalidEntries()} while it is the key's current value, and
 * logged once per revision. In detail:
 *
 * <ul>
 *   <li>meta is written once by {@code init}: a later change or delete is reported and the first
 *       valid meta stays in force.
 *   <li>a node entry that fails keeps its last valid value in the node table; a deleted node leaves
 *       the table, and the shards that still name it keep their route (with the node's last known
 *       address) while their entries are reported.
 *   <li>a shard entry is valid when it decodes, names nodes of the table, and its epoch is not
 *       older than the epoch of the assignment in force. A shard that never had a valid entry is
 *       unavailable with the reason ({@value ShardTable#NO_ASSIGNMENT}, or why its entry fails); a
 *       deleted shard key makes the shard unavailable ("assignment deleted at revision N").
 *   <li>node changes re-validate the shards that name the node, so fixing a node makes the shard
 *       entries that failed because of it valid again.
 *   <li>{@code migration-lock} is read, not validated per key: its valid value (with the key's
 *       create revision) becomes the snapshot's {@link TopologySnapshot#migrationLock()}, which
 *       decides which frozen shards are held. A value that does not decode counts as no lock (no
 *       freeze holds; that is what the contract says clients do when the mover is gone) and is
 *       logged once, when it is applied; it is not an invalid entry of the map. A revision that
 *       only changes the lock still makes a new snapshot, with the map's revision unchanged.
 *   <li>client keys, {@code migrations/} and unknown keys under the root are ignored.
 * </ul>
 *
 * <p>The snapshot's {@link TopologySnapshot#revision()} is the <em>map revision</em>: the store
 * revision of the last change to {@code meta}, {@code nodes/} or {@code shards/} (topology
 * contract, Migration section: only those are changes of the map). It is not the store's revision
 * at the time of a listing, which every client registration under {@code clients/} moves, and it is
 * not the position a watch resumes from (the source keeps that itself: the last store revision it
 * has seen). Changes to {@code migration-lock} and {@code migrations/} do not move it. In detail:
 *
 * <ul>
 *   <li>{@link #apply}/{@link #stage}: a revision whose events change a map key (a put or a delete,
 *       valid or not) moves it to that revision; other revisions leave it.
 *   <li>{@link #reset}: the highest mod revision of the listed map keys (a key without one, from a
 *       store without revisions such as a file, counts at the listing's revision). A map key known
 *       before and missing from the listing was deleted at a revision the listing does not tell:
 *       the listing's revision stands in for it. A reader that starts after such a delete cannot
 *       see it at all, so until the map's next write it reports the revision of the last put.
 *   <li>It never goes back: a reset after an outage keeps the revision of a delete seen earlier.
 * </ul>
 *
 * <p>That is what an acknowledgement needs: a freeze is a transaction that writes {@code shards/}
 * keys, so a client that has applied it has a map revision at least the freeze's revision.
 *
 * <p>How a source uses it: {@link #reset} with the ranged GET of the map's key range and its header
 * revision (at start, and again after a compaction or an outage the watch cannot resume from);
 * {@link #apply} with the events of each watch revision, in order; publish the returned snapshot
 * when it is not the current one. A source that falls behind may {@link #stage} several revisions
 * and build one snapshot for all of them with {@link #publishStaged}: validation stays per
 * revision, only the (costly, at 65536 shards) snapshot is built once. Replayed events are
 * harmless. {@code deletedAt} below remembers deletes since the last reset so that a replayed older
 * put cannot bring a key back.
 *
 * <p>Cost of one revision: decoding the changed keys and re-validating the shards they affect (a
 * node change finds the shards that name it in an index, without a scan); then, per snapshot, one
 * copy of the route array ({@link TopologySnapshot#next}: only the rebuilt routes are read, and the
 * node table is shared while no node changes). At 65536 shards and 1000 nodes a node change takes
 * well under a millisecond and a snapshot a few (TopologyStateScaleTest).
 *
 * <p>Threading: not thread-safe. Confined to one thread, the source's topology thread; the
 * snapshots it returns are immutable and may be published to any thread.
 */
public final class TopologyState {

  private static final Logger LOG = LoggerFactory.getLogger(TopologyState.class);
  private static final int LOGGED_REASONS = 3;

  private final TopologyKeys keys;
  private final Clock clock;

  private final Map<String, KeyChange> cached = new HashMap<>();
  private final Map<String, Long> deletedAt = new HashMap<>();
  private final InvalidEntries invalid = new InvalidEntries();
  private final NodeTable nodes = new NodeTable();
  private final Set<String> changedNodes = new HashSet<>();
  private final MetaEntry meta;

  /** The store revision of the last listing: events not newer than it are already in it. */
  private long listingRevision = -1;

  /** The revision of the last change to meta, nodes/ or shards/: the snapshots' revision. */
  private long mapRevision = -1;

  /** Whether revisions were staged since the last snapshot was built. */
  private boolean staged;

  /**
   * Whether a node in force changed since the last snapshot was built (else it shares its table).
   */
  private boolean nodesChanged;

  private ShardTable shards;
  private TopologySnapshot current;
  private MigrationLock migrationLock;

  /**
   * @param keys the cluster's key layout
   * @param expectedShards the shard count the client is configured for, or 0 to accept the
   *     cluster's
   * @param clock stamps {@link TopologySnapshot#loadedAt()}
   */
  public TopologyState(TopologyKeys keys, int expectedShards, Clock clock) {
    this.keys = Objects.requireNonNull(keys, "keys");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (expectedShards < 0 || expectedShards > TopologyMetadata.MAX_SHARDS) {
      throw new IllegalArgumentException(
          "expectedShards must be 0 (any) or between 1 and "
              + TopologyMetadata.MAX_SHARDS
              + ", was "
              + expectedShards);
    }
    this.meta = new MetaEntry(keys, expectedShards);
  }

  /**
   * Applies a fresh full listing of the map's key range at {@code revision} (at start, or again
   * after a compaction or an outage): keys absent from the listing count as deleted at {@code
   * revision}.
   *
   * @param revision the store revision of the listing (its header revision), at least 0
   * @param entries every key of the listing with its value and mod revision (null values, and keys
   *     the map does not use, are ignored)
   * @return the new snapshot, at the map revision (see the class description): the highest mod
   *     revision of the listed map keys, or {@code revision} if a map key known before is gone
   * @throws TopologyUnavailableException if there is no meta and there never was a valid one
   * @throws IncompatibleTopologyException if the first meta is invalid, of a newer format, of
   *     another routing, or of another shard count than the one expected; nothing is changed then
   */
  public TopologySnapshot reset(long revision, List<KeyChange> entries) {
    requireRevision(revision);
    Map<String, KeyChange> listing = new LinkedHashMap<>();
    for (KeyChange entry : entries) {
      if (entry.value() != null && schemaKey(entry.key()) != null) {
        listing.put(entry.key(), entry);
      }
    }
    if (meta.metadata() == null) {
      KeyChange first = listing.get(keys.meta());
      shards = new ShardTable(meta.initialise(first == null ? null : first.value()).shards());
    }
    List<KeyChange> changes = new ArrayList<>();
    for (KeyChange entry : listing.values()) {
      KeyChange known = cached.get(entry.key());
      if (known == null
          || known.modRevision() != entry.modRevision()
          || !Arrays.equals(known.value(), entry.value())) {
        changes.add(entry);
      }
    }
    long listedMapRevision = -1;
    for (KeyChange entry : listing.values()) {
      if (isMapKey(schemaKey(entry.key()))) {
        long written = entry.modRevision() > 0 ? entry.modRevision() : revision;
        listedMapRevision = Math.max(listedMapRevision, written);
      }
    }
    for (String key : cached.keySet()) {
      if (!listing.containsKey(key)) {
        changes.add(KeyChange.delete(key, revision));
        if (isMapKey(schemaKey(key))) {
          // deleted at a revision the listing does not tell, after the last snapshot
          listedMapRevision = Math.max(listedMapRevision, revision);
        }
      }
    }
    deletedAt.clear();
    listingRevision = revision;
    if (!staged) {
      invalid.beginRevision();
    }
    changedNodes.clear();
    for (KeyChange change : changes) {
      applyChange(change, schemaKey(change.key()), revision);
    }
    validate();
    mapRevision = Math.max(mapRevision, listedMapRevision);
    return publish();
  }

  /**
   * Applies all the events of one store revision together. An event whose modRevision is not newer
   * than what is known of its key (its cached value, its delete, or the last listing) is ignored,
   * so replaying events is harmless.
   *
   * @param revision the store revision of the events, at least 0
   * @param changes the events, in store order
   * @return the new snapshot, or the current one, unchanged, when every event was stale or about
   *     keys outside the schema (client registrations, unknown keys). The new snapshot is at {@code
   *     revision} when an event changed a map key (meta, nodes/, shards/); one that only changed
   *     {@code migration-lock} keeps the map revision of the one before
   * @throws IllegalStateException if {@link #reset} never succeeded
   */
  public TopologySnapshot apply(long revision, List<KeyChange> changes) {
    return stage(revision, changes) ? publishStaged() : current;
  }

  /**
   * Applies and validates the events of one store revision like {@link #apply}, without building a
   * snapshot: the validation is exactly that of a revision applied alone (each revision is checked
   * against the assignments in force after the one before), only the snapshot is left for {@link
   * #publishStaged}. A source that has several revisions queued stages each, then publishes once:
   * one snapshot for all of them, never one half-way through a revision.
   *
   * @return whether the revision changed something a snapshot shows (false when every event was
   *     stale or outside the schema)
   * @throws IllegalStateException if {@link #reset} never succeeded
   */
  public boolean stage(long revision, List<KeyChange> changes) {
    requireRevision(revision);
    if (current == null) {
      throw new IllegalStateException("apply() before the first successful reset()");
    }
    if (!staged) {
      invalid.beginRevision();
    }
    changedNodes.clear();
    Set<String> touched = new HashSet<>();
    boolean mapChanged = false;
    for (KeyChange change : changes) {
      ParsedKey parsed = schemaKey(change.key());
      if (parsed == null || (!touched.contains(change.key()) && isStale(change))) {
        continue;
      }
      touched.add(change.key());
      mapChanged |= isMapKey(parsed);
      if (change.isDelete()) {
        deletedAt.put(change.key(), change.modRevision());
      } else {
        deletedAt.remove(change.key());
      }
      applyChange(change, parsed, revision);
    }
    if (touched.isEmpty()) {
      return false;
    }
    validate();
    if (mapChanged) {
      mapRevision = Math.max(mapRevision, revision);
    }
    staged = true;
    return true;
  }

  /**
   * The snapshot of every revision staged since the last one built, at the map revision after them;
   * the current snapshot when nothing was staged.
   */
  public TopologySnapshot publishStaged() {
    if (!staged) {
      return current;
    }
    return publish();
  }

  /** The last snapshot built, or null before the first successful {@link #reset}. */
  public TopologySnapshot current() {
    return current;
  }

  /**
   * The map revision: the store revision of the last change to meta, nodes/ or shards/ applied (the
   * revision of the snapshots), or -1 before the first successful {@link #reset}.
   */
  public long mapRevision() {
    return mapRevision;
  }

  /** How many entries of the current snapshot are invalid. */
  public int invalidEntryCount() {
    return invalid.count();
  }

  /** The cluster's key layout. */
  public TopologyKeys keys() {
    return keys;
  }

  private ParsedKey schemaKey(String key) {
    if (!key.startsWith(keys.rootPrefix())) {
      return null;
    }
    ParsedKey parsed = keys.parse(key);
    Kind kind = parsed.kind();
    return kind == Kind.META
            || kind == Kind.NODE
            || kind == Kind.SHARD
            || kind == Kind.MIGRATION_LOCK
        ? parsed
        : null;
  }

  /** Whether a key of the schema is one of the map's (meta, nodes/, shards/): its changes count. */
  private static boolean isMapKey(ParsedKey parsed) {
    if (parsed == null) {
      return false;
    }
    Kind kind = parsed.kind();
    return kind == Kind.META || kind == Kind.NODE || kind == Kind.SHARD;
  }

  private boolean isStale(KeyChange change) {
    if (change.modRevision() <= listingRevision) {
      return true;
    }
    KeyChange known = cached.get(change.key());
    long knownRevision =
        known != null ? known.modRevision() : deletedAt.getOrDefault(change.key(), -1L);
    return change.modRevision() <= knownRevision;
  }

  private void applyChange(KeyChange change, ParsedKey parsed, long revision) {
    String key = change.key();
    if (change.isDelete()) {
      cached.remove(key);
    } else {
      cached.put(key, change);
    }
    switch (parsed.kind()) {
      case META:
        meta.apply(change, revision, invalid);
        break;
      case NODE:
        boolean changed =
            change.isDelete()
                ? nodes.delete(key, parsed.name(), invalid)
                : nodes.put(key, parsed.name(), change.value(), change.modRevision(), invalid);
        if (changed) {
          changedNodes.add(parsed.name());
          nodesChanged = true;
        }
        break;
      case SHARD:
        if (change.isDelete()) {
          shards.delete(key, parsed, revision, invalid);
        } else {
          shards.put(key, parsed, change.value(), change.modRevision(), invalid);
        }
        break;
      case MIGRATION_LOCK:
        applyLock(change, revision);
        break;
      default:
        break;
    }
  }

  private void applyLock(KeyChange change, long revision) {
    MigrationLock before = migrationLock;
    if (change.isDelete()) {
      migrationLock = null;
    } else {
      // A file has no create revisions: the revision that first loaded the value stands in.
      long created =
          change.createRevision() > 0
              ? change.createRevision()
              : change.modRevision() > 0 ? change.modRevision() : revision;
      try {
        migrationLock = MigrationCodec.decodeLock(change.value(), created);
      } catch (TopologyEntryException e) {
        migrationLock = null;
        LOG.warn(
            "cluster '{}' topology revision {}: {} does not decode ({}); no freeze holds while it"
                + " stays so",
            keys.cluster(),
            revision,
            change.key(),
            e.getMessage());
        return;
      }
    }
    if (migrationLock == null) {
      if (before != null) {
        LOG.info(
            "cluster '{}' topology revision {}: migration lock of migration '{}' released",
            keys.cluster(),
            revision,
            before.migrationId());
      }
    } else if (!migrationLock.equals(before)) {
      LOG.info(
          "cluster '{}' topology revision {}: migration lock held by '{}' for migration '{}'"
              + " (created at revision {})",
          keys.cluster(),
          revision,
          migrationLock.owner(),
          migrationLock.migrationId(),
          migrationLock.createRevision());
    }
  }

  /** The valid migration lock in force, or null. */
  public MigrationLock migrationLock() {
    return migrationLock;
  }

  /** Re-validates the shards the revision touched, against its final node table. */
  private void validate() {
    shards.markReferencing(changedNodes);
    shards.revalidate(nodes, invalid);
    changedNodes.clear();
  }

  private TopologySnapshot publish() {
    staged = false;
    long revision = mapRevision;
    TopologySnapshot previous = current;
    if (previous != null && previous.metadata().equals(meta.metadata())) {
      // Checks only the routes rebuilt since, and shares the node table when no node changed.
      current =
          previous.next(
              revision,
              nodesChanged ? nodes.inForce() : previous.nodes(),
              shards.routes(),
              invalid.list(),
              clock.instant(),
              migrationLock);
    } else {
      current =
          TopologySnapshot.create(
              keys.cluster(),
              revision,
              meta.metadata(),
              nodes.inForce(),
              shards.routes(),
              invalid.list(),
              clock.instant(),
              migrationLock);
    }
    nodesChanged = false;
    logInvalidEntries(revision);
    return current;
  }

  private void logInvalidEntries(long revision) {
    List<InvalidEntry> reported = invalid.reportedThisRevision();
    if (!reported.isEmpty()) {
      StringJoiner reasons = new StringJoiner("; ");
      for (int i = 0; i < Math.min(LOGGED_REASONS, reported.size()); i++) {
        reasons.add(reported.get(i).key() + ": " + reported.get(i).reason());
      }
      if (reported.size() > LOGGED_REASONS) {
        reasons.add("and " + (reported.size() - LOGGED_REASONS) + " more");
      }
      LOG.warn(
          "cluster '{}' topology revision {}: {} invalid entries kept out of the map (their last"
              + " valid values stay in force), {} new: {}",
          keys.cluster(),
          revision,
          invalid.count(),
          reported.size(),
          reasons);
    } else if (invalid.clearedThisRevision() > 0) {
      LOG.info(
          "cluster '{}' topology revision {}: {} invalid entries fixed, {} remain",
          keys.cluster(),
          revision,
          invalid.clearedThisRevision(),
          invalid.count());
    }
  }

  private static void requireRevision(long revision) {
    if (revision < 0) {
      throw new IllegalArgumentException("revision must be at least 0, was " + revision);
    }
  }
}
