package io.jumpgate.topology;

import io.jumpgate.spi.MigrationLock;
import java.util.Optional;

/**
 * {@link MigrationStore#acquireLock} found {@code <root>/migration-lock} held: another mover is
 * running a migration (or died, and its lease has not expired yet). The message names the owner,
 * the migration, since when and the lock's create revision; {@link #holder()} gives them typed
 * (empty when the value does not decode: the message then quotes it).
 *
 * <p>Unchecked; immutable once thrown.
 */
public class MigrationLockHeldException extends MigrationConflictException {

  private static final long serialVersionUID = 1L;

  private final transient MigrationLock holder;

  /**
   * @param revision the revision at which the lock was found
   * @param holder the lock found, or null when its value does not decode
   * @param detail the message
   */
  public MigrationLockHeldException(long revision, MigrationLock holder, String detail) {
    super(revision, detail);
    this.holder = holder;
  }

  /** The lock that is held, when its value decodes. */
  public Optional<MigrationLock> holder() {
    return Optional.ofNullable(holder);
  }
}
