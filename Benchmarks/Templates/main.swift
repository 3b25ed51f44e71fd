// Times the Checklist page: its rows (`item-row`, each on top of the list, in one
// `renderEach`), the `checklist` template with them, then `layout` with it as `content`,
// rendered from the real Templates/ directory with contexts holding the keys the templates'
// top comments list. Run: swift build -c release --product bench-templates && .build/release/bench-templates
import Foundation
import HTMLTemplates

// `bench-templates --profile N [--items M]` only renders the 20-item (M-item) page N times: a fixed workload for
// `valgrind --tool=callgrind`, whose instruction counts do not depend on the machine's load.
let profileRuns = CommandLine.arguments.firstIndex(of: "--profile").flatMap {
  CommandLine.arguments.indices.contains($0 + 1) ? Int(CommandLine.arguments[$0 + 1]) : nil
}
/// `--items M` with `--profile`: pages of M items instead of 20 (a page that outgrows the
/// renderer's first buffer).
let profileItems =
  CommandLine.arguments.firstIndex(of: "--items").flatMap {
    CommandLine.arguments.indices.contains($0 + 1) ? Int(CommandLine.arguments[$0 + 1]) : nil
  } ?? 20
let directory =
  CommandLine.arguments.dropFirst().first(where: { !$0.hasPrefix("-") && Int($0) == nil })
  ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().appendingPathComponent("Templates").path

let library: TemplateLibrary
do {
  library = try TemplateLibrary(directory: directory)
} catch {
  print("cannot load \(directory): \(error)")
  exit(1)
}

let csrf = String(repeating: "9f86d081884c7d65", count: 4)
let cartIcon =
  "<svg viewBox=\"0 0 24 24\" aria-hidden=\"true\" focusable=\"false\"><path d=\"M3 4h2l2.4 10.2a2 2 0 0 0 2 1.6h7.7a2 2 0 0 0 2-1.5L21 8H6.2\"/><circle cx=\"10\" cy=\"20\" r=\"1.5\"/><circle cx=\"17\" cy=\"20\" r=\"1.5\"/></svg>"
let texts = [
  "Milk", "Eggs & bacon", "Crème fraîche", "Bread (wholemeal)", "Apples <Granny Smith>",
  "Coffee beans, 1 kg", "Olive oil \"extra virgin\"", "Tomatoes",
]

/// Item ids as the model would hold them (made up front: formatting them is not the page's cost).
let itemIDs = (0..<5_000).map { String(format: "%08X-4F89-41D3-9A0C-0305E82C3301", $0) }

/// The checklist screen's context with `count` items, as a handler would build it: the
/// page's values, and each row's.
struct ChecklistContext {
  let page: TemplateObject
  let items: [TemplateValue]
  let list: TemplateValue
}

func checklistContext(items count: Int) -> ChecklistContext {
  var items: [TemplateValue] = []
  items.reserveCapacity(count)
  for index in 0..<count {
    items.append([
      "id": .string(itemIDs[index]),
      "text": .string(texts[index % texts.count]),
      "checked": .bool(index % 3 == 0),
    ])
  }
  let list: TemplateValue = [
    "id": "6B29FC40-CA47-1067-B31D-00DD010662DA", "name": "Groceries",
    "icon": ["svg": .string(cartIcon)],
  ]
  let page = TemplateObject([
    "list": list,
    "hasAnyItems": .bool(count > 0),
    "hasItems": .bool(count > 0),
    "csrf": .string(csrf),
    "addNonce": .int(count + 1),
    "limits": ["itemText": 500],
  ])
  return ChecklistContext(page: page, items: items, list: ["list": list])
}

/// The screen's whole context: its rows rendered (as the Checklist screen renders the rows
/// no cache holds), then the page's values with them.
@inline(never)
func screenContext(_ context: ChecklistContext) throws -> TemplateValue {
  let (rows, _) = try library.renderEach("item-row", context.items, in: context.list)
  var page = context.page
  page.append(TemplateKey("rows"), .list([.html(rows)]))
  return .object(page)
}

let layoutBase: TemplateObject = TemplateObject([
  "title": "Groceries",
  "assets": ["css": "/static/style.3f2a9c.css", "js": "/static/app.3f2a9c.js"],
])

/// Renders one whole page into `page`: the screen straight into the layout's content slot.
@inline(never)
func renderPage(_ context: ChecklistContext, page: inout [UInt8]) throws {
  page.removeAll(keepingCapacity: true)
  try library.render(
    "checklist", context: try screenContext(context), inLayout: "layout",
    context: .object(layoutBase), into: &page)
}

/// The same page the simple way: the screen to a String, passed to the layout as `content`.
@inline(never)
func renderPageViaString(
  _ context: ChecklistContext, screen: inout [UInt8], page: inout [UInt8]
) throws {
  screen.removeAll(keepingCapacity: true)
  page.removeAll(keepingCapacity: true)
  try library.render("checklist", context: try screenContext(context), into: &screen)
  var layout = layoutBase
  layout["content"] = .string(String(decoding: screen, as: UTF8.self))
  try library.render("layout", context: .object(layout), into: &page)
}

@inline(never)
func renderScreen(_ context: ChecklistContext, screen: inout [UInt8]) throws {
  screen.removeAll(keepingCapacity: true)
  try library.render("checklist", context: try screenContext(context), into: &screen)
}

/// The best of `batches` batches of the time of one call, in nanoseconds (the machine is shared:
/// the best batch is the one least disturbed by other work); each batch runs
/// long enough (about 20 ms) for the clock's resolution not to matter.
func measure(batches: Int = 15, _ body: () throws -> Void) rethrows -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  try body()
  let once = max(1, DispatchTime.now().uptimeNanoseconds - start)
  let iterations = max(1, Int(20_000_000 / once))
  var samples: [Double] = []
  for _ in 0..<batches {
    let begin = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<iterations { try body() }
    samples.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / Double(iterations))
  }
  samples.sort()
  return samples[0]
}

func format(_ nanoseconds: Double) -> String {
  if nanoseconds >= 1_000_000 { return String(format: "%.2f ms", nanoseconds / 1_000_000) }
  if nanoseconds >= 1_000 { return String(format: "%.2f µs", nanoseconds / 1_000) }
  return String(format: "%.0f ns", nanoseconds)
}

/// The item rows in a rendered page: a context that no longer matches the templates' keys
/// renders none, and timing that would measure nothing.
func checkRows(_ page: [UInt8], expected: Int) {
  let row = Array("<li><button class=check ".utf8)
  var found = 0
  var index = 0
  while index + row.count <= page.count {
    if page[index..<index + row.count].elementsEqual(row) {
      found += 1
      index += row.count
    } else {
      index += 1
    }
  }
  guard found == expected else {
    fatalError("the page has \(found) item rows, not \(expected): the context lacks a template key")
  }
}

var screen: [UInt8] = []
var page: [UInt8] = []
screen.reserveCapacity(1 << 16)
page.reserveCapacity(1 << 16)

if let profileRuns {
  let context = checklistContext(items: profileItems)
  for _ in 0..<profileRuns { try! renderPage(context, page: &page) }
  checkRows(page, expected: profileItems)
  print("rendered the \(profileItems)-item page \(profileRuns) times, \(page.count) bytes")
  exit(0)
}

do {
  print("Checklist page from \(directory) (best of 15 batches of about 20 ms; release build)")
  for count in [20, 5_000] {
    let context = checklistContext(items: count)
    try renderPage(context, page: &page)
    let pageBytes = page.count
    checkRows(page, expected: count)
    try renderPageViaString(context, screen: &screen, page: &page)
    guard page.count == pageBytes else { fatalError("the two ways render different pages") }
    let pageTime = try measure { try renderPage(context, page: &page) }
    let screenTime = try measure { try renderScreen(context, screen: &screen) }
    let viaString = try measure { try renderPageViaString(context, screen: &screen, page: &page) }
    let build = measure { _ = checklistContext(items: count) }
    print(
      "\(count) items: page \(format(pageTime)), \(pageBytes) bytes (checklist alone \(format(screenTime)); "
        + "page via a String \(format(viaString)); building the context \(format(build)))")
  }
  print("Growth (whole page, per item):")
  for count in [100, 1_000, 5_000] {
    let context = checklistContext(items: count)
    let pageTime = try measure { try renderPage(context, page: &page) }
    checkRows(page, expected: count)
    print(
      "  \(count) items: \(format(pageTime)), \(String(format: "%.0f", pageTime / Double(count))) ns per item"
    )
  }
} catch {
  print("render failed: \(error)")
  exit(1)
}
