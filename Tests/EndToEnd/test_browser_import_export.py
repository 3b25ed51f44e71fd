"""Settings → Export and Import in headless Chromium, with JavaScript and
without: one visitor downloads their lists as JSON and Markdown from the
Export page, a new visitor in another profile picks each file with the
import page's file input, sees the preview and confirms it. Screenshots of
the Export page, the import page (as it comes and with a refusal) and the
preview, at phone and desktop width, light and dark, go to
Tests/EndToEnd/artifacts/screenshots/."""
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from test_browser import DESKTOP, PHONE, SCREENSHOTS, add_item, heading, toggle_button, wait


def chromium(profile: Path, javascript: bool, downloads: Path):
    """Headless Chromium that saves downloads into `downloads` without asking."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--user-data-dir={profile}", f"--window-size={DESKTOP[0]},{DESKTOP[1]}",
                     "--no-first-run", "--password-store=basic"):
        options.add_argument(argument)
    prefs = {"download.default_directory": str(downloads), "download.prompt_for_download": False,
             "download.directory_upgrade": True, "safebrowsing.enabled": False}
    if not javascript:
        prefs["profile.managed_default_content_settings.javascript"] = 2
    options.add_experimental_option("prefs", prefs)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    return driver


@pytest.fixture
def folders():
    made = [Path(tempfile.mkdtemp(prefix=f"checklists-{name}-")) for name in ("a", "b", "downloads")]
    yield made
    for folder in made:
        shutil.rmtree(folder, ignore_errors=True)


def downloaded(folder: Path, suffix: str, seconds=15) -> Path:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        done = [p for p in folder.iterdir() if p.name.endswith(suffix)]
        if done and not any(p.name.endswith(".crdownload") for p in folder.iterdir()):
            return done[0]
        time.sleep(0.1)
    raise AssertionError(f"no {suffix} download in {sorted(p.name for p in folder.iterdir())}")


def no_sideways_scroll(driver, name):
    scroll = driver.execute_script("return document.documentElement.scrollWidth")
    client = driver.execute_script("return document.documentElement.clientWidth")
    assert scroll <= client, f"{name} scrolls sideways"


def screenshots(driver, name):
    """The page as it is, phone and desktop, light and dark."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    address = driver.current_url
    for scheme in ("light", "dark"):
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        for label, (width, height) in (("phone", PHONE), ("desktop", DESKTOP)):
            driver.set_window_size(width, height)
            suffix = f"-{label}" if scheme == "light" else f"-dark-{label}"
            path = SCREENSHOTS / f"{name}{suffix}.png"
            driver.save_screenshot(str(path))
            assert path.stat().st_size > 1000
            no_sideways_scroll(driver, f"{name}{suffix}")
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    driver.set_window_size(*DESKTOP)
    assert driver.current_url == address


@pytest.mark.parametrize("javascript", [True, False], ids=["with-js", "without-js"])
def test_export_in_one_browser_and_import_in_another(stack, folders, javascript, request):
    first, second, downloads = folders
    driver = chromium(first, javascript, downloads)
    try:
        driver.get(stack.url("/"))
        add_item(driver, "Milk", javascript)
        add_item(driver, "Bread", javascript)
        toggle_button(driver, "Milk").click()
        wait(driver, lambda d: toggle_button(d, "Milk").get_attribute("aria-pressed") == "true")
        driver.find_element(By.LINK_TEXT, "Settings").click()
        driver.find_element(By.LINK_TEXT, "Export").click()
        assert heading(driver) == "Export"
        if javascript:
            screenshots(driver, "export")
        for label in ("JSON", "Markdown"):
            link = driver.find_element(By.XPATH, f"//a[normalize-space()='Download {label}']")
            link.click()
        json_file = downloaded(downloads, ".json")
        markdown_file = downloaded(downloads, ".md")
        assert json_file.name.startswith("checklists-") and b'"Milk"' in json_file.read_bytes()
        assert b"- [x] Milk" in markdown_file.read_bytes()
        assert heading(driver) == "Export"  # a download leaves the page as it was
    finally:
        driver.quit()

    driver = chromium(second, javascript, downloads)
    try:
        for file, lists_before in ((json_file, 1), (markdown_file, 2)):
            driver.get(stack.url("/settings"))
            driver.find_element(By.LINK_TEXT, "Import").click()
            assert heading(driver) == "Import"
            if file is json_file and javascript:
                screenshots(driver, "import")
            field = driver.find_element(By.ID, "import-file")
            assert driver.find_element(By.CSS_SELECTOR, "label[for=import-file]").text == "File to import"
            field.send_keys(str(file))
            driver.find_element(By.XPATH, "//button[normalize-space()='Upload and Preview']").click()
            wait(driver, lambda d: heading(d) == "Import Preview")
            preview = driver.find_element(By.TAG_NAME, "main").text
            assert f"“{file.name}”" in preview
            assert "1 list with 2 items" in preview
            assert "2 items: 1 checked" in preview
            if file is json_file and javascript:
                screenshots(driver, "import-preview")
            driver.find_element(By.XPATH, "//button[normalize-space()='Confirm Import']").click()
            wait(driver, lambda d: heading(d) == "All Lists")
            assert "Imported 1 list with 2 items." in driver.find_element(By.CSS_SELECTOR, "p.notice").text
            rows = [row.text for row in driver.find_elements(By.CSS_SELECTOR, ".lists .row-title")]
            assert rows.count("List") == lists_before + 1
        subtitles = [s.text for s in driver.find_elements(By.CSS_SELECTOR, ".lists .row-subtitle")]
        assert subtitles.count("1 Remaining") == 2

        # A refusal: the import page again, saying why, the field marked.
        bad = downloads / "notes.md"
        bad.write_text("# Notes\n\nNo tasks in here.\n")
        driver.get(stack.url("/settings/import"))
        driver.find_element(By.ID, "import-file").send_keys(str(bad))
        driver.find_element(By.XPATH, "//button[normalize-space()='Upload and Preview']").click()
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "p.error"))
        assert heading(driver) == "Import"
        assert "Nothing was changed." in driver.find_element(By.CSS_SELECTOR, "p.error").text
        assert driver.find_element(By.ID, "import-file").get_attribute("aria-invalid") == "true"
        if javascript:
            screenshots(driver, "import-refused")

        # Cancel from the preview adds nothing.
        driver.get(stack.url("/settings/import"))
        driver.find_element(By.ID, "import-file").send_keys(str(json_file))
        driver.find_element(By.XPATH, "//button[normalize-space()='Upload and Preview']").click()
        wait(driver, lambda d: heading(d) == "Import Preview")
        driver.find_element(By.XPATH, "//button[normalize-space()='Cancel']").click()
        wait(driver, lambda d: heading(d) == "Import")
        assert "Import cancelled." in driver.find_element(By.CSS_SELECTOR, "p.notice").text
        driver.get(stack.url("/lists"))
        rows = [row.text for row in driver.find_elements(By.CSS_SELECTOR, ".lists .row-title")]
        assert rows.count("List") == 3
    finally:
        driver.quit()
