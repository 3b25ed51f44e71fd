import FastCGI
import HTTPTypes
import Testing

@testable import ChecklistsWeb

@Suite struct FormDecoderTests {
  private func decode(_ body: String, fieldLimit: Int = FormDecoder.defaultFieldLimit)
    throws(FormError) -> FormData
  {
    try FormDecoder.decode(Array(body.utf8), fieldLimit: fieldLimit)
  }

  @Test func decodesFieldsInOrder() throws {
    let form = try decode("csrf=abc&name=Groceries&icon=Folder")
    #expect(form.fields.map(\.name) == ["csrf", "name", "icon"])
    #expect(form["name"] == "Groceries")
    #expect(form["icon"] == "Folder")
    #expect(form["missing"] == nil)
  }

  @Test func plusIsASpaceAndPercentEscapesAreBytes() throws {
    let form = try decode("text=Milk+%26+honey%2B%3D&t%C3%A9xt=caf%C3%a9+%E2%9C%93")
    #expect(form["text"] == "Milk & honey+=")
    #expect(form["téxt"] == "café ✓")
  }

  @Test func firstValueWinsAndAllValuesAreKept() throws {
    let form = try decode("csrf=good&csrf=smuggled&tag=a&tag=b")
    #expect(form["csrf"] == "good")
    #expect(form.values(named: "tag") == ["a", "b"])
    #expect(form.values(named: "none").isEmpty)
  }

  @Test func emptyPiecesAreSkippedAndBareNamesHaveEmptyValues() throws {
    let form = try decode("&a=1&&OpenLastList&b=&=x&")
    #expect(
      form.fields == [
        .init(name: "a", value: "1"), .init(name: "OpenLastList", value: ""),
        .init(name: "b", value: ""), .init(name: "", value: "x"),
      ])
    #expect(form.contains("OpenLastList"))
    #expect(!form.contains("HideCheckedItems"))
    #expect(try decode("").fields.isEmpty)
  }

  @Test func onlyTheFirstEqualsSplits() throws {
    #expect(try decode("text=a=b==c")["text"] == "a=b==c")
  }

  @Test func controlCharactersAreDecodedForTheModelToJudge() throws {
    #expect(try decode("text=a%00b%0D%0Ac%09")["text"] == "a\u{0}b\r\nc\t")
  }

  @Test func invalidPercentEscapesAreRefused() {
    for body in ["text=%zz", "text=%", "text=%4", "text=abc%", "%g1=x", "text=%%41", "text=100%"] {
      #expect(throws: FormError.invalidPercentEscape, "\(body)") { try decode(body) }
    }
  }

  @Test func invalidUTF8IsRefused() {
    for body in [
      "text=%ff%fe", "text=%C3", "text=%C0%AF", "text=%ED%A0%80", "%80=x", "text=%F4%90%80%80",
    ] {
      #expect(throws: FormError.invalidUTF8, "\(body)") { try decode(body) }
    }
    // Raw (unescaped) bytes that are not UTF-8 are refused the same way.
    #expect(throws: FormError.invalidUTF8) {
      try FormDecoder.decode(Array("text=".utf8) + [0xff, 0xfe])
    }
  }

  @Test func tooManyFieldsAreRefusedBeforeDecoding() throws {
    let hostile = Array(repeating: "a=1", count: 10_000).joined(separator: "&")
    #expect(throws: FormError.tooManyFields(limit: 100)) { try decode(hostile) }
    // The count comes first: a bad escape after the limit is not even looked at.
    let late = Array(repeating: "a", count: 101).joined(separator: "&") + "&b=%zz"
    #expect(throws: FormError.tooManyFields(limit: 100)) { try decode(late) }
    let exactly = Array(repeating: "a=1", count: 100).joined(separator: "&")
    #expect(try decode(exactly).fields.count == 100)
    // Separators alone are no fields.
    #expect(try decode(String(repeating: "&", count: 10_000)).fields.isEmpty)
    #expect(throws: FormError.tooManyFields(limit: 2)) { try decode("a&b&c", fieldLimit: 2) }
  }

  @Test func errorsCarryTheirStatus() {
    #expect(FormError.unsupportedMediaType.status == .unsupportedMediaType)
    #expect(FormError.invalidPercentEscape.status == .badRequest)
    #expect(FormError.invalidUTF8.status == .badRequest)
    #expect(FormError.tooManyFields(limit: 100).status == .badRequest)
  }

  @Test func contentTypeMustBeURLEncoded() {
    let accepted = [
      "application/x-www-form-urlencoded", "application/x-www-form-urlencoded;charset=UTF-8",
      "Application/X-WWW-Form-URLEncoded ; charset=utf-8", " application/x-www-form-urlencoded\t",
    ]
    for value in accepted { #expect(FormDecoder.isURLEncoded(contentType: value), "\(value)") }
    let refused: [String?] = [
      nil, "", "multipart/form-data; boundary=x", "text/plain", "application/json",
      "application/x-www-form-urlencodedx", "application/x-www-form-urlencoded, text/plain",
    ]
    for value in refused {
      #expect(!FormDecoder.isURLEncoded(contentType: value), "\(String(describing: value))")
    }
  }

  @Test func decodesARequest() throws {
    let request = Request(
      method: .post, path: "/lists",
      headerFields: [.contentType: "application/x-www-form-urlencoded"],
      body: Array("name=Trips&icon=Trips".utf8))
    #expect(try FormDecoder.decode(request)["name"] == "Trips")
    let plain = Request(
      method: .post, path: "/lists", headerFields: [.contentType: "text/plain"],
      body: Array("name=x".utf8))
    #expect(throws: FormError.unsupportedMediaType) { try FormDecoder.decode(plain) }
    let missing = Request(method: .post, path: "/lists", body: Array("name=x".utf8))
    #expect(throws: FormError.unsupportedMediaType) { try FormDecoder.decode(missing) }
  }

  /// nginx passes the type twice (`CONTENT_TYPE` and `HTTP_CONTENT_TYPE`);
  /// the form is read all the same.
  @Test func decodesARequestAsNginxPassesIt() throws {
    let request = Request(
      parameters: [
        "REQUEST_METHOD": "POST", "REQUEST_URI": "/lists",
        "CONTENT_TYPE": "application/x-www-form-urlencoded",
        "HTTP_CONTENT_TYPE": "application/x-www-form-urlencoded", "CONTENT_LENGTH": "21",
        "HTTP_CONTENT_LENGTH": "21",
      ], body: Array("name=Trips&icon=Trips".utf8))
    #expect(try FormDecoder.decode(request)["name"] == "Trips")
  }
}
