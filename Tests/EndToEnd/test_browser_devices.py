"""Linking devices in real browsers (headless Chromium, separate profiles):
one browser makes a link code on Settings → Devices; a second types it at
/link, a third opens its link and confirms; all three then show the same
lists. The QR code on the page is read back with zbarimg. Screenshots of
Devices (with its QR code) and of the link page, phone and desktop, light
and dark, go to Tests/EndToEnd/artifacts/screenshots/.
"""
import shutil
import tempfile
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from qr import decode_svg
from test_browser import DESKTOP, PHONE, SCREENSHOTS, add_item, chromium, heading, wait


@pytest.fixture
def profiles():
    folders = [Path(tempfile.mkdtemp(prefix="checklists-profile-")) for _ in range(3)]
    yield folders
    for folder in folders:
        shutil.rmtree(folder, ignore_errors=True)


def item_texts(driver):
    return [button.text for button in driver.find_elements(By.CSS_SELECTOR, "button.check")]


def make_code(driver, stack):
    """Settings → Devices → Make a Link Code, as a person does it."""
    driver.get(stack.url("/settings"))
    driver.find_element(By.LINK_TEXT, "Devices").click()
    wait(driver, lambda d: heading(d) == "Devices")
    driver.find_element(By.XPATH, "//button[normalize-space()='Make a Link Code' or normalize-space()='Make Another Code']").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".code-text strong"))
    code = driver.find_element(By.CSS_SELECTOR, ".code-text strong").text
    link = driver.find_element(By.ID, "code-link").get_attribute("value")
    svg = driver.find_element(By.CSS_SELECTOR, "figure.qr svg").get_attribute("outerHTML")
    return code, link, svg


def test_link_a_device_by_typing_the_code_and_another_by_the_link(stack, profiles):
    laptop = chromium(profiles[0], javascript=True)
    phone = chromium(profiles[1], javascript=False, size=PHONE)
    tablet = chromium(profiles[2], javascript=True)
    try:
        laptop.get(stack.url("/"))
        add_item(laptop, "Milk", True)
        add_item(laptop, "Bread", True)

        code, link, svg = make_code(laptop, stack)
        assert decode_svg(svg) == link
        assert link == stack.url("/link/" + code.replace("-", "").lower())

        # The phone (no JavaScript) types the code.
        phone.get(stack.url("/link"))
        phone.find_element(By.ID, "code").send_keys(code)
        phone.find_element(By.XPATH, "//button[normalize-space()='Use These Lists Here']").click()
        wait(phone, lambda d: heading(d) == "All Lists")
        phone.find_element(By.CSS_SELECTOR, "a.row-main[href='/lists/1']").click()
        wait(phone, lambda d: item_texts(d) == ["Milk", "Bread"])

        # The tablet opens the link of a new code: a page that asks first.
        code, link, svg = make_code(laptop, stack)
        assert decode_svg(svg) == link
        tablet.get(link)
        assert heading(tablet) == "Use Lists from Another Device"
        assert tablet.find_element(By.ID, "code").get_attribute("value") == code
        tablet.find_element(By.XPATH, "//button[normalize-space()='Use These Lists Here']").click()
        wait(tablet, lambda d: heading(d) == "All Lists")
        tablet.find_element(By.CSS_SELECTOR, "a.row-main[href='/lists/1']").click()
        wait(tablet, lambda d: item_texts(d) == ["Milk", "Bread"])

        # A change on the tablet shows on the phone; the laptop lists three browsers.
        add_item(tablet, "Eggs", True)
        phone.refresh()
        wait(phone, lambda d: item_texts(d) == ["Milk", "Bread", "Eggs"])
        laptop.get(stack.url("/settings/devices"))
        rows = laptop.find_elements(By.CSS_SELECTOR, "ul.browsers > li")
        assert len(rows) == 3
        assert "This browser" in rows[0].text

        # The laptop signs the phone out (the first browser linked, number
        # 2: the laptop became number 1 with the first code): the phone
        # starts afresh.
        laptop.find_element(By.CSS_SELECTOR, "form[action='/settings/devices/2/sign-out'] button").click()
        wait(laptop, lambda d: "Signed out." in d.find_element(By.CSS_SELECTOR, ".notice").text)
        phone.get(stack.url("/lists"))
        phone.find_element(By.CSS_SELECTOR, "a.row-main[href='/lists/1']").click()
        assert item_texts(phone) == []
    finally:
        for driver in (laptop, phone, tablet):
            driver.quit()


def test_screenshots_of_devices_with_its_qr_code_and_of_the_link_page(stack, profiles):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver = chromium(profiles[0], javascript=True)
    other = chromium(profiles[1], javascript=True)
    try:
        driver.get(stack.url("/"))
        code, link, _ = make_code(driver, stack)
        other.get(link)
        other.find_element(By.XPATH, "//button[normalize-space()='Use These Lists Here']").click()
        wait(other, lambda d: heading(d) == "All Lists")
        code, link, svg = make_code(driver, stack)  # the page of a code, with two browsers listed
        other.get(link)
        shots = []
        for scheme in ("light", "dark"):
            for page, name in ((driver, "devices"), (other, "link")):
                page.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                     {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
                for label, (width, height) in (("phone", PHONE), ("desktop", DESKTOP)):
                    page.set_window_size(width, height)
                    suffix = f"-{label}" if scheme == "light" else f"-dark-{label}"
                    path = SCREENSHOTS / f"{name}{suffix}.png"
                    page.save_screenshot(str(path))
                    shots.append(path)
                    scroll = page.execute_script("return document.documentElement.scrollWidth")
                    client = page.execute_script("return document.documentElement.clientWidth")
                    assert scroll <= client, f"{name} scrolls sideways at {label} width ({scheme})"
            # The QR code is readable on the page as drawn, in either scheme.
            box = driver.find_element(By.CSS_SELECTOR, "figure.qr svg").rect
            assert box["width"] >= 120, box
        assert all(path.stat().st_size > 5_000 for path in shots)
    finally:
        driver.quit()
        other.quit()
