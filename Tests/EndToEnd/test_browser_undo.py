"""Chromium deletes an item and presses Undo, with JavaScript and without;
removes checked items, restores from Recently Deleted, and saves screenshots
of Recently Deleted and of the Undo notice (phone and desktop, light and
dark) under Tests/EndToEnd/artifacts/screenshots/.
"""
import pytest
from selenium.webdriver.common.by import By

from test_browser import (DESKTOP, PHONE, SCREENSHOTS, add_item, chromium, heading,  # noqa: F401
                          profile, toggle_button, wait)


def item_texts(driver):
    return [button.text for button in driver.find_elements(By.CSS_SELECTOR, "button.check")]


def pressed(driver):
    return [button.get_attribute("aria-pressed")
            for button in driver.find_elements(By.CSS_SELECTOR, "button.check")]


def check(driver, text):
    toggle_button(driver, text).click()
    wait(driver, lambda d: toggle_button(d, text).get_attribute("aria-pressed") == "true")


def notice(driver):
    return driver.find_element(By.CSS_SELECTOR, ".undo-notice").text


def press(driver, label):
    driver.find_element(By.XPATH, f"//button[normalize-space()='{label}']").click()


@pytest.mark.parametrize("javascript", [True, False], ids=["with-js", "without-js"])
def test_delete_an_item_and_press_undo(stack, profile, javascript):
    driver = chromium(profile, javascript)
    try:
        driver.get(stack.url("/lists/1"))
        for text in ("milk", "eggs", "bread"):
            add_item(driver, text, javascript)
        check(driver, "eggs")
        before = (item_texts(driver), pressed(driver))

        driver.find_element(By.CSS_SELECTOR, "ul.items button[aria-label='Delete eggs']").click()
        wait(driver, lambda d: "Deleted “eggs”." in notice(d))
        assert item_texts(driver) == ["milk", "bread"]
        assert driver.find_element(By.CSS_SELECTOR, ".undo-notice").get_attribute("role") == "status"

        press(driver, "Undo")
        wait(driver, lambda d: "Restored 1 item." in notice(d))
        assert (item_texts(driver), pressed(driver)) == before
        assert heading(driver) == "List"

        # Remove checked items, then Undo: the same again.
        check(driver, "bread")
        press(driver, "Remove checked items")
        wait(driver, lambda d: "Removed 2 checked items." in notice(d))
        assert item_texts(driver) == ["milk"]
        press(driver, "Undo")
        wait(driver, lambda d: "Restored 2 items." in notice(d))
        assert item_texts(driver) == ["milk", "eggs", "bread"]
        assert pressed(driver) == ["false", "true", "true"]
    finally:
        driver.quit()


def test_screenshots_of_recently_deleted_and_the_undo_notice(stack, profile):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver = chromium(profile, javascript=True)
    try:
        driver.get(stack.url("/lists/1"))
        for text in ("Milk", "Eggs", "Bread with a rather long name that wraps on a narrow phone screen",
                     "Butter"):
            add_item(driver, text, True)
        check(driver, "Eggs")
        check(driver, "Butter")
        press(driver, "Remove checked items")
        wait(driver, lambda d: "Removed 2 checked items." in notice(d))
        driver.find_element(By.CSS_SELECTOR, "ul.items button[aria-label='Delete Milk']").click()
        wait(driver, lambda d: "Deleted “Milk”." in notice(d))
        notice_url = driver.current_url

        driver.get(stack.url("/lists/new"))
        driver.find_element(By.ID, "list-name").send_keys("Trip to the seaside")
        driver.find_element(By.CSS_SELECTOR, "input[name=icon][value=trips]").click()
        driver.find_element(By.CSS_SELECTOR, "form.stacked button[type=submit]").click()
        wait(driver, lambda d: heading(d) == "Trip to the seaside")
        add_item(driver, "Passport", True)
        driver.get(driver.current_url + "/edit")
        press(driver, "Delete List")
        wait(driver, lambda d: "Deleted the list “Trip to the seaside”." in notice(d))
        all_lists_url = driver.current_url

        driver.get(stack.url("/deleted"))
        entries = driver.find_elements(By.CSS_SELECTOR, ".deleted > li")
        assert [entry.find_element(By.CSS_SELECTOR, ".row-title").text for entry in entries] == [
            "Trip to the seaside", "Milk", "Eggs, Butter"]
        restore_names = driver.execute_script(
            "return Array.from(document.querySelectorAll('form.restore button'))"
            ".map(b => b.textContent.trim())")
        assert restore_names == ["Restore Trip to the seaside", "Restore Milk", "Restore Eggs, Butter"]

        screens = {"recently-deleted": stack.url("/deleted"), "undo-notice": notice_url,
                   "undo-notice-all-lists": all_lists_url}
        saved = []
        for scheme in ("light", "dark"):
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                   {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            for name, address in screens.items():
                driver.get(address)
                for label, (width, height) in (("phone", PHONE), ("desktop", DESKTOP)):
                    driver.set_window_size(width, height)
                    suffix = f"-{label}" if scheme == "light" else f"-dark-{label}"
                    path = SCREENSHOTS / f"{name}{suffix}.png"
                    driver.save_screenshot(str(path))
                    saved.append(path)
                    scroll = driver.execute_script("return document.documentElement.scrollWidth")
                    client = driver.execute_script("return document.documentElement.clientWidth")
                    assert scroll <= client, f"{name} scrolls sideways at {label} width ({scheme})"
                    small = driver.execute_script("""
                        return Array.from(document.querySelectorAll('main button, main a'))
                          .filter(e => { const r = e.getBoundingClientRect();
                                         return r.width > 0 && (r.width < 24 || r.height < 24); })
                          .map(e => e.outerHTML.slice(0, 80));""")
                    assert small == [], (name, label, small)
        assert all(path.stat().st_size > 1000 for path in saved)

        # Restore from Recently Deleted: the list comes back, opened.
        driver.get(stack.url("/deleted"))
        driver.find_element(By.XPATH, "//button[normalize-space()='Restore Trip to the seaside']").click()
        wait(driver, lambda d: heading(d) == "Trip to the seaside" and "List restored." in notice(d))
        assert item_texts(driver) == ["Passport"]
    finally:
        driver.quit()
