"""Your lists on another device, through nginx, as browsers without
JavaScript use it: a one-time link code made on Settings → Devices, typed
on /link or opened as its link (a page that asks before the POST spends
it), and browsers signed out.

Each browser is its own cookie jar (a `Visitor`).
"""
import json
import re
import shutil
import time
from pathlib import Path

import pytest

from stack import Stack
from visitor import Visitor

CODE_TEXT = re.compile(r'<p class="code-text"[^>]*><span class="visually-hidden">Code: </span><strong>([0-9A-Z-]+)</strong>')
CODE_LINK = re.compile(r'<input type="text" id="code-link" value="([^"]+)"')
SIGN_OUT = re.compile(r'action="/settings/devices/(\d+)/sign-out"')
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def make_code(visitor):
    """Makes a link code on the visitor's Devices screen: (text, link, page)."""
    page = visitor.post("/settings/devices/code")
    assert page.status_code == 200, (page.status_code, page.text[:300])
    assert page.headers["Cache-Control"] == "no-store"
    return CODE_TEXT.search(page.text).group(1), CODE_LINK.search(page.text).group(1), page


def redeem(visitor, code):
    visitor.get("/link")  # a browser's first page gives it its cookie and token
    return visitor.post("/link", {"code": code})


def age_browsers(stack, days=2):
    """Moves every browser's link date `days` into the past, as if linked
    then: a browser linked less than a day ago signs out no older one."""
    for devices_file in (stack.data / "users").rglob("Devices.plist"):
        text = devices_file.read_text()
        then = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - days * 86_400))
        devices_file.write_text(re.sub(
            r"(<key>firstSeen</key>\s*<date>)[^<]+(</date>)", rf"\g<1>{then}\g<2>", text))


def item_texts(visitor, list_id):
    page = visitor.get(f"/lists/{list_id}")
    assert page.status_code == 200, page.status_code
    return re.findall(r'<li><button class=check formaction=\S+ aria-pressed=(?:true|false)[^>]*>([^<]*)</button>', page.text)


def test_a_code_typed_on_a_second_browser_shows_the_same_lists_each_with_its_own_open_list(stack):
    laptop = Visitor(stack)
    groceries = laptop.create_list("Groceries", "drinks")
    laptop.add_item(groceries, "Milk")
    work = laptop.create_list("Work")
    laptop.get(f"/lists/{work}")  # the laptop has Work open
    # Settings are the owner's (both browsers share them): open the last list.
    assert laptop.post("/settings", {"OpenLastList": "on", "TimeZone": "UTC"}).status_code == 303

    code, link, page = make_code(laptop)
    assert len(code.replace("-", "")) == 28
    assert link == stack.url(f"/link/{code.replace('-', '').lower()}")

    phone = Visitor(stack)
    phone.get("/")
    before = phone.cookie("visitor")
    answer = redeem(phone, code.lower().replace("-", " "))  # typed loosely
    assert answer.status_code == 303, (answer.status_code, answer.text[:400])
    assert answer.headers["Location"] == "/lists"
    assert phone.cookie("visitor") != before

    assert phone.list_ids() == laptop.list_ids()
    assert item_texts(phone, groceries) == ["Milk"]
    phone.get(f"/lists/{groceries}")  # the phone opens Groceries
    laptop.get(f"/lists/{work}")  # the laptop (last on All Lists above) opens Work
    assert phone.get("/", allow_redirects=False).headers["Location"].endswith(f"/lists/{groceries}")
    assert laptop.get("/", allow_redirects=False).headers["Location"].endswith(f"/lists/{work}")

    # A change on either is seen on the other.
    phone.add_item(groceries, "Bread")
    assert item_texts(laptop, groceries) == ["Milk", "Bread"]

    # Both browsers are on the Devices screen.
    devices = laptop.get("/settings/devices").text
    assert devices.count('<li>') >= 2 and "This browser" in devices
    assert len(SIGN_OUT.findall(devices)) == 2


def test_the_link_asks_first_and_only_its_post_spends_the_code(stack):
    owner = Visitor(stack)
    owner.add_item(1, "Milk")
    code, link, _ = make_code(owner)
    path = link.split(str(stack.port), 1)[1]

    scanner = Visitor(stack)
    for _ in range(3):  # a mail scanner opening the link spends nothing
        opened = scanner.get(path)
        assert opened.status_code == 200
        assert opened.headers["Referrer-Policy"] == "origin"
        assert "noindex" in opened.headers["X-Robots-Tag"]
        assert opened.headers["Cache-Control"] == "no-store"
        assert code in opened.text

    # A code that is nobody's gets the very same page, but for the code
    # filled in: the page is no way to test guesses.
    nobodys = "0" * 28
    other = scanner.get("/link/" + nobodys)
    assert other.status_code == 200
    grouped = "-".join(nobodys[i:i + 4] for i in range(0, 28, 4))
    assert other.text.replace(grouped, code) == opened.text

    tablet = Visitor(stack)
    tablet.get(path)
    answer = tablet.post("/link", {"code": code})
    assert answer.status_code == 303
    assert item_texts(tablet, 1) == ["Milk"]


def test_a_spent_or_expired_code_is_refused_and_changes_nothing(stack):
    owner = Visitor(stack)
    owner.add_item(1, "Milk")
    code, _, _ = make_code(owner)
    assert redeem(Visitor(stack), code).status_code == 303

    late = Visitor(stack)
    again = redeem(late, code)
    assert again.status_code == 422
    assert "does not work" in again.text
    assert item_texts(late, 1) != ["Milk"]

    # A newer code replaces the one before it.
    first, _, _ = make_code(owner)
    second, _, _ = make_code(owner)
    assert redeem(Visitor(stack), first).status_code == 422
    assert redeem(Visitor(stack), second).status_code == 303

    # An expired one: the stored expiry moved into the past.
    third, _, _ = make_code(owner)
    devices_file = next((stack.data / "users").rglob("Devices.plist"))
    text = devices_file.read_text()
    expiry = re.search(r"<key>expires</key>\s*<date>([^<]+)</date>", text).group(1)
    devices_file.write_text(text.replace(expiry, "2001-01-01T00:00:00Z"))
    assert redeem(Visitor(stack), third).status_code == 422


def test_the_eleventh_wrong_code_in_a_minute_is_429(stack):
    guesser = Visitor(stack)
    guesser.get("/link")
    token = guesser.csrf()
    for attempt in range(10):
        wrong = guesser.post("/link", {"code": f"{attempt:028d}"}, csrf=token)
        assert wrong.status_code == 422, (attempt, wrong.status_code)
    limited = guesser.post("/link", {"code": "1" * 28}, csrf=token)
    assert limited.status_code == 429
    assert int(limited.headers["Retry-After"]) >= 1
    # Even a right code waits: the limit is per address, before any look-up.
    owner = Visitor(stack)
    code, _, _ = make_code(owner)
    assert guesser.post("/link", {"code": code}, csrf=token).status_code == 429

def test_malformed_input_is_told_apart_and_changes_nothing(stack):
    owner = Visitor(stack)
    owner.add_item(1, "Milk")
    make_code(owner)
    before = {path: path.read_bytes() for path in stack.data.rglob("*") if path.is_file()}
    for typed in ("hello", "", "K7Q2-M9XD", "U" * 28, "0" * 29, "é" * 28):
        refused = redeem(Visitor(stack), typed)
        assert refused.status_code == 422, (typed, refused.status_code)
        assert "not a link code" in refused.text
        assert f'value="{typed}"' in refused.text or typed == "é" * 28
    assert {path: path.read_bytes() for path in stack.data.rglob("*") if path.is_file()} == before


def test_signing_out_takes_effect_at_the_next_request(stack):
    laptop = Visitor(stack)
    laptop.add_item(1, "Milk")
    code, _, _ = make_code(laptop)
    phone = Visitor(stack)
    assert redeem(phone, code).status_code == 303
    assert item_texts(phone, 1) == ["Milk"]
    phone_cookie = phone.cookie("visitor")

    devices = laptop.get("/settings/devices").text
    ids = SIGN_OUT.findall(devices)
    assert len(ids) == 2
    # The laptop is listed first ("This browser"); the phone is the other one.
    phone_id = ids[1]
    assert laptop.post(f"/settings/devices/{phone_id}/sign-out").status_code == 303

    page = phone.get("/lists/1")
    assert page.status_code == 200
    assert "Milk" not in page.text  # a new visitor's first-run list
    assert phone.cookie("visitor") != phone_cookie
    # The old cookie, sent again by hand, is a new visitor too.
    stranger = Visitor(stack)
    stranger.http.cookies.set("visitor", phone_cookie)
    assert "Milk" not in stranger.get("/lists/1").text
    # A change from the signed-out browser with its old page's token is refused.
    assert "Milk" in laptop.get("/lists/1").text


def test_sign_out_everywhere_else_and_signing_out_the_first_browser(stack):
    first = Visitor(stack)
    first.add_item(1, "Milk")
    code, _, _ = make_code(first)
    second = Visitor(stack)
    assert redeem(second, code).status_code == 303
    code, _, _ = make_code(second)
    third = Visitor(stack)
    assert redeem(third, code).status_code == 303

    # Linked a moment ago, the second may not sign the first out yet.
    assert second.post("/settings/devices/1/sign-out").status_code == 403
    assert item_texts(first, 1) == ["Milk"]
    age_browsers(stack)
    # A day on, the second signs the first (founding) browser out: its lists stay.
    ids = SIGN_OUT.findall(second.get("/settings/devices").text)
    assert len(ids) == 3
    # Browser 1 is the first one: its entry was made with the first code.
    assert second.post("/settings/devices/1/sign-out").status_code == 303
    assert "Milk" not in first.get("/lists/1").text
    assert item_texts(third, 1) == ["Milk"]

    assert second.post("/settings/devices/sign-out-others").status_code == 303
    assert "Milk" not in third.get("/lists/1").text
    assert item_texts(second, 1) == ["Milk"]
    assert "Only this browser uses these lists." in second.get("/settings/devices").text


def test_a_visitor_from_before_devices_keeps_everything():
    """A data directory and cookie made by the backend before browsers
    mapped to owners (Tests/EndToEnd/fixtures/legacy-data) is served as it
    was, and that visitor can link a second browser."""
    legacy = json.loads((FIXTURES / "legacy-visitor.json").read_text())
    running = Stack()
    try:
        shutil.rmtree(running.data)
        shutil.copytree(FIXTURES / "legacy-data", running.data)
        running.data.chmod(0o700)
        running.start()
        old = Visitor(running)
        for name, value in legacy["cookies"].items():
            old.http.cookies.set(name, value)
        landing = old.get("/")
        assert landing.headers["Location"].endswith(f"/lists/{legacy['list']}")
        page = old.get(f"/lists/{legacy['list']}")
        assert "Groceries" in page.text and "Milk" in page.text and "Bread" in page.text
        assert "<option selected>Europe/Berlin</option>" in old.get("/settings").text

        code, _, _ = make_code(old)
        new = Visitor(running)
        assert redeem(new, code).status_code == 303
        assert item_texts(new, legacy["list"]) == item_texts(old, legacy["list"])
    finally:
        running.stop()


def test_no_code_or_token_reaches_a_log(stack):
    """Codes and browser tokens are never in nginx's access or error log or
    the backend's log, in any spelling, after codes are made, opened as
    links, typed, spent, refused and browsers signed out."""
    owner = Visitor(stack)
    owner.add_item(1, "Milk")
    secrets = {owner.cookie("visitor").split(".")[0]}
    for _ in range(3):
        code, link, _ = make_code(owner)
        canonical = code.replace("-", "")
        secrets |= {code, canonical, canonical.lower()}
        browser = Visitor(stack)
        browser.get(link.split(str(stack.port), 1)[1])  # the link, opened
        assert browser.post("/link", {"code": code}).status_code == 303
        assert browser.post("/link", {"code": code}).status_code == 422  # spent
        secrets.add(browser.cookie("visitor").split(".")[0])
    assert owner.post("/settings/devices/sign-out-others").status_code == 303
    stack.stop_backend()  # ends its log
    # Each nginx worker flushes its own access log buffer every second: wait
    # for the three links' lines.
    access = stack.dir / "logs" / "access.log"
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not (
            access.exists() and access.read_text().count('"GET /link/<hidden> ') >= 3):
        time.sleep(0.1)
    logs = {name: (stack.dir / "logs" / name).read_text(errors="replace")
            for name in ("access.log", "error.log", "backend.log")
            if (stack.dir / "logs" / name).exists()}
    assert "access.log" in logs and "/link/<hidden>" in logs["access.log"]
    for name, text in logs.items():
        for secret in secrets:
            assert secret not in text, f"{name} holds a secret"
            assert secret.lower() not in text.lower(), f"{name} holds a secret"
