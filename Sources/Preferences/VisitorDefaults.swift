import Foundation
import PropertyList

/// One request's view of a visitor's defaults: cookie → persistent →
/// registration.
///
/// Changes are visible to this scope's reads at once and reach the disk
/// (once, whatever their number) and the observers in `commit()`. Not for
/// sharing across threads: a request owns its scope.
package final class VisitorDefaults {
  private let defaults: Defaults
  /// The visitor's directory, also the persistent domain's name.
  package let directory: String?
  /// The request's cookie of each cookie-backed key, by key, as it came.
  private let cookieValues: [String: String]
  private let registration: [String: PropertyListValue]
  /// Defaults registered for this request alone (`registerForThisRequest`),
  /// searched before `registration`: a few keys, so an array. Written into
  /// `registration` itself, they copied the whole shared dictionary on
  /// every request (~4,500 instructions, callgrind).
  private var requestRegistration: [(key: String, value: PropertyListValue)] = []
  private let cookieKinds: [String: CookieValueKind]

  private var loaded = false
  /// The persistent domain as this request sees it: as read, plus its changes.
  private var domain = DomainView()
  private var problem: String?
  private var unavailable: PreferencesError?
  /// Cookie values this request set (`.some(nil)`: deleted).
  private var cookieOverrides: [String: PropertyListValue?] = [:]
  private var cookieChanges: [CookieChange] = []
  private var operations: [Operation] = []

  /// One call of a mutating method: one notification if it changed anything.
  private struct Operation {
    var change: PersistentChange?
    var cookieKeys: [String]
  }

  init(
    defaults: Defaults, directory: String?, cookieValues: [String: String],
    registration: [String: PropertyListValue], cookieKinds: [String: CookieValueKind]
  ) {
    self.defaults = defaults
    self.directory = directory
    self.cookieValues = cookieValues
    self.registration = registration
    self.cookieKinds = cookieKinds
  }

  // MARK: Reading

  package func object(forKey key: String) -> Any? { value(forKey: key)?.foundationValue }
  package func string(forKey key: String) -> String? { value(forKey: key)?.stringValue }
  package func integer(forKey key: String) -> Int { value(forKey: key)?.integerValue ?? 0 }
  package func double(forKey key: String) -> Double { value(forKey: key)?.doubleValue ?? 0 }
  package func float(forKey key: String) -> Float { Float(double(forKey: key)) }
  package func bool(forKey key: String) -> Bool { value(forKey: key)?.boolValue ?? false }
  package func url(forKey key: String) -> URL? { value(forKey: key)?.urlValue }

  package func data(forKey key: String) -> Data? {
    guard case .data(let bytes)? = value(forKey: key) else { return nil }
    return bytes
  }

  /// Not in `UserDefaults`; a date set here reads back in whole seconds.
  package func date(forKey key: String) -> Date? {
    guard case .date(let date)? = value(forKey: key) else { return nil }
    return date
  }

  package func array(forKey key: String) -> [Any]? {
    guard case .array(let values)? = value(forKey: key) else { return nil }
    return values.map(\.foundationValue)
  }

  package func dictionary(forKey key: String) -> [String: Any]? {
    guard case .dictionary(let values)? = value(forKey: key) else { return nil }
    return values.mapValues(\.foundationValue)
  }

  /// Every key of every domain with the value a getter would see.
  package func dictionaryRepresentation() -> [String: Any] {
    loadIfNeeded()
    var merged = registration
    for (key, value) in requestRegistration { merged[key] = value }
    merged.merge(domain.materialized) { _, persistent in persistent }
    for key in cookieKinds.keys {
      if let value = cookieValue(forKey: key) { merged[key] = value }
    }
    return merged.mapValues(\.foundationValue)
  }

  /// Whether `commit()` has anything to write or send.
  package var hasChanges: Bool { !operations.isEmpty || !cookieChanges.isEmpty }

  /// Set when the visitor's file could not be read (an unparsable one was
  /// kept aside as `Preferences.plist.corrupt-<time>`): a sentence to show
  /// the visitor. The scope then runs on the defaults.
  package var loadProblem: String? {
    loadIfNeeded()
    return problem
  }

  /// Throws `.unavailable` when the visitor's file could not be read
  /// because its store was out of reach (a database away, not a damaged
  /// file): the request should then be refused, not run on the defaults.
  package func requireReachable() throws(PreferencesError) {
    loadIfNeeded()
    if let unavailable { throw unavailable }
  }

  /// The strings of an array value (`AppleLanguages`); nil when the value
  /// is not an array of strings.
  package func stringArray(forKey key: String) -> [String]? {
    guard case .array(let values)? = value(forKey: key) else { return nil }
    let strings = values.compactMap(\.stringValue)
    return strings.count == values.count ? strings : nil
  }

  /// Whether the visitor's persistent domain holds `key` (their own
  /// choice), rather than the value coming from registration.
  package func isStored(forKey key: String) -> Bool {
    loadIfNeeded()
    return domain[key] != nil
  }

  /// Registers `strings` as `key`'s default for this scope only: a default
  /// that depends on the request, as the browser's languages do
  /// (`AppleLanguages`, whose registration Apple's system makes from the
  /// device's languages). A stored value still wins; a reset returns to it.
  package func registerForThisRequest(strings: [String], forKey key: String) {
    let value = PropertyListValue.array(strings.map { .string($0) })
    if let index = requestRegistration.firstIndex(where: { $0.key == key }) {
      requestRegistration[index].value = value
    } else {
      requestRegistration.append((key, value))
    }
  }

  // MARK: Writing

  package func set(_ value: Int, forKey key: String) { setChecked(.integer(value), forKey: key) }
  package func set(_ value: Bool, forKey key: String) { setChecked(.bool(value), forKey: key) }
  package func set(_ value: Double, forKey key: String) { setChecked(.real(value), forKey: key) }
  package func set(_ value: String, forKey key: String) {
    setChecked(.string(PlistText.sanitized(value)), forKey: key)
  }

  /// Sets any property-list value; nil removes the key.
  ///
  /// - Throws: `PreferencesError.notAPropertyListValue` for anything else,
  ///   `.notACookieValue` for a cookie-backed key given a value its cookie
  ///   cannot carry. Nothing changes then.
  package func set(_ value: Any?, forKey key: String) throws(PreferencesError) {
    guard let value else {
      removeObject(forKey: key)
      return
    }
    try set(PropertyListValue(validating: value, key: key), forKey: key)
  }

  package func removeObject(forKey key: String) {
    var keys: [String] = []
    if cookieKinds[key] != nil, deleteCookie(key) { keys.append(key) }
    record(.remove(key), cookieKeys: keys)
  }

  /// Returns `keys` to their registered defaults in one change and one
  /// notification: they leave the persistent domain (and cookie-backed ones
  /// their cookies); other keys are untouched.
  package func resetToRegisteredDefaults(forKeys keys: [String]) {
    let cookieKeys = keys.filter { cookieKinds[$0] != nil && deleteCookie($0) }
    record(.reset(keys), cookieKeys: cookieKeys)
  }

  /// Writes this request's persistent changes (one atomic, durable write,
  /// only if something changed), notifies the observers once per effective
  /// change, and returns what the response must tell the browser about the
  /// cookie-backed keys, in the order it happened: per key its renewal or
  /// removal, then the value it was last set to, if set after that (a set
  /// replaces an earlier set, a removal every earlier change).
  ///
  /// Changes are re-applied to the file as it is under the visitor's lock,
  /// so concurrent requests (of this or another process) lose nothing.
  ///
  /// - Throws: `PreferencesError.noDirectory` when a persistent key changed
  ///   and the visitor has no directory; `.io` when the file could not be
  ///   written. The changes stay pending then.
  package func commit() throws(PreferencesError) -> [CookieChange] {
    guard hasChanges else { return [] }
    var effective = operations.map { _ in [String]() }
    let persistent = operations.indices.filter { operations[$0].change != nil }
    if !persistent.isEmpty {
      guard let directory else { throw .noDirectory }
      let outcome = try defaults.commit(
        directory: directory, changes: persistent.map { operations[$0].change! })
      for (index, keys) in zip(persistent, outcome.effective) { effective[index] = keys }
      domain = DomainView(base: outcome.domain)
      if let failure = outcome.problem { problem = failure }
    }
    let changes = zip(operations, effective).compactMap { operation, keys -> PreferencesChange? in
      let all = Set(keys).union(operation.cookieKeys)
      return all.isEmpty ? nil : PreferencesChange(directory: directory, keys: all.sorted())
    }
    let cookies = cookieChanges
    operations = []
    cookieChanges = []
    defaults.notify(changes)
    return cookies
  }

  /// Sends every well-formed cookie-backed value the request carried
  /// again, unchanged (`CookieChange.renew`), so that the browser keeps it
  /// as long as a newly set one (browsers count a cookie's life from when it
  /// was last set, not last sent). A value this request sets afterwards is
  /// sent after its renewal, a removal replaces it. Not a change: observers
  /// are not told.
  package func renewCookies() {
    for (key, kind) in cookieKinds.sorted(by: { $0.key < $1.key }) where cookieOverrides[key] == nil
    {
      guard let text = cookieValues[key], kind.decode(text) != nil else { continue }
      queue(.renew(key: key, value: text))
    }
  }

  // MARK: Internals

  func replacePersistentDomain(_ replacement: [String: Any]) throws(PreferencesError) {
    var validated: [String: PropertyListValue] = [:]
    for (key, value) in replacement {
      validated[PlistText.sanitized(key)] = try PropertyListValue(validating: value, key: key)
    }
    record(.replace(validated), cookieKeys: [])
  }

  func value(forKey key: String) -> PropertyListValue? {
    if cookieKinds[key] != nil, let value = cookieValue(forKey: key) { return value }
    loadIfNeeded()
    return domain[key] ?? registered(forKey: key)
  }

  /// `key`'s default: this request's registration, else the process's.
  private func registered(forKey key: String) -> PropertyListValue? {
    for registered in requestRegistration where registered.key == key { return registered.value }
    return registration[key]
  }

  private func cookieValue(forKey key: String) -> PropertyListValue? {
    if let override = cookieOverrides[key] { return override }
    guard let kind = cookieKinds[key], let text = cookieValues[key] else { return nil }
    return kind.decode(text)
  }

  private func loadIfNeeded() {
    guard !loaded else { return }
    loaded = true
    guard let directory else { return }
    let loaded = defaults.loadDomain(directory)
    domain = DomainView(base: loaded.domain)
    problem = loaded.problem
    unavailable = loaded.unavailable
  }

  private func setChecked(_ value: PropertyListValue, forKey key: String) {
    do throws(PreferencesError) {
      try set(value, forKey: key)
    } catch {
      defaults.logger.warning("preference not set", metadata: ["error": "\(error)"])
    }
  }

  private func set(_ value: PropertyListValue, forKey key: String) throws(PreferencesError) {
    guard let kind = cookieKinds[key] else {
      record(.set(key, value), cookieKeys: [])
      return
    }
    guard let text = kind.encode(value), let decoded = kind.decode(text) else {
      throw .notACookieValue(key: key, typeName: "\(value)")
    }
    guard cookieValue(forKey: key) != decoded else { return }
    cookieOverrides[key] = .some(decoded)
    queue(.set(key: key, value: text))
    operations.append(Operation(change: nil, cookieKeys: [key]))
  }

  /// Deletes a cookie-backed key's cookie; true when that changed its value
  /// (a tampered cookie is deleted too, but read as absent already).
  private func deleteCookie(_ key: String) -> Bool {
    let before = cookieValue(forKey: key)
    let present = cookieOverrides[key].map { $0 != nil } ?? (cookieValues[key] != nil)
    cookieOverrides[key] = .some(nil)
    if present { queue(.remove(key: key)) }
    return before != nil
  }

  /// Adds a cookie change after the ones it replaces are dropped: a set
  /// replaces the key's earlier set, a renewal its earlier renewal, a
  /// removal every earlier change of the key.
  private func queue(_ change: CookieChange) {
    cookieChanges.removeAll { earlier in
      guard earlier.key == change.key else { return false }
      switch (earlier, change) {
      case (_, .remove), (.set, .set), (.renew, .renew): return true
      default: return false
      }
    }
    cookieChanges.append(change)
  }

  /// Applies a change to this scope's view and logs it when it did anything.
  private func record(_ change: PersistentChange, cookieKeys: [String]) {
    loadIfNeeded()
    let changed = domain.apply(change)
    guard !changed.isEmpty || !cookieKeys.isEmpty else { return }
    operations.append(Operation(change: changed.isEmpty ? nil : change, cookieKeys: cookieKeys))
  }
}
