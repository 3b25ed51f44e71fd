"""What Apple Reminders, Thunderbird and DAVx⁵ send, replayed against the
server through nginx (fixtures/caldav/<client>/: the requests in the order
the client makes them, learnt from its documentation, source and bug
reports; fixtures/caldav/README.md says how a step reads). Each answer is
checked for what that client needs of it: its status, the properties it
asked for and depends on, a well-formed multistatus.

The features the other clients' flows need and the server has not yet
(an incremental sync-collection, MKCALENDAR, a list's colour) are tests of
their own below, expected to fail until they come."""
import json
import re
import uuid
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

import calendar_app
from visitor import Visitor

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "caldav"
CLIENTS = ["apple-reminders", "thunderbird", "davx5"]
DAV = "{DAV:}"
CALDAV = "{urn:ietf:params:xml:ns:caldav}"
LIST_NAME = "Errands"
STATUS_LINE = re.compile(r"^HTTP/1\.[01] (\d{3})( |$)")


def multistatus(answer):
    """The answer's `response`s as {href: {property: element}} of their 200
    propstats, after checking the multistatus is well formed."""
    root = ElementTree.fromstring(answer.content)  # raises when not well formed
    assert root.tag == f"{DAV}multistatus", root.tag
    found = {}
    for response in root.findall(f"{DAV}response"):
        hrefs = response.findall(f"{DAV}href")
        assert len(hrefs) == 1, ElementTree.tostring(response)
        propstats = response.findall(f"{DAV}propstat")
        own_status = response.find(f"{DAV}status")
        assert propstats or own_status is not None, ElementTree.tostring(response)
        properties = {}
        for propstat in propstats:
            status = propstat.findall(f"{DAV}status")
            assert len(status) == 1 and STATUS_LINE.match(status[0].text), ElementTree.tostring(propstat)
            if STATUS_LINE.match(status[0].text).group(1) == "200":
                for element in propstat.find(f"{DAV}prop"):
                    properties[element.tag] = element
        found[hrefs[0].text] = properties
    return found


def href_in(element):
    href = element.find(f"{DAV}href")
    assert href is not None and href.text, ElementTree.tostring(element)
    return href.text


def is_calendar(properties):
    kind = properties.get(f"{DAV}resourcetype")
    return kind is not None and kind.find(f"{CALDAV}calendar") is not None


class Replay:
    """One client's steps against one stack: the values the client learns
    from each answer, and the checks of what it needs."""

    def __init__(self, stack, app, client):
        self.stack = stack
        self.folder = FIXTURES / client
        self.script = json.loads((self.folder / "steps.json").read_text())
        self.http = stack.session()
        self.http.auth = (app["user"], app["password"])
        self.learnt = {"uid": str(uuid.uuid4()).upper(), "sync_token": "", "todos": []}

    def fill(self, text, href_prefix=None):
        if href_prefix is not None:
            tag = f"{href_prefix}:href" if href_prefix else "href"
            text = text.replace("{hrefs}", "\n".join(f"  <{tag}>{href}</{tag}>" for href in self.learnt["todos"]))
        for name, value in self.learnt.items():
            if isinstance(value, str):
                text = text.replace("{" + name + "}", value)
        return text

    def body(self, step):
        if "body" not in step:
            return None
        text = self.fill((self.folder / step["body"]).read_text(), step.get("href_prefix"))
        if step["body"].endswith(".ics"):
            text = text.replace("\r\n", "\n").replace("\n", "\r\n")
        return text.encode()

    def run(self):
        for step in self.script["steps"]:
            path = self.fill(step["path"])
            headers = {name: self.fill(value) for name, value in step.get("headers", {}).items()}
            answer = self.http.request(step["method"], self.stack.url(path), headers=headers,
                                       data=self.body(step), timeout=60)
            try:
                self.check(step, path, answer)
            except AssertionError as failure:
                raise AssertionError(f"{self.script['client']}: {step['name']}: {step['method']} {path} → "
                                     f"{answer.status_code}\n{answer.text[:1500]}") from failure

    def check(self, step, path, answer):
        expect = step["expect"]
        statuses = expect["status"] if isinstance(expect["status"], list) else [expect["status"]]
        assert answer.status_code in statuses
        for name, part in expect.get("headers", {}).items():
            assert part in answer.headers.get(name, ""), (name, answer.headers.get(name))
        for text in expect.get("body_contains", []):
            assert text in answer.text.replace("\r\n ", ""), text
        if answer.status_code == 403:
            for text in expect.get("body_contains_if_403", []):
                assert text in answer.text, text
        responses = multistatus(answer) if answer.status_code == 207 else {}
        if "found" in expect:
            own = [properties for href, properties in responses.items() if href.rstrip("/") == path.rstrip("/")]
            own = own or list(responses.values())[:1]  # after a redirect, the answer is for where it led
            assert own, "no response for the address asked"
            missing = [name for name in expect["found"] if name not in own[0]]
            assert not missing, missing
        calendars = {href: properties for href, properties in responses.items() if is_calendar(properties)}
        if "each_calendar" in expect:
            assert calendars, "no calendar collection listed"
            for href, properties in calendars.items():
                missing = [name for name in expect["each_calendar"] if name not in properties]
                assert not missing, (href, missing)
        if "components" in expect:
            for href, properties in calendars.items():
                components = [comp.get("name") for comp in properties[f"{CALDAV}supported-calendar-component-set"]]
                assert expect["components"] in components, (href, components)
        if expect.get("writable"):
            for href, properties in calendars.items():
                privileges = {granted.tag for privilege in properties[f"{DAV}current-user-privilege-set"]
                              for granted in privilege}
                assert privileges & {f"{DAV}write", f"{DAV}all"}, (href, privileges)
        if "reports" in expect:
            own = next(iter(responses.values()))
            reports = {kind.tag for report in own[f"{DAV}supported-report-set"].iter(f"{DAV}report") for kind in report}
            missing = [name for name in expect["reports"] if name not in reports]
            assert not missing, (reports, missing)
        todos = {href: properties for href, properties in responses.items() if href.endswith(".ics")}
        if "each_todo" in expect:
            assert todos, "no to-do listed"
            for href, properties in todos.items():
                missing = [name for name in expect["each_todo"] if name not in properties]
                assert not missing, (href, missing)
        self.learn(step.get("capture", []), path, answer, responses, calendars, todos)

    def learn(self, captures, path, answer, responses, calendars, todos):
        for capture in captures:
            if capture == "principal":
                own = next(iter(responses.values()))
                self.learnt["principal"] = href_in(own[f"{DAV}current-user-principal"])
            elif capture == "home":
                own = next(iter(responses.values()))
                self.learnt["home"] = href_in(own[f"{CALDAV}calendar-home-set"])
            elif capture == "calendar":
                named = [href for href, properties in calendars.items()
                         if properties[f"{DAV}displayname"].text == LIST_NAME]
                assert len(named) == 1, (LIST_NAME, list(calendars))
                self.learnt["calendar"] = named[0]
            elif capture == "todos":
                self.learnt["todos"] = sorted(todos)
            elif capture == "sync_token":
                token = ElementTree.fromstring(answer.content).find(f"{DAV}sync-token")
                assert token is not None and token.text, "no sync-token at the end of a sync-collection"
                self.learnt["sync_token"] = token.text
            elif capture == "etag":
                etag = answer.headers.get("ETag", "")
                assert re.fullmatch(r'"[^"]+"', etag), etag  # strong
                self.learnt["etag"] = etag


@pytest.fixture
def owner_with_errands(stack):
    owner = Visitor(stack)
    errands = owner.create_list(LIST_NAME)
    for text in ("Post the parcel", "Buy stamps", "Return the library books"):
        owner.add_item(errands, text)
    assert owner.post(f"/lists/{errands}/items/2/toggle").status_code == 303
    return owner, errands


@pytest.mark.parametrize("client", CLIENTS)
def test_a_client_s_requests_get_what_it_needs(stack, owner_with_errands, client):
    owner, errands = owner_with_errands
    replay = Replay(stack, calendar_app.connect(owner), client)
    replay.run()
    # What it added and deleted went through the web's own write path.
    assert sorted(calendar_app.web_items(owner, errands)) == ["Buy stamps", "Post the parcel", "Return the library books"]


def dav(stack, app, method, path, body, **headers):
    return stack.session().request(method, stack.url(path), auth=(app["user"], app["password"]),
                                   data=body.encode(), headers=headers, timeout=30)


def test_a_sync_from_an_older_token_reports_only_what_changed(stack, owner_with_errands):
    """What DAVx⁵, Apple Reminders and Thunderbird do at every sync after
    the first: only the changed to-do comes back, with the new token."""
    owner, errands = owner_with_errands
    app = calendar_app.connect(owner)
    collection = calendar_app.Collection(stack.url(""), f"/dav/lists/{errands}/", (app["user"], app["password"]))
    token = collection.token()
    owner.add_item(errands, "Collect the keys")
    body = (f'<d:sync-collection xmlns:d="DAV:"><d:sync-token>{token}</d:sync-token>'
            '<d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>')
    answer = dav(stack, app, "REPORT", f"/dav/lists/{errands}/", body, **{"Content-Type": "application/xml"})
    assert answer.status_code == 207, answer.status_code
    assert len(multistatus(answer)) == 1


def test_apple_reminders_add_list_makes_a_list(stack):
    """Reminders' Add List: a MKCALENDAR with a name, colour, order and VTODO."""
    owner = Visitor(stack)
    app = calendar_app.connect(owner)
    body = """<?xml version="1.0" encoding="UTF-8"?>
<B:mkcalendar xmlns:A="DAV:" xmlns:B="urn:ietf:params:xml:ns:caldav" xmlns:D="http://apple.com/ns/ical/">
  <A:set><A:prop>
    <A:displayname>Garden</A:displayname>
    <D:calendar-color>#63DA38FF</D:calendar-color>
    <D:calendar-order>3</D:calendar-order>
    <B:supported-calendar-component-set><B:comp name="VTODO"/></B:supported-calendar-component-set>
  </A:prop></A:set>
</B:mkcalendar>"""
    answer = dav(stack, app, "MKCALENDAR", f"/dav/lists/{uuid.uuid4()}/", body, **{"Content-Type": "text/xml"})
    assert answer.status_code == 201, answer.status_code
    assert "Garden" in owner.get("/lists").text


def test_a_client_sets_a_list_s_colour(stack, owner_with_errands):
    """DAVx⁵, Thunderbird and Reminders all change a calendar's colour with
    a PROPPATCH of Apple's calendar-color."""
    owner, errands = owner_with_errands
    app = calendar_app.connect(owner)
    body = """<?xml version="1.0" encoding="UTF-8"?>
<A:propertyupdate xmlns:A="DAV:" xmlns:D="http://apple.com/ns/ical/">
  <A:set><A:prop><D:calendar-color>#FF2968FF</D:calendar-color></A:prop></A:set>
</A:propertyupdate>"""
    answer = dav(stack, app, "PROPPATCH", f"/dav/lists/{errands}/", body, **{"Content-Type": "text/xml"})
    assert answer.status_code == 207 and "HTTP/1.1 200" in answer.text, (answer.status_code, answer.text)
