import Foundation

/// A document's bytes together with the version they are: read as one, so
/// that a cache never pairs one version's bytes with another's identity.
package struct DocumentSnapshot: Sendable {
  package var contents: Data
  package var version: DocumentVersion

  package init(contents: Data, version: DocumentVersion) {
    self.contents = contents
    self.version = version
  }
}
