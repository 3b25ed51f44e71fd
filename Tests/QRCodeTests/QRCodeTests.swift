import QRCode
import Testing

@Suite struct QRCodeTests {
  /// Whether the 7 × 7 modules from (`top`, `left`) are a finder pattern: a
  /// dark ring, a light ring, a dark 3 × 3 centre.
  func hasFinderPattern(_ code: QRCode, top: Int, left: Int) -> Bool {
    for row in 0..<7 {
      for column in 0..<7 {
        let ring = min(row, column, 6 - row, 6 - column)
        if code.isDark(row: top + row, column: left + column) != (ring != 1) { return false }
      }
    }
    return true
  }

  @Test(arguments: ["a", "https://checklists.example/lists/2", String(repeating: "x", count: 500)])
  func theFinderPatternsAreAtThreeCornersAndNotTheFourth(text: String) throws {
    let code = try QRCode(text: text)
    let far = code.size - 7
    #expect(hasFinderPattern(code, top: 0, left: 0))
    #expect(hasFinderPattern(code, top: 0, left: far))
    #expect(hasFinderPattern(code, top: far, left: 0))
    #expect(!hasFinderPattern(code, top: far, left: far))
    // The light separators beside them, and the timing pattern between.
    for index in 0..<8 {
      #expect(!code.isDark(row: 7, column: index))
      #expect(!code.isDark(row: index, column: 7))
      #expect(!code.isDark(row: 7, column: code.size - 1 - index))
      #expect(!code.isDark(row: code.size - 1 - index, column: 7))
    }
    for index in 8..<(code.size - 8) {
      #expect(code.isDark(row: 6, column: index) == index.isMultiple(of: 2))
      #expect(code.isDark(row: index, column: 6) == index.isMultiple(of: 2))
    }
  }

  /// Byte mode at level M holds 84 bytes in version 5 and 106 in version
  /// 6, so a 90-character link takes version 6: 17 + 4 × 6 modules a side.
  @Test func aNinetyCharacterLinkTakesVersionSix() throws {
    let link =
      "https://checklists.example/link/K7Q2-M9XD-4FHT-8WNB-3R6P-Y1ZC-V5?from=devices&step=1&tab=1"
    #expect(link.utf8.count == 90)
    #expect(try QRCode(text: link).size == 41)
    #expect(try QRCode(text: String(link.prefix(84))).size == 37)
    #expect(try QRCode(text: String(link.prefix(85))).size == 41)
    #expect(try QRCode(text: "a").size == 21)
  }

  @Test func theLargestSymbolHoldsExactlyItsCapacity() throws {
    #expect(try QRCode(text: String(repeating: "x", count: 2_331)).size == 177)
    #expect(throws: QRCodeError.textTooLong(byteCount: 2_332)) {
      try QRCode(text: String(repeating: "x", count: 2_332))
    }
  }

  @Test func aTextFarTooLongOrEmptyHasAClearError() throws {
    let long = String(repeating: "é", count: 5_000)
    let error = #expect(throws: QRCodeError.self) { try QRCode(text: long) }
    #expect(error == .textTooLong(byteCount: 10_000))
    #expect(error?.description.contains("10000 bytes") == true)
    #expect(throws: QRCodeError.empty) { try QRCode(text: "") }
    #expect(QRCodeError.empty.description == "an empty text has no QR code")
    #expect(
      QRCodeError.encodingFailed(errno: 12).description
        == "libqrencode could not encode the text: Cannot allocate memory (errno 12)")
  }

  @Test func differentTextsMakeDifferentSymbols() throws {
    let one = try QRCode(text: "http://127.0.0.1:8080/link/AAAA")
    #expect(try QRCode(text: "http://127.0.0.1:8080/link/AAAA") == one)
    #expect(try QRCode(text: "http://127.0.0.1:8080/link/AAAB") != one)
  }

  /// libqrencode keeps one shared table behind a mutex; several threads
  /// encoding at once get what one thread gets.
  @Test func encodingFromManyTasksAtOnceGivesTheSameSymbols() async throws {
    let texts = (0..<8).map { "http://127.0.0.1:8080/link/\($0)-K7Q2-M9XD-4FHT-8WNB-3R6P" }
    let expected = try texts.map { try QRCode(text: $0) }
    let results = try await withThrowingTaskGroup(of: (Int, [QRCode]).self) { group in
      for (index, text) in texts.enumerated() {
        group.addTask { (index, try (0..<25).map { _ in try QRCode(text: text) }) }
      }
      return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
    }
    for (index, codes) in results { #expect(codes.allSatisfy { $0 == expected[index] }) }
    #expect(results.count == texts.count)
  }
}
