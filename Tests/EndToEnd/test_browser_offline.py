"""In the shop with no signal (issue 31): the site is installable, and the
lists a browser opened stay readable when the network is gone.

"No network" is nginx stopped (`Stack.stop_nginx`): the site's address
refuses connections, which is what the service worker's fetch sees on a
phone in a basement. Screenshots of the offline banner (phone, light and
dark) are saved under Tests/EndToEnd/artifacts/screenshots/.
"""
import json
import re
import struct

import pytest
from selenium.webdriver.common.by import By

from test_browser import PHONE, SCREENSHOTS, add_item, chromium, heading, profile, wait  # noqa: F401

KEPT_PAGE = r"^/lists(/[0-9]+)?$"
# The version of the offline queue's database (Public/queue.js).
QUEUE_VERSION = 2


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
    page = client.get(stack.url("/lists"))
    # Kept a year by the browser, so named by its version, as every asset is.
    touch_icon = re.search(r'<link rel="apple-touch-icon" href="(/app-icons/apple-touch-icon\.png\?v=[0-9a-f]{12})">',
                           page.text)
    assert touch_icon, page.text[:2000]
    touch = client.get(stack.url(touch_icon.group(1)))
    assert touch.status_code == 200 and png_size(touch.content) == (180, 180)
    assert touch.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert re.search(r'<script src="/app\.js\?v=[0-9a-f]{12}" data-queue="/queue\.js\?v=[0-9a-f]{12}" defer>'
                     r'</script>', page.text)
    worker = client.get(stack.url("/sw.js"))
    assert worker.status_code == 200
    assert worker.headers["Content-Type"].startswith("text/javascript")
    assert worker.headers["Cache-Control"] == "no-cache"
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page.text
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


# Changes made offline: queued, shown, sent once, refusals reported.

def rows(driver):
    """The list's rows as (text, checked), and the items waiting to be sent."""
    shown = [(button.text, button.get_attribute("aria-pressed") == "true")
             for button in driver.find_elements(By.CSS_SELECTOR, "ul.items button.check")]
    waiting = [item.text.replace("waiting to be sent", "").strip()
               for item in driver.find_elements(By.CSS_SELECTOR, "ul.queued-items li")]
    return shown, waiting


def press(driver, text):
    for button in driver.find_elements(By.CSS_SELECTOR, "ul.items button.check"):
        if button.text == text:
            before = button.get_attribute("aria-pressed")
            button.click()
            wait(driver, lambda d: dict(rows(d)[0])[text] != (before == "true"))
            return
    raise AssertionError(f"no item {text!r}")


def add_offline(driver, text):
    count = len(rows(driver)[1])
    field = driver.find_element(By.CSS_SELECTOR, "form.add-item input[name=text]")
    field.send_keys(text)
    driver.find_element(By.CSS_SELECTOR, "form.add-item button").click()
    wait(driver, lambda d: len(rows(d)[1]) == count + 1)


def stored(driver, name):
    """The entries of store `name` of the offline queue's database."""
    return driver.execute_async_script("""
        const [name, version, done] = arguments;
        const opening = indexedDB.open("checklists-offline", version);
        opening.onsuccess = () => {
          const db = opening.result;
          if (!db.objectStoreNames.contains(name)) { db.close(); done([]); return; }
          const request = db.transaction([name]).objectStore(name).getAll();
          request.onsuccess = () => { db.close(); done(request.result); };
        };
        opening.onerror = () => done(null);
    """, name, QUEUE_VERSION)


def queue(driver):
    return stored(driver, "changes")


def put_back(driver, entries):
    """Puts `entries` in the queue again, as if the page had been closed
    after the server applied them and before they left it."""
    driver.execute_async_script("""
        const [entries, version, done] = arguments;
        const opening = indexedDB.open("checklists-offline", version);
        opening.onsuccess = () => {
          const db = opening.result;
          const transaction = db.transaction(["changes"], "readwrite");
          entries.forEach(entry => transaction.objectStore("changes").put(entry));
          transaction.oncomplete = () => { db.close(); done(true); };
        };
    """, entries, QUEUE_VERSION)


def server_rows(stack, driver, path):
    """The list as the server has it, asked with the browser's own cookie."""
    client = stack.session()
    for cookie in driver.get_cookies():
        client.cookies.set(cookie["name"], cookie["value"])
    page = client.get(stack.url(path))
    assert page.status_code == 200
    import re
    return [(text, pressed == "true") for pressed, text in
            re.findall(r'<button class=check formaction=\S+ aria-pressed=(true|false)[^>]*>([^<]*)</button>',
                       page.text)]


def screenshots(driver, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"{name}-light-phone.png"))
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    driver.save_screenshot(str(SCREENSHOTS / f"{name}-dark-phone.png"))
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_changes_made_offline_are_sent_once_in_order_when_back(stack, profile):
    driver = chromium(profile, javascript=True, size=PHONE)
    try:
        driver.get(stack.url("/"))
        for text in ("Milk", "Tea", "Rice", "Salt"):
            add_item(driver, text, True)
        until_controlled(driver)
        shopping = driver.current_url
        path = "/" + shopping.split("/", 3)[3]
        camping = new_list(driver, "Camping")
        driver.get(shopping)
    finally:
        driver.quit()

    stack.stop_nginx()
    driver = chromium(profile, javascript=True, size=PHONE)
    try:
        driver.get(stack.url("/"))  # reopened offline: the last list
        assert driver.current_url == shopping
        for text in ("Milk", "Tea", "Rice"):
            press(driver, text)
        add_offline(driver, "Eggs")
        add_offline(driver, "Bread")
        expected_shown = [("Milk", True), ("Tea", True), ("Rice", True), ("Salt", False)]
        assert rows(driver) == (expected_shown, ["Eggs", "Bread"])
        assert len(queue(driver)) == 5
        driver.refresh()  # still offline: the queue is shown again, from this device
        wait(driver, lambda d: rows(d) == (expected_shown, ["Eggs", "Bread"]))
        screenshots(driver, "offline-queued")
        sent = queue(driver)
        assert [entry["path"].rsplit("/", 1)[-1] for entry in sent] == ["toggle"] * 3 + ["items"] * 2

        stack.start_nginx()
        expected = [("Milk", True), ("Tea", True), ("Rice", True), ("Salt", False),
                    ("Eggs", False), ("Bread", False)]
        wait(driver, lambda d: rows(d) == (expected, []), seconds=20)
        assert queue(driver) == []
        assert server_rows(stack, driver, path) == expected

        # The same five again, as after a reload between the server's answer
        # and the queue's deletion: the server takes them as re-sent.
        put_back(driver, sent)
        driver.refresh()
        wait(driver, lambda d: queue(d) == [], seconds=20)
        driver.refresh()
        assert rows(driver) == (expected, [])
        assert server_rows(stack, driver, path) == expected
        assert driver.find_elements(By.CSS_SELECTOR, ".refused-changes") == []
    finally:
        driver.quit()


def test_a_change_the_server_refuses_on_replay_is_shown(stack, profile):
    driver = chromium(profile, javascript=True, size=PHONE)
    try:
        driver.get(stack.url("/"))
        until_controlled(driver)
        camping = new_list(driver, "Camping")
        add_item(driver, "Tent", True)
        # Another device deletes the list; this page, still showing it,
        # loses the network before it hears of it, and adds an item.
        client = stack.session()
        for cookie in driver.get_cookies():
            client.cookies.set(cookie["name"], cookie["value"])
        list_path = "/" + camping.split("/", 3)[3]
        import re
        form = client.get(stack.url(list_path + "/edit")).text
        token = re.search(r'name="csrf" value="([0-9a-f]+)"', form).group(1)
        deleted = client.post(stack.url(list_path + "/delete"), data={"csrf": token},
                              headers={"Origin": stack.url("")}, allow_redirects=False)
        assert deleted.status_code == 303, deleted.text
        stack.stop_nginx()
        add_offline(driver, "Stove")
        stack.start_nginx()
        driver.get(stack.url("/lists"))
        notice = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".refused-changes"), seconds=20)
        assert "Add \u201cStove\u201d to \u201cCamping\u201d" in notice.text, notice.text
        assert queue(driver) == []
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SCREENSHOTS / "offline-refused-light-phone.png"))
        driver.find_element(By.CSS_SELECTOR, ".refused-changes button").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".refused-changes") == [])
        driver.refresh()
        assert driver.find_elements(By.CSS_SELECTOR, ".refused-changes") == []
    finally:
        driver.quit()


def link(owner, other, stack):
    """Links browser `other` to `owner`'s lists with a link code, as a
    person does on the Devices screen and the link page."""
    owner.get(stack.url("/settings/devices"))
    owner.find_element(By.CSS_SELECTOR, "form[action='/settings/devices/code'] button").click()
    code = wait(owner, lambda d: d.find_element(By.CSS_SELECTOR, "p.code-text strong").text)
    other.get(stack.url("/link"))
    other.find_element(By.ID, "code").send_keys(code)
    other.find_element(By.CSS_SELECTOR, "form[action='/link'] button[type=submit]").click()
    wait(other, lambda d: heading(d) == "All Lists")


def test_two_devices_that_changed_a_list_offline_converge(stack, tmp_path):
    phone = chromium(tmp_path / "phone", javascript=True, size=PHONE)
    laptop = chromium(tmp_path / "laptop", javascript=True, size=PHONE)
    try:
        phone.get(stack.url("/"))
        for text in ("Milk", "Tea"):
            add_item(phone, text, True)
        shopping = phone.current_url
        path = "/" + shopping.split("/", 3)[3]
        link(phone, laptop, stack)
        for browser in (phone, laptop):
            browser.get(shopping)
            until_controlled(browser)

        stack.stop_nginx()
        press(phone, "Milk")          # checked
        add_offline(phone, "Eggs")
        press(laptop, "Milk")         # checked ...
        press(laptop, "Milk")         # ... and unchecked again, later
        add_offline(laptop, "Eggs")   # the same text from the same page state
        add_offline(laptop, "Jam")
        laptop.quit()                 # its queue waits on its profile

        stack.start_nginx()
        wait(phone, lambda d: queue(d) == [] and rows(d)[1] == [], seconds=20)
        assert server_rows(stack, phone, path) == [("Milk", True), ("Tea", False), ("Eggs", False)]

        laptop = chromium(tmp_path / "laptop", javascript=True, size=PHONE)
        laptop.get(shopping)
        # The rule: changes apply in the order they reach the server, each
        # as the state it wants, so the laptop's later uncheck wins; its
        # "Eggs", added from the page state the phone's was, is the phone's.
        expected = [("Milk", False), ("Tea", False), ("Eggs", False), ("Jam", False)]
        wait(laptop, lambda d: queue(d) == [] and rows(d) == (expected, []), seconds=20)
        wait(phone, lambda d: rows(d) == (expected, []), seconds=10)  # its live update
        assert server_rows(stack, phone, path) == expected
    finally:
        phone.quit()
        laptop.quit()


def test_signing_out_clears_what_the_browser_kept(stack, tmp_path):
    phone = chromium(tmp_path / "phone", javascript=True)
    laptop = chromium(tmp_path / "laptop", javascript=True)
    try:
        phone.get(stack.url("/"))
        add_item(phone, "Milk", True)
        shopping = phone.current_url
        link(phone, laptop, stack)
        laptop.get(shopping)
        until_controlled(laptop)
        assert any(len(paths) > 1 for paths in owner_pages(laptop).values())
        kept_before = set(owner_pages(laptop))

        laptop.get(stack.url("/settings/devices"))
        own = laptop.find_element(
            By.XPATH, "//form[.//span[contains(., '(this browser)')]]//button[@type='submit']")
        own.click()
        wait(laptop, lambda d: set(owner_pages(d)) and not set(owner_pages(d)) & kept_before)
    finally:
        phone.quit()
        laptop.quit()

    stack.stop_nginx()
    laptop = chromium(tmp_path / "laptop", javascript=True)
    try:
        laptop.get(shopping)  # the list it showed before it signed out
        assert heading(laptop) == "Offline"
        assert "Milk" not in laptop.page_source
    finally:
        laptop.quit()


def test_the_banner_follows_the_browsers_network(stack, profile):
    """Chromium's network emulation: offline, the page says so at once;
    back online, the banner goes."""
    driver = chromium(profile, javascript=True, size=PHONE)
    try:
        driver.get(stack.url("/"))
        until_controlled(driver)
        assert not any(b.is_displayed() for b in driver.find_elements(By.CSS_SELECTOR, "p.offline-banner"))
        conditions = {"latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, **conditions})
        wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "p.offline-banner").is_displayed())
        assert driver.find_element(By.CSS_SELECTOR, "p.offline-banner").text == \
            "Offline \u2014 changes will be sent when you are back"
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, **conditions})
        wait(driver, lambda d: not d.find_element(By.CSS_SELECTOR, "p.offline-banner").is_displayed())
    finally:
        driver.quit()


def test_an_item_edited_offline_is_saved_when_back(stack, profile):
    """An item's edit form (no script of its own) sent offline: the worker
    queues it and answers with the list, which shows the new text."""
    driver = chromium(profile, javascript=True, size=PHONE)
    try:
        driver.get(stack.url("/"))
        add_item(driver, "Tea", True)
        until_controlled(driver)
        shopping = driver.current_url
        path = "/" + shopping.split("/", 3)[3]
        driver.find_element(By.CSS_SELECTOR, "ul.items > li > a").click()
        wait(driver, lambda d: d.find_elements(By.ID, "item-text"))
        edit_page = driver.current_url
        driver.get(shopping)
        driver.get(edit_page)  # now answered by the worker, and kept

        stack.stop_nginx()
        driver.get(edit_page)
        field = driver.find_element(By.ID, "item-text")
        field.clear()
        field.send_keys("Green tea")
        driver.find_element(By.CSS_SELECTOR, "form.item-edit button[type=submit]").click()
        wait(driver, lambda d: d.current_url == shopping and rows(d)[0] == [("Green tea", False)])
        assert len(queue(driver)) == 1

        stack.start_nginx()
        wait(driver, lambda d: queue(d) == [] and not d.find_elements(By.CSS_SELECTOR, "li.queued"),
             seconds=20)
        assert server_rows(stack, driver, path) == [("Green tea", False)]
    finally:
        driver.quit()


def sign_out_form(stack, driver, of_this_browser=False):
    """The action and fields of a Sign Out form on `driver`'s Devices
    screen: the other browser's, or this one's."""
    client = stack.session()
    for cookie in driver.get_cookies():
        client.cookies.set(cookie["name"], cookie["value"])
    page = client.get(stack.url("/settings/devices")).text
    for action, form in re.findall(r'<form method="post" action="(/settings/devices/\d+/sign-out)">(.*?)</form>',
                                   page, re.S):
        if ("(this browser)" in form) == of_this_browser:
            token = re.search(r'name="csrf" value="([0-9a-f]+)"', form).group(1)
            return action, {"csrf": token}, client.cookies
    raise AssertionError("no such Sign Out form")


def test_a_browser_signed_out_elsewhere_while_offline_drops_its_changes_and_its_copies(stack, tmp_path):
    """The laptop, offline, ticks and adds; meanwhile the phone signs it
    out. Back online, its queued changes are refused as a stranger's (their
    form's token was the old owner's): nothing reaches the lists, the worker
    drops the queue and every kept page, and the laptop says how many
    changes went, without their words."""
    import fastcgi_client
    from urllib.parse import urlencode

    phone = chromium(tmp_path / "phone", javascript=True)
    laptop = chromium(tmp_path / "laptop", javascript=True, size=PHONE)
    try:
        phone.get(stack.url("/"))
        add_item(phone, "Milk", True)
        shopping = phone.current_url
        path = "/" + shopping.split("/", 3)[3]
        link(phone, laptop, stack)
        laptop.get(shopping)
        until_controlled(laptop)
        kept_before = set(owner_pages(laptop))
        assert kept_before
        action, fields, cookies = sign_out_form(stack, phone)

        stack.stop_nginx()
        press(laptop, "Milk")
        add_offline(laptop, "Secret gift")
        assert len(queue(laptop)) == 2
        # The phone signs the laptop out, straight to the backend: nginx,
        # the laptop's network, is down.
        cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
        status, _, _ = fastcgi_client.request(
            stack.socket, "POST", action, urlencode(fields).encode(),
            headers={"Host": f"127.0.0.1:{stack.port}", "Origin": stack.url(""), "Cookie": cookie,
                     "Content-Type": "application/x-www-form-urlencoded"})
        assert status == 303, status

        stack.start_nginx()
        notice = wait(laptop, lambda d: d.find_element(By.CSS_SELECTOR, ".dropped-changes"), seconds=30)
        assert "2 changes made offline were not sent" in notice.text, notice.text
        assert "Secret gift" not in notice.text and "Milk" not in notice.text
        wait(laptop, lambda d: queue(d) == [] and set(owner_pages(d)).isdisjoint(kept_before), seconds=10)
        assert stored(laptop, "refused") == []
        assert server_rows(stack, phone, path) == [("Milk", False)]

        laptop.get(stack.url("/lists"))  # a new visitor's page: the notice stays until dismissed
        notice = wait(laptop, lambda d: d.find_element(By.CSS_SELECTOR, ".dropped-changes"))
        screenshots(laptop, "offline-dropped")
        notice.find_element(By.CSS_SELECTOR, "button").click()
        wait(laptop, lambda d: d.find_elements(By.CSS_SELECTOR, ".dropped-changes") == [])
        laptop.refresh()
        assert laptop.find_elements(By.CSS_SELECTOR, ".dropped-changes") == []
    finally:
        phone.quit()
        laptop.quit()

    stack.stop_nginx()
    laptop = chromium(tmp_path / "laptop", javascript=True)
    try:
        # The list it showed before it was signed out: gone from this device
        # (the new visitor's own first list may have the same address).
        laptop.get(shopping)
        wait(laptop, lambda d: heading(d) in ("Offline", "List"))
        assert "Milk" not in laptop.page_source
    finally:
        laptop.quit()


def shown_rows(driver):
    """The texts of the list's rows one can see (a row deleted offline is hidden)."""
    return [button.text for button in driver.find_elements(By.CSS_SELECTOR, "ul.items button.check")
            if button.is_displayed()]


def test_a_move_and_a_delete_made_offline_are_sent_once_when_back(stack, profile):
    """A row moved with Alt+Up (app.js) and a row's Delete (a form without
    the script's help, queued by the worker) made offline: shown at once,
    sent in order when back, and sent again harmlessly."""
    from selenium.webdriver.common.keys import Keys

    driver = chromium(profile, javascript=True, size=PHONE)
    try:
        driver.get(stack.url("/"))
        for text in ("Milk", "Tea", "Rice", "Salt"):
            add_item(driver, text, True)
        until_controlled(driver)
        shopping = driver.current_url
        path = "/" + shopping.split("/", 3)[3]

        stack.stop_nginx()
        salt = [b for b in driver.find_elements(By.CSS_SELECTOR, "ul.items button.check") if b.text == "Salt"][0]
        salt.send_keys(Keys.ALT, Keys.ARROW_UP)
        wait(driver, lambda d: shown_rows(d) == ["Milk", "Tea", "Salt", "Rice"] and len(queue(d)) == 1)
        driver.find_element(By.CSS_SELECTOR, "ul.items button[aria-label='Delete Tea']").click()
        wait(driver, lambda d: d.current_url == shopping and shown_rows(d) == ["Milk", "Salt", "Rice"])
        sent = queue(driver)
        assert [entry["path"].rsplit("/", 1)[-1] for entry in sent] == ["move", "delete"], sent
        driver.refresh()  # still offline: the page from this device, the queue shown on it
        wait(driver, lambda d: shown_rows(d) == ["Milk", "Salt", "Rice"])

        stack.start_nginx()
        wait(driver, lambda d: queue(d) == [] and not d.find_elements(By.CSS_SELECTOR, "li.queued"), seconds=20)
        expected = [("Milk", False), ("Salt", False), ("Rice", False)]
        assert server_rows(stack, driver, path) == expected
        assert shown_rows(driver) == ["Milk", "Salt", "Rice"]

        put_back(driver, sent)  # as after a reload between the answers and the deletions
        driver.refresh()
        wait(driver, lambda d: queue(d) == [], seconds=20)
        driver.refresh()
        assert server_rows(stack, driver, path) == expected
        assert driver.find_elements(By.CSS_SELECTOR, ".refused-changes") == []
    finally:
        driver.quit()


def link_pages(driver):
    return {name: paths for name, paths in kept(driver).items() if name.startswith("checklists-link-")}


def test_a_shared_list_is_kept_for_its_link_alone_and_takes_changes_offline(stack, tmp_path):
    """An edit link opened in another browser: its page is kept in a cache
    of that link's own (never an owner's), readable offline, its ticks and
    adds queued and sent once when back; revoked, the link's copy goes."""
    owner = chromium(tmp_path / "owner", javascript=True)
    sharee = chromium(tmp_path / "sharee", javascript=True, size=PHONE)
    try:
        owner.get(stack.url("/"))
        for text in ("Milk", "Tea"):
            add_item(owner, text, True)
        shopping = owner.current_url
        path = "/" + shopping.split("/", 3)[3]
        owner.find_element(By.LINK_TEXT, "Edit List").click()
        owner.find_element(By.XPATH, "//button[text()='Create Edit Link']").click()
        link = wait(owner, lambda d: d.find_element(By.ID, "share-edit")).get_attribute("value")
        link_path = "/" + link.split("/", 3)[3]

        sharee.get(link)
        until_controlled(sharee)
        links = link_pages(sharee)
        assert list(links.values()) == [[link_path]], links
        assert owner_pages(sharee) == {}
        assert link.split("/")[-1] not in "".join(links), "the cache's name shows no token"
        owner.get(link)  # the owner opening their own link: kept apart from their lists
        owner.get(shopping)
        wait(owner, lambda d: owner_pages(d) and link_pages(d))
        assert all(re.match(KEPT_PAGE, p) or p == "/offline/last-page"
                   for paths in owner_pages(owner).values() for p in paths)
        sharee.quit()

        stack.stop_nginx()
        sharee = chromium(tmp_path / "sharee", javascript=True, size=PHONE)
        sharee.get(link)  # a reopened browser, offline
        assert heading(sharee) == "List"
        wait(sharee, lambda d: d.find_element(By.CSS_SELECTOR, "p.offline-banner").is_displayed())
        press(sharee, "Milk")
        add_offline(sharee, "Bread")
        assert rows(sharee) == ([("Milk", True), ("Tea", False)], ["Bread"])
        assert [entry["list"] for entry in queue(sharee)] == [link_path, link_path]
        screenshots(sharee, "offline-shared-queued")

        stack.start_nginx()
        expected = [("Milk", True), ("Tea", False), ("Bread", False)]
        wait(sharee, lambda d: queue(d) == [] and rows(d) == (expected, []), seconds=20)
        assert server_rows(stack, owner, path) == expected
        assert sharee.get_cookies() == [], "the shared page set no cookie"

        # The owner revokes the link: its next answer (a 404) deletes the copy.
        owner.get(shopping)
        owner.find_element(By.LINK_TEXT, "Edit List").click()
        owner.find_element(By.CSS_SELECTOR, "form[action$='/share/edit/revoke'] button").click()
        wait(owner, lambda d: not d.find_elements(By.ID, "share-edit"))
        sharee.get(link)
        wait(sharee, lambda d: link_pages(d) == {}, seconds=10)
        sharee.quit()

        stack.stop_nginx()
        sharee = chromium(tmp_path / "sharee", javascript=True, size=PHONE)
        sharee.get(link)
        assert heading(sharee) == "Offline"
        assert "Milk" not in sharee.page_source
    finally:
        for driver in (owner, sharee):
            try:
                driver.quit()
            except Exception:
                pass  # quit already


def test_changes_queued_before_the_cookie_went_are_never_sent_as_the_new_visitors(stack, profile):
    """Offline, two changes wait; the browser's cookies are cleared (a new
    visitor at its next request). Back online, they are not applied to the
    new visitor's lists, whose first list has the same address, and the
    page says they were dropped."""
    driver = chromium(profile, javascript=True, size=PHONE)
    try:
        driver.get(stack.url("/"))
        add_item(driver, "Milk", True)
        until_controlled(driver)
        path = "/" + driver.current_url.split("/", 3)[3]

        stack.stop_nginx()
        press(driver, "Milk")
        add_offline(driver, "Eggs")
        assert len(queue(driver)) == 2
        driver.delete_all_cookies()

        stack.start_nginx()
        notice = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".dropped-changes"), seconds=30)
        assert "2 changes made offline were not sent" in notice.text, notice.text
        wait(driver, lambda d: queue(d) == [])
        assert stored(driver, "refused") == []
        driver.get(stack.url(path))  # the new visitor's own first list
        assert server_rows(stack, driver, path) == []
        assert "Eggs" not in driver.page_source
    finally:
        driver.quit()


def test_a_list_renamed_offline_is_saved_when_back_and_edit_list_with_a_link_is_never_kept(stack, profile):
    """Edit List is kept while it shows no share link: offline, its form is
    queued by the worker and the list shows its new name and icon at once;
    back online it is saved once. Once it shows a link (no-store), the
    copy goes."""
    driver = chromium(profile, javascript=True, size=PHONE)
    try:
        driver.get(stack.url("/"))
        add_item(driver, "Milk", True)
        until_controlled(driver)
        shopping = driver.current_url
        path = "/" + shopping.split("/", 3)[3]
        driver.get(shopping + "/edit")
        wait(driver, lambda d: any(path + "/edit" in paths for paths in owner_pages(d).values()))

        stack.stop_nginx()
        driver.get(shopping + "/edit")
        field = driver.find_element(By.ID, "list-name")
        field.clear()
        field.send_keys("Camping")
        driver.execute_script("arguments[0].click()",
                              driver.find_element(By.CSS_SELECTOR, "input[name=icon][value=trips]"))
        driver.find_element(By.CSS_SELECTOR, "form.stacked button[type=submit]").click()
        wait(driver, lambda d: d.current_url == shopping and heading(d) == "Camping")
        assert driver.find_elements(By.CSS_SELECTOR, "h1.queued .list-icon.i-trips")
        assert [entry["path"] for entry in queue(driver)] == [path]

        stack.start_nginx()
        wait(driver, lambda d: queue(d) == [] and not d.find_elements(By.CSS_SELECTOR, "h1.queued"), seconds=20)
        client = stack.session()
        for cookie in driver.get_cookies():
            client.cookies.set(cookie["name"], cookie["value"])
        page = client.get(stack.url(path)).text
        assert '<span class="list-icon i-trips"></span>Camping</h1>' in page
        assert server_rows(stack, driver, path) == [("Milk", False)]

        # With a share link, Edit List shows its address: no-store, and the copy goes.
        driver.get(shopping + "/edit")
        driver.find_element(By.XPATH, "//button[text()='Create Edit Link']").click()
        wait(driver, lambda d: d.find_elements(By.ID, "share-edit"))
        driver.get(shopping + "/edit")
        wait(driver, lambda d: not any(path + "/edit" in paths for paths in owner_pages(d).values()))
        assert owner_pages(driver), "the list itself is still kept"
    finally:
        driver.quit()


def test_the_workers_own_words_are_in_the_language_of_the_pages(stack, profile):
    """A Russian browser (its Accept-Language from Chromium's own setting,
    so that the worker's requests carry it too): offline, the worker's page
    for what it did not keep, and the name of an edit it queued, come from
    the catalogue in Russian (the phrases file a page it kept links to)."""
    from test_languages import english_left
    (profile / "Default").mkdir(parents=True, exist_ok=True)
    (profile / "Default" / "Preferences").write_text(json.dumps({"intl": {"accept_languages": "ru"}}))
    driver = chromium(profile, javascript=True, size=PHONE)
    try:
        driver.get(stack.url("/"))
        assert driver.execute_script("return document.documentElement.lang") == "ru"
        add_item(driver, "Tea", True)
        until_controlled(driver)
        shopping = driver.current_url
        driver.find_element(By.CSS_SELECTOR, "ul.items > li > a").click()
        wait(driver, lambda d: d.find_elements(By.ID, "item-text"))
        edit_page = driver.current_url
        driver.get(shopping)
        driver.get(edit_page)  # now answered by the worker, and kept

        stack.stop_nginx()
        try:
            driver.get(stack.url("/settings"))  # never kept
            wait(driver, lambda d: d.find_elements(By.TAG_NAME, "h1"))
            assert driver.execute_script("return document.documentElement.lang") == "ru"
            assert heading(driver) == "Нет сети"
            assert "Эта страница не сохранена на этом устройстве." in driver.find_element(By.TAG_NAME, "main").text
            assert driver.find_element(By.CSS_SELECTOR, "main a").text == "Все списки"
            assert english_left(driver.page_source) == []
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(SCREENSHOTS / "offline-page-ru-phone.png"))

            driver.get(edit_page)
            field = driver.find_element(By.ID, "item-text")
            field.clear()
            field.send_keys("Зелёный чай")
            driver.find_element(By.CSS_SELECTOR, "form.item-edit button[type=submit]").click()
            wait(driver, lambda d: d.current_url == shopping and len(queue(d)) == 1)
            assert [entry["what"] for entry in queue(driver)] == ["Сохранить «Зелёный чай»"]
        finally:
            stack.start_nginx()
    finally:
        driver.quit()
