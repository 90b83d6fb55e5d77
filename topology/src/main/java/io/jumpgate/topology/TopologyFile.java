package io.jumpgate.topology;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * The file a {@link FileTopologySource} reads: tells whether it changed since the last read by its
 * modification time, size and identity (inode), which also catches an editor that replaces the file
 * by a rename, and hashes what it reads.
 *
 * <p>Not thread-safe: confined to the source's thread.
 */
final class TopologyFile {

  private record Stamp(Object lastModified, long size, Object identity) {}

  private final Path path;
  private Stamp lastStamp;

  TopologyFile(Path path) {
    this.path = path;
  }

  /**
   * The file's content if its stamp changed since the last read, or if {@code force}; else null.
   *
   * @throws IOException if the file cannot be read; the next call reads it again
   */
  byte[] readIfChanged(boolean force) throws IOException {
    Stamp stamp;
    byte[] content;
    try {
      BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
      stamp = new Stamp(attributes.lastModifiedTime(), attributes.size(), attributes.fileKey());
      if (!force && stamp.equals(lastStamp)) {
        return null;
      }
      if (attributes.size() > TopologyDocument.MAX_DOCUMENT_BYTES) {
        throw new IOException(
            "the file has "
                + attributes.size()
                + " bytes, more than the "
                + TopologyDocument.MAX_DOCUMENT_BYTES
                + " a topology document may have");
      }
      content = Files.readAllBytes(path);
    } catch (IOException e) {
      lastStamp = null;
      throw e;
    }
    lastStamp = stamp; // taken before reading: a change during the read is seen next time
    return content;
  }

  static byte[] sha256(byte[] content) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(content);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  Path path() {
    return path;
  }

  @Override
  public String toString() {
    return Objects.toString(path);
  }
}
