import FileSystem
import Foundation
import TestSupport
import Testing

/// A snapshot holds exactly the file's bytes, whatever its size against the
/// read's buffers, and all of them when the file is longer than `fstat`
/// said (here a `/proc` file, whose size reads as 0).
@Suite struct FileSnapshotTests {
  let temporary = TemporaryDirectory("snapshot")

  @Test(arguments: [0, 1, 4_095, 4_096, 4_097, 65_536, 200_003])
  func aFileIsReadWhole(size: Int) throws {
    let path = temporary.path + "/file-\(size)"
    let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    try bytes.write(to: URL(fileURLWithPath: path))
    let snapshot = try #require(try FileSnapshot.read(path))
    #expect(snapshot.contents == bytes)
  }

  @Test func aFileLongerThanItsStatusSaysIsReadWhole() throws {
    let snapshot = try #require(try FileSnapshot.read("/proc/self/maps"))
    let text = String(decoding: snapshot.contents, as: UTF8.self)
    // Each mapping is a line; the process has dozens (more than 4 KiB).
    #expect(snapshot.contents.count > 4_096)
    #expect(text.hasSuffix("\n"))
    #expect(text.split(separator: "\n").allSatisfy { $0.contains("-") })
  }
}
