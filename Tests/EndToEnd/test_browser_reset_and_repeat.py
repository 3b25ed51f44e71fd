"""Lists that come round again, in Chromium with and without JavaScript
(issue 30): a scheduled reset set on Edit List and observed after the
backend's clock passes its boundary (CHECKLISTS_CLOCK_OFFSET_SECONDS, as in
test_scheduled_reset.py), and a repeating item set on its form and checked
twice, which moves it twice.

test_scheduled_reset.py and test_repeating_items.py speak HTTP; here a
person clicks. With JavaScript, the reset reaches the open page by its
live update, and a repeating row (whose toggle's address names the due date
it shows, toggle?due=…) moves with Alt+↓ like any other."""
import datetime
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from test_browser import add_item, chromium, profile, toggle_button, wait  # noqa: F401
from test_browser_offline import put_back, queue, rows, until_controlled
from test_browser_order_and_dates import live_region, posts, shown
from test_scheduled_reset import restart_at

UTC = datetime.timezone.utc


def summary(driver):
    found = driver.find_elements(By.CSS_SELECTOR, "p.reset-summary")
    return found[0].text if found else ""


def open_in_zone(profile, javascript):
    """Chromium in UTC: the zone the page's dates are typed and shown in
    (the browser's with JavaScript, the settings' UTC until known without)."""
    driver = chromium(profile, javascript)
    if javascript:
        driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "UTC"})
    return driver


@pytest.mark.parametrize("javascript", [True, False], ids=["with-js", "without-js"])
def test_a_daily_reset_unchecks_the_list_after_its_boundary(stack, profile, monkeypatch, javascript):
    now = datetime.datetime.now(UTC)
    boundary = now.replace(hour=6, minute=0, second=0, microsecond=0) + datetime.timedelta(days=1)
    restart_at(stack, monkeypatch, boundary - datetime.timedelta(minutes=3))
    driver = open_in_zone(profile, javascript)
    try:
        driver.get(stack.url("/"))
        for text in ("Dishes", "Laundry"):
            add_item(driver, text, javascript)
        list_url = driver.current_url

        driver.find_element(By.LINK_TEXT, "Edit List").click()
        wait(driver, lambda d: d.current_url.endswith("/edit"))
        driver.find_element(By.CSS_SELECTOR, "input[name=reset][value=daily]").click()
        assert driver.find_element(By.ID, "reset-time").get_attribute("value") == "06:00"
        driver.find_element(By.CSS_SELECTOR, "form.stacked button[type=submit]").click()
        wait(driver, lambda d: d.current_url == list_url)
        assert summary(driver) == "Resets every day at 06:00; next: Today 06:00"

        for text in ("Dishes", "Laundry"):
            toggle_button(driver, text).click()
            wait(driver, lambda d, text=text: dict(rows(d)[0])[text])
        assert rows(driver)[0] == [("Dishes", True), ("Laundry", True)]

        # Nothing happens before the boundary.
        restart_at(stack, monkeypatch, boundary - datetime.timedelta(seconds=40))
        driver.get(list_url)
        assert rows(driver)[0] == [("Dishes", True), ("Laundry", True)]

        restart_at(stack, monkeypatch, boundary + datetime.timedelta(seconds=30))
        if javascript:
            # The open page finds out by itself: its live update brings the
            # rows unchecked and the next boundary, with no page load.
            driver.execute_script("window.beforeReload = true")
            wait(driver, lambda d: rows(d)[0] == [("Dishes", False), ("Laundry", False)], seconds=30)
            assert driver.execute_script("return window.beforeReload === true"), "the page was reloaded"
            wait(driver, lambda d: summary(d) == "Resets every day at 06:00; next: Tomorrow 06:00")
        driver.get(list_url)
        assert rows(driver)[0] == [("Dishes", False), ("Laundry", False)]
        assert summary(driver) == "Resets every day at 06:00; next: Tomorrow 06:00"

        # Checked again after the boundary, it stays checked.
        toggle_button(driver, "Dishes").click()
        wait(driver, lambda d: dict(rows(d)[0])["Dishes"])
        driver.get(list_url)
        assert rows(driver)[0] == [("Dishes", True), ("Laundry", False)]
    finally:
        driver.quit()
    stored = next(stack.data.rglob("Checklists.plist")).read_text()
    assert f"<date>{boundary.strftime('%Y-%m-%dT%H:%M:%SZ')}</date>" in stored, "the boundary applied is stored"


def repeating_row(driver, text):
    """The row of `text`: its due date (<time datetime>), whether it is
    checked, and its line under the item ("Repeats daily · Last done …")."""
    button = toggle_button(driver, text)
    row = button.find_element(By.XPATH, "..")
    due = row.find_element(By.TAG_NAME, "time").get_attribute("datetime")
    notes = row.find_elements(By.CSS_SELECTOR, "small.repeats")
    return due, button.get_attribute("aria-pressed") == "true", notes[0].text if notes else ""


def make_daily(driver, text, list_url):
    """Item `text` due 1 Jul 2030 09:00 (UTC), repeating daily, through its form."""
    driver.find_element(By.CSS_SELECTOR, f"ul.items a[aria-label='Edit {text}']").click()
    driver.find_element(By.ID, "item-text").send_keys(Keys.TAB)  # the date's first part, the month
    driver.switch_to.active_element.send_keys("0701203009", "00A")
    assert driver.find_element(By.ID, "item-due").get_attribute("value") == "2030-07-01T09:00"
    Select(driver.find_element(By.ID, "item-repeat")).select_by_value("daily")
    driver.find_element(By.CSS_SELECTOR, "form.item-edit button[type=submit]").click()
    wait(driver, lambda d: d.current_url == list_url)
    assert repeating_row(driver, text) == ("2030-07-01T09:00Z", False, "Repeats daily")


@pytest.mark.parametrize("javascript", [True, False], ids=["with-js", "without-js"])
def test_a_repeating_item_checked_twice_moves_twice(stack, profile, javascript):
    driver = open_in_zone(profile, javascript)
    try:
        driver.get(stack.url("/"))
        for text in ("Water the plants", "Feed the cat"):
            add_item(driver, text, javascript)
        list_url = driver.current_url
        make_daily(driver, "Water the plants", list_url)

        today = datetime.datetime.now(UTC)
        done = f"Last done {today.day} {today.strftime('%b')}"
        for due in ("2030-07-02T09:00Z", "2030-07-03T09:00Z"):
            toggle_button(driver, "Water the plants").click()
            wait(driver, lambda d, due=due: repeating_row(d, "Water the plants")[0] == due)
            assert repeating_row(driver, "Water the plants") == (due, False, f"Repeats daily · {done}")
            if javascript:
                assert driver.current_url == list_url, "no page load"
                assert driver.switch_to.active_element.text == "Water the plants", "focus kept on the item"
        driver.get(list_url)
        assert repeating_row(driver, "Water the plants") == ("2030-07-03T09:00Z", False, f"Repeats daily · {done}")

        if javascript:
            # A repeating row moves as any other (its toggle's address ends
            # in ?due=…), and another moves next to it; neither is checked.
            toggle_button(driver, "Water the plants").send_keys(Keys.ALT, Keys.ARROW_DOWN)
            wait(driver, lambda d: shown(d) == ["Feed the cat", "Water the plants"])
            wait(driver, lambda d: live_region(d) == "Moved \u201cWater the plants\u201d to position 2 of 2")
            toggle_button(driver, "Feed the cat").send_keys(Keys.ALT, Keys.ARROW_DOWN)
            wait(driver, lambda d: shown(d) == ["Water the plants", "Feed the cat"])
            driver.get(list_url)
            assert shown(driver) == ["Water the plants", "Feed the cat"]
            assert repeating_row(driver, "Water the plants")[:2] == ("2030-07-03T09:00Z", False)
            assert not toggle_button(driver, "Feed the cat").get_attribute("aria-pressed") == "true"
    finally:
        driver.quit()
    if javascript:
        assert posts(stack, "/move", 2) == [("/lists/1/items/1/move", "303"), ("/lists/1/items/2/move", "303")]
    toggles = [path for path, _ in posts(stack, "", 0) if "/toggle" in path]
    assert len(toggles) == 2 and all(re.fullmatch(r"/lists/1/items/1/toggle\?due=\d+", path) for path in toggles), \
        toggles


def test_a_repeating_item_checked_offline_moves_once_however_often_its_check_is_sent(stack, profile):
    """The check queued offline keeps the due date its row showed (the
    toggle's ?due=…, as a field): sent when the network is back, and sent
    again as after a reload before the queue let it go, it moves the item
    one day, not two."""
    driver = open_in_zone(profile, True)
    try:
        driver.get(stack.url("/"))
        add_item(driver, "Water the plants", True)
        list_url = driver.current_url
        make_daily(driver, "Water the plants", list_url)
        until_controlled(driver)

        stack.stop_nginx()
        toggle_button(driver, "Water the plants").click()
        wait(driver, lambda d: len(queue(d)) == 1)
        sent = queue(driver)
        shown_due = int(datetime.datetime(2030, 7, 1, 9, tzinfo=UTC).timestamp())
        assert sent[0]["path"] == "/lists/1/items/1/toggle"
        assert f"due={shown_due}" in sent[0]["body"].split("&"), sent[0]["body"]

        stack.start_nginx()
        wait(driver, lambda d: queue(d) == [], seconds=20)
        driver.get(list_url)
        assert repeating_row(driver, "Water the plants")[:2] == ("2030-07-02T09:00Z", False)

        put_back(driver, sent)
        driver.refresh()
        wait(driver, lambda d: queue(d) == [], seconds=20)
        driver.get(list_url)
        assert repeating_row(driver, "Water the plants")[:2] == ("2030-07-02T09:00Z", False)
    finally:
        driver.quit()
