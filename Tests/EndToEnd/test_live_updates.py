"""Live updates over HTTP through nginx: an open list page asks for its own
address again with the ETag it holds (what app.js does every 2 s), and gets
304 while the list is unchanged, 200 with a new ETag once another browser
of the same visitor has changed it.
"""
import re

import requests

from visitor import Visitor

TOGGLE = re.compile(r'items/(\d+)/toggle ')


def second_browser(stack, first):
    """The same visitor in another cookie jar: the visitor cookie, nothing else."""
    other = Visitor(stack, requests.Session())
    other.http.cookies.set("visitor", first.cookie("visitor"))
    return other


def poll(browser, list_id, tag):
    return browser.get(f"/lists/{list_id}", headers={"If-None-Match": tag, "Accept": "text/html"})


def test_a_poll_is_304_until_another_browser_changes_the_list(stack):
    phone = Visitor(stack)
    list_id = phone.create_list("Groceries")
    for text in ("milk", "eggs"):
        phone.add_item(list_id, text)
    laptop = second_browser(stack, phone)

    page = laptop.get(f"/lists/{list_id}")
    assert page.status_code == 200 and "milk" in page.text
    tag = page.headers["ETag"]
    # requests takes gzip, as a browser does: the gzipped page's tag is the
    # plain one's made weak, and revalidates as it.
    assert page.headers["Content-Encoding"] == "gzip"
    assert re.fullmatch(r'W/"[0-9a-f]{16}-[0-9a-f]+"', tag), tag

    for _ in range(3):
        unchanged = poll(laptop, list_id, tag)
        assert unchanged.status_code == 304, unchanged.status_code
        assert unchanged.content == b""
        assert unchanged.headers["ETag"] == tag

    # An item added by the other browser: the full page, with a new tag.
    phone.add_item(list_id, "butter")
    changed = poll(laptop, list_id, tag)
    assert changed.status_code == 200
    assert "butter" in changed.text
    added_tag = changed.headers["ETag"]
    assert added_tag != tag
    assert poll(laptop, list_id, added_tag).status_code == 304

    # A toggle: another new tag, and the page shows the item checked.
    milk = TOGGLE.search(changed.text).group(1)
    response = phone.post(f"/lists/{list_id}/items/{milk}/toggle", {"check": "1"})
    assert response.status_code == 303
    toggled = poll(laptop, list_id, added_tag)
    assert toggled.status_code == 200
    assert toggled.headers["ETag"] not in (tag, added_tag)
    assert 'aria-pressed=true' in toggled.text
    assert poll(laptop, list_id, toggled.headers["ETag"]).status_code == 304

    # Deleted by the other browser: the poll is 404, which stops the script.
    response = phone.post(f"/lists/{list_id}/delete")
    assert response.status_code == 303
    assert poll(laptop, list_id, toggled.headers["ETag"]).status_code == 404
