"""In the shop with no signal (issue 31): the site is installable, and the
lists a browser opened stay readable when the network is gone.

"No network" is nginx stopped (`Stack.stop_nginx`): the site's address
refuses connections, which is what the service worker's fetch sees on a
phone in a basement. Screenshots of the offline banner (phone, light and
dark) are saved under Tests/EndToEnd/artifacts/screenshots/.
"""
import json
import struct

import pytest
from selenium.webdriver.common.by import By

from test_browser import PHONE, SCREENSHOTS, add_item, chromium, heading, profile, wait  # noqa: F401

KEPT_PAGE = r"^/lists(/[0-9]+)?$"


def png_size(data: bytes):
    """A PNG's width and height, from its IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def until_controlled(driver):
    """Waits until the service worker answers this page's requests (the
    page was loaded again once it was active)."""
    wait(driver, lambda d: d.execute_script("return navigator.serviceWorker.ready.then(() => true)"))
    wait(driver, lambda d: d.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "navigator.serviceWorker.ready.then(r => done(Boolean(r.active)))"))
    driver.refresh()
    wait(driver, lambda d: d.execute_script("return Boolean(navigator.serviceWorker.controller)"))


def kept(driver):
    """Every cache the worker keeps and the paths (with queries) in each."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        caches.keys().then(names => Promise.all(names.map(name =>
            caches.open(name).then(c => c.keys()).then(requests =>
                [name, requests.map(r => { const u = new URL(r.url); return u.pathname + u.search; })]))))
          .then(entries => done(Object.fromEntries(entries)));
    """)


def owner_pages(driver):
    return {name: paths for name, paths in kept(driver).items() if name.startswith("checklists-owner-")}


def new_list(driver, name):
    driver.get(driver.current_url.split("/lists")[0] + "/lists/new")
    driver.find_element(By.ID, "list-name").send_keys(name)
    driver.find_element(By.CSS_SELECTOR, "form.stacked button[type=submit]").click()
    wait(driver, lambda d: heading(d) == name)
    return driver.current_url


def test_the_manifest_icons_and_worker_are_served_as_an_installable_app_needs(stack):
    client = stack.session()
    answer = client.get(stack.url("/manifest.webmanifest"))
    assert answer.status_code == 200
    assert answer.headers["Content-Type"].startswith("application/manifest+json")
    assert answer.headers["Cache-Control"] == "no-cache"
    manifest = answer.json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert manifest["theme_color"] and manifest["background_color"]
    sizes = {}
    for icon in manifest["icons"]:
        image = client.get(stack.url(icon["src"]))
        assert image.status_code == 200 and image.headers["Content-Type"] == "image/png"
        width, height = png_size(image.content)
        assert icon["sizes"] == f"{width}x{height}", icon
        sizes.setdefault(icon["purpose"], set()).add(width)
    assert sizes == {"any": {192, 512}, "maskable": {192, 512}}
    touch = client.get(stack.url("/app-icons/apple-touch-icon.png"))
    assert touch.status_code == 200 and png_size(touch.content) == (180, 180)
    worker = client.get(stack.url("/sw.js"))
    assert worker.status_code == 200
    assert worker.headers["Content-Type"].startswith("text/javascript")
    assert worker.headers["Cache-Control"] == "no-cache"
    page = client.get(stack.url("/lists"))
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page.text
    assert '<link rel="apple-touch-icon" href="/app-icons/apple-touch-icon.png">' in page.text
    assert len(page.headers["Checklists-Owner"]) == 32


def test_chromium_finds_no_installability_error(stack, profile):
    driver = chromium(profile, javascript=True)
    try:
        driver.get(stack.url("/"))
        until_controlled(driver)
        errors = driver.execute_cdp_cmd("Page.getInstallabilityErrors", {})
        assert errors["installabilityErrors"] == [], errors
        manifest = driver.execute_cdp_cmd("Page.getAppManifest", {})
        assert manifest["errors"] == [], manifest["errors"]
    finally:
        driver.quit()


def test_lists_opened_are_readable_offline_and_the_last_one_opens(stack, profile):
    driver = chromium(profile, javascript=True, size=PHONE)
    try:
        driver.get(stack.url("/"))
        assert heading(driver) == "List"
        add_item(driver, "Milk", True)
        until_controlled(driver)
        first = driver.current_url
        second = new_list(driver, "Camping")
        add_item(driver, "Tent pegs", True)
        driver.get(stack.url("/lists"))
        driver.get(second)
        driver.get(stack.url("/settings"))  # shows the calendar's section: never kept
        pages = owner_pages(driver)
        assert len(pages) == 1
        paths = next(iter(pages.values()))
        assert {"/lists", first.split(":" + str(stack.port))[1], second.split(":" + str(stack.port))[1]} \
            <= set(paths), paths
        assert all(path == "/offline/last-page" or __import__("re").match(KEPT_PAGE, path) for path in paths), paths
    finally:
        driver.quit()

    stack.stop_nginx()
    driver = chromium(profile, javascript=True, size=PHONE)
    try:
        driver.get(stack.url("/"))  # a reopened browser, offline: the landing rule
        assert heading(driver) == "Camping"
        assert driver.current_url == second
        assert [item.text for item in driver.find_elements(By.CSS_SELECTOR, "button.check")] == ["Tent pegs"]
        banner = driver.find_element(By.CSS_SELECTOR, "p.offline-banner")
        wait(driver, lambda d: banner.is_displayed())
        assert banner.text.startswith("Offline")
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SCREENSHOTS / "offline-banner-light-phone.png"))
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        driver.save_screenshot(str(SCREENSHOTS / "offline-banner-dark-phone.png"))
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

        driver.get(first)
        assert heading(driver) == "List"
        driver.get(stack.url("/lists"))
        assert heading(driver) == "All Lists"
        driver.get(stack.url("/settings"))  # never kept
        assert heading(driver) == "Offline"

        stack.start_nginx()
        driver.get(second)
        wait(driver, lambda d: not d.find_element(By.CSS_SELECTOR, "p.offline-banner").is_displayed()
             if d.find_elements(By.CSS_SELECTOR, "p.offline-banner") else True)
        assert heading(driver) == "Camping"
    finally:
        driver.quit()


def test_another_owner_never_reads_what_the_last_one_kept(stack, profile):
    driver = chromium(profile, javascript=True)
    try:
        driver.get(stack.url("/"))
        until_controlled(driver)
        first = driver.current_url
        before = owner_pages(driver)
        assert len(before) == 1 and any(path != "/offline/last-page" for path in next(iter(before.values())))
        # The browser becomes somebody else: its visitor cookie gone, as
        # after signing out (the server gives it a new owner).
        driver.delete_all_cookies()
        driver.get(stack.url("/lists"))
        wait(driver, lambda d: set(owner_pages(d)) and set(owner_pages(d)) != set(before))
        after = owner_pages(driver)
        assert len(after) == 1, after
        assert "/lists" in next(iter(after.values()))
        assert first.split(":" + str(stack.port))[1] not in next(iter(after.values()))
    finally:
        driver.quit()

    stack.stop_nginx()
    driver = chromium(profile, javascript=True)
    try:
        driver.get(first)  # the first owner's list: no longer on this device
        assert heading(driver) == "Offline"
    finally:
        driver.quit()
