import Foundation

#if FUZZING
  /// The target chosen by `--target=NAME`; libFuzzer passes over flags that start with `--`.
  nonisolated(unsafe) var selectedTarget: (@Sendable ([UInt8]) -> Void)?

  /// libFuzzer's driver (`int LLVMFuzzerRunDriver(int *, char ***, callback)`): SwiftPM
  /// links every executable's `main` to `<target>_main`, so this module's `main` starts it
  /// rather than libFuzzer's own `main`. Declared by symbol name: its three arguments (two
  /// pointers and a C function pointer) and `Int32` result travel in the same registers
  /// under Swift's calling convention as under C's.
  @_silgen_name("LLVMFuzzerRunDriver")
  func runDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
  ) -> Int32

  @_cdecl("fuzz_main")
  func fuzzMain(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  ) -> Int32 {
    let arguments = (0..<Int(argc)).compactMap { argv?[$0].map { String(cString: $0) } }
    let name =
      arguments.first { $0.hasPrefix("--target=") }.map { String($0.dropFirst(9)) }
      ?? ProcessInfo.processInfo.environment["FUZZ_TARGET"]
    guard let name, let target = FuzzTargets.all[name] else {
      print("fuzz: pass --target=NAME, one of: \(FuzzTargets.names.joined(separator: ", "))")
      return 2
    }
    selectedTarget = target
    var count = argc
    var vector = argv
    return runDriver(&count, &vector, fuzzerTestOneInput)
  }

  /// One input for the selected target (libFuzzer's runtime refers to this name too).
  @_cdecl("LLVMFuzzerTestOneInput")
  func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selectedTarget?(bytes)
    return 0
  }
#else
  /// Without the fuzzer: replays files through a target, so the corpus and
  /// every saved crash run as a plain program (`fuzz NAME FILE_OR_DIR...`).
  @main
  struct Replay {
    static func main() {
      let arguments = Array(CommandLine.arguments.dropFirst())
      guard let name = arguments.first, let target = FuzzTargets.all[name] else {
        print(
          "usage: fuzz NAME FILE_OR_DIRECTORY..., NAME one of: \(FuzzTargets.names.joined(separator: ", "))"
        )
        exit(2)
      }
      var count = 0
      for path in arguments.dropFirst() {
        for file in files(at: path) {
          guard let data = FileManager.default.contents(atPath: file) else {
            print("fuzz: cannot read \(file)")
            exit(1)
          }
          target(Array(data))
          count += 1
        }
      }
      print("fuzz: \(name): \(count) inputs replayed, no crash")
    }

    static func files(at path: String) -> [String] {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        return []
      }
      guard isDirectory.boolValue else { return [path] }
      let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      return names.sorted().map { path + "/" + $0 }
    }
  }
#endif
