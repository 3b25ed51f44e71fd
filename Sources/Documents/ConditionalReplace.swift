/// What `DocumentStore.replace(_:at:ifStill:…)` did.
package enum ConditionalReplace: Sendable {
  /// The bytes were written, as the version of this identity.
  case written(DocumentVersion)
  /// Nothing was written: the expected version had been replaced by this
  /// one (nil: the document is gone).
  case replaced(by: DocumentSnapshot?)
}
