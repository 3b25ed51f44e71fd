"""Fewer bytes on the wire, through nginx: a page fetched with and without
`Accept-Encoding: gzip` is the same page (the backend's kept gzipped form,
or its cheap compression of a computed one; nginx compresses nothing), each
form revalidates to its `304`, `HEAD` tells the length of the form it
stands for, and the static files go out precompressed (`generate`'s
NAME.gz, the same bytes on every run) with a year's immutable
`Cache-Control`."""
import gzip
import re
import shutil
import subprocess
import time

import pytest

from stack import ROOT, Stack
from visitor import Visitor

PLAIN = {"Accept-Encoding": "identity"}
GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def raw(visitor, path, headers, method="GET"):
    """(response, the bytes on the wire): not decoded, as nginx sent them."""
    response = visitor.http.request(method, visitor.stack.url(path), headers=headers, stream=True,
                                    allow_redirects=False)
    return response, response.raw.read(decode_content=False)


@pytest.fixture(scope="module")
def site():
    running = Stack()
    try:
        yield running.start()
    finally:
        running.stop()


@pytest.fixture(scope="module")
def reader(site):
    """A returning visitor with a 20-item list, the page seen once."""
    visitor = Visitor(site)
    list_id = visitor.create_list("Groceries")
    for number in range(20):
        visitor.add_item(list_id, f"item {number} of the week's shopping")
    assert visitor.get(f"/lists/{list_id}").status_code == 200  # sets ChecklistIndex
    time.sleep(0.05)  # past the memo's 20 ms: the next answer is kept
    return visitor, f"/lists/{list_id}"


def test_a_page_is_the_same_page_with_and_without_gzip(reader):
    visitor, path = reader
    first, first_bytes = raw(visitor, path, GZIP)  # computed: compressed on the fly
    plain, plain_bytes = raw(visitor, path, PLAIN)  # kept: the plain form
    kept, kept_bytes = raw(visitor, path, GZIP)  # kept: compressed once by the backend
    assert plain.headers.get("Content-Encoding") is None
    assert first.headers["Content-Encoding"] == kept.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(first_bytes) == gzip.decompress(kept_bytes) == plain_bytes
    assert b"item 19 of the week" in plain_bytes
    assert len(kept_bytes) <= 2_500, f"the 20-item page gzipped is {len(kept_bytes)} bytes"
    assert int(kept.headers["Content-Length"]) == len(kept_bytes)
    assert len(kept_bytes) <= len(first_bytes)  # kept: compressed once, at the smallest level
    for response in (first, plain, kept):
        # Once: nginx adds none of its own; in the browser's language (none
        # chosen on Settings), so the language's header is named too.
        assert response.headers["Vary"] == "Accept-Encoding, Accept-Language"
        assert "Content-Length" in response.headers  # never chunked
    assert first.headers["ETag"] == kept.headers["ETag"] == "W/" + plain.headers["ETag"]


def test_each_form_revalidates_to_its_own_304(reader):
    visitor, path = reader
    plain, _ = raw(visitor, path, PLAIN)
    kept, _ = raw(visitor, path, GZIP)
    # Each form's own tag, and the other form's (weakly the same page).
    for headers in (PLAIN, GZIP):
        for tag in (plain.headers["ETag"], kept.headers["ETag"]):
            again, body = raw(visitor, path, {**headers, "If-None-Match": tag})
            assert again.status_code == 304 and body == b""
            assert again.headers["ETag"] == (kept if headers is GZIP else plain).headers["ETag"]
            assert again.headers["Vary"] == "Accept-Encoding, Accept-Language"


def test_head_tells_the_length_of_the_form_it_stands_for(reader):
    visitor, path = reader
    for headers in (PLAIN, GZIP):
        _, body = raw(visitor, path, headers)
        head, head_body = raw(visitor, path, headers, method="HEAD")
        assert head.status_code == 200 and head_body == b""
        assert int(head.headers["Content-Length"]) == len(body)
        assert head.headers.get("Content-Encoding") == (None if headers is PLAIN else "gzip")


def test_a_page_the_backend_does_not_keep_is_compressed_on_the_fly(reader):
    visitor, _ = reader
    settings, body = raw(visitor, "/settings", GZIP)
    assert settings.status_code == 200 and settings.headers["Content-Encoding"] == "gzip"
    assert settings.headers["Vary"] == "Accept-Encoding, Accept-Language"
    assert int(settings.headers["Content-Length"]) == len(body)
    assert b"Settings" in gzip.decompress(body)
    plain, plain_body = raw(visitor, "/settings", PLAIN)
    assert plain.headers.get("Content-Encoding") is None and b"Settings" in plain_body


@pytest.mark.parametrize("name", ["style.css", "app.js", "favicon.svg"])
def test_static_files_go_out_precompressed_and_immutable(site, name):
    visitor = Visitor(site)
    original = (site.public / name).read_bytes()
    page = visitor.get("/lists").text
    versioned = re.search(rf'/{re.escape(name)}\?v=[0-9a-f]+', page)
    address = versioned.group(0) if versioned else f"/{name}"
    packed, packed_bytes = raw(visitor, address, GZIP)
    plain, plain_bytes = raw(visitor, address, PLAIN)
    assert packed.headers["Content-Encoding"] == "gzip"
    assert packed_bytes == (site.public / f"{name}.gz").read_bytes()  # generate's copy, as it is
    assert gzip.decompress(packed_bytes) == plain_bytes == original
    assert plain.headers.get("Content-Encoding") is None
    for response in (packed, plain):
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert response.headers["Vary"] == "Accept-Encoding"


def test_generate_writes_the_same_copies_every_time(site, tmp_path):
    public = tmp_path / "Public"
    shutil.copytree(ROOT / "Public", public, ignore=shutil.ignore_patterns("*.gz"))
    subprocess.run([site.binary, "generate", "--public", public, "--templates", ROOT / "Templates"],
                   check=True, capture_output=True)
    # Another run, another folder, another moment: the same bytes as the
    # site's own run of generate.
    for name in ("404.html", "about.html", "style.css", "app.js", "icons/groceries.svg"):
        assert (public / f"{name}.gz").read_bytes() == (site.public / f"{name}.gz").read_bytes()
        assert gzip.decompress((public / f"{name}.gz").read_bytes()) == (public / name).read_bytes()
    # A header with no name and no time (RFC 1952: FLG 0, MTIME 0).
    header = (site.public / "style.css.gz").read_bytes()[:10]
    assert header[:4] == b"\x1f\x8b\x08\x00" and header[4:8] == b"\x00\x00\x00\x00"
