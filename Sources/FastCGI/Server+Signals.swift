import Foundation

extension Server {
  /// Serves until SIGTERM or SIGINT, then drains and returns.
  ///
  /// The signals are blocked in every thread (the workers inherit the mask)
  /// and taken by one thread with `sigwait`, so libfcgi's own handlers,
  /// which only set a flag, never run.
  package func runUntilSignalled(onSignal: @escaping @Sendable (Int32) -> Void = { _ in }) {
    let blocked = Syscalls.block([.terminate, .interrupt])
    let waiter = Thread { [self] in
      onSignal(Syscalls.wait(for: blocked))
      stop()
    }
    waiter.name = "signals"
    waiter.start()
    run()
  }
}
