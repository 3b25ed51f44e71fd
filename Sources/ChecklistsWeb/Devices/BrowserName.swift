import FastCGI
import Foundation

/// A readable name for a browser, from its `User-Agent`: "Firefox on
/// Linux", "Safari on iPhone". Only for the owner to tell their devices
/// apart on the Devices screen, so a rough guess is enough; an agent it
/// cannot read is "A browser".
package enum BrowserName {
  /// The name of the browser that sent `request`.
  package static func of(_ request: Request) -> String {
    of(userAgent: request.headerFields[.userAgent] ?? "")
  }

  /// The name of a browser from its User-Agent text.
  /// A stored name ("Firefox on Linux", "A browser") in `catalogue`'s
  /// language: the names of browsers and systems are the same in every one.
  static func shown(_ stored: String, _ catalogue: Catalogue) -> String {
    let unknown = "A browser"
    guard let on = stored.range(of: " on ", options: .backwards) else {
      return stored == unknown ? catalogue.text(translatable("A browser")) : stored
    }
    let browser = String(stored[..<on.lowerBound])
    let system = String(stored[on.upperBound...])
    if browser == unknown {
      return catalogue.text(translatable("A browser on {{system}}"), [("system", system)])
    }
    return catalogue.text(
      translatable("{{browser}} on {{system}}"), [("browser", browser), ("system", system)])
  }

  package static func of(userAgent: String) -> String {
    let agent = userAgent.prefix(512)
    let browser = browserName(agent)
    guard let system = systemName(agent) else { return browser ?? "A browser" }
    return "\(browser ?? "A browser") on \(system)"
  }

  /// Looked for in order: Edge, Opera and Samsung's browser carry
  /// "Chrome" too, and Chrome carries "Safari".
  private static let browsers: [(token: String, name: String)] = [
    ("Edg/", "Edge"), ("EdgA/", "Edge"), ("EdgiOS/", "Edge"), ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"), ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"), ("Chromium/", "Chromium"), ("Chrome/", "Chrome"),
    ("Safari/", "Safari"), ("curl/", "curl"),
  ]

  private static let systems: [(token: String, name: String)] = [
    ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("CrOS", "ChromeOS"),
    ("Windows", "Windows"), ("Macintosh", "Mac"), ("Mac OS X", "Mac"), ("Linux", "Linux"),
  ]

  private static func browserName(_ agent: Substring) -> String? {
    browsers.first { agent.contains($0.token) }?.name
  }

  private static func systemName(_ agent: Substring) -> String? {
    systems.first { agent.contains($0.token) }?.name
  }
}
