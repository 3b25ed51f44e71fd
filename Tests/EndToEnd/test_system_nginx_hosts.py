"""The multi-host deployment behind the nginx an operator has: README.md's
"Deploying behind a system nginx" layout (the system's main nginx.conf,
the repository's blocks in sites-enabled/, the stock `fastcgi_params` with
Debian 12's `HTTP_HOST $host` line) with the `upstream` over three backend
hosts on one PostgreSQL database and `fastcgi_next_upstream error timeout`,
as the "Several hosts on PostgreSQL" section says. Chromium, its cache on,
makes a list, adds and ticks items, closes and comes back: it lands on the
list, whichever host answers; every host's own port shows the same list."""
import re

import pytest
from selenium.webdriver.common.by import By

from hosts import MultiHostStack, running_hosts
from test_browser import SCREENSHOTS, chromium, heading, profile, toggle_button, wait  # noqa: F401 (profile)
from test_crash_storm import ITEM
from test_system_nginx import STOCK_FASTCGI_PARAMS, access_log, install_system_site, make_list, posts_answered


class SystemNginxHosts(MultiHostStack):
    """Three hosts behind nginx laid out as README.md tells an operator to."""

    def __init__(self, **options):
        super().__init__(**options)
        install_system_site(self, ["fastcgi_param HTTP_HOST $host;"])
        # For the test only: which host answered each request.
        site = self.dir / "sites-enabled/checklists"
        conf = site.read_text()
        assert conf.count("        access_log ") == 1
        site.write_text("log_format hosts '$upstream_addr $request';\n\n" + conf.replace(
            "        access_log ", "        access_log logs/hosts.log hosts;\n        access_log "))

    def answering_hosts(self):
        """The FastCGI ports that answered requests, as nginx logged them."""
        path = self.dir / "logs/hosts.log"
        return set(re.findall(r"127\.0\.0\.1:(\d+)", path.read_text())) if path.exists() else set()


@pytest.fixture
def hosts(request):
    with running_hosts("postgres", request, backends=3, factory=SystemNginxHosts) as running:
        yield running


@pytest.mark.skipif(not STOCK_FASTCGI_PARAMS.exists(), reason="no system nginx (nginx-common) installed")
def test_a_browser_comes_back_to_its_list_through_three_hosts(hosts, profile):
    site = (hosts.dir / "sites-enabled/checklists").read_text()
    assert site.count("server 127.0.0.1:") == 3 and "fastcgi_next_upstream error timeout;" in site
    assert f"include {STOCK_FASTCGI_PARAMS};" in site
    driver = chromium(profile, javascript=True)
    try:
        driver.get(hosts.url("/"))
        make_list(driver, "Hardware store", ["screws", "glue", "hinges"])
        toggle_button(driver, "glue").click()
        wait(driver, lambda d: toggle_button(d, "glue").get_attribute("aria-pressed") == "true")
        cookies = {cookie["name"]: cookie["value"] for cookie in driver.get_cookies()}
    finally:
        driver.quit()
    # Closed and come back, several times: nginx sends the visits to one
    # host after another, and every one remembers the list.
    for visit in range(3):
        driver = chromium(profile, javascript=visit % 2 == 0)
        try:
            driver.get(hosts.url("/"))
            wait(driver, lambda d: heading(d) == "Hardware store")
            texts = sorted(button.text for button in driver.find_elements(By.CSS_SELECTOR, "button.check"))
            assert texts == ["glue", "hinges", "screws"]
            assert toggle_button(driver, "glue").get_attribute("aria-pressed") == "true"
        finally:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(SCREENSHOTS / "system-nginx-three-hosts.png"))
            driver.quit()
    for host in range(hosts.count):
        status, headers, _ = hosts.fastcgi(host, "GET", "/", cookies)
        landing = {name.lower(): value for name, value in headers.items()}.get("location")
        assert status == 303 and re.fullmatch(r"/lists/\d+", landing or ""), (host, status, landing)
        status, _, page = hosts.fastcgi(host, "GET", landing, cookies)
        assert status == 200, (host, status)
        assert re.search(r"<h1>.*Hardware store</h1>", page, re.S), host
        items = sorted((text, checked) for _, checked, text in ITEM.findall(page))
        assert items == [("glue", "true"), ("hinges", "false"), ("screws", "false")], (host, items)
    hosts.wait_until(lambda: '"GET / ' in access_log(hosts), "nginx's log buffer (flushed every second)")
    # nginx passed the browser's visits to every host.
    assert hosts.answering_hosts() == {str(port) for port in hosts.backend_ports}
    posts = posts_answered(access_log(hosts))
    assert (303, "/lists") in posts, posts
    assert not [post for post in posts if post[0] >= 400], posts
