"""Hostile input through nginx (and straight to the backend's socket): each
request gets its expected status and changes nothing that was stored."""
import re
import socket
import threading
import time

import pytest
import requests

import fastcgi_client
from visitor import Visitor

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def snapshot(stack):
    users = stack.data / "users"
    if not users.exists():
        return {}
    return {str(p.relative_to(users)): p.read_bytes() for p in users.rglob("*") if p.is_file() and not p.name.endswith(".lock")}


@pytest.fixture
def owner(stack):
    """A visitor with stored data: a list `Mine` holding one item."""
    visitor = Visitor(stack)
    visitor.add_item(1, "first item")
    visitor.mine = visitor.create_list("Mine")
    visitor.add_item(visitor.mine, "mine")
    return visitor


@pytest.mark.parametrize("cookie", [
    "visitor=" + "a" * 1000,
    "visitor=" + "z" * 32,
    "visitor=../../../../etc/passwd",
    "visitor=..%2f..%2f" + "a" * 26,
    "visitor=" + "A" * 32,
    "visitor=",
])
def test_a_malformed_visitor_cookie_is_a_new_visitor_and_never_a_path(stack, owner, cookie):
    before = snapshot(stack)
    response = requests.get(stack.url("/"), headers={"Cookie": cookie}, allow_redirects=False)
    assert response.status_code == 303 and response.headers["Location"] == "/lists/1"
    issued = response.cookies.get("visitor")
    assert issued and re.fullmatch(r"[0-9a-f]{32}\.\d+", issued) and issued[:32] not in cookie
    forged = requests.post(stack.url("/lists"), data={"name": "x", "csrf": "0" * 64},
                           headers={"Cookie": cookie}, allow_redirects=False)
    assert forged.status_code == 403
    assert snapshot(stack) == before


def test_a_repeated_visitor_cookie_uses_the_first_and_changes_nothing_else(stack, owner):
    stranger = Visitor(stack)
    stranger.get("/lists")
    before = snapshot(stack)
    both = f"visitor={stranger.cookie('visitor')}; visitor={owner.cookie('visitor')}"
    page = requests.get(stack.url(f"/lists/{owner.mine}"), headers={"Cookie": both}, allow_redirects=False)
    assert page.status_code == 404  # the stranger (first cookie) has no such list
    assert snapshot(stack) == before


@pytest.mark.parametrize("segment", ["-1", "0", "99999999999999999999999", "abc", "%2e%2e", "1e3"])
def test_odd_list_and_item_ids_are_404(stack, owner, segment):
    before = snapshot(stack)
    assert owner.get(f"/lists/{segment}").status_code == 404
    assert owner.get(f"/lists/1/items/{segment}/edit").status_code == 404
    assert owner.post(f"/lists/{segment}/delete").status_code == 404
    assert owner.post(f"/lists/1/items/{segment}/toggle").status_code == 404
    assert snapshot(stack) == before


def test_another_visitors_list_is_out_of_reach(stack, owner):
    intruder = Visitor(stack)
    intruder.get("/lists")
    before = snapshot(stack)
    assert intruder.get(f"/lists/{owner.mine}").status_code == 404
    assert intruder.post(f"/lists/{owner.mine}/delete").status_code == 404
    assert intruder.post(f"/lists/{owner.mine}/items/2/toggle").status_code == 404
    assert snapshot(stack) == before
    assert "mine" in owner.get(f"/lists/{owner.mine}").text


def test_bodies_over_the_limit_are_413_from_nginx_and_from_the_backend(stack, owner):
    before = snapshot(stack)
    big = b"text=" + b"x" * (70 * 1024)
    assert owner.http.post(stack.url("/lists/1/items"), data=big, headers=FORM).status_code == 413
    status, _, _ = fastcgi_client.request(
        stack.socket, "POST", "/lists/1/items", body=big,
        headers={"Content-Type": FORM["Content-Type"], "Cookie": f"visitor={owner.cookie('visitor')}"})
    assert status == 413
    assert snapshot(stack) == before


@pytest.mark.parametrize("content_type", [None, "text/plain", "multipart/form-data; boundary=x", "application/json"])
def test_a_missing_or_wrong_content_type_is_415(stack, owner, content_type):
    before = snapshot(stack)
    body = f"csrf={owner.csrf()}&text=hello".encode()
    headers = {"Content-Type": content_type} if content_type else {}
    response = owner.http.post(stack.url("/lists/1/items"), data=body, headers=headers, allow_redirects=False)
    if content_type is None:
        response = owner.http.post(stack.url("/lists/1/items"), data=body, allow_redirects=False,
                                   headers={"Content-Type": ""})
    assert response.status_code == 415
    assert snapshot(stack) == before


@pytest.mark.parametrize("text", [b"%ff%fe", b"%c3%28", b"%ed%a0%80", b"%zz", b"%", b"abc%e2%82"])
def test_invalid_utf8_or_encoding_is_400(stack, owner, text):
    before = snapshot(stack)
    body = f"csrf={owner.csrf()}&text=".encode() + text
    response = owner.http.post(stack.url("/lists/1/items"), data=body, headers=FORM, allow_redirects=False)
    assert response.status_code == 400
    assert snapshot(stack) == before


def test_control_characters_are_removed_from_text(stack, owner):
    response = owner.post("/lists/1/items", {"text": "bell\x07 and\x00 null\x1b"})
    assert response.status_code == 303
    page = owner.get("/lists/1").text
    assert "bell and null" in page
    for file in (stack.data / "users").rglob("Checklists.plist"):
        assert b"\x07" not in file.read_bytes() and b"\x00" not in file.read_bytes()


def test_ten_thousand_form_fields_are_400(stack, owner):
    before = snapshot(stack)
    body = f"csrf={owner.csrf()}&".encode() + b"&".join(b"f%x" % n for n in range(10_000))
    assert len(body) < 64 * 1024
    response = owner.http.post(stack.url("/lists/1/items"), data=body, headers=FORM, allow_redirects=False)
    assert response.status_code == 400
    assert snapshot(stack) == before


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"])
def test_wrong_methods_are_405(stack, owner, method):
    before = snapshot(stack)
    response = owner.http.request(method, stack.url(f"/lists/{owner.mine}"), allow_redirects=False)
    assert response.status_code == 405
    if method != "TRACE":  # nginx answers TRACE itself
        assert response.headers["Allow"] == "GET, HEAD, POST"
    assert snapshot(stack) == before


def test_very_long_urls_and_headers_are_refused_and_the_server_lives_on(stack, owner):
    before = snapshot(stack)
    assert owner.get("/lists/" + "1" * 20_000).status_code in (404, 414)
    assert owner.get("/lists/1?" + "q" * 20_000).status_code in (200, 414)
    response = requests.get(stack.url("/lists"), headers={"X-Long": "h" * 64_000})
    assert response.status_code in (400, 431, 494)
    response = requests.get(stack.url("/lists"), headers={"Cookie": "visitor=" + "a" * 64_000})
    assert response.status_code in (400, 431, 494)
    assert snapshot(stack) == before
    assert owner.get(f"/lists/{owner.mine}").status_code == 200


def test_slow_clients_that_never_finish_their_body_do_not_block_others(stack, owner):
    before = snapshot(stack)
    held = []
    for _ in range(80):
        connection = socket.create_connection(("127.0.0.1", stack.port))
        connection.sendall(
            b"POST /lists/1/items HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n"
            + f"Cookie: visitor={owner.cookie('visitor')}\r\n\r\ncsrf=".encode())
        held.append(connection)
    try:
        began = time.monotonic()
        for _ in range(20):
            assert owner.get(f"/lists/{owner.mine}").status_code == 200
        assert time.monotonic() - began < 5
        status, _, _ = fastcgi_client.request(stack.socket, "GET", "/health")
        assert status == 200
    finally:
        for connection in held:
            connection.close()
    assert snapshot(stack) == before


def test_one_letter_under_twenty_thousand_accents_is_refused_and_nothing_is_stored(stack, owner):
    """Issue 11: `a` + 20,000 combining accents is one character (40 KB of
    raw UTF-8 in the body); it was stored with 303 and made a 122 KB page."""
    before = snapshot(stack)
    body = f"csrf={owner.csrf()}&text=a".encode() + "\u0301".encode() * 20_000
    assert 40_000 < len(body) < 64 * 1024
    response = owner.http.post(stack.url("/lists/1/items"), data=body, headers=FORM, allow_redirects=False)
    assert response.status_code == 422
    assert "That text is too long to keep" in response.text and "Nothing was changed." in response.text
    assert snapshot(stack) == before
    assert len(owner.get("/lists/1").content) < 16 * 1024
