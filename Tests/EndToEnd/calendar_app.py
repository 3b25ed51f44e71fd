"""What the CalDAV tests of real clients share: an app password made on
Settings → Devices as a person makes it, a collection read back over DAV
(each to-do's bytes and ETag, and the sync token), and iCalendar lines read
the way RFC 5545 folds them."""
import hashlib
import re
import xml.etree.ElementTree as ElementTree

import requests

APP_FIELD = re.compile(r'<input type="text" id="app-(server|user|password)" value="([^"]+)"')
DAV = "{DAV:}"
CALDAV = "{urn:ietf:params:xml:ns:caldav}"
ITEM_ROW = re.compile(r'<li><button class=check formaction=\d+/items/(\d+)/toggle aria-pressed=(true|false)[^>]*>'
                      r'(.*?)</button>', re.S)


def connect(visitor):
    """Connects a calendar app on the visitor's Devices screen: its server
    address, user name and password, as the screen shows them once."""
    page = visitor.post("/settings/devices/apps")
    assert page.status_code == 200, (page.status_code, page.text[:300])
    return dict(APP_FIELD.findall(page.text))


def web_items(visitor, list_id):
    """{text: (item id, checked)} of a list's page."""
    page = visitor.get(f"/lists/{list_id}")
    assert page.status_code == 200, page.status_code
    return {text: (int(item), pressed == "true") for item, pressed, text in ITEM_ROW.findall(page.text)}


def rename_on_web(visitor, list_id, item_id, text):
    """Edits an item's text as a browser does: the edit form sent back with
    its other fields (due date, its zone, Remind me) as they were shown."""
    form = visitor.get(f"/lists/{list_id}/items/{item_id}/edit")
    assert form.status_code == 200, form.status_code
    fields = {"text": text,
              "dueDate": re.search(r'name="dueDate" [^>]*value="([^"]*)"', form.text).group(1),
              "dueDateZone": re.search(r'name="dueDateZone" value="([^"]*)"', form.text).group(1)}
    if re.search(r'name="shouldRemind" value="on" checked', form.text):
        fields["shouldRemind"] = "on"
    saved = visitor.post(f"/lists/{list_id}/items/{item_id}", fields)
    assert saved.status_code == 303, (saved.status_code, saved.text[:300])


def unfolded(ics):
    """The content lines of an iCalendar text, folded lines joined."""
    return re.sub(r"\r?\n[ \t]", "", ics).replace("\r\n", "\n").strip("\n").split("\n")


def todo_lines(ics):
    """The lines of the (first) VTODO, its own BEGIN/END left out; a VALARM's
    lines stay, so that alarms are compared whole."""
    lines = unfolded(ics)
    begin = lines.index("BEGIN:VTODO")
    end = len(lines) - 1 - lines[::-1].index("END:VTODO")
    return lines[begin + 1:end]


def prop(ics, name):
    """The value of the to-do's first property `name` (parameters aside), or None."""
    for line in todo_lines(ics):
        key = re.split(r"[;:]", line, maxsplit=1)[0]
        if key.upper() == name:
            return line.split(":", 1)[1] if ":" in line else ""
    return None


class Collection:
    """A calendar collection as a client reads it: `todos` is
    {href: (etag, bytes)} from a `calendar-query`, `token` its sync token."""

    def __init__(self, base_url, path, auth, session=None):
        self.base_url = base_url.rstrip("/")
        self.path = path
        self.auth = auth
        self.http = session or requests.Session()

    def request(self, method, body, depth="1", **kwargs):
        return self.http.request(method, self.base_url + self.path, auth=self.auth, data=body.encode(),
                                 headers={"Depth": depth, "Content-Type": "application/xml; charset=utf-8"},
                                 **kwargs)

    def read(self):
        answer = self.request("REPORT", """<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
          <d:prop><d:getetag/><c:calendar-data/></d:prop>
          <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VTODO"/></c:comp-filter></c:filter>
          </c:calendar-query>""", timeout=60)
        assert answer.status_code == 207, (answer.status_code, answer.text[:500])
        todos = {}
        for response in ElementTree.fromstring(answer.content).iter(f"{DAV}response"):
            href = response.find(f"{DAV}href").text
            etag = response.find(f".//{DAV}getetag").text
            data = response.find(f".//{CALDAV}calendar-data").text
            todos[href] = (etag, data)
        return todos

    def token(self):
        answer = self.request("PROPFIND", '<d:propfind xmlns:d="DAV:"><d:prop><d:sync-token/></d:prop></d:propfind>',
                              depth="0", timeout=30)
        assert answer.status_code == 207, (answer.status_code, answer.text[:500])
        return ElementTree.fromstring(answer.content).find(f".//{DAV}sync-token").text

    def get(self, href):
        """(status, ETag, bytes) of one resource by GET."""
        answer = self.http.get(self.base_url + href, auth=self.auth, timeout=30)
        return answer.status_code, answer.headers.get("ETag"), answer.content


def strong_etag_of(body):
    """The ETag the server gives a resource: 128 bits of SHA-256 of its bytes."""
    return '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
