"""The CalDAV group's skeleton through nginx: OPTIONS /dav/ reaches the
backend and says it is a CalDAV server."""
import requests


def test_options_on_dav_answers_calendar_access(stack):
    response = requests.options(stack.url("/dav/"))
    assert response.status_code == 200
    assert response.headers["DAV"] == "1, calendar-access"
    assert response.headers["Allow"] == "OPTIONS, PROPFIND"
    assert "Set-Cookie" not in response.headers
    assert response.content == b""


def test_other_methods_on_dav_are_405_from_the_backend(stack):
    for method in ("GET", "REPORT"):
        response = requests.request(method, stack.url("/dav/"))
        assert response.status_code == 405, method
        assert response.headers["Allow"] == "OPTIONS, PROPFIND", method


def test_a_dav_path_that_looks_like_a_file_still_reaches_the_backend(stack):
    # nginx serves files for addresses ending in .css, .ics is a CalDAV
    # resource's name: under /dav/ nothing is a file.
    (stack.public / "dav").mkdir()
    (stack.public / "dav" / "x.css").write_text("body {}\n")
    response = requests.get(stack.url("/dav/x.css"))
    assert response.status_code == 404
    assert response.text != "body {}\n"
