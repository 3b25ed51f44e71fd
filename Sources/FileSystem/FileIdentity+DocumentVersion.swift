import Documents

extension FileIdentity {
  /// The file's version as the seam tells it: its device, inode, size and
  /// modification time, which together do not repeat.
  package var documentVersion: DocumentVersion {
    DocumentVersion(
      place: device, number: inode, size: size, modifiedSeconds: modifiedSeconds,
      modifiedNanoseconds: modifiedNanoseconds)
  }
}

extension FileSnapshot {
  /// The bytes and their version as the seam tells them.
  package var documentSnapshot: DocumentSnapshot {
    DocumentSnapshot(contents: contents, version: identity.documentVersion)
  }
}
