"""README.md's "Deploying behind a system nginx", step 3, read as an operator
reads it: which parts of `nginx.conf`'s `http` block to copy into a site of
a system nginx, which of its directives the system's own `nginx.conf`
already says, and which placeholders to fill. `site(conf)` builds the site
from a rendered `nginx.conf` by that text alone, so the README and
`nginx.conf` cannot drift apart unnoticed."""
import re

from stack import ROOT

README = ROOT / "README.md"
TEMPLATE = ROOT / "nginx.conf"


def step3() -> str:
    text = README.read_text()
    section = text.split("## Deploying behind a system nginx", 1)[1].split("\n## ", 1)[0]
    step = re.search(r"^3\. (.*?)^4\. ", section, re.S | re.M)
    assert step, "README's system-nginx section has no step 3"
    return " ".join(step.group(1).split())


def copy_list() -> list:
    """The names step 3 says to copy (`map`, `limit_req_zone`, …, `server`)."""
    phrase = re.search(r"Copy (.*?) into a file in", step3())
    assert phrase, "step 3 no longer says what to copy"
    return [name for name in re.findall(r"`([^`]+)`", phrase.group(1)) if name != "nginx.conf"]


def map_count() -> int:
    words = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
    found = re.search(r"the (\w+) `map` blocks", step3())
    return words[found.group(1)] if found else 1


def system_provided() -> list:
    """What step 3 says Debian's own `nginx.conf` already sets."""
    phrase = re.search(r"the rest of `nginx.conf`'s `http` block \((.*?)\) is what Debian", step3())
    assert phrase, "step 3 no longer says what the system's nginx.conf provides"
    names = re.findall(r"`([^`]+)`", phrase.group(1))
    if "temporary files' paths" in phrase.group(1):
        names.append("*_temp_path")
    return names


def placeholders() -> set:
    return set(re.findall(r"`(@[A-Z_]+@)`", step3()))


def statements(block: str) -> list:
    """The statements directly inside `block`'s braces (or at the top of a
    file): (name, text) with nested blocks whole; comments left out,
    quotes respected (a map's patterns hold `#` and `;`)."""
    found, depth, start, quote, index = [], 0, None, None, 0
    while index < len(block):
        char = block[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char == "#":
            index = block.find("\n", index)
            if index < 0:
                break
            continue
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0 and start is not None:
                found.append(block[start:index + 1])
                start = None
        elif char == ";" and depth == 0 and start is not None:
            found.append(block[start:index + 1])
            start = None
        elif depth == 0 and start is None and not char.isspace():
            start = index
        index += 1
    return [(" ".join(text.split()[:1]), text) for text in found]


def http_block(conf: str) -> str:
    for name, text in statements(conf):
        if name == "http":
            return text[text.index("{") + 1:text.rindex("}")]
    raise AssertionError("no http block")


def copied(name: str, text: str, names: list) -> bool:
    """True when the statement `name` (`text`) is one step 3 copies."""
    return any(text.startswith(wanted + " ") or text.startswith(wanted + "{") or name == wanted
               for wanted in names)


def provided(name: str, names: list) -> bool:
    return name in names or (name.endswith("_temp_path") and "*_temp_path" in names)


def site(rendered: str) -> str:
    """The site file step 3 makes of a rendered `nginx.conf`: the statements
    it names, in the order they appear (the `map` the `limit_req_zone` uses
    before it)."""
    names = copy_list()
    return "\n\n".join(text for name, text in statements(http_block(rendered)) if copied(name, text, names))
