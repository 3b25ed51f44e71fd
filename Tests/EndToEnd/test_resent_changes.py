"""A form sent twice changes once, through nginx and across a restart of the backend.

A browser re-sends a post whose answer it did not get (app.js falls back to
an ordinary submission after a failed fetch; a visitor reloads after a
timeout), though the backend may have committed the first. The add form
carries the state it was rendered in (`nonce`), the toggle the state it asks
for (`check`), so the second delivery is answered like the first and changes
nothing.
"""
import re

from visitor import Visitor

NONCE = re.compile(r'name="nonce" value="(\d+)"')
ROW = re.compile(r'formaction=\d+/items/(\d+)/toggle aria-pressed=(true|false) '
                 r'name=check value=([01])>(.*?)</button>')


def rows(visitor):
    return [(int(item), pressed == "true", check, text)
            for item, pressed, check, text in ROW.findall(visitor.get("/lists/1").text)]


def test_the_same_add_and_the_same_toggle_posted_twice_change_once(stack):
    visitor = Visitor(stack)
    nonce = NONCE.search(visitor.get("/lists/1").text).group(1)
    token = visitor.csrf()
    add = {"text": "milk", "nonce": nonce}
    for _ in range(2):
        response = visitor.post("/lists/1/items", add, csrf=token)
        assert response.status_code == 303 and response.headers["Location"] == "/lists/1"
    [(item, checked, check, text)] = rows(visitor)
    assert (text, checked, check) == ("milk", False, "1")

    toggle = f"/lists/1/items/{item}/toggle"
    for _ in range(2):
        response = visitor.post(toggle, {"check": check}, csrf=token)
        assert response.status_code == 303 and response.headers["Location"] == "/lists/1"
    assert rows(visitor) == [(item, True, "0", "milk")]

    # The state lives in the visitor's file, not in the process: a restarted
    # backend answers the same re-sent forms the same way.
    stack.stop_backend()
    stack.start_backend()
    assert visitor.post("/lists/1/items", add, csrf=token).status_code == 303
    assert visitor.post(toggle, {"check": check}, csrf=token).status_code == 303
    assert rows(visitor) == [(item, True, "0", "milk")]
