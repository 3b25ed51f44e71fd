import ChecklistsModel
import Documents
import Foundation
import ServiceMetrics
import Storage

/// What a visitor's handlers are given to work with (`RequestContext.services`):
/// the renderer, the stores, the CSRF key. Made once by `Application`.
final class VisitorServices: Sendable {
  let configuration: ApplicationConfiguration
  let renderer: PageRenderer
  let icons: IconLibrary
  let csrf: CSRF
  let store: ChecklistStore
  /// Where every document is kept: files, or a database several hosts share.
  let documents: any DocumentStore
  /// The visitors' private calendar addresses (secrets and their index).
  let calendars: CalendarAddresses
  /// Which owner each browser acts for; link codes; sign-out.
  let devices: DeviceStore
  /// Wrong link codes per client address.
  let linkAttempts = AttemptLimiter(
    limit: LinkScreen.attemptLimit, window: LinkScreen.attemptWindow, refusal: .linkCodeRefusal)
  /// App passwords made or ended per owner (`DevicesScreen.appChangeLimit`).
  let appChanges = AttemptLimiter(
    limit: DevicesScreen.appChangeLimit, window: DevicesScreen.appChangeWindow,
    refusal: .appChangeRefusal)
  /// The owners' share links (records and their index by SHA-256).
  let shares: ShareLinks
  /// The owners' pending imports, waiting for their Confirm.
  let pendingImports: PendingImports
  /// The owners' search indexes, kept while their files are unchanged.
  let searchIndexes = SearchIndexes()
  /// The owners' Checklist page rows, rendered and kept.
  let rowFragments: RowFragments

  init(
    configuration: ApplicationConfiguration, renderer: PageRenderer, icons: IconLibrary,
    csrf: CSRF, store: ChecklistStore, calendars: CalendarAddresses, devices: DeviceStore,
    shares: ShareLinks, pendingImports: PendingImports
  ) {
    self.configuration = configuration
    self.renderer = renderer
    self.icons = icons
    self.csrf = csrf
    self.store = store
    documents = configuration.documents
    self.calendars = calendars
    self.devices = devices
    self.shares = shares
    self.pendingImports = pendingImports
    rowFragments = RowFragments(budget: configuration.rowCacheBudget)
  }

  /// What reaches an owner's lists from outside their browsers: share
  /// links and the calendar address.
  var outsideAccess: OutsideAccess { OutsideAccess(shares: shares, calendars: calendars) }

  /// The visitor's checklists as they stand: what is stored, or the
  /// first-run list while nothing is (shown, never stored, on a `GET`).
  func currentModel(_ session: VisitorSession) throws -> CurrentModel {
    let stored = try store.load(session.directory)
    return CurrentModel(
      model: FirstRun.model(
        stored: stored, preferences: session.preferences, commit: false,
        listName: firstListName(session)),
      isFirstRun: FirstRun.isPending(stored: stored, preferences: session.preferences))
  }

  /// Changes the visitor's checklists: the store's one write path, which
  /// purges Recently Deleted and stores the first-run list the visitor was
  /// shown (see `ChecklistStore.update(_:at:firstRun:forgettable:_:)`).
  func updateModel<T>(
    _ session: VisitorSession, now: Date, _ change: (inout DataModel) throws -> T
  ) throws -> T {
    try store.update(
      session.directory, at: now, firstRun: session.preferences,
      firstListName: firstListName(session), change)
  }

  /// The first-run list's name in the visitor's language: "List", "Список".
  func firstListName(_ session: VisitorSession) -> String {
    renderer.translations[session.language.language].text(translatable("List"))
  }
}
