import ICalendar
import Interchange
import TestSupport
import Testing
import WebTestSupport

@testable import ChecklistsWeb

/// The iCalendar and WebDAV XML readers' details inside a CalDAV refusal, in the
/// client's language: their words from the catalogue, their values (a line number,
/// a name as the body spells it) put in.
@Suite struct ReaderDetailLanguageTests {
  static let templates = BuiltTool.packageRoot + "/Templates"

  static func iCalendarError(_ text: String) -> ICalendarError? {
    do throws(ICalendarError) {
      _ = try Component.parse(ContentLineReader.read(Array(text.utf8)))
      return nil
    } catch { return error }
  }

  @Test func aMalformedLineIsRefusedInRussianWithItsNumber() throws {
    let russian = try Translations.catalogue(.russian, templatesDirectory: Self.templates)
    let error = try #require(Self.iCalendarError("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY\r\n"))
    #expect(error.message == "line 3 is malformed: ':' expected after SUMMARY")
    #expect(
      DAVMessage.text(of: .syntax(error), in: russian)
        == "это не правильный iCalendar: строка 3 искажена: после SUMMARY ожидался ':'")
  }

  @Test func unpairedBeginAndEndAreRefusedInGermanKeepingTheirNames() throws {
    let german = try Translations.catalogue(.german, templatesDirectory: Self.templates)
    let error = try #require(
      Self.iCalendarError("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nEND:VCALENDAR\r\n"))
    #expect(error.message == "line 3: END:VCALENDAR closes BEGIN:VTODO")
    #expect(error.text { german.text($0) } == "Zeile 3: END:VCALENDAR schließt BEGIN:VTODO")
  }

  @Test func everyReasonOfTheReaderHasARussianWording() throws {
    let russian = try Translations.catalogue(.russian, templatesDirectory: Self.templates)
    let bodies = [
      " A:x", "A:ok\r\nB:bell\u{07}", ":x", "A;B:x", "A;B=\"open:x", "A;B=x\"y:z",
      "SUMMARY:x", "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\nX:y", "BEGIN:VCALENDAR",
      "BEGIN;X=1:VCALENDAR", "",
    ]
    for body in bodies {
      let error = try #require(Self.iCalendarError(body), "\(body) is read")
      let worded = error.text { russian.text($0) }
      #expect(worded != error.message, "\(error.message) stays English")
      #expect(!worded.contains("line"), "\(worded)")
    }
  }

  @Test func aMalformedXMLBodyIsRefusedInRussian() throws {
    let russian = try Translations.catalogue(.russian, templatesDirectory: Self.templates)
    #expect(throws: DAVXMLError.self) {
      try DAVXMLReader.read(Array(#"<d:propfind xmlns:d="DAV:"><d:prop></d:propfind>"#.utf8))
    }
    do throws(DAVXMLError) {
      _ = try DAVXMLReader.read(Array(#"<d:propfind xmlns:d="DAV:"><d:prop></d:propfind>"#.utf8))
    } catch {
      #expect(error.message == "the XML body is not well-formed: </d:propfind> closes <d:prop>")
      #expect(
        error.text { russian.text($0) }
          == "тело XML построено неправильно: </d:propfind> закрывает <d:prop>")
    }
  }
}
