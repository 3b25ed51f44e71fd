"""Every screen is valid HTML5, checked by Debian's `tidy`: no errors, no warnings."""
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
    # shape-rendering, which the QR code of a link code uses (valid SVG 1.1).
    lines = [line for line in result.stderr.strip().splitlines()
             if not line.endswith('<svg> proprietary attribute "shape-rendering"')]
    return "\n".join(lines)


def test_every_screen_is_valid_html(stack):
    visitor = Visitor(stack)
    visitor.add_item(1, "an item with <markup> & \"quotes\"")
    visitor.post("/lists/1/items/1/toggle")
    item = int(re.search(r'items/(\d+)/toggle"', visitor.get("/lists/1").text).group(1))
    pages = {
        "all lists": visitor.get("/lists"),
        "checklist": visitor.get("/lists/1"),
        "new list": visitor.get("/lists/new"),
        "edit list": visitor.get("/lists/1/edit"),
        "edit item": visitor.get(f"/lists/1/items/{item}/edit"),
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
    for name in ("404.html", "429.html", "50x.html", "about.html"):
        pages[f"static {name}"] = (stack.public / name).read_text()
    problems = {}
    for name, page in pages.items():
        html = page if isinstance(page, str) else page.text
        report = tidy_report(html)
        if report:
            problems[name] = report
    assert problems == {}
