"""Lists used again, in Chromium with and without JavaScript (issue 30):
Save as Template on Edit List and New List from it, Duplicate List, and
search from All Lists finding Cyrillic and accented text whatever its case
and accents, its matches marked, each result leading to its item.

test_templates.py and test_search.py speak HTTP; here a person clicks."""
import pytest
from selenium.webdriver.common.by import By

from test_browser import add_item, chromium, heading, profile, wait  # noqa: F401
from test_browser_offline import press, rows


def edit_list(driver):
    driver.find_element(By.LINK_TEXT, "Edit List").click()
    wait(driver, lambda d: d.current_url.endswith("/edit"))


def all_lists_names(driver, stack):
    driver.get(stack.url("/lists"))
    return [name.text for name in driver.find_elements(By.CSS_SELECTOR, "ul.rows .row-title")]


@pytest.mark.parametrize("javascript", [True, False], ids=["with-js", "without-js"])
def test_a_template_saved_on_edit_list_starts_a_new_list_on_new_list(stack, profile, javascript):
    driver = chromium(profile, javascript)
    try:
        driver.get(stack.url("/"))
        assert heading(driver) == "List"
        for text in ("Passport", "Tickets", "Socks"):
            add_item(driver, text, javascript)
        press(driver, "Passport")
        trip = driver.current_url

        edit_list(driver)
        driver.find_element(By.XPATH, "//button[normalize-space()='Duplicate List']").click()
        wait(driver, lambda d: heading(d) == "List copy")
        assert rows(driver)[0] == [("Passport", True), ("Tickets", False), ("Socks", False)]

        driver.get(trip)
        edit_list(driver)
        driver.find_element(By.XPATH, "//button[normalize-space()='Save as Template']").click()
        wait(driver, lambda d: d.current_url.endswith("/lists/new#templates"))
        offered = driver.find_element(By.CSS_SELECTOR, "#templates button[aria-label='New List from List']")
        assert driver.find_element(By.CSS_SELECTOR, "#templates .row-subtitle").text.startswith("3")
        offered.click()
        wait(driver, lambda d: "/lists/new" not in d.current_url and heading(d) == "List")
        made = driver.current_url
        assert made not in (trip,)
        assert rows(driver)[0] == [("Passport", False), ("Tickets", False), ("Socks", False)]

        # The template is no list: All Lists shows the three lists only.
        assert sorted(all_lists_names(driver, stack)) == ["List", "List", "List copy"]
    finally:
        driver.quit()


@pytest.mark.parametrize("javascript", [True, False], ids=["with-js", "without-js"])
def test_search_from_all_lists_finds_cyrillic_and_accented_text(stack, profile, javascript):
    driver = chromium(profile, javascript)
    try:
        driver.get(stack.url("/"))
        for text in ("Молоко 3,2%", "Crème brûlée", "Bread"):
            add_item(driver, text, javascript)

        def search(query):
            driver.get(stack.url("/lists"))
            field = driver.find_element(By.ID, "lists-search")
            field.send_keys(query)
            field.submit()
            wait(driver, lambda d: heading(d) == "Search")
            return [(result.find_element(By.CSS_SELECTOR, ".row-title").text,
                     [mark.text for mark in result.find_elements(By.TAG_NAME, "mark")])
                    for result in driver.find_elements(By.CSS_SELECTOR, "ul.results li")]

        assert search("МОЛОКО") == [("Молоко 3,2%", ["Молоко"])]
        assert search("молоко") == [("Молоко 3,2%", ["Молоко"])]
        assert search("creme brulee") == [("Crème brûlée", ["Crème brûlée"])]
        assert search("BRÛLÉE") == [("Crème brûlée", ["brûlée"])]
        assert search("tea") == []
        assert driver.find_element(By.CSS_SELECTOR, "p.notice").text == "Nothing found."

        search("brulee")
        driver.find_element(By.CSS_SELECTOR, "ul.results a").click()
        wait(driver, lambda d: d.find_element(By.NAME, "text").get_attribute("value") == "Crème brûlée")
    finally:
        driver.quit()
