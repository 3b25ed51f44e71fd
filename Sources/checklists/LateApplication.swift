import ChecklistsWeb
import Foundation
import Logging
import Synchronization

/// The application of a `serve` that started before its documents could be
/// reached: made on a thread of its own, tried again (each try through the
/// database's back-off gate) until it starts, then answering every request.
/// Read without a lock on every request: one atomic load.
final class LateApplication: Sendable {
  private let reference = AtomicLazyReference<Application>()

  /// Nil until the application started.
  var application: Application? { reference.load() }

  /// Tries every 100 ms at first, then up to every 2 s; stops the process
  /// on a failure that waiting will not mend (see
  /// `ServeCommand.waitsForDocuments`).
  func start(configuration: ApplicationConfiguration, logger: Logger) {
    Thread.detachNewThread { [self] in
      var delay = 0.1
      while true {
        Thread.sleep(forTimeInterval: delay)
        do {
          let application = try Application(configuration: configuration, logger: logger)
          _ = reference.storeIfNil(application)
          logger.notice("the documents can be reached: serving")
          return
        } catch  where ServeCommand.waitsForDocuments(error) {
          delay = min(delay * 2, 2)
        } catch {
          logger.critical("cannot start: \(error)")
          exit(EXIT_FAILURE)
        }
      }
    }
  }
}
