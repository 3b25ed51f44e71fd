"""Every screen in the visitor's language, through nginx (issue 29).

A Russian browser must meet no English on a translated screen: the test
reads each page's text and the attributes a person reads or hears
(aria-label, title, alt, placeholder, value of a button) and finds runs of
ASCII words, outside the visitor's own text and the few names that are
not English (the product's name, file formats).

Also: the plural rules against CLDR's (Babel, in .build/babel-venv), the
catalogues through gettext's own checker, and the language as a
preference (Accept-Language, a stored choice, Reset, Vary).
"""
import datetime
import html
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from stack import ROOT, backend_binary
from visitor import Visitor

BABEL = ROOT / ".build" / "babel-venv" / "bin" / "python"
RUSSIAN = {"Accept-Language": "ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7"}

# Words that are no language's or are names: the product, formats, the
# iOS app's file, a key as its cap reads, the calendar apps and protocol
# Devices names. Anything else in ASCII letters on a Russian page is
# English left behind.
NOT_ENGLISH = {"Checklists", "JSON", "XML", "Markdown", "iCalendar", "iOS", "JavaScript", "plist",
               "Alt", "GitHub", "CalDAV", "Apple", "Reminders", "Thunderbird", "Tasks", "org",
               "DAVx", "QR", "UTC"}

# The visitor's own text on the pages below, never translated.
VISITOR_TEXT = ["Groceries", "milk and bread", "eggs", "butter", "List"]

ASCII_WORDS = re.compile(r"[A-Za-z][A-Za-z'’-]*(?:[ \t,.;:!?()]+[A-Za-z][A-Za-z'’-]*)*")


class ReadableText(HTMLParser):
    """The text a person reads or hears on a page: text nodes and the
    attributes read aloud, outside <script>, <style>, <code>, the time
    zone select's zone names and anything marked with another language."""

    SPOKEN = ("aria-label", "title", "alt", "placeholder")

    def __init__(self, page_language):
        super().__init__(convert_charrefs=True)
        self.page_language = page_language
        self.skipping = []  # a stack of tags whose content is skipped
        self.pieces = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if self.skipping:
            if tag not in ("input", "br", "meta", "link", "img"):
                self.skipping.append(tag)
            return
        other_language = attributes.get("lang") not in (None, self.page_language)
        if tag in ("script", "style", "code") or attributes.get("id") == "time-zone" or other_language:
            if tag not in ("input", "br", "meta", "link", "img"):
                self.skipping.append(tag)
            return
        for name in self.SPOKEN:
            if attributes.get(name):
                self.pieces.append(attributes[name])

    def handle_endtag(self, tag):
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data):
        if not self.skipping and data.strip():
            self.pieces.append(data)


def english_left(html, page_language="ru", visitor_text=VISITOR_TEXT):
    """The runs of ASCII words a reader of `page_language` would meet."""
    reader = ReadableText(page_language)
    reader.feed(html)
    found = []
    for piece in reader.pieces:
        for text in sorted(visitor_text, key=len, reverse=True):
            piece = piece.replace(text, " ")
        for run in ASCII_WORDS.findall(piece):
            words = [w for w in re.findall(r"[A-Za-z][A-Za-z'’-]*", run)
                     if w.rstrip("-") not in NOT_ENGLISH]
            if words:
                found.append(run)
    return found


def russian_visitor(stack):
    """A Russian browser with a list of some items: one due, one checked,
    one hidden by Hide checked items, so that every part of the list page
    shows."""
    visitor = Visitor(stack)
    visitor.http.headers.update(RUSSIAN)
    visitor.get("/")
    visitor.create_list("Groceries")
    list_id = max(visitor.list_ids())
    for text in ("milk and bread", "eggs", "butter"):
        visitor.add_item(list_id, text)
    page = visitor.get(f"/lists/{list_id}").text
    ids = re.findall(r'formaction=\d+/items/(\d+)/toggle ', page)
    assert visitor.post(f"/lists/{list_id}/items/{ids[1]}/toggle", {"check": "1"}).status_code == 303
    assert visitor.post(
        f"/lists/{list_id}/items/{ids[0]}", {"text": "milk and bread", "dueDate": f"{TOMORROW}T18:30",
                                              "dueDateZone": "UTC"}).status_code == 303
    return visitor, list_id, ids


TOMORROW = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)).date().isoformat()


# Each screen: its address, given the list's id and its items' ids.
TRANSLATED = {
    "all lists": lambda l, i: "/lists",
    "checklist": lambda l, i: f"/lists/{l}",
    "settings": lambda l, i: "/settings",
    "settings saved": lambda l, i: "/settings?saved",
    "a list that is not there (404)": lambda l, i: "/lists/999",
    "an address that is not there (404)": lambda l, i: "/no-such-page",
    "list form": lambda l, i: f"/lists/{l}/edit",
    "new list": lambda l, i: "/lists/new",
    "item form": lambda l, i: f"/lists/{l}/items/{i[0]}/edit",
    "reorder": lambda l, i: f"/lists/{l}/reorder",
    "recently deleted": lambda l, i: "/deleted",
    "export": lambda l, i: "/settings/export",
    "import": lambda l, i: "/settings/import",
    "devices": lambda l, i: "/settings/devices",
    "link": lambda l, i: "/link",
    "about": lambda l, i: "/about.html",
}


@pytest.mark.parametrize("screen", sorted(TRANSLATED))
def test_a_translated_screen_has_no_english_left(stack, screen):
    visitor, list_id, ids = russian_visitor(stack)
    page = visitor.get(TRANSLATED[screen](list_id, ids))
    assert page.status_code in (200, 404), page.status_code
    assert '<html lang="ru">' in page.text
    assert english_left(page.text) == []


def test_the_screens_after_a_change_read_in_russian(stack):
    """Pages that show only after something was done: an item deleted
    (Recently Deleted's entry), a share link made (Edit List's Share
    section), an edit refused (its sentence), a link code made (Devices),
    a file uploaded (Import Preview), and a shared list opened by its link."""
    visitor, list_id, ids = russian_visitor(stack)
    assert visitor.post(f"/lists/{list_id}/items/{ids[2]}/delete").status_code == 303
    deleted = visitor.get("/deleted").text
    assert "«Groceries»" in deleted and english_left(deleted) == []

    assert visitor.post(f"/lists/{list_id}/share/edit").status_code == 303
    edit = visitor.get(f"/lists/{list_id}/edit").text
    assert "Ссылка для изменения" in edit and english_left(edit) == []

    refused = visitor.post(f"/lists/{list_id}", {"name": " ", "icon": "folder"})
    assert refused.status_code == 422
    assert "Введите текст." in refused.text and english_left(refused.text) == []
    refused = visitor.post(f"/lists/{list_id}/items/{ids[0]}", {"text": "eggs", "dueDate": "soon"})
    assert refused.status_code == 400
    assert "«soon» — это не дата и время." in refused.text
    assert english_left(refused.text, visitor_text=VISITOR_TEXT + ["soon"]) == []

    code = visitor.post("/settings/devices/code")
    made = [re.search(r'class="code-text".*?<strong>([^<]+)</strong>', code.text).group(1),
            re.search(r"<strong>(http://[^<]+)</strong>", code.text).group(1)]
    assert code.status_code == 200
    assert english_left(code.text, visitor_text=VISITOR_TEXT + made) == []
    assert "Код: " in code.text

    markdown = "# Trip\n\n- [ ] tickets\n- [x] passport\n"
    uploaded = visitor.http.post(
        visitor.stack.url("/settings/import"), data={"csrf": visitor.csrf()},
        files={"file": ("trip.md", markdown, "text/markdown")}, allow_redirects=False)
    assert uploaded.status_code == 303, uploaded.text
    preview = visitor.get("/settings/import/preview").text
    assert "1 список, 2 пункта" in preview
    assert english_left(preview, visitor_text=VISITOR_TEXT + ["Trip", "trip.md"]) == []

    token = re.search(r'id="share-edit" value="http://[^"/]+/s/([0-9a-f]{32})"', edit).group(1)
    shared = visitor.get(f"/s/{token}")
    assert shared.status_code == 200 and '<html lang="ru">' in shared.text
    assert "Accept-Language" in shared.headers["Vary"]
    assert english_left(shared.text) == []
    # Kept by the shared memo: never given to a browser asking in another language.
    for _ in range(2):
        german = visitor.get(f"/s/{token}", headers={"Accept-Language": "de"})
        assert '<html lang="de">' in german.text
    assert '<html lang="ru">' in visitor.get(f"/s/{token}").text
    unknown = visitor.get(f"/s/{token}/no-such-page")
    assert unknown.status_code == 404 and '<html lang="ru">' in unknown.text
    assert english_left(unknown.text) == []


def upload(visitor, name, content, content_type):
    return visitor.http.post(
        visitor.stack.url("/settings/import"), data={"csrf": visitor.csrf()},
        files={"file": (name, content, content_type)}, allow_redirects=False)


def test_an_import_refused_reads_in_russian(stack):
    """The importer's own refusals (a file that is not JSON, a JSON
    export with a list out of shape, a Markdown file without tasks) and
    the model's refusal of what a file holds, all on the import page in
    Russian, with the place in the file; only the file's own names stay."""
    visitor, _, _ = russian_visitor(stack)
    refusals = [
        (("broken.json", '{"format": "checklists", "version": 1, "lists": [}', "application/json"),
         "Этот файл — не правильный JSON: ожидалось значение, а не “}” (строка 1, столбец 50).",
         ["broken.json"]),
        (("shape.json", '{"format": "checklists", "version": 1, "lists": [{"name": "Trip", "items": 3}]}',
          "application/json"),
         "Список 1 («Trip»): «items» — число, а ожидается массив пунктов.", ["shape.json", "Trip", "items"]),
        (("notes.md", "# Trip\n\nJust a paragraph.\n", "text/markdown"),
         "В этом файле Markdown нет задач", ["notes.md", "[x]"]),  # Markdown's own box
        (("empty-item.json", '{"format": "checklists", "version": 1, "lists": [{"name": "Trip", '
                             '"items": [{"text": " ", "checked": false}]}]}', "application/json"),
         "Пункт 1 списка 1 («Trip»): загрузить нельзя. Введите текст.", ["empty-item.json", "Trip"]),
    ]
    for (name, content, content_type), sentence, theirs in refusals:
        refused = upload(visitor, name, content, content_type)
        assert refused.status_code in (415, 422), (name, refused.status_code)
        assert '<html lang="ru">' in refused.text
        assert sentence in refused.text, (name, refused.text[-3000:])
        assert "Ничего не изменилось." in refused.text
        assert english_left(refused.text, visitor_text=VISITOR_TEXT + theirs) == [], name


def test_a_damaged_property_list_is_refused_in_russian(stack):
    """The property list reader's own sentences about the inside of a
    damaged file (an XML plist with an element of no plist, a binary one
    cut short, one nested too deep) are on the import page in Russian;
    only the file's own names (its elements, its name) stay as they are."""
    visitor, _, _ = russian_visitor(stack)
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<array>\n'
           '<dict><key>name</key><strin>Trip</strin></dict>\n</array>\n</plist>\n')
    deep = ('<?xml version="1.0"?>\n<plist version="1.0">' + "<array>" * 40
            + "</array>" * 40 + "</plist>\n")
    refusals = [
        (("Checklists.plist", xml),
         "Этот список свойств в XML составлен неправильно (строка 4, столбец 22): "
         "&lt;strin&gt; — не элемент списков свойств.", ["Checklists.plist", "strin"]),
        (("Checklists.plist", b"bplist00" + bytes(10)),
         "Этот список свойств повреждён: он обрывается.", ["Checklists.plist"]),
        (("deep.plist", deep), "глубина вложенности контейнеров больше 32", ["deep.plist"]),
    ]
    for (name, content), sentence, theirs in refusals:
        refused = upload(visitor, name, content, "application/x-plist")
        assert refused.status_code == 422, (name, refused.status_code)
        assert '<html lang="ru">' in refused.text
        assert sentence in refused.text, (name, refused.text[-3000:])
        assert "Ничего не изменилось." in refused.text
        assert english_left(refused.text, visitor_text=VISITOR_TEXT + theirs) == [], name
    # The same file in German, in German.
    german = Visitor(stack)
    german.http.headers.update({"Accept-Language": "de"})
    german.get("/")
    refused = upload(german, "Checklists.plist", xml, "application/x-plist")
    assert refused.status_code == 422
    assert ("Diese XML-Property-List ist fehlerhaft in Zeile 4, Spalte 22: "
            "&lt;strin&gt; ist kein Element von Property Lists.") in refused.text


def test_the_names_the_site_gives_a_list_are_in_the_visitors_language(stack):
    """A duplicated list is named "<name> Kopie" in German, "<name> (копия)"
    in Russian; the tasks of a Markdown file with no name of its own go to
    a list named in the visitor's language. Once made, such a name is the
    visitor's own text: it stays in any language."""
    german = Visitor(stack)
    german.http.headers.update({"Accept-Language": "de-DE,de;q=0.9"})
    german.get("/")
    groceries = german.create_list("Einkauf")
    german.add_item(groceries, "Milch")
    copied = german.post(f"/lists/{groceries}/duplicate")
    assert copied.status_code == 303, copied.status_code
    page = german.get(copied.headers["Location"])
    assert "<title>Einkauf Kopie · Checklists</title>" in page.text
    english = german.get(copied.headers["Location"], headers={"Accept-Language": "en"})
    assert "<title>Einkauf Kopie · Checklists</title>" in english.text

    visitor, list_id, _ = russian_visitor(stack)
    copied = visitor.post(f"/lists/{list_id}/duplicate")
    assert copied.status_code == 303, copied.status_code
    copy = visitor.get(copied.headers["Location"]).text
    assert "<title>Groceries (копия) · Checklists</title>" in copy
    assert english_left(copy) == []
    assert english_left(visitor.get("/lists").text) == []

    uploaded = upload(visitor, " .md", "- [ ] tickets\n- [x] passport\n", "text/markdown")
    assert uploaded.status_code == 303, uploaded.text[-2000:]
    preview = visitor.get("/settings/import/preview").text
    assert "Импортированный список" in preview
    assert english_left(preview, visitor_text=VISITOR_TEXT + [".md"]) == []
    digest = re.search(r'name="digest" value="([0-9a-f]{64})"', preview).group(1)
    assert visitor.post("/settings/import/confirm", {"digest": digest}).status_code == 303
    assert "Импортированный список" in visitor.get("/lists").text


def test_a_calendar_apps_refusals_are_in_its_language(stack):
    """CalDAV's sentences (a text/plain body, a DAV:responsedescription)
    are in the language the client asks for, and say so with
    `Vary: Accept-Language`; the names CalDAV gives (VTODO, SUMMARY) stay."""
    import requests
    from test_caldav import connect
    visitor = Visitor(stack)
    list_id = visitor.create_list("Groceries")
    app = connect(visitor)
    signed_out = requests.request("PROPFIND", stack.url("/dav/principal/"),
                                  headers={"Accept-Language": "ru", "Depth": "0"})
    assert signed_out.status_code == 401
    assert "войдите с именем пользователя и паролем приложения" in signed_out.text
    assert "Accept-Language" in signed_out.headers["Vary"]
    todo = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VTODO\r\n"
            "UID:no-summary\r\nDTSTAMP:20260101T000000Z\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
    for language, sentence in (("ru", "у VTODO должен быть SUMMARY"),
                               ("de", "das VTODO braucht eine SUMMARY"),
                               ("fr", "the VTODO needs a SUMMARY")):
        refused = requests.put(
            stack.url(f"/dav/lists/{list_id}/no-summary.ics"), data=todo.encode(),
            auth=(app["user"], app["password"]),
            headers={"Content-Type": "text/calendar", "Accept-Language": language})
        assert refused.status_code == 403, (language, refused.status_code, refused.text)
        assert f"<d:responsedescription>{sentence}</d:responsedescription>" in refused.text
        assert "Accept-Language" in refused.headers["Vary"]
    # The readers' details: their words in Russian, what they quote as sent.
    def sentence(response):
        text = response.text
        found = re.search(r"<d:responsedescription>(.*?)</d:responsedescription>", text, re.S)
        return html.unescape(found.group(1)) if found else text.strip()

    def english_left(text, names):
        return [word for word in re.findall(r"[A-Za-z][A-Za-z-]*", text) if word not in names]

    malformed = todo.replace("UID:no-summary", "UID:malformed\r\nSUMMARY")
    refused = requests.put(
        stack.url(f"/dav/lists/{list_id}/malformed.ics"), data=malformed.encode(),
        auth=(app["user"], app["password"]),
        headers={"Content-Type": "text/calendar", "Accept-Language": "ru"})
    assert refused.status_code in (400, 403, 415), (refused.status_code, refused.text)
    said = sentence(refused)
    assert "строка 6" in said and "SUMMARY" in said, said
    assert english_left(said, {"iCalendar", "SUMMARY"}) == [], said
    for method, headers in (("REPORT", {"Depth": "1"}), ("PROPFIND", {"Depth": "0"})):
        broken = requests.request(
            method, stack.url(f"/dav/lists/{list_id}/"), auth=(app["user"], app["password"]),
            data=b'<d:propfind xmlns:d="DAV:"><d:prop></d:propfind>',
            headers={**headers, "Accept-Language": "ru", "Content-Type": "application/xml"})
        assert broken.status_code == 400, (method, broken.status_code, broken.text)
        said = sentence(broken)
        assert "</d:propfind> закрывает <d:prop>" in said, (method, said)
        assert english_left(said, {"XML", "d", "propfind", "prop"}) == [], (method, said)
        assert "Accept-Language" in broken.headers["Vary"], method
    missing = requests.request("PROPFIND", stack.url("/dav/lists/999/"),
                               auth=(app["user"], app["password"]),
                               headers={"Accept-Language": "de", "Depth": "0"})
    assert missing.status_code == 404
    assert missing.text == "diesen Kalender oder diese Aufgabe gibt es nicht\n"
    assert "Accept-Language" in missing.headers["Vary"]
    # An answer without a sentence does not vary by language.
    found = requests.request("PROPFIND", stack.url(f"/dav/lists/{list_id}/"),
                             auth=(app["user"], app["password"]),
                             headers={"Accept-Language": "ru", "Depth": "0"})
    assert found.status_code == 207
    assert "Accept-Language" not in found.headers.get("Vary", "")


def test_a_form_our_pages_never_send_is_refused_in_russian(stack):
    """Form-decoding 400s: a malformed percent escape, a toggle whose check
    is neither 1 nor 0, an icon that does not exist. The field's name and
    what was sent are the browser's own; nothing else is English."""
    visitor, list_id, ids = russian_visitor(stack)
    malformed = visitor.http.post(
        stack.url(f"/lists/{list_id}/items"), data=f"csrf={visitor.csrf()}&text=%zz",
        headers={"Content-Type": "application/x-www-form-urlencoded"}, allow_redirects=False)
    assert malformed.status_code == 400
    assert "В форме есть неверная %-последовательность. Ничего не изменилось." in malformed.text
    assert english_left(malformed.text) == []
    toggled = visitor.post(f"/lists/{list_id}/items/{ids[0]}/toggle", {"check": "2"})
    assert toggled.status_code == 400
    assert "Поле формы «check» — ни 1, ни 0." in toggled.text
    assert english_left(toggled.text, visitor_text=VISITOR_TEXT + ["check"]) == []
    icon = visitor.post(f"/lists/{list_id}", {"name": "Groceries", "icon": "rocketship"})
    assert icon.status_code == 400
    assert "Значка «rocketship» нет." in icon.text
    assert english_left(icon.text, visitor_text=VISITOR_TEXT + ["rocketship"]) == []
    # Nothing was changed by any of them: the same items, none added.
    page = visitor.get(f"/lists/{list_id}").text
    assert len(re.findall(r'formaction=\d+/items/(\d+)/toggle ', page)) == len(ids)


def test_the_first_run_list_is_named_in_the_visitors_language(stack):
    for language, name in (("ru", "Список"), ("de-AT", "Liste"), ("fr", "List")):
        visitor = Visitor(stack)
        visitor.http.headers.update({"Accept-Language": language})
        first = visitor.get(visitor.get("/").headers["Location"])
        assert f"<title>{name} · Checklists</title>" in first.text, language
        list_id = max(visitor.list_ids())
        visitor.add_item(list_id, "bread")  # stores the first-run list as it was shown
        visitor.http.headers.update({"Accept-Language": "en"})
        assert f"<title>{name} · Checklists</title>" in visitor.get(f"/lists/{list_id}").text


def test_the_scripts_phrases_come_from_the_catalogue(stack):
    """Each page links app.js's sentences in its language: a static file
    nginx serves from Public/ (written by `checklists generate`), versioned
    by its bytes and kept by browsers for a year, run before app.js."""
    import json
    visitor = Visitor(stack)
    phrases = {}
    for language in ("en", "ru", "de", "en-XA"):
        page = visitor.get("/lists", headers={"Accept-Language": language}).text
        found = re.search(r'<script src="(/phrases\.([\w-]+)\.js\?v=[0-9a-f]{12})" defer></script>\n'
                          r'<script src="/app\.js', page)
        assert found and found.group(2) == language, language
        assert "listUpdated" not in page
        script = visitor.get(found.group(1), headers={"Accept-Encoding": "gzip"})
        assert script.status_code == 200, language
        assert "javascript" in script.headers["Content-Type"]
        assert script.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert script.headers.get("Content-Encoding") == "gzip"  # generate's .gz copy
        prefix = "self.checklistsLanguagePhrases = "
        assert script.text.startswith(prefix) and script.text.endswith(";\n")
        phrases[language] = json.loads(script.text[len(prefix):-2])
    assert phrases["en"]["added"] == "Added {{text}}"
    assert phrases["ru"]["added"] == "Добавлено: {{text}}"
    assert phrases["de"]["quoted"] == "„{{text}}“"
    assert phrases["ru"]["notSaved"] == {
        "one": "{{count}} изменение, сделанное без сети, не сохранено:",
        "few": "{{count}} изменения, сделанные без сети, не сохранены:",
        "many": "{{count}} изменений, сделанных без сети, не сохранены:"}
    assert set(phrases["ru"]) == set(phrases["en"]) == set(phrases["de"]) == set(phrases["en-XA"])
    assert all(not english_left("<p>" + re.sub(r"\{\{\w+\}\}", " ", text) + "</p>",
                                page_language="en-XA")
               for text in phrases["en-XA"].values() if isinstance(text, str))


def test_the_checklist_page_reads_in_russian(stack):
    visitor, list_id, ids = russian_visitor(stack)
    assert visitor.post("/settings", {"HideCheckedItems": "on", "TimeZone": "UTC",
                                      "OpenLastList": "on"}).status_code == 303
    page = visitor.get(f"/lists/{list_id}").text
    assert "<title>Groceries · Checklists</title>" in page
    assert "Завтра 18:30" in page
    assert "1 отмеченный пункт скрыт." in page
    assert 'aria-label="Изменить «butter»"' in page
    assert "Осталось 2" in visitor.get("/lists").text
    deleted = visitor.post(f"/lists/{list_id}/items/{ids[2]}/delete")
    notice = visitor.get(deleted.headers["Location"]).text
    assert "«butter» удалён." in notice
    assert english_left(notice) == []


def test_the_static_pages_are_written_in_each_language(stack):
    for name in ("404", "429", "50x", "413-import"):
        russian = (stack.public / f"{name}.ru.html").read_text()
        assert '<html lang="ru">' in russian
        assert english_left(russian) == [], name
        german = (stack.public / f"{name}.de.html").read_text()
        assert '<html lang="de">' in german
        english = (stack.public / f"{name}.html").read_text()
        assert '<html lang="en">' in english
    # nginx's own 404 (a missing file) in the language the browser names first.
    visitor = Visitor(stack)
    for language, tag in (("ru-RU,ru;q=0.9", "ru"), ("de-AT, en;q=0.5", "de"), ("fr", "en")):
        missing = visitor.get("/no-such-file.css", headers={"Accept-Language": language})
        assert missing.status_code == 404
        assert f'<html lang="{tag}">' in missing.text, language
        about = visitor.get("/about.html", headers={"Accept-Language": language})
        assert about.status_code == 200 and f'<html lang="{tag}">' in about.text, language
        assert "Accept-Language" in about.headers.get("Vary", ""), language


def test_the_language_is_a_preference_with_the_browsers_as_its_default(stack):
    visitor = Visitor(stack)
    visitor.get("/")
    german = visitor.get("/lists", headers={"Accept-Language": "de-AT"})
    assert '<html lang="de">' in german.text
    assert "Accept-Language" in german.headers["Vary"]
    assert '<html lang="en">' in visitor.get("/lists", headers={"Accept-Language": "fr"}).text

    assert visitor.post("/settings", {"AppleLanguages": "ru", "TimeZone": "UTC"},
                        headers={"Accept-Language": "de"}).status_code == 303
    chosen = visitor.get("/lists", headers={"Accept-Language": "de"})
    assert '<html lang="ru">' in chosen.text
    assert "Accept-Language" not in chosen.headers["Vary"]
    settings = visitor.get("/settings").text
    assert '<option value="ru" lang="ru" selected>Русский</option>' in settings

    assert visitor.post("/settings/reset", headers={"Accept-Language": "de"}).status_code == 303
    assert '<html lang="de">' in visitor.get("/lists", headers={"Accept-Language": "de"}).text


def test_a_page_in_one_language_is_never_served_in_another(stack):
    visitor = Visitor(stack)
    visitor.get("/")
    for _ in range(3):  # the later ones from the response memo
        german = visitor.get("/lists/1", headers={"Accept-Language": "de"})
        assert '<html lang="de">' in german.text
    russian = visitor.get("/lists/1", headers={"Accept-Language": "ru",
                                               "If-None-Match": german.headers["ETag"]})
    assert russian.status_code == 200
    assert '<html lang="ru">' in russian.text


def test_the_pseudo_locales_accent_everything_and_mirror_the_page(stack):
    visitor, list_id, _ = russian_visitor(stack)
    for path in ("/lists", f"/lists/{list_id}", "/settings"):
        accented = visitor.get(path, headers={"Accept-Language": "en-XA"}).text
        assert '<html lang="en-XA">' in accented
        assert english_left(accented, page_language="en-XA") == [], path
        mirrored = visitor.get(path, headers={"Accept-Language": "ar-XB"}).text
        assert '<html lang="ar-XB" dir="rtl">' in mirrored


@pytest.mark.parametrize("language", ["en", "ru", "de"])
def test_plural_categories_agree_with_cldr_for_0_to_200(language):
    assert BABEL.exists(), f"no {BABEL}: run scripts/install-deps test"
    ours = subprocess.run([backend_binary(), "translations", "--plural-categories", language],
                          check=True, capture_output=True, text=True).stdout.split("\n")
    cldr = subprocess.run(
        [BABEL, "-c", "import sys; from babel import Locale\n"
                      "rule = Locale.parse(sys.argv[1]).plural_form\n"
                      "print('\\n'.join(f'{n} {rule(n)}' for n in range(201)))", language],
        check=True, capture_output=True, text=True).stdout.split("\n")
    assert ours == cldr


@pytest.mark.parametrize("language", ["ru", "de"])
def test_gettext_reads_each_catalogue_without_a_complaint(language, tmp_path):
    checked = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", str(tmp_path / "out.mo"),
         str(ROOT / "Templates" / "languages" / f"{language}.po")],
        capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert "warning" not in checked.stderr, checked.stderr
    assert "untranslated" not in checked.stderr and "fuzzy" not in checked.stderr, checked.stderr


def test_the_translations_command_reports_nothing_missing():
    report = subprocess.run([backend_binary(), "translations"], cwd=ROOT,
                            capture_output=True, text=True)
    assert report.returncode == 0, report.stdout + report.stderr
    assert "0 missing, 0 untranslated, 0 extra" in report.stdout


def test_translated_pages_are_valid_html_in_every_language(stack):
    from test_html_validity import tidy_report
    visitor, list_id, _ = russian_visitor(stack)
    problems = {}
    for language in ("ru", "de", "en-XA", "ar-XB"):
        for path in ("/lists", f"/lists/{list_id}", "/settings", "/lists/999"):
            page = visitor.get(path, headers={"Accept-Language": language})
            report = tidy_report(page.text)
            if report:
                problems[f"{language} {path}"] = report
    assert problems == {}


@pytest.mark.parametrize("language", ["ru", "de", "en-XA", "ar-XB"])
def test_screenshots_in_each_language_fit_phone_and_desktop_light_and_dark(stack, language, tmp_path):
    """Chromium asking in `language`: each screen saved at phone and desktop
    width (light, and dark for a few) under artifacts/screenshots/languages/,
    none wider than the window (German's and the accented locale's longer
    words must wrap), the right-to-left one laid out right to left."""
    from selenium.webdriver.common.by import By
    from test_browser import DESKTOP, PHONE, SCREENSHOTS, add_item, chromium, wait
    folder = SCREENSHOTS / "languages"
    folder.mkdir(parents=True, exist_ok=True)
    driver = chromium(tmp_path / "profile", javascript=True)
    try:
        agent = driver.execute_script("return navigator.userAgent")
        driver.execute_cdp_cmd("Emulation.setUserAgentOverride",
                               {"userAgent": agent, "acceptLanguage": language})
        driver.get(stack.url("/"))
        add_item(driver, "Milk", True)
        add_item(driver, "Bread with a rather long name that wraps on a narrow phone screen", True)
        list_url = driver.current_url
        # The last row's form, and the first row deleted (for Recently Deleted).
        item_edit = driver.find_elements(By.CSS_SELECTOR, "ul.items > li > a")[-1].get_attribute("href")
        driver.find_elements(By.CSS_SELECTOR, "ul.items > li > button:last-child")[0].click()
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "button.check")) == 1)
        screens = {"checklist": list_url, "edit-list": list_url + "/edit", "edit-item": item_edit,
                   "new-list": stack.url("/lists/new"), "settings": stack.url("/settings"),
                   "devices": stack.url("/settings/devices"), "import": stack.url("/settings/import"),
                   "export": stack.url("/settings/export"), "deleted": stack.url("/deleted"),
                   "link": stack.url("/link"), "about": stack.url("/about.html")}
        wide = []
        for scheme in ("light", "dark"):
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                   {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            for name, address in screens.items():
                if scheme == "dark" and name not in ("checklist", "edit-list", "devices"):
                    continue
                driver.get(address)
                if name == "about" and language not in ("ru", "de"):
                    continue  # nginx's own pages are in the offered languages only
                assert driver.execute_script("return document.documentElement.lang") == language
                assert driver.find_elements(By.CSS_SELECTOR, "main .status") == [], name  # no error page
                if language == "ar-XB":
                    assert driver.execute_script(
                        "return getComputedStyle(document.body).direction") == "rtl", name
                for label, (width, height) in (("phone", PHONE), ("desktop", DESKTOP)):
                    driver.set_window_size(width, height)
                    driver.save_screenshot(str(folder / f"{language}-{name}-{scheme}-{label}.png"))
                    scroll = driver.execute_script("return document.documentElement.scrollWidth")
                    client = driver.execute_script("return document.documentElement.clientWidth")
                    if scroll > client:
                        culprit = driver.execute_script(
                            "var width = document.documentElement.clientWidth, found = null;"
                            "document.querySelectorAll('body *').forEach(function (e) {"
                            "  if (e.scrollWidth > width + 1 || e.getBoundingClientRect().right > width + 1) {"
                            "    found = e.tagName + '.' + e.className + ' ' + e.scrollWidth + ': '"
                            "      + e.textContent.slice(0, 60); }"
                            "}); return found;")
                        wide.append(f"{name} at {label} width ({scroll} > {client}): {culprit}")
        assert wide == []
    finally:
        driver.quit()
