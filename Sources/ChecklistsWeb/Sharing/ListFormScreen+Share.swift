import ChecklistsModel
import FastCGI
import HTMLTemplates
import Storage

/// The Edit List screen's Share section: the list's read-only and edit
/// links (`/s/<token>`, see `SharedListScreen`), each made, shown again
/// with a Copy button, and revoked by its own form.
///
/// A link's token is worked out from the owner's secret, which this
/// browser opens with its own token (`DeviceStore`); so showing the links
/// writes nothing, and the data directory holds no usable link.
extension ListFormScreen {
  /// `POST /lists/{list}/share/read-only`: make the list's read-only link
  /// (a repeat keeps it).
  static func createReadOnlyLink(_ context: ChangeContext) throws -> Response {
    try createLink(.readOnly, context)
  }

  /// `POST /lists/{list}/share/edit`: make the list's edit link.
  static func createEditLink(_ context: ChangeContext) throws -> Response {
    try createLink(.edit, context)
  }

  /// `POST /lists/{list}/share/read-only/revoke`: the read-only link is
  /// `404` from now on, for good.
  static func revokeReadOnlyLink(_ context: ChangeContext) throws -> Response {
    try revokeLink(.readOnly, context)
  }

  /// `POST /lists/{list}/share/edit/revoke`: the edit link is `404` from
  /// now on, for good.
  static func revokeEditLink(_ context: ChangeContext) throws -> Response {
    try revokeLink(.edit, context)
  }

  /// Makes the link: the list stored first (a first-run list is only shown
  /// until then, and a link must find it), then the owner's secret (made
  /// now if this is their first link or code), then the link. Links of
  /// lists gone for good (neither the owner's nor in Recently Deleted) are
  /// dropped with the same write.
  private static func createLink(_ kind: ShareKind, _ context: ChangeContext) throws -> Response {
    let listID = try context.id(.list)
    let keeping = try context.updateModel { model -> Set<Int> in
      guard model.checklist(id: listID) != nil else { throw ChecklistsError.noSuchList(listID) }
      return Set(model.lists.map(\.id) + model.deletions.compactMap { $0.list?.id })
    }
    let owner = context.session.directory
    let secret = try context.services.devices.secret(
      of: owner, token: context.session.id.hex, name: BrowserName.of(context.request),
      now: context.now)
    do {
      _ = try context.services.shares.create(
        kind, list: listID, for: owner, secret: secret, now: context.now, keeping: keeping)
    } catch is ShareLinks.TooManyLinks {
      throw WebError.unprocessable(
        translatable("You have as many share links as can be kept; revoke some first."),
        backHref: editPath(listID), backLabel: translatable("Edit List"))
    }
    return .redirect(to: editPath(listID) + "#share")
  }

  private static func revokeLink(_ kind: ShareKind, _ context: ChangeContext) throws -> Response {
    let listID = try context.id(.list)
    guard try context.currentModel().model.checklist(id: listID) != nil else {
      throw WebError.listNotFound
    }
    try context.services.shares.revoke(kind, list: listID, of: context.session.directory)
    return .redirect(to: editPath(listID) + "?\(revokedQuery)=\(kind.slug)#share")
  }

  static func editPath(_ listID: Int) -> String { "/lists/\(listID)/edit" }

  /// The query a revocation's redirect carries, naming the link's kind.
  static let revokedQuery = "link-revoked"

  /// The Share section of list `listID`: its values, and whether it shows
  /// a link's address (a secret: the page is then never kept, see `edit`).
  struct ShareSection {
    var value: TemplateValue
    var showsAddress: Bool
  }

  /// The Share section's values for list `listID`: under `share.links`
  /// one entry per kind (see the `list-form` template), and `share.notice`
  /// after a revocation.
  static func shareContext<Input>(_ context: RequestContext<Input>, listID: Int) throws
    -> ShareSection
  {
    let services = context.services
    let catalogue = context.catalogue
    let owner = context.session.directory
    let secret = try services.devices.existingSecret(of: owner, token: context.session.id.hex)
    let links = try services.shares.links(of: owner, list: listID, secret: secret)
    let origin = PublicOrigin.of(
      context.request, configured: services.configuration.publicOrigin)
    var entries: [TemplateValue] = []
    var showsAddress = false
    for kind in ShareKind.allCases {
      var entry: [String: TemplateValue] = [
        "kind": .string(kind.slug), "label": .string(catalogue.text(kind.label)),
        "help": .string(catalogue.text(kind.help)), "create": .string(catalogue.text(kind.create)),
        "revoke": .string(catalogue.text(kind.revoke)),
      ]
      if let link = links[kind] {
        entry["exists"] = true
        if let token = link.token {
          entry["address"] = .string((origin.map { "\($0)" } ?? "") + SharedPages.path(token.text))
          showsAddress = true
        }
      }
      entries.append(.object(TemplateObject(entry)))
    }
    var share: [String: TemplateValue] = ["links": .list(entries)]
    let prefix = revokedQuery + "="
    if context.request.query.hasPrefix(prefix),
      let kind = ShareKind.allCases.first(where: {
        context.request.query.dropFirst(prefix.count) == $0.slug
      })
    {
      share["notice"] = .string(catalogue.text(kind.revokedNotice))
    }
    return ShareSection(value: .object(TemplateObject(share)), showsAddress: showsAddress)
  }
}

extension ShareKind {
  /// The kind as its addresses spell it: `read-only`, `edit`.
  var slug: String {
    switch self {
    case .readOnly: "read-only"
    case .edit: "edit"
    }
  }

  /// "Read-only link", "Edit link".
  var label: String {
    switch self {
    case .readOnly: translatable("Read-only link")
    case .edit: translatable("Edit link")
    }
  }

  /// The button that makes the link.
  var create: String {
    switch self {
    case .readOnly: translatable("Create Read-Only Link")
    case .edit: translatable("Create Edit Link")
    }
  }

  /// The button that revokes it.
  var revoke: String {
    switch self {
    case .readOnly: translatable("Revoke Read-Only Link")
    case .edit: translatable("Revoke Edit Link")
    }
  }

  /// The notice after it was revoked.
  var revokedNotice: String {
    switch self {
    case .readOnly: translatable("The read-only link is revoked: it no longer works.")
    case .edit: translatable("The edit link is revoked: it no longer works.")
    }
  }

  /// What the link lets its holder do.
  var help: String {
    switch self {
    case .readOnly:
      translatable("Whoever opens it sees this list and its items, and cannot change anything.")
    case .edit:
      translatable(
        "Whoever opens it can add, edit, check and delete items; not rename or delete the list, nor see your other lists."
      )
    }
  }
}
