import ChecklistsModel
import Foundation
import Logging
import Storage

/// A store on `data` that skips `fsync`.
func makeStore(_ data: String) -> ChecklistStore {
  ChecklistStore(
    configuration: .init(dataDirectory: data, durable: false),
    logger: Logger(label: "checklistsTests"))
}

/// `initial` for `ChecklistStore.update`: the stored model, or the first-run one.
func storedOrFirstRun(_ stored: DataModel?) -> DataModel { stored ?? .firstRun() }

/// A visitor of `data` with one stored item, `milk`, in the first-run list.
func visitorWithAnItem(_ id: String, in data: String) throws -> VisitorDirectory {
  let visitor = VisitorDirectory(dataDirectory: data, visitorID: id)
  try makeStore(data).update(visitor, initial: storedOrFirstRun) { model in
    _ = try model.addItem(text: "milk", toList: 1)
  }
  return visitor
}

/// Sets the times of the visitor's directory and everything in it `days` back.
func backdate(_ visitor: VisitorDirectory, days: Double) throws {
  let past = Date(timeIntervalSinceNow: -days * 86_400)
  for name in try FileManager.default.contentsOfDirectory(atPath: visitor.path) {
    try FileManager.default.setAttributes(
      [.modificationDate: past], ofItemAtPath: "\(visitor.path)/\(name)")
  }
  try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: visitor.path)
}
