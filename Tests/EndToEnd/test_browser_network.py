"""In the shop with no signal, as the browser itself knows it (issue 31).

test_browser_offline.py takes the network away by stopping nginx: the
server refuses connections. Here the server stays up and the *browser* has
no network, through DevTools' network emulation on the page and on its
service worker (network_emulation.py): `navigator.onLine` is false, and no
request reaches the server until the network is back — which the tests
check in nginx's access log, so an emulation that let requests through
would fail them.
"""
import re
import time

from selenium.webdriver.common.by import By

from network_emulation import NetworkEmulation
from test_browser import PHONE, add_item, chromium, heading, profile, wait  # noqa: F401
from test_browser_offline import add_offline, kept, new_list, press, queue, rows, server_rows, until_controlled


def logged_requests(stack):
    """The requests nginx has logged so far (its log is flushed each
    second), a line each, but Chromium's checks for a new version of the
    service worker's script, which the emulation cannot stop (see
    network_emulation.py) and which change nothing."""
    time.sleep(1.5)
    log = stack.dir / "logs" / "access.log"
    lines = log.read_text().splitlines() if log.exists() else []
    return [line for line in lines if '"GET /sw.js?' not in line]


def fetch_status(driver, path):
    """The status of the page's fetch of `path`, or its error as text."""
    return driver.execute_async_script("""
        const [path, done] = arguments;
        fetch(path, {cache: 'no-store'}).then(r => done(r.status), e => done(String(e)));
    """, path)


def path_of(url):
    return "/" + url.split("/", 3)[3]


def test_the_emulated_network_stops_the_page_and_its_worker(stack, profile):
    driver = chromium(profile, javascript=True)
    try:
        driver.get(stack.url("/"))
        until_controlled(driver)
        with NetworkEmulation(driver) as network:
            network.go_offline()
            assert driver.execute_script("return navigator.onLine") is False
            before = logged_requests(stack)
            # A request the worker does not keep: it goes to the network
            # through the worker, and fails there.
            answer = fetch_status(driver, "/settings")
            assert network.worker_sessions(), "no service worker attached"
            assert answer != 200, answer
            assert any(url.endswith("/settings") for url in network.failed), network.failed
            assert logged_requests(stack)[len(before):] == []
            network.go_online()
            assert driver.execute_script("return navigator.onLine") is True
            answer = fetch_status(driver, "/settings")
            assert answer == 200
            assert len(logged_requests(stack)) > len(before)
    finally:
        driver.quit()


def test_offline_the_last_list_opens_and_five_changes_are_sent_once_when_back(stack, profile):
    driver = chromium(profile, javascript=True, size=PHONE)
    try:
        driver.get(stack.url("/"))
        for text in ("Milk", "Tea", "Rice", "Salt"):
            add_item(driver, text, True)
        until_controlled(driver)
        shopping = driver.current_url
        camping = new_list(driver, "Camping")
        add_item(driver, "Tent pegs", True)
        driver.get(stack.url("/lists"))
        driver.get(shopping)
    finally:
        driver.quit()

    # The browser reopened on the same profile, with no network from its start.
    driver = chromium(profile, javascript=True, size=PHONE)
    network = NetworkEmulation(driver)
    try:
        network.go_offline()
        before = logged_requests(stack)
        driver.get(stack.url("/"))
        assert driver.current_url == shopping, "the landing rule offline: the last list"
        assert heading(driver) == "List"
        banner = driver.find_element(By.CSS_SELECTOR, "p.offline-banner")
        wait(driver, lambda d: banner.is_displayed())
        driver.get(camping)
        assert heading(driver) == "Camping"
        driver.get(shopping)
        for text in ("Milk", "Tea", "Rice"):
            press(driver, text)
        add_offline(driver, "Eggs")
        add_offline(driver, "Bread")
        shown = [("Milk", True), ("Tea", True), ("Rice", True), ("Salt", False)]
        assert rows(driver) == (shown, ["Eggs", "Bread"])
        assert len(queue(driver)) == 5
        # Nothing was checked online since the worker came, so the browser
        # never drew a check mark there: the worker kept the stylesheet's
        # images with it, or these rows would show no mark.
        shell = [paths for name, paths in kept(driver).items() if name.startswith("checklists-shell-")]
        assert len(shell) == 1 and any(path.startswith("/ui/check.svg") for path in shell[0]), shell
        mark = driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const image = new Image();
            image.onload = () => done(image.naturalWidth);
            image.onerror = () => done(0);
            image.src = getComputedStyle(document.querySelector('[aria-pressed=true]'), '::before')
                .backgroundImage.slice(5, -2);
        """)
        assert mark > 0, "the check mark cannot be drawn offline"
        assert logged_requests(stack)[len(before):] == [], "a request left a browser with no network"
        assert server_rows(stack, driver, path_of(shopping)) == [(text, False) for text, _ in shown]

        # Back online, and the page reloaded while the queue is replayed.
        network.go_online()
        driver.refresh()
        expected = shown + [("Eggs", False), ("Bread", False)]
        wait(driver, lambda d: queue(d) == [], seconds=20)
        driver.refresh()
        wait(driver, lambda d: rows(d) == (expected, []), seconds=20)
        assert server_rows(stack, driver, path_of(shopping)) == expected

        # A second loss and return of the network sends nothing again.
        network.go_offline()
        driver.refresh()
        network.go_online()
        driver.refresh()
        wait(driver, lambda d: rows(d) == (expected, []), seconds=20)
        assert server_rows(stack, driver, path_of(shopping)) == expected
        assert driver.find_elements(By.CSS_SELECTOR, ".refused-changes") == []
    finally:
        network.close()
        driver.quit()


def test_a_change_made_offline_to_a_list_deleted_meanwhile_is_reported(stack, profile):
    driver = chromium(profile, javascript=True, size=PHONE)
    network = None
    try:
        driver.get(stack.url("/"))
        until_controlled(driver)
        camping = new_list(driver, "Camping")
        add_item(driver, "Tent", True)
        network = NetworkEmulation(driver)
        network.go_offline()
        add_offline(driver, "Stove")
        # Another device of the owner, with a network, deletes the list.
        client = stack.session()
        for cookie in driver.get_cookies():
            client.cookies.set(cookie["name"], cookie["value"])
        form = client.get(stack.url(path_of(camping) + "/edit")).text
        token = re.search(r'name="csrf" value="([0-9a-f]+)"', form).group(1)
        deleted = client.post(stack.url(path_of(camping) + "/delete"), data={"csrf": token},
                              headers={"Origin": stack.url("")}, allow_redirects=False)
        assert deleted.status_code == 303, deleted.text
        network.go_online()
        driver.get(stack.url("/lists"))
        notice = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, ".refused-changes"), seconds=20)
        assert "Stove" in notice.text and "Camping" in notice.text, notice.text
        assert queue(driver) == []
    finally:
        if network:
            network.close()
        driver.quit()
