"""A real browser (headless Chromium driven by Selenium) uses the product, with
JavaScript and without, closes, and comes back with the same profile.

Screenshots of every screen at phone and desktop width are saved under
Tests/EndToEnd/artifacts/screenshots/.
"""
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.support.ui import WebDriverWait

SCREENSHOTS = Path(__file__).resolve().parent / "artifacts" / "screenshots"
PHONE = (360, 800)
DESKTOP = (1280, 900)


def chromium(profile: Path, javascript: bool, size=DESKTOP, home: Path = None):
    """`home`: the HOME Chromium runs with, whose NSS database holds the
    certificate authorities it trusts besides the system's (tls.py)."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}",
                     "--no-first-run", "--password-store=basic"):
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    environment = {**os.environ, "HOME": str(home)} if home else None
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver", env=environment)
    return webdriver.Chrome(service=service, options=options)


@pytest.fixture
def profile():
    folder = Path(tempfile.mkdtemp(prefix="checklists-profile-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def wait(driver, condition, seconds=10):
    # A navigation or the enhancement script's new <main> can replace an
    # element between finding and reading it (stale, or "does not belong to
    # the document"): look again until the time is up.
    ignored = (WebDriverException, AssertionError)
    return WebDriverWait(driver, seconds, ignored_exceptions=ignored).until(lambda d: condition(d))


def heading(driver):
    return driver.find_element(By.TAG_NAME, "h1").text.strip()


def toggle_button(driver, text):
    for button in driver.find_elements(By.CSS_SELECTOR, "button.check"):
        if button.text == text:
            return button
    raise AssertionError(f"no item {text!r}")


def add_item(driver, text, javascript):
    count = len(driver.find_elements(By.CSS_SELECTOR, "button.check"))
    field = driver.find_element(By.CSS_SELECTOR, "form.add-item input[name=text]")
    field.send_keys(text)
    field.submit() if not javascript else driver.find_element(By.CSS_SELECTOR, "form.add-item button").click()
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "button.check")) == count + 1)


@pytest.mark.parametrize("javascript", [True, False], ids=["with-js", "without-js"])
def test_add_check_close_and_come_back_to_the_same_list(stack, profile, javascript):
    driver = chromium(profile, javascript)
    try:
        driver.get(stack.url("/"))
        assert heading(driver) == "List"  # a new visitor lands in the first-run list
        driver.find_element(By.LINK_TEXT, "All Lists").click()
        assert heading(driver) == "All Lists"
        driver.find_element(By.LINK_TEXT, "New List").click()
        driver.find_element(By.ID, "list-name").send_keys("Trip")
        driver.find_element(By.CSS_SELECTOR, "input[name=icon][value=trips]").click()
        driver.find_element(By.CSS_SELECTOR, "form.stacked button[type=submit]").click()
        wait(driver, lambda d: heading(d) == "Trip")
        trip_url = driver.current_url
        add_item(driver, "passport", javascript)
        add_item(driver, "tickets", javascript)
        if javascript:
            # The enhancement keeps the page: no navigation happened.
            assert driver.current_url == trip_url
        toggle_button(driver, "passport").click()
        wait(driver, lambda d: toggle_button(d, "passport").get_attribute("aria-pressed") == "true")
        assert toggle_button(driver, "tickets").get_attribute("aria-pressed") == "false"
    finally:
        driver.quit()

    driver = chromium(profile, javascript)
    try:
        driver.get(stack.url("/"))
        assert heading(driver) == "Trip"
        assert driver.current_url == trip_url
        assert toggle_button(driver, "passport").get_attribute("aria-pressed") == "true"
        assert toggle_button(driver, "tickets").get_attribute("aria-pressed") == "false"
    finally:
        driver.quit()


def test_screenshots_of_every_screen_at_phone_and_desktop_width(stack, profile):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver = chromium(profile, javascript=True)
    try:
        driver.get(stack.url("/"))
        add_item(driver, "Milk", True)
        add_item(driver, "Bread with a rather long name that wraps on a narrow phone screen", True)
        toggle_button(driver, "Milk").click()
        wait(driver, lambda d: toggle_button(d, "Milk").get_attribute("aria-pressed") == "true")
        list_url = driver.current_url
        item_edit = driver.find_element(By.CSS_SELECTOR, "ul.items > li > a").get_attribute("href")
        screens = {
            "all-lists": "/lists",
            "checklist": list_url,
            "new-list": "/lists/new",
            "edit-list": list_url + "/edit",
            "edit-item": item_edit,
            "settings": "/settings",
            "not-found": "/lists/999",
            "about": "/about.html",
        }
        saved = []
        for name, address in screens.items():
            driver.get(address if address.startswith("http") else stack.url(address))
            for label, (width, height) in (("phone", PHONE), ("desktop", DESKTOP)):
                driver.set_window_size(width, height)
                path = SCREENSHOTS / f"{name}-{label}.png"
                driver.save_screenshot(str(path))
                saved.append(path)
                # Readable on a phone: nothing wider than the window.
                scroll = driver.execute_script("return document.documentElement.scrollWidth")
                client = driver.execute_script("return document.documentElement.clientWidth")
                assert scroll <= client, f"{name} scrolls sideways at {label} width"
        assert all(path.stat().st_size > 1000 for path in saved)

        # The system's dark appearance: the same screens, other colours.
        driver.get(list_url)
        light = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        for name in ("checklist", "all-lists", "new-list"):
            driver.get(screens[name] if screens[name].startswith("http") else stack.url(screens[name]))
            for label, (width, height) in (("phone", PHONE), ("desktop", DESKTOP)):
                driver.set_window_size(width, height)
                driver.save_screenshot(str(SCREENSHOTS / f"{name}-dark-{label}.png"))
        driver.get(list_url)
        dark = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
        assert light != dark, (light, dark)
    finally:
        driver.quit()


def test_every_control_is_reachable_by_keyboard_and_labelled(stack, profile):
    driver = chromium(profile, javascript=True)
    try:
        driver.get(stack.url("/"))
        add_item(driver, "Eggs", True)
        for address in ("/lists/1", "/lists/new", "/settings", "/lists"):
            driver.get(stack.url(address))
            unlabelled = driver.execute_script("""
                return Array.from(document.querySelectorAll('input:not([type=hidden]), button, a'))
                  .filter(e => !(e.labels && e.labels.length) && !(e.textContent || '').trim()
                               && !e.getAttribute('aria-label'))
                  .map(e => e.outerHTML.slice(0, 80));""")
            assert unlabelled == [], (address, unlabelled)
            small = driver.execute_script("""
                return Array.from(document.querySelectorAll('button, a, input:not([type=hidden])'))
                  .filter(e => { const r = e.getBoundingClientRect();
                                 return r.width > 0 && (r.width < 24 || r.height < 24); })
                  .map(e => e.outerHTML.slice(0, 80));""")
            assert small == [], (address, small)
            fonts = driver.execute_script("""
                return Array.from(document.querySelectorAll('input:not([type=hidden]):not([type=radio]):not([type=checkbox])'))
                  .map(e => parseFloat(getComputedStyle(e).fontSize));""")
            assert all(size >= 16 for size in fonts), (address, fonts)
    finally:
        driver.quit()


def test_the_script_posts_each_change_once_to_its_own_address(stack, profile):
    """With JavaScript, an add and a toggle are one POST each to the form's
    (or the button's) action, accepted with 303: never a first try at the
    page's own address that fails and falls back to a native submit."""
    driver = chromium(profile, javascript=True)
    try:
        driver.get(stack.url("/"))
        add_item(driver, "Milk", True)
        toggle_button(driver, "Milk").click()
        wait(driver, lambda d: toggle_button(d, "Milk").get_attribute("aria-pressed") == "true")
    finally:
        driver.quit()
    log = stack.dir / "logs/access.log"
    # Each of nginx's workers buffers its own lines and flushes them a second
    # later: wait for both changes' lines, then for one more flush so that a
    # stray extra POST would be in the file too.
    wait(None, lambda _: log.exists() and log.read_text().count('"POST ') >= 2, seconds=6)
    time.sleep(1.2)
    posts = [line.split('"')[1:3] for line in log.read_text().splitlines() if '"POST ' in line]
    # Sorted: each of nginx's workers buffers its own log lines, so the
    # file's order need not be the order of the requests.
    assert sorted((request.split()[1], status.split()[0]) for request, status in posts) == [
        ("/lists/1/items", "303"), ("/lists/1/items/1/toggle", "303")], posts
