"""Every screen is valid HTML5, checked by Debian's `tidy`: no errors, no
warnings; and none of the W3C checker's warnings that tidy does not give
(a date's year it would call mistyped)."""
import re
import subprocess

from visitor import Visitor


def tidy_report(html: str) -> str:
    # --drop-empty-elements no: a button named by aria-label has no content,
    # which HTML allows; tidy would only warn that it could trim it.
    result = subprocess.run(["tidy", "-q", "-e", "--show-warnings", "yes", "--gnu-emacs", "yes",
                             "--drop-empty-elements", "no"],
                            input=html, capture_output=True, text=True)
    assert result.returncode in (0, 1, 2), result.stderr
    # tidy knows SVG's elements but not its presentation attribute
    # shape-rendering, which the QR code of a link code uses (valid SVG 1.1);
    # nor `media` on <meta name="theme-color">, which HTML defines for that
    # name (the light and dark theme colours of the layout).
    lines = [line for line in result.stderr.strip().splitlines()
             if not line.endswith('<svg> proprietary attribute "shape-rendering"')
             and not line.endswith('<meta> proprietary attribute "media"')]
    return "\n".join(lines)


DATE_INPUT = re.compile(r'<input\b[^>]*\btype="(?:date|datetime-local|month|week)"[^>]*>')
DATE_ATTRIBUTE = re.compile(r'\b(min|max|value)="(\d+)-')


def mistyped_years(html: str) -> list:
    """The date attributes of date inputs whose year the W3C checker (vnu)
    warns may be mistyped: before 1000 or from 3000 on (its
    `AbstractDatetime.checkYear`), e.g. `max="9999-12-31T23:59"`."""
    return [f"{name}={year}" for tag in DATE_INPUT.findall(html)
            for name, year in DATE_ATTRIBUTE.findall(tag) if not 1000 <= int(year) < 3000]


def test_every_screen_is_valid_html(stack):
    visitor = Visitor(stack)
    visitor.add_item(1, "an item with <markup> & \"quotes\"")
    visitor.post("/lists/1/items/1/toggle")
    item = int(re.search(r'items/(\d+)/toggle ', visitor.get("/lists/1").text).group(1))
    # A note under the item, on the owner's and the shared pages.
    assert visitor.post(f"/lists/1/items/{item}", {
        "text": "an item with <markup> & \"quotes\"", "dueDate": "",
        "notes": "a note <b>\nwith two lines & more"}).status_code == 303
    pages = {
        "all lists": visitor.get("/lists"),
        "checklist": visitor.get("/lists/1"),
        "new list": visitor.get("/lists/new"),
        "edit list": visitor.get("/lists/1/edit"),
        "edit item": visitor.get(f"/lists/1/items/{item}/edit"),
        "search": visitor.get("/search"),
        "search results": visitor.get("/search", params={"q": "MARKUP"}),
        "search, nothing found": visitor.get("/search", params={"q": "nowhere"}),
        "refused note": visitor.post(f"/lists/1/items/{item}", {
            "text": "x", "dueDate": "", "notes": "n" * 4001}),
        "settings": visitor.get("/settings?saved"),
        "settings with a calendar": (visitor.post("/settings/calendar"),
                                     visitor.get("/settings?calendar-created"))[1],
        "devices": visitor.get("/settings/devices"),
        "devices with a code": visitor.post("/settings/devices/code"),
        "link": visitor.get("/link"),
        "link with a code": visitor.get("/link/" + "k" * 28),
        "refused link code": visitor.post("/link", {"code": "not a code <b>"}),
        "refused form": visitor.post("/lists", {"name": " "}),
        "404": visitor.get("/lists/999"),
        "403": visitor.post("/lists", {"name": "x"}, csrf="0" * 64),
    }
    # New List offering a template (and the template limit's refusal page).
    pages["refused reset rule"] = visitor.post("/lists/1", {
        "name": "List", "icon": "folder", "reset": "monthly", "resetTime": "06:00", "resetDay": "40"})
    assert visitor.post("/lists/1", {"name": "List", "icon": "folder", "reset": "weekly", "resetTime": "06:00",
                                     "resetWeekday": ["1", "5"]}).status_code == 303
    pages["checklist with a scheduled reset"] = visitor.get("/lists/1")
    pages["edit list with a scheduled reset"] = visitor.get("/lists/1/edit")
    assert visitor.post("/lists/1/save-as-template").status_code == 303
    pages["new list with a template"] = visitor.get("/lists/new")
    assert 'id="templates"' in pages["new list with a template"].text
    # A shared list by each link, an edit link's item form and refusals.
    for kind in ("read-only", "edit"):
        assert visitor.post(f"/lists/1/share/{kind}").status_code == 303
    pages["edit list with links"] = visitor.get("/lists/1/edit")
    links = dict(re.findall(r'id="share-(read-only|edit)" value="[^"]*(/s/[0-9a-f]{32})"',
                            pages["edit list with links"].text))
    pages["shared list, read-only"] = visitor.get(links["read-only"])
    pages["shared list, edit"] = visitor.get(links["edit"])
    pages["shared item form"] = visitor.get(f"{links['edit']}/items/{item}/edit")
    pages["shared 403"] = visitor.post(f"{links['read-only']}/items", {"text": "x"})
    pages["shared refused form"] = visitor.post(
        f"{links['edit']}/items/{item}", {"text": "x", "dueDate": "tomorrow"}, csrf=re.search(
            r'name="csrf" value="([0-9a-f]{64})"', pages["shared list, edit"].text).group(1))
    assert pages["shared refused form"].status_code == 400
    # Export, Import, a refused upload, the preview and the notice after Confirm.
    pages["export"] = visitor.get("/settings/export")
    pages["import"] = visitor.get("/settings/import?cancelled")
    pages["refused upload"] = visitor.http.post(
        stack.url("/settings/import"), data={"csrf": visitor.csrf()},
        files={"file": ("notes <b>.md", b"no tasks")}, allow_redirects=False)
    assert pages["refused upload"].status_code == 422
    uploaded = visitor.http.post(
        stack.url("/settings/import"), data={"csrf": visitor.csrf()},
        files={"file": ("a & b.md", b"# Trip <1>\n- [x] passport\n- [ ] tickets & visa\n")},
        allow_redirects=False)
    assert uploaded.status_code == 303
    pages["import with an upload waiting"] = visitor.get("/settings/import")
    pages["import preview"] = visitor.get("/settings/import/preview")
    digest = re.search(r'name="digest" value="([0-9a-f]{64})"', pages["import preview"].text).group(1)
    confirmed = visitor.post("/settings/import/confirm", {"digest": digest})
    pages["all lists after an import"] = visitor.get(confirmed.headers["Location"])
    # Devices: the last browser's confirmation, the link page naming the
    # lists it puts aside, a newly linked browser's Devices (waiting, with
    # Switch Back) and the owner's (replacing what a browser saw).
    pages["last browser's sign-out"] = visitor.post("/settings/devices/1/sign-out")
    assert pages["last browser's sign-out"].status_code == 200
    pages["link with lists aside"] = visitor.get("/link/" + "k" * 28)
    code = re.search(r"Code: </span><strong>([0-9A-Z-]+)</strong>",
                     visitor.post("/settings/devices/code").text).group(1)
    phone = Visitor(stack)
    phone.add_item(1, "The phone's own <item>")
    assert phone.post("/link", {"code": code}).status_code == 303
    pages["devices of a new browser"] = phone.get("/settings/devices")
    pages["devices offering to replace links"] = visitor.get("/settings/devices")
    assert 'name="replace-links"' in pages["devices offering to replace links"].text
    for name in ("404.html", "413-import.html", "429.html", "50x.html", "about.html"):
        pages[f"static {name}"] = (stack.public / name).read_text()
    problems = {}
    for name, page in pages.items():
        html = page if isinstance(page, str) else page.text
        report = tidy_report(html)
        if mistyped := mistyped_years(html):
            report += f"\nyear may be mistyped: {mistyped}"
        if report.strip():
            problems[name] = report
    assert problems == {}
