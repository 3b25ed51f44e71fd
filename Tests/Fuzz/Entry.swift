import Foundation

#if FUZZING
  /// The target chosen by `--target=NAME` (libFuzzer passes flags that start
  /// with `--` through untouched).
  nonisolated(unsafe) var selectedTarget: (@Sendable ([UInt8]) -> Void)?

  @_cdecl("LLVMFuzzerInitialize")
  public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
  ) -> Int32 {
    let arguments = (0..<Int(argc.pointee)).compactMap {
      argv.pointee?[$0].map { String(cString: $0) }
    }
    let name =
      arguments.first { $0.hasPrefix("--target=") }.map { String($0.dropFirst(9)) }
      ?? ProcessInfo.processInfo.environment["FUZZ_TARGET"]
    guard let name, let target = FuzzTargets.all[name] else {
      fputs(
        "fuzz: pass --target=NAME, one of: \(FuzzTargets.names.joined(separator: ", "))\n", stderr)
      exit(2)
    }
    selectedTarget = target
    return 0
  }

  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
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
