import Foundation
import QRCode
import TestSupport
import Testing

/// The SVG read back by an independent decoder: rendered to PNG by librsvg
/// (`rsvg-convert`) and decoded by ZBar (`zbarimg`), both from Debian.
@Suite struct QRCodeRoundTripTests {
  let directory = TemporaryDirectory("qr-round-trip")
  /// QR codes only, the bytes as they are (no charset guessing), no D-Bus.
  let zbarOptions = ["--raw", "-q", "--nodbus", "-Sdisable", "-Sqrcode.enable"]

  /// The text ZBar reads from the picture of `text`'s SVG, whose modules
  /// are `moduleSize` × `zoom` pixels.
  func decodedText(of text: String, moduleSize: Int = 4, zoom: Int = 2) throws -> String {
    let svg = try QRCode(text: text).svg(label: "QR code", moduleSize: moduleSize)
    let svgPath = directory.appending("code.svg")
    let pngPath = directory.appending("code.png")
    try svg.write(toFile: svgPath, atomically: true, encoding: .utf8)
    try ExternalTool.rsvgConvert.run(
      ["--zoom", "\(zoom)", "--format", "png", "--output", pngPath, svgPath], in: directory)
    let read = try ExternalTool.zbarimg.run(zbarOptions + [pngPath], in: directory)
    // zbarimg ends each symbol's text with a line break.
    #expect(read.output.hasSuffix("\n"))
    return String(read.output.dropLast())
  }

  /// A one-time link as the Devices screen shows it: a 128-bit code in
  /// groups of four letters and digits.
  @Test func aOneTimeLinkReadsBack() throws {
    let link = "http://127.0.0.1:8080/link/K7Q2-M9XD-4FHT-8WNB-3R6P-Y1ZC-V5"
    #expect(try decodedText(of: link) == link)
  }

  @Test func randomCodesReadBack() throws {
    let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    var random = SystemRandomNumberGenerator()
    for _ in 0..<3 {
      let code = (0..<26).map { _ in String(alphabet.randomElement(using: &random)!) }.joined()
      let link = "https://checklists.example/link/" + code
      #expect(try decodedText(of: link) == link)
    }
  }

  @Test(arguments: [
    "https://checklists.example/link/K7Q2-M9XD-4FHT-8WNB-3R6P-Y1ZC-V5?from=devices&step=1",
    "Listes <à faire> & \"courses\" ✓",
    String(repeating: "0123456789abcdef", count: 40),
  ])
  func textsReadBack(text: String) throws {
    #expect(try decodedText(of: text) == text)
  }

  /// The smallest size a page would show: 2 CSS pixels a module on a
  /// display of two device pixels per CSS pixel.
  @Test func smallModulesReadBack() throws {
    let link = "http://127.0.0.1:8080/link/K7Q2-M9XD-4FHT-8WNB-3R6P-Y1ZC-V5"
    #expect(try decodedText(of: link, moduleSize: 2, zoom: 2) == link)
  }

  /// The decoder does fail: a picture with no code in it is an error, not
  /// an empty text.
  @Test func aPictureWithoutACodeIsNotRead() throws {
    let blank = """
      <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="200" height="200">\
      <rect width="10" height="10" fill="#fff"/></svg>
      """
    let svgPath = directory.appending("blank.svg")
    let pngPath = directory.appending("blank.png")
    try blank.write(toFile: svgPath, atomically: true, encoding: .utf8)
    try ExternalTool.rsvgConvert.run(["--output", pngPath, svgPath], in: directory)
    #expect(throws: ExternalTool.Failed.self) {
      try ExternalTool.zbarimg.run(zbarOptions + [pngPath], in: directory)
    }
  }
}
