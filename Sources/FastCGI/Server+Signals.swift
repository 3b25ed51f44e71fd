import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension Server {
  /// Serves until SIGTERM or SIGINT, then drains and returns.
  ///
  /// The signals are blocked in every thread (the workers inherit the mask)
  /// and taken by one thread with `sigwait`, so libfcgi's own handlers,
  /// which only set a flag, never run.
  public func runUntilSignalled(onSignal: @escaping @Sendable (Int32) -> Void = { _ in }) {
    var signals = sigset_t()
    sigemptyset(&signals)
    sigaddset(&signals, SIGTERM)
    sigaddset(&signals, SIGINT)
    pthread_sigmask(SIG_BLOCK, &signals, nil)
    let blocked = signals
    let waiter = Thread { [self] in
      var received: Int32 = 0
      var set = blocked
      sigwait(&set, &received)
      onSignal(received)
      stop()
    }
    waiter.name = "signals"
    waiter.start()
    run()
  }
}
