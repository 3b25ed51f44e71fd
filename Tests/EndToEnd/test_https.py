"""HTTPS end to end, as every deployment runs: nginx serves a certificate
of the tests' own authority (tls.py), HTTP clients verify it, and Chromium
trusts the authority through its NSS database, as a browser trusts a real
one. The cookies are `__Host-` and `Secure`, pages carry HSTS, and a plain
`visitor` cookie planted beside them names nobody."""
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from test_browser import add_item, chromium, heading, profile, toggle_button, wait  # noqa: F401
from visitor import Visitor


def test_every_cookie_is_host_prefixed_and_secure_and_pages_carry_hsts(https_stack):
    visitor = Visitor(https_stack)
    response = visitor.get("/lists/1")
    assert response.status_code == 200
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
    sent = response.raw.headers.getlist("Set-Cookie")
    assert {field.split("=", 1)[0] for field in sent} == {"__Host-visitor", "__Host-ChecklistIndex"}
    for field in sent:
        attributes = [part.strip() for part in field.split(";")[1:]]
        assert "Secure" in attributes and "Path=/" in attributes and "HttpOnly" in attributes, field
        assert not any(part.lower().startswith("domain=") for part in attributes), field


def test_a_planted_plain_visitor_cookie_is_never_adopted(https_stack):
    """Session fixation: a sibling host (Domain=) or a plain HTTP answer on
    the way can give a browser a plain `visitor` cookie of the planter's
    choosing. Over HTTPS it names nobody: the browser is a new visitor, and
    what it stores the planter never sees."""
    planter = Visitor(https_stack)
    planter.add_item(1, "the planter's item")
    planted = planter.cookie("visitor")
    victim = Visitor(https_stack)
    victim.http.cookies.set("visitor", planted, domain="127.0.0.1", path="/")
    page = victim.get("/lists/1")
    assert page.status_code == 200
    assert "the planter&#39;s item" not in page.text and "the planter's item" not in page.text
    own = victim.cookie("visitor")
    assert own is not None and own[:32] != planted[:32]
    assert "visitor" not in victim.http.cookies.keys(), "the planted cookie is dropped"
    victim.add_item(1, "the victim's secret")
    assert "secret" not in planter.get("/lists/1").text
    assert "secret" in victim.get("/lists/1").text


@pytest.fixture
def trusting_home(certificate_authority):
    home = certificate_authority.browser_home()
    yield home
    shutil.rmtree(home, ignore_errors=True)


@pytest.mark.parametrize("javascript", [True, False], ids=["with-js", "without-js"])
def test_a_browser_lands_on_its_list_over_https(https_stack, profile, trusting_home, javascript):
    driver = chromium(profile, javascript, home=trusting_home)
    try:
        driver.get(https_stack.url("/"))
        assert heading(driver) == "List"  # no certificate warning: the page itself
        driver.find_element(By.LINK_TEXT, "All Lists").click()
        driver.find_element(By.LINK_TEXT, "New List").click()
        driver.find_element(By.ID, "list-name").send_keys("Trip")
        driver.find_element(By.CSS_SELECTOR, "form.stacked button[type=submit]").click()
        wait(driver, lambda d: heading(d) == "Trip")
        trip_url = driver.current_url
        assert trip_url.startswith("https://")
        add_item(driver, "passport", javascript)
        toggle_button(driver, "passport").click()
        wait(driver, lambda d: toggle_button(d, "passport").get_attribute("aria-pressed") == "true")
        cookies = {cookie["name"]: cookie for cookie in driver.get_cookies()}
        assert set(cookies) == {"__Host-visitor", "__Host-ChecklistIndex"}
        assert all(cookie["secure"] and cookie["httpOnly"] for cookie in cookies.values())
        assert re.fullmatch(r"[0-9a-f]{32}\.\d+", cookies["__Host-visitor"]["value"])
    finally:
        driver.quit()

    driver = chromium(profile, javascript, home=trusting_home)
    try:
        driver.get(https_stack.url("/"))
        assert heading(driver) == "Trip"
        assert driver.current_url == trip_url
        assert toggle_button(driver, "passport").get_attribute("aria-pressed") == "true"
    finally:
        driver.quit()


def test_a_browser_without_the_authority_is_not_shown_the_page(https_stack, profile):
    """The control: the trust above comes from the NSS database, not from
    anything that would accept any certificate."""
    home = Path(tempfile.mkdtemp(prefix="checklists-home-"))
    driver = chromium(profile, True, home=home)
    try:
        driver.get(https_stack.url("/"))
        assert driver.find_elements(By.CSS_SELECTOR, "form.add-item") == []
        assert not any(cookie["name"].endswith("visitor") for cookie in driver.get_cookies())
    finally:
        driver.quit()
        shutil.rmtree(home, ignore_errors=True)
