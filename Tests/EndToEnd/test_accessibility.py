"""axe-core, run in headless Chromium on every screen in each language the
product speaks (English, Russian, German) and in the two pseudo-locales
(accented and longer, right to left): no violation of WCAG 2 A/AA or of
axe's best practices, `lang` on <html> naming the visitor's language, and
`dir="rtl"` where the language is written right to left.

Screenshots of the list page and Settings in each language, at phone and
desktop width, light and dark, are saved under
Tests/EndToEnd/artifacts/screenshots/languages/ to be looked at.

axe-core comes from a Python package that ships its script
(.build/axe-venv, made by `scripts/install-deps test`).
"""
import json
import re
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

from stack import ROOT
from test_languages import TRANSLATED
from test_browser import DESKTOP, PHONE, SCREENSHOTS, chromium, profile, wait  # noqa: F401

AXE_VENV = ROOT / ".build" / "axe-venv"
LANGUAGES = {"en": "ltr", "ru": "ltr", "de": "ltr", "en-XA": "ltr", "ar-XB": "rtl"}
SHOTS = SCREENSHOTS / "languages"

# Every screen, by its address given the list's id and its items' ids:
# the ones the language tests read.
SCREENS = TRANSLATED


def axe_script() -> str:
    found = sorted(AXE_VENV.glob("lib/python3*/site-packages/*/axe-core/axe.min.js"))
    assert found, f"no axe-core under {AXE_VENV}: run scripts/install-deps test"
    return found[0].read_text()


def axe_violations(driver, script):
    """What axe finds on the page shown: its rule, impact and the first
    few offending elements of each violation."""
    driver.execute_script(script)
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: "
        "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}})"
        ".then(r => done(JSON.stringify(r.violations)), e => done(JSON.stringify(String(e))));")
    violations = json.loads(result)
    assert isinstance(violations, list), violations
    return [{"rule": v["id"], "impact": v["impact"],
             "nodes": [n["html"][:160] for n in v["nodes"][:3]]} for v in violations]


def browser_in(language, profile, size=DESKTOP):
    driver = chromium(profile / language, javascript=True, size=size)
    # Chromium's Accept-Language comes from its languages preference; set
    # it over the DevTools protocol as a browser set to that language sends.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setUserAgentOverride",
                           {"userAgent": driver.execute_script("return navigator.userAgent"),
                            "acceptLanguage": language})
    driver.set_script_timeout(60)
    return driver


def a_list_with_items(driver, stack):
    """The first-run list with an item checked and one due, and a deleted
    item so that Recently Deleted has a row: every part of the screens
    shows."""
    driver.get(stack.url("/"))
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "form.add-item input[name=text]"))
    for text in ("milk and bread", "eggs", "butter"):
        count = len(driver.find_elements(By.CSS_SELECTOR, "main li"))
        field = driver.find_element(By.CSS_SELECTOR, "form.add-item input[name=text]")
        field.send_keys(text)
        driver.find_element(By.CSS_SELECTOR, "form.add-item button").click()
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "main li")) > count)
    page = driver.page_source
    list_id = re.search(r"/lists/(\d+)", driver.current_url).group(1)
    items = re.findall(r'formaction="?\d+/items/(\d+)/toggle[" ]', page)
    assert len(items) >= 3, page[:400]
    return list_id, items


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_screen_passes_axe_in_each_language(stack, profile, language):
    script = axe_script()
    driver = browser_in(language, profile)
    try:
        list_id, items = a_list_with_items(driver, stack)
        problems = {}
        for screen, address in SCREENS.items():
            driver.get(stack.url(address(list_id, items)))
            wait(driver, lambda d: d.execute_script("return document.readyState") == "complete")
            root = driver.find_element(By.TAG_NAME, "html")
            # The static About page exists in English and in each real
            # language; the pseudo-locales are the dynamic pages' only.
            expected = {language, "en"} if screen == "about" else {language}
            if root.get_attribute("lang") not in expected:
                problems[screen] = f"lang={root.get_attribute('lang')!r}"
                continue
            if screen != "about":
                direction = root.get_attribute("dir") or "ltr"
                if direction != LANGUAGES[language]:
                    problems[screen] = f"dir={direction!r}"
                    continue
            violations = axe_violations(driver, script)
            if violations:
                problems[screen] = violations
        assert problems == {}, json.dumps(problems, ensure_ascii=False, indent=1)
    finally:
        driver.quit()


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_screenshots_in_each_language_light_and_dark(stack, profile, language):
    """Saved to be looked at: long German and accented words must wrap,
    not overflow; the right-to-left page must be mirrored."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        driver = browser_in(language, profile, size)
        try:
            list_id, _ = a_list_with_items(driver, stack)
            for scheme in ("light", "dark"):
                driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
                    "features": [{"name": "prefers-color-scheme", "value": scheme}]})
                for screen in ("checklist", "settings"):
                    driver.get(stack.url(SCREENS[screen](list_id, None)))
                    wait(driver, lambda d: d.execute_script("return document.readyState") == "complete")
                    path = SHOTS / f"{language}-{screen.replace(' ', '-')}-{label}-{scheme}.png"
                    driver.save_screenshot(str(path))
                    assert path.stat().st_size > 5_000
                    overflow = driver.execute_script(
                        "return document.documentElement.scrollWidth - window.innerWidth")
                    assert overflow <= 0, f"{screen} {label}: {overflow}px wider than the window"
        finally:
            driver.quit()
