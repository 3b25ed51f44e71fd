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
