import ChecklistsModel
import FastCGI
import HTMLTemplates

/// The visitor's settings (`GET /settings`), their save and their reset.
enum SettingsScreen {
  static let template = "settings"
  static let title = translatable("Settings")
  /// The language select's field: the preference's own name.
  static let languageField = PreferenceKey.appleLanguages

  /// The values the form shows: the stored ones, or what was sent.
  struct Values {
    var openLastList: Bool
    var hideCheckedItems: Bool
    var checkedItemsLast: Bool
    var timeZone: String
    /// The language chosen on this screen; nil: the browser's.
    var language: Language?
  }

  /// `GET /settings`: the settings, with the notice of a save or reset
  /// just made.
  static func show(_ context: ScreenContext) throws -> Response {
    let preferences = context.preferences
    let values = Values(
      openLastList: preferences.bool(forKey: PreferenceKey.openLastList),
      hideCheckedItems: preferences.bool(forKey: PreferenceKey.hideCheckedItems),
      checkedItemsLast: preferences.bool(forKey: PreferenceKey.checkedItemsLast),
      timeZone: VisitorTimeZone.currentIdentifier(preferences),
      language: context.session.language.fromBrowser ? nil : context.language)
    return try context.page(
      template, title: context.catalogue.text(title),
      try withCalendar(
        context,
        pageContext(
          values, notice: notice(query: context.request.query).map { context.catalogue.text($0) },
          error: nil, csrf: context.csrfToken)))
  }

  /// `POST /settings`: save the settings. An unchecked box sends nothing,
  /// so a missing field means false. The time zone is saved only when the
  /// form has the field; one this server does not know is `400`, with the
  /// form shown again as sent and nothing saved.
  static func save(_ context: ChangeContext) throws -> Response {
    let form = context.form
    let preferences = context.preferences
    let timeZone: String?
    let language: Language??
    do {
      timeZone = try VisitorTimeZone.chosen(in: form)
      language = try chosenLanguage(in: form)
    } catch {
      let sent = Values(
        openLastList: form.contains("OpenLastList"),
        hideCheckedItems: form.contains("HideCheckedItems"),
        checkedItemsLast: form.contains("CheckedItemsLast"),
        timeZone: VisitorTimeZone.currentIdentifier(preferences),
        language: context.session.language.fromBrowser ? nil : context.language)
      return try context.refusedForm(
        template, title: context.catalogue.text(title),
        try withCalendar(
          context,
          pageContext(
            sent, notice: nil, error: error.message(in: context.catalogue),
            csrf: context.csrfToken)),
        status: .badRequest)
    }
    preferences.set(form.contains("OpenLastList"), forKey: PreferenceKey.openLastList)
    preferences.set(form.contains("HideCheckedItems"), forKey: PreferenceKey.hideCheckedItems)
    preferences.set(form.contains("CheckedItemsLast"), forKey: PreferenceKey.checkedItemsLast)
    if let timeZone, timeZone != VisitorTimeZone.identifier(preferences) {
      preferences.set(timeZone, forKey: PreferenceKey.timeZone)
    }
    switch language {
    case .none: break
    case .some(.none): preferences.removeObject(forKey: PreferenceKey.appleLanguages)
    case .some(.some(let chosen)):
      try preferences.set([chosen.tag], forKey: PreferenceKey.appleLanguages)
    }
    return .redirect(to: "/settings?saved")
  }

  /// `POST /settings/reset`: the settings back to their registered defaults.
  static func reset(_ context: ChangeContext) throws -> Response {
    context.preferences.resetToRegisteredDefaults(forKeys: RegisteredDefaults.settingKeys)
    return .redirect(to: "/settings?reset")
  }

  /// The language the form sent: nil when it has no such field, `.some(nil)`
  /// for the browser's own (`""`), else one of `Language.offered`; any other
  /// value is `400`.
  static func chosenLanguage(in form: FormData) throws(WebError) -> Language?? {
    guard let tag = form[languageField] else { return nil }
    if tag.isEmpty { return .some(nil) }
    guard let language = Language(tag: tag), Language.offered.contains(language) else {
      throw WebError.badRequest(
        translatable(
          "The language “{{tag}}” is not one this site offers. Choose one from the list on Settings."
        ), [("tag", String(tag.prefix(20)))])
    }
    return .some(language)
  }

  /// The sentence shown after a save or a reset, chosen by the query the
  /// redirect carries (`?saved`, `?reset`); nil otherwise.
  static func notice(query: String) -> String? {
    switch query {
    case "saved": translatable("Settings saved.")
    case "reset": translatable("Settings reset to their defaults.")
    default: calendarNotice(query: query)
    }
  }

  /// The select's options, rendered once per zone (see `TimeZoneSelect`).
  static let zoneSelect = TimeZoneSelect(identifiers: VisitorTimeZone.identifiers)

  static func pageContext(_ values: Values, notice: String?, error: String?, csrf: String)
    -> TemplateValue
  {
    var context = TemplateObject(capacity: 10)
    context.append(Key.openLastList, .bool(values.openLastList))
    context.append(Key.hideCheckedItems, .bool(values.hideCheckedItems))
    context.append(Key.checkedItemsLast, .bool(values.checkedItemsLast))
    context.append(Key.timeZoneOptions, .string(zoneSelect.options(selected: values.timeZone)))
    context.append(Key.csrf, .string(csrf))
    context.append(Key.languageChosen, .bool(values.language != nil))
    context.append(Key.languages, languageOptions[values.language.map { $0.rawValue + 1 } ?? 0])
    if let notice { context.append(Key.notice, .string(notice)) }
    if let error { context.append(Key.error, .string(error)) }
    return .object(context)
  }

  /// The names of the page's context, hashed once.
  private enum Key {
    static let openLastList = TemplateKey("openLastList")
    static let hideCheckedItems = TemplateKey("hideCheckedItems")
    static let checkedItemsLast = TemplateKey("checkedItemsLast")
    static let timeZoneOptions = TemplateKey("timeZoneOptions")
    static let csrf = TemplateKey("csrf")
    static let notice = TemplateKey("notice")
    static let error = TemplateKey("error")
    static let languageChosen = TemplateKey("languageChosen")
    static let languages = TemplateKey("languages")
  }

  /// The language select's options (`tag`, `name` in its own language,
  /// `selected`), made once for each choice: none (the browser's), then
  /// each language by its `rawValue`.
  private static let languageOptions: [TemplateValue] = {
    let choices: [Language?] = [nil] + Language.allCases
    return choices.map { chosen in
      .list(
        Language.offered.map { language in
          [
            "tag": .string(language.tag), "name": .string(language.nativeName),
            "selected": .bool(language == chosen),
          ]
        })
    }
  }()
}
