"""The central promise through every cache path and over time: a returning
visitor lands on the list they last looked at, whether the browser fetched
the page, revalidated its copy (`304`), or showed it from history; and a
visitor who keeps coming back is never forgotten.

Through a real nginx and backend; the browser tests drive headless Chromium
with the same profile closed and reopened, as a person closes a browser."""
import os
import re
import subprocess
import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from test_browser import chromium, heading, profile, wait  # noqa: F401 (fixture)
from visitor import Visitor

SETTLE = 0.05  # the backend keeps a page only once the last change is 20 ms old


def set_cookies(response):
    """Every Set-Cookie header value (requests folds repeated headers)."""
    return response.raw.headers.getlist("Set-Cookie")


def stored_visitor(stack):
    """A visitor with stored data: list 1 (`List`, one item) and list 2 `Zebra` (row 1)."""
    visitor = Visitor(stack)
    visitor.add_item(1, "milk")
    assert visitor.create_list("Zebra") == 2
    return visitor


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_a_revalidated_list_is_still_the_list_to_land_on(stack, method):
    visitor = stored_visitor(stack)
    for round_number in range(3):  # later rounds meet the kept pages
        etag = visitor.get("/lists/2").headers["ETag"]
        visitor.get("/lists")
        assert visitor.cookie("ChecklistIndex") == "-1"
        time.sleep(SETTLE)
        again = visitor.http.request(method, stack.url("/lists/2"), headers={"If-None-Match": etag},
                                     allow_redirects=False)
        assert again.status_code == 304, round_number
        assert any(value.startswith("ChecklistIndex=1;") for value in set_cookies(again)), set_cookies(again)
        landing = visitor.get("/")
        assert landing.status_code == 303 and landing.headers["Location"] == "/lists/2", round_number


def test_a_revalidated_all_lists_is_still_where_the_visitor_lands(stack):
    visitor = stored_visitor(stack)
    for round_number in range(3):
        etag = visitor.get("/lists").headers["ETag"]
        visitor.get("/lists/2")
        assert visitor.cookie("ChecklistIndex") == "1"
        time.sleep(SETTLE)
        again = visitor.get("/lists", headers={"If-None-Match": etag})
        assert again.status_code == 304, round_number
        assert any(value.startswith("ChecklistIndex=-1;") for value in set_cookies(again))
        assert visitor.get("/").status_code == 200, round_number  # All Lists itself


def today():
    return int(time.time() // 86400)


def test_a_returning_visitors_cookie_is_renewed_once_a_day(stack):
    visitor = stored_visitor(stack)
    value = visitor.cookie("visitor")
    assert re.fullmatch(r"[0-9a-f]{32}\.\d+", value) and value.endswith(f".{today()}")
    identity = value[:32]
    for old in (f"{identity}.{today() - 2}", identity):  # a day old; from before renewal
        page = Visitor(stack).get("/lists/2", headers={"Cookie": f"visitor={old}; ChecklistIndex=1"})
        assert page.status_code == 200 and "Zebra" in page.text
        cookies = set_cookies(page)
        assert any(c.startswith(f"visitor={identity}.{today()}; Max-Age=34560000;") for c in cookies), cookies
        assert any(c.startswith("ChecklistIndex=1; Max-Age=34560000;") for c in cookies), cookies
    current = Visitor(stack).get("/lists/2", headers={"Cookie": f"visitor={value}; ChecklistIndex=1"})
    assert set_cookies(current) == []


def backdate(directory: Path, days: float):
    past = time.time() - days * 86400
    for path in [*directory.iterdir(), directory]:
        os.utime(path, (past, past))


def checklists(stack, *arguments):
    return subprocess.run([str(stack.binary), *arguments, "--data", str(stack.data)],
                          capture_output=True, text=True)


def test_idle_visitors_are_reported_and_pruned_only_when_asked(stack):
    gone, active = stored_visitor(stack), stored_visitor(stack)
    directories = sorted((stack.data / "users").glob("*/*"))
    assert len(directories) == 2
    for directory in directories:
        backdate(directory, 500)
    # The active visitor comes back (a day-old cookie): renewed and marked seen.
    value = active.cookie("visitor")
    page = active.get("/lists/2", headers={"Cookie": f"visitor={value[:32]}.{today() - 1}"})
    assert page.status_code == 200

    check = checklists(stack, "check")
    assert check.returncode == 0, check.stdout + check.stderr
    assert re.search(r"^1 of 2 visitors idle for 400 days or more \(\d+ bytes\); the longest idle: 500 days$",
                     check.stdout, re.M), check.stdout

    dry_run = checklists(stack, "prune", "--idle-days", "400")
    assert dry_run.returncode == 0 and "dry run" in dry_run.stdout, dry_run.stdout
    assert all(directory.exists() for directory in directories)

    pruned = checklists(stack, "prune", "--idle-days", "400", "--delete")
    assert pruned.returncode == 0 and "1 visitors idle" in pruned.stdout, pruned.stdout
    assert sum(directory.exists() for directory in directories) == 1
    assert "Zebra" in active.get("/lists/2").text
    assert "Zebra" not in gone.get("/lists").text  # their data is gone: a fresh start
    assert checklists(stack, "prune", "--idle-days", "0").returncode != 0


def open_list_from_all_lists(driver, name, list_id=1):
    driver.find_element(By.CSS_SELECTOR, f'a.row-main[href="/lists/{list_id}"]').click()
    wait(driver, lambda d: heading(d) == name)


def go_to_all_lists(driver):
    driver.find_element(By.LINK_TEXT, "All Lists").click()
    wait(driver, lambda d: heading(d) == "All Lists")


def browse_then_reopen(stack, profile, javascript, steps):
    """A new visitor adds `milk` to the first-run list, then `steps(driver)`;
    then the browser is closed and opened again with the same profile, as a
    person does. Returns the heading and address where `/` then lands."""
    driver = chromium(profile, javascript)
    try:
        driver.get(stack.url("/"))
        wait(driver, lambda d: heading(d) == "List")
        driver.find_element(By.CSS_SELECTOR, "form.add-item input[name=text]").send_keys("milk\n")
        wait(driver, lambda d: "milk" in d.page_source)
        steps(driver)
    finally:
        driver.quit()
    driver = chromium(profile, javascript)
    try:
        driver.get(stack.url("/"))
        return heading(driver), driver.current_url
    finally:
        driver.quit()


@pytest.mark.parametrize("javascript", [True, False], ids=["with-js", "without-js"])
def test_chromium_reopened_lands_on_a_list_opened_again_from_its_cached_copy(stack, profile, javascript):
    def steps(driver):
        go_to_all_lists(driver)
        open_list_from_all_lists(driver, "List")
        go_to_all_lists(driver)
        time.sleep(SETTLE)
        open_list_from_all_lists(driver, "List")  # the cached copy, revalidated

    assert browse_then_reopen(stack, profile, javascript, steps) == ("List", stack.url("/lists/1"))


@pytest.mark.parametrize("javascript", [True, False], ids=["with-js", "without-js"])
def test_chromium_reopened_lands_on_all_lists_opened_again_from_its_cached_copy(stack, profile, javascript):
    def steps(driver):
        go_to_all_lists(driver)  # now in the browser's cache
        open_list_from_all_lists(driver, "List")
        # Renaming the item changes the list's page (fetched whole, so it
        # surely moves ChecklistIndex to the list) but not All Lists.
        driver.find_element(By.CSS_SELECTOR, "ul.items > li > a").click()
        field = driver.find_element(By.ID, "item-text")
        field.clear()
        field.send_keys("oat milk\n")
        wait(driver, lambda d: heading(d) == "List" and "oat milk" in d.page_source)
        time.sleep(SETTLE)
        go_to_all_lists(driver)  # the cached copy, revalidated

    assert browse_then_reopen(stack, profile, javascript, steps)[0] == "All Lists"


@pytest.mark.parametrize("destination", ["list", "all-lists"])
def test_chromium_back_and_forward_move_the_list_to_land_on(stack, profile, destination):
    """Back and forward show the browser's copy without asking the server;
    the enhancement script tells it (without JavaScript nothing can)."""
    expected = "List" if destination == "list" else "All Lists"

    def steps(driver):
        go_to_all_lists(driver)
        if destination == "all-lists":
            open_list_from_all_lists(driver, "List")
        driver.back()
        wait(driver, lambda d: heading(d) == expected)
        cookie = lambda d: (d.get_cookie("ChecklistIndex") or {}).get("value")  # noqa: E731
        wait(driver, lambda d: cookie(d) == ("0" if destination == "list" else "-1"))

    assert browse_then_reopen(stack, profile, True, steps)[0] == expected
