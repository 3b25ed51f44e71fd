"""Live updates in Chromium: two browsers of the same visitor (the second
holds a copy of the first one's visitor cookie) have the same list open;
what the first changes through the page shows in the second within 2 s,
without a reload, and without disturbing what the second is typing. A
hidden page does not poll; a list deleted meanwhile stops the polling with
a notice.
"""
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from selenium.common.exceptions import WebDriverException

from stack import Stack
from test_browser import add_item, chromium, heading, toggle_button, wait

# The polls this page has sent so far (fetches of its own address), with
# when each started, in the page's clock.
POLLS = """
return performance.getEntriesByType("resource").filter(function (entry) {
  return entry.initiatorType === "fetch" && new URL(entry.name).pathname === location.pathname;
}).map(function (entry) { return entry.startTime; });
"""


@pytest.fixture(scope="module")
def browsers():
    """nginx, the backend and two Chromium profiles with JavaScript, started
    once for this file's tests; the second holds the first one's visitor
    cookie, so both are the same visitor."""
    stack = Stack()
    folders = [Path(tempfile.mkdtemp(prefix="checklists-live-")) for _ in range(2)]
    drivers = []
    try:
        stack.start()
        for folder in folders:
            drivers.append(chromium(folder, javascript=True))
        first, second = drivers
        first.get(stack.url("/lists"))
        second.get(stack.url("/about.html"))
        second.add_cookie({"name": "visitor", "value": first.get_cookie("visitor")["value"], "path": "/"})
        yield stack, first, second
    finally:
        for driver in drivers:
            driver.quit()
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
        stack.stop()


@pytest.fixture
def two_browsers(browsers):
    """A new list of two items, open in both browsers."""
    stack, first, second = browsers
    first.get(stack.url("/lists/new"))
    first.find_element(By.ID, "list-name").send_keys("Shop")
    first.find_element(By.CSS_SELECTOR, "form.stacked button[type=submit]").click()
    wait(first, lambda d: heading(d) == "Shop")
    for text in ("milk", "eggs"):
        add_item(first, text, javascript=True)
    second.get(first.current_url)
    assert heading(second) == "Shop"
    yield first, second
    for handle in second.window_handles[1:]:
        second.switch_to.window(handle)
        second.close()
    second.switch_to.window(second.window_handles[0])


def texts(driver):
    return [button.text for button in driver.find_elements(By.CSS_SELECTOR, "button.check")]


def soon(driver, condition, seconds=3):
    ignored = (WebDriverException, AssertionError)
    return WebDriverWait(driver, seconds, poll_frequency=0.1, ignored_exceptions=ignored).until(
        lambda d: condition(d))


def test_a_change_in_one_browser_shows_in_the_other_without_a_reload(two_browsers):
    first, second = two_browsers
    list_url = second.current_url
    field = second.find_element(By.CSS_SELECTOR, "form.add-item input[name=text]")
    field.send_keys("half typed")
    second.execute_script("arguments[0].setSelectionRange(4, 4);"
                          "window.liveMarker = 'no navigation';"
                          "document.querySelector('ul.items > li').setAttribute('data-probe', '');", field)
    # The first poll finds the page as it was loaded: nothing is replaced.
    soon(second, lambda d: len(d.execute_script(POLLS)) >= 1, seconds=4)
    time.sleep(0.3)
    assert second.find_elements(By.CSS_SELECTOR, "li[data-probe]")

    add_item(first, "bread", javascript=True)
    toggle_button(first, "milk").click()
    wait(first, lambda d: toggle_button(d, "milk").get_attribute("aria-pressed") == "true")
    changed = time.monotonic()
    soon(second, lambda d: sorted(texts(d)) == ["bread", "eggs", "milk"])
    soon(second, lambda d: toggle_button(d, "milk").get_attribute("aria-pressed") == "true")
    assert time.monotonic() - changed <= 3
    assert second.execute_script("return window.liveMarker") == "no navigation"
    assert second.current_url == list_url
    assert not second.find_elements(By.CSS_SELECTOR, "li[data-probe]")  # the rows were replaced
    # What the visitor was typing is untouched: text, focus and caret.
    field = second.find_element(By.CSS_SELECTOR, "form.add-item input[name=text]")
    assert field.get_attribute("value") == "half typed"
    assert second.execute_script("return document.activeElement === arguments[0]", field)
    assert second.execute_script("return arguments[0].selectionStart", field) == 4
    soon(second, lambda d: "List updated" in d.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('[aria-live=polite]'),"
        " function (e) { return e.textContent; }).join(' ')"))
    # The typed item is then added as usual, and reaches the first browser.
    second.find_element(By.CSS_SELECTOR, "form.add-item button").click()
    soon(second, lambda d: "half typed" in texts(d))
    soon(first, lambda d: "half typed" in texts(d))
    assert sorted(texts(first)) == sorted(["milk", "eggs", "bread", "half typed"])


def test_a_hidden_page_does_not_poll_and_catches_up_when_shown(two_browsers):
    first, second = two_browsers
    second.execute_script(
        "window.visibility = [];"
        "document.addEventListener('visibilitychange', function () {"
        "  window.visibility.push([document.visibilityState, performance.now()]); });")
    shown_list = second.current_window_handle
    second.switch_to.new_window("tab")
    second.get(first.current_url.rsplit("/lists", 1)[0] + "/about.html")
    add_item(first, "butter", javascript=True)
    time.sleep(2.5)  # more than a polling interval while hidden
    second.switch_to.window(shown_list)
    visibility = second.execute_script("return window.visibility")
    if not visibility:
        pytest.skip("this Chromium does not hide a tab in the background")
    soon(second, lambda d: "butter" in texts(d), seconds=1.5)  # polled at once when shown
    hidden_at = next(at for state, at in visibility if state == "hidden")
    shown_at = next(at for state, at in visibility if state == "visible" and at > hidden_at)
    polls = second.execute_script(POLLS)
    assert not [at for at in polls if hidden_at < at < shown_at], (visibility, polls)
    assert any(shown_at <= at < shown_at + 500 for at in polls), (visibility, polls)


def test_a_list_deleted_elsewhere_stops_polling_with_a_notice(two_browsers):
    first, second = two_browsers
    first.get(first.current_url + "/edit")
    first.find_element(By.CSS_SELECTOR, "form.danger-zone button").click()
    wait(first, lambda d: heading(d) == "All Lists")
    soon(second, lambda d: d.find_element(By.CSS_SELECTOR, "main .live-stopped").text
         == "This list is no longer available.")
    assert second.find_element(By.CSS_SELECTOR, ".live-stopped").get_attribute("role") == "status"
    # The poll that found the list gone may be entered in the browser's
    # resource timing a moment after its answer was shown: count from
    # half a second on, then wait longer than the 2 s between polls.
    time.sleep(0.5)
    polls = len(second.execute_script(POLLS))
    time.sleep(2.5)
    assert len(second.execute_script(POLLS)) == polls  # stopped
    assert heading(second) == "Shop"  # the page stays as it was
