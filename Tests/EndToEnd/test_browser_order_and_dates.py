"""A real browser (headless Chromium) reorders a list by keyboard and by
dragging with JavaScript, by the Reorder screen's buttons without it, sets a
due date on the item form, and shows a list with due dates at phone and
desktop width, light and dark (screenshots under
Tests/EndToEnd/artifacts/screenshots/)."""
import re
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_browser import DESKTOP, PHONE, SCREENSHOTS, add_item, chromium, profile, toggle_button, wait  # noqa: F401
from visitor import Visitor


def shown(driver):
    return [button.text for button in driver.find_elements(By.CSS_SELECTOR, "ul.items button.check")]


def live_region(driver):
    return driver.execute_script(
        "var r = document.querySelector('[aria-live]'); return r ? r.textContent : ''")


def posts(stack, ending, count):
    """The POSTs to paths ending in `ending` in nginx's access log, as sorted
    (path, status), once there are at least `count` of them or 5 s have
    passed, and a second more: each worker buffers its log lines for up to a
    second, and a request too many must show too."""
    log = stack.dir / "logs/access.log"

    def found():
        lines = log.read_text().splitlines() if log.exists() else []
        requests = [line.split('"')[1:3] for line in lines if '"POST ' in line]
        return sorted((request.split()[1], status.split()[0]) for request, status in requests
                      if request.split()[1].endswith(ending))

    try:
        wait(None, lambda _: len(found()) >= count, seconds=5)
    except Exception:
        pass  # the assertion below says what is missing
    time.sleep(1.2)
    return found()


def test_alt_arrows_move_a_row_with_one_request_keeping_focus_and_saying_where(stack, profile):
    driver = chromium(profile, javascript=True)
    try:
        driver.get(stack.url("/"))
        for text in ("Milk", "Eggs", "Bread", "Tea"):
            add_item(driver, text, True)
        list_url = driver.current_url
        toggle_button(driver, "Milk").send_keys(Keys.ALT, Keys.ARROW_DOWN)
        wait(driver, lambda d: shown(d) == ["Eggs", "Milk", "Bread", "Tea"])
        wait(driver, lambda d: live_region(d) == "Moved \u201cMilk\u201d to position 2 of 4")
        active = driver.switch_to.active_element
        assert active.get_attribute("class") == "check" and active.text == "Milk"
        assert driver.current_url == list_url, "no page load"
        # From the row's edit link, two moves up: focus stays on that link.
        edit = driver.find_element(By.CSS_SELECTOR, "ul.items a[aria-label='Edit Bread']")
        edit.send_keys(Keys.ALT, Keys.ARROW_UP)
        wait(driver, lambda d: shown(d) == ["Eggs", "Bread", "Milk", "Tea"])
        driver.switch_to.active_element.send_keys(Keys.ALT, Keys.ARROW_UP)
        wait(driver, lambda d: shown(d) == ["Bread", "Eggs", "Milk", "Tea"])
        wait(driver, lambda d: live_region(d) == "Moved \u201cBread\u201d to position 1 of 4")
        assert driver.switch_to.active_element.get_attribute("aria-label") == "Edit Bread"
        # At the top, nothing to send: it says so.
        driver.switch_to.active_element.send_keys(Keys.ALT, Keys.ARROW_UP)
        wait(driver, lambda d: live_region(d) == "\u201cBread\u201d is already first")
        # The order is the server's: a reload shows it.
        driver.get(list_url)
        assert shown(driver) == ["Bread", "Eggs", "Milk", "Tea"]
    finally:
        driver.quit()
    moves = posts(stack, "/move", 3)
    assert moves == sorted([("/lists/1/items/1/move", "303"), ("/lists/1/items/3/move", "303"),
                            ("/lists/1/items/3/move", "303")]), moves


def test_a_dragged_row_is_one_move(stack, profile):
    driver = chromium(profile, javascript=True)
    try:
        driver.get(stack.url("/"))
        for text in ("one", "two", "three"):
            add_item(driver, text, True)
        # HTML drag and drop, as the browser dispatches it: "three" dropped on
        # the upper half of "one".
        driver.execute_script("""
            var rows = document.querySelectorAll('ul.items > li');
            var source = rows[2], target = rows[0], box = target.getBoundingClientRect();
            var data = new DataTransfer();
            function fire(node, type, y) {
              node.dispatchEvent(new DragEvent(type, {bubbles: true, cancelable: true, dataTransfer: data,
                                                      clientX: box.left + 5, clientY: y}));
            }
            fire(source, 'dragstart', 0);
            fire(target, 'dragover', box.top + 2);
            fire(target, 'drop', box.top + 2);
            fire(source, 'dragend', 0);""")
        wait(driver, lambda d: shown(d) == ["three", "one", "two"])
        wait(driver, lambda d: live_region(d) == "Moved \u201cthree\u201d to position 1 of 3")
        assert driver.switch_to.active_element.text == "three"
        assert driver.find_elements(By.CSS_SELECTOR, "ul.items > li[draggable=true]"), "rows draggable again"
    finally:
        driver.quit()
    assert posts(stack, "/move", 1) == [("/lists/1/items/3/move", "303")]


def test_without_javascript_the_reorder_screen_moves_with_buttons(stack, profile):
    driver = chromium(profile, javascript=False)
    try:
        driver.get(stack.url("/"))
        for text in ("tent", "stove", "map"):
            add_item(driver, text, False)
        driver.find_element(By.LINK_TEXT, "Reorder").click()
        assert driver.find_element(By.TAG_NAME, "h1").text == "Reorder List"
        assert not driver.find_element(By.CSS_SELECTOR, "button[aria-label='Move tent up']").is_enabled()
        driver.find_element(By.CSS_SELECTOR, "button[aria-label='Move tent down']").click()
        wait(driver, lambda d: d.current_url.endswith("/lists/1/reorder#item-1"))
        driver.find_element(By.CSS_SELECTOR, "button[aria-label='Move map up']").click()
        wait(driver, lambda d: d.current_url.endswith("/lists/1/reorder#item-3"))
        order = [row.text.split("\n")[0] for row in driver.find_elements(By.CSS_SELECTOR, "ol.order > li .row-text")]
        assert order == ["stove", "map", "tent"]
        driver.find_element(By.LINK_TEXT, "Done").click()
        assert shown(driver) == ["stove", "map", "tent"]
    finally:
        driver.quit()


def test_with_javascript_the_reorder_buttons_keep_the_page_and_the_focus(stack, profile):
    driver = chromium(profile, javascript=True)
    try:
        driver.get(stack.url("/"))
        for text in ("tent", "stove", "map"):
            add_item(driver, text, True)
        driver.find_element(By.LINK_TEXT, "Reorder").click()
        wait(driver, lambda d: d.current_url.endswith("/lists/1/reorder"))
        driver.find_element(By.CSS_SELECTOR, "button[aria-label='Move tent down']").click()
        wait(driver, lambda d: live_region(d) == "Moved \u201ctent\u201d to position 2 of 3")
        assert driver.current_url.endswith("/lists/1/reorder"), "no page load"
        assert driver.switch_to.active_element.get_attribute("aria-label") == "Move tent down"
        driver.switch_to.active_element.click()
        wait(driver, lambda d: live_region(d) == "Moved \u201ctent\u201d to position 3 of 3")
        # At the bottom Down is disabled: focus goes to Up.
        assert driver.switch_to.active_element.get_attribute("aria-label") == "Move tent up"
        driver.get(stack.url("/lists/1"))
        assert shown(driver) == ["stove", "map", "tent"]
    finally:
        driver.quit()


def test_sort_and_check_all_with_javascript_are_one_request_each(stack, profile):
    driver = chromium(profile, javascript=True)
    try:
        driver.get(stack.url("/"))
        for text in ("a", "b"):
            add_item(driver, text, True)
        driver.find_element(By.XPATH, "//button[text()='Check all']").click()
        wait(driver, lambda d: [b.get_attribute("aria-pressed") for b in
                                d.find_elements(By.CSS_SELECTOR, "button.check")] == ["true", "true"])
        wait(driver, lambda d: d.switch_to.active_element.text == "Uncheck all")
        driver.switch_to.active_element.click()
        wait(driver, lambda d: [b.get_attribute("aria-pressed") for b in
                                d.find_elements(By.CSS_SELECTOR, "button.check")] == ["false", "false"])
    finally:
        driver.quit()
    assert posts(stack, "check-all", 2) == [("/lists/1/check-all", "303"), ("/lists/1/uncheck-all", "303")]


def test_a_due_date_typed_in_the_form_is_in_the_browsers_zone(stack, profile):
    driver = chromium(profile, javascript=True)
    try:
        driver.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Asia/Tokyo"})
        driver.get(stack.url("/"))
        add_item(driver, "Dentist", True)
        driver.find_element(By.CSS_SELECTOR, "ul.items > li > a").click()
        text = driver.find_element(By.ID, "item-text")
        text.send_keys(Keys.TAB)  # to the date field's first part, the month (en-US)
        driver.switch_to.active_element.send_keys("0701203009", "30A")
        assert driver.find_element(By.ID, "item-due").get_attribute("value") == "2030-07-01T09:30"
        driver.find_element(By.ID, "item-remind").click()
        driver.find_element(By.CSS_SELECTOR, "form.item-edit button[type=submit]").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "ul.items time"))
        time_element = driver.find_element(By.CSS_SELECTOR, "ul.items time")
        assert time_element.get_attribute("datetime") == "2030-07-01T00:30Z"  # 09:30 in Tokyo
        assert time_element.text == "1 Jul 2030"
        driver.find_element(By.CSS_SELECTOR, "ul.items > li > a").click()
        assert "Time zone: Asia/Tokyo" in driver.find_element(By.ID, "item-due-help").text
        assert driver.find_element(By.ID, "item-remind").is_selected()
    finally:
        driver.quit()


def test_without_javascript_a_due_date_is_typed_in_the_settings_zone(stack, profile):
    driver = chromium(profile, javascript=False)
    try:
        driver.get(stack.url("/settings"))
        zone = driver.find_element(By.ID, "time-zone")
        zone.send_keys("America/Chicago")
        driver.find_element(By.CSS_SELECTOR, "form.stacked button[type=submit]").click()
        wait(driver, lambda d: "Settings saved." in d.page_source)
        assert driver.find_element(By.CSS_SELECTOR, "#time-zone option:checked").text == "America/Chicago"
        driver.get(stack.url("/lists/1"))
        add_item(driver, "Taxes", False)
        driver.find_element(By.CSS_SELECTOR, "ul.items > li > a").click()
        driver.find_element(By.ID, "item-text").send_keys(Keys.TAB)
        driver.switch_to.active_element.send_keys("0102203108", "00A")
        driver.find_element(By.CSS_SELECTOR, "form.item-edit button[type=submit]").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "ul.items time"))
        assert driver.find_element(By.CSS_SELECTOR, "ul.items time").get_attribute("datetime") == "2031-01-02T14:00Z"
    finally:
        driver.quit()


def test_screenshots_of_a_list_with_due_dates_light_and_dark(stack, profile):
    """Phone and desktop width, light and dark: nothing wider than the
    window, and the overdue row's word and icon visible in both."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    visitor = Visitor(stack)
    list_id = visitor.create_list("Week")
    texts = ["Pay the rent", "Water the plants", "Book a table for Friday evening with a long note that wraps",
             "Call the bank", "Buy stamps"]
    for text in texts:
        visitor.add_item(list_id, text)
    page = visitor.get(f"/lists/{list_id}").text
    ids = dict(zip(texts, (int(found) for found in re.findall(r"items/(\d+)/toggle", page))))
    now = time.gmtime()
    dated = {"Pay the rent": "2024-01-01T09:00", "Book a table for Friday evening with a long note that wraps":
             time.strftime("%Y-%m-%dT19:30", time.gmtime(time.time() + 3 * 86400)),
             "Call the bank": time.strftime("%Y-%m-%dT23:59", now), "Buy stamps": "2024-02-01T10:00"}
    for text, due in dated.items():
        assert visitor.post(f"/lists/{list_id}/items/{ids[text]}", {"text": text, "dueDate": due}).status_code == 303
    visitor.post(f"/lists/{list_id}/items/{ids['Buy stamps']}/toggle", {"check": "1"})
    driver = chromium(profile, javascript=True)
    try:
        # A static page first, so that no visitor of the browser's own is
        # made: its service worker's fetches, answered after the swap below,
        # could set that visitor's cookie again.
        driver.get(stack.url("/about.html"))
        for name, value in visitor.http.cookies.items():
            driver.add_cookie({"name": name, "value": value, "path": "/"})
        saved = []
        for scheme in ("light", "dark"):
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                   {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            for label, (width, height) in (("phone", PHONE), ("desktop", DESKTOP)):
                driver.set_window_size(width, height)
                driver.get(stack.url(f"/lists/{list_id}"))
                late = driver.find_element(By.CSS_SELECTOR, "time.late")
                assert late.text.startswith("Overdue") and late.is_displayed()
                icon = driver.execute_script(
                    "return getComputedStyle(arguments[0], '::before').maskImage || "
                    "getComputedStyle(arguments[0], '::before').webkitMaskImage", late)
                assert "overdue.svg" in icon, icon
                scroll = driver.execute_script("return document.documentElement.scrollWidth")
                client = driver.execute_script("return document.documentElement.clientWidth")
                assert scroll <= client, f"scrolls sideways at {label} width, {scheme}"
                path = SCREENSHOTS / f"checklist-due-dates-{scheme}-{label}.png"
                driver.save_screenshot(str(path))
                saved.append(path)
            driver.set_window_size(*PHONE)
            driver.get(stack.url(f"/lists/{list_id}/reorder"))
            driver.save_screenshot(str(SCREENSHOTS / f"reorder-{scheme}-phone.png"))
        assert all(path.stat().st_size > 1000 for path in saved)
    finally:
        driver.quit()
