"""Chromium shares a list: the owner makes an edit link on Edit List and
copies it; a second browser profile (a fresh driver, no cookies) opens it
and adds an item, with JavaScript and without; screenshots of the shared
list at phone and desktop width under Tests/EndToEnd/artifacts/screenshots/.
A third profile with the read-only link open sees an item the owner adds
appear without a reload.
"""
import re
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from test_browser import (DESKTOP, PHONE, SCREENSHOTS, add_item, chromium, heading,  # noqa: F401
                          profile, wait)
from visitor import Visitor

LINK = re.compile(r'id="share-read-only" value="(http://[^"]+/s/[0-9a-f]{32})"')


@pytest.fixture
def second_profile():
    """Another browser profile: another cookie jar, nothing shared with `profile`."""
    folder = Path(tempfile.mkdtemp(prefix="checklists-profile-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def item_texts(driver):
    """The items' texts, less what a read-only row says of its state to
    assistive technology ("Checked: ", "Not checked: ")."""
    return [re.sub(r"^(Not checked|Checked):\s*", "", element.text)
            for element in driver.find_elements(By.CSS_SELECTOR, "ul.items > li .check")]


def scrolls_sideways(driver):
    scroll = driver.execute_script("return document.documentElement.scrollWidth")
    client = driver.execute_script("return document.documentElement.clientWidth")
    return scroll > client


@pytest.mark.parametrize("javascript", [True, False], ids=["sharee-with-js", "sharee-without-js"])
def test_an_edit_link_copied_on_edit_list_lets_another_browser_add_an_item(
        stack, profile, second_profile, javascript):
    owner = chromium(profile, javascript=True)
    try:
        # The owner lands in their first-run list, adds to it, and shares it.
        owner.get(stack.url("/"))
        add_item(owner, "Milk", True)
        owner.find_element(By.LINK_TEXT, "Edit List").click()
        owner.find_element(By.XPATH, "//button[text()='Create Edit Link']").click()
        field = wait(owner, lambda d: d.find_element(By.ID, "share-edit"))
        link = field.get_attribute("value")
        assert re.fullmatch(rf"{re.escape(stack.url('/s/'))}[0-9a-f]{{32}}", link)
        assert field.get_attribute("readonly") is not None
        owner.execute_cdp_cmd("Browser.grantPermissions", {
            "origin": stack.url(""), "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
        copy = owner.find_element(By.CSS_SELECTOR, "button[data-copy='share-edit']")
        assert copy.is_displayed()
        copy.click()
        status = owner.find_element(By.CSS_SELECTOR, "#share .copy-status")
        wait(owner, lambda d: status.text.strip() == "Link copied.")
        copied = owner.execute_async_script(
            "navigator.clipboard.readText().then(arguments[0], () => arguments[0](null))")
        assert copied == link
        if javascript:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            for label, (width, height) in (("phone", PHONE), ("desktop", DESKTOP)):
                owner.set_window_size(width, height)
                owner.get(owner.current_url.split("#")[0] + "#share")
                owner.execute_script("document.getElementById('share').scrollIntoView()")
                path = SCREENSHOTS / f"edit-list-share-{label}.png"
                owner.save_screenshot(str(path))
                assert path.stat().st_size > 1000
                assert not scrolls_sideways(owner), f"Edit List scrolls sideways at {label} width"
    finally:
        owner.quit()

    sharee = chromium(second_profile, javascript=javascript)
    try:
        sharee.get(link)
        assert heading(sharee) == "List"
        assert item_texts(sharee) == ["Milk"]
        assert not sharee.find_elements(By.CSS_SELECTOR, "nav, a[href^='/lists'], a[href^='/settings']")
        add_item(sharee, "Bread", javascript)
        assert item_texts(sharee) == ["Milk", "Bread"]
        assert sharee.current_url == link
        # Ticking an item off, through the page's own buttons.
        sharee.find_element(By.XPATH, "//button[contains(@class,'check')][text()='Bread']").click()
        wait(sharee, lambda d: d.find_element(
            By.XPATH, "//button[contains(@class,'check')][text()='Bread']").get_attribute("aria-pressed") == "true")
        # The shared page set no cookie: this browser is nobody here.
        assert sharee.get_cookies() == []
        if javascript:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            for label, (width, height) in (("phone", PHONE), ("desktop", DESKTOP)):
                sharee.set_window_size(width, height)
                sharee.get(link)
                path = SCREENSHOTS / f"shared-list-edit-{label}.png"
                sharee.save_screenshot(str(path))
                assert path.stat().st_size > 1000
                assert not scrolls_sideways(sharee), f"the shared list scrolls sideways at {label} width"
    finally:
        sharee.quit()

    # The owner, back in their own browser, sees the item added.
    owner = chromium(profile, javascript=False)
    try:
        owner.get(stack.url("/"))
        assert heading(owner) == "List"
        assert [b.text for b in owner.find_elements(By.CSS_SELECTOR, "button.check")] == ["Milk", "Bread"]
    finally:
        owner.quit()


def test_a_read_only_shared_list_at_phone_and_desktop_width(stack, profile):
    owner = Visitor(stack)
    list_id = owner.create_list("Trip to the coast", icon="trips")
    for text in ("Passport", "Sunscreen", "A rather long item that wraps on a narrow phone screen"):
        owner.add_item(list_id, text)
    passport = re.search(r'formaction=\d+/items/(\d+)/toggle ', owner.get(f"/lists/{list_id}").text).group(1)
    assert owner.post(f"/lists/{list_id}/items/{passport}/toggle", {"check": "1"}).status_code == 303
    assert owner.post(f"/lists/{list_id}/share/read-only").status_code == 303
    link = LINK.search(owner.get(f"/lists/{list_id}/edit").text).group(1)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver = chromium(profile, javascript=True)
    try:
        driver.get(link)
        assert heading(driver) == "Trip to the coast"
        assert not driver.find_elements(By.TAG_NAME, "form")
        assert not driver.find_elements(By.TAG_NAME, "button")
        for scheme in ("light", "dark"):
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                   {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            for label, (width, height) in (("phone", PHONE), ("desktop", DESKTOP)):
                driver.set_window_size(width, height)
                driver.get(link)
                suffix = "" if scheme == "light" else "-dark"
                path = SCREENSHOTS / f"shared-list-read-only{suffix}-{label}.png"
                driver.save_screenshot(str(path))
                assert path.stat().st_size > 1000
                assert not scrolls_sideways(driver), f"scrolls sideways at {label} width"
    finally:
        driver.quit()


def test_an_open_read_only_page_shows_an_item_the_owner_adds_without_reload(stack, profile):
    owner = Visitor(stack)
    list_id = owner.create_list("Shopping")
    owner.add_item(list_id, "Apples")
    assert owner.post(f"/lists/{list_id}/share/read-only").status_code == 303
    link = LINK.search(owner.get(f"/lists/{list_id}/edit").text).group(1)
    third = chromium(profile, javascript=True)
    try:
        third.get(link)
        assert item_texts(third) == ["Apples"]
        third.execute_script("window.checklistsNotReloaded = true")
        time.sleep(0.5)
        owner.add_item(list_id, "Pears")
        began = time.monotonic()
        wait(third, lambda d: item_texts(d) == ["Apples", "Pears"], seconds=3)
        assert time.monotonic() - began <= 3
        assert third.execute_script("return window.checklistsNotReloaded === true")
    finally:
        third.quit()
