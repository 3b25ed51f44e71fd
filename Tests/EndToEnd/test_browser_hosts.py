"""The promise through three backend hosts on PostgreSQL, tried as a person
would: Chromium with its cache on adds, ticks, closes and comes back;
revisits a cached list (a 304 from whichever host nginx picks); moves back
and forward; and lands where it left off every time. The same tests as
test_browser.py and test_landing_and_cookies.py, collected here with
`stack` being the hosts (see test_multi_host.py for the scenario suite)."""
import pytest

import test_browser
import test_landing_and_cookies
from hosts import running_hosts

# The browser tests of the promise, and the revalidation ones; those that
# read the data directory's files (idle visitors, renewal marks) stay with
# the file store.
PROMISE = {
    "test_add_check_close_and_come_back_to_the_same_list": test_browser,
    "test_a_revalidated_list_is_still_the_list_to_land_on": test_landing_and_cookies,
    "test_a_revalidated_all_lists_is_still_where_the_visitor_lands": test_landing_and_cookies,
    "test_chromium_reopened_lands_on_a_list_opened_again_from_its_cached_copy": test_landing_and_cookies,
    "test_chromium_reopened_lands_on_all_lists_opened_again_from_its_cached_copy": test_landing_and_cookies,
    "test_chromium_back_and_forward_move_the_list_to_land_on": test_landing_and_cookies,
}
globals().update({name: getattr(module, name) for name, module in PROMISE.items()})
profile = test_browser.profile


@pytest.fixture
def stack(request):
    """Three hosts + nginx on a fresh PostgreSQL database, stopped by pid."""
    with running_hosts("postgres", request, backends=3) as hosts:
        yield hosts
