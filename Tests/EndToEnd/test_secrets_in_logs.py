"""No log holds a secret, after a hostile run through nginx with the real
change budget: every share token, calendar secret, link code and visitor
cookie made is looked for in every log (nginx's access and error logs,
nginx's standard error, the backend's standard error).

nginx writes the request line into every error log line about a request,
and that log cannot be formatted: a flood rejected by limit_req, a body
over client_max_body_size, a body buffered to a temporary file and a
backend that is down each wrote the line, token included, before the
secret addresses' location stopped logging their requests."""
import time

import requests

from stack import Stack
from test_calendar import create_address
from test_devices import make_code
from test_sharing import CSRF, share
from visitor import Visitor


def test_a_hostile_run_leaves_no_secret_in_any_log():
    stack = Stack(change_limit={}).start()  # settings.env's budget: 5 a second, bursts of 40
    try:
        owner = Visitor(stack)
        groceries = owner.create_list("Groceries")
        owner.add_item(groceries, "Milk")
        reader = share(owner, groceries, "read-only")
        editor = share(owner, groceries, "edit")
        _, calendar = create_address(owner)
        code, code_link = make_code(owner)[:2]
        code_path = "/link/" + code_link.rsplit("/link/", 1)[1]
        secrets = {"read-only token": reader, "edit token": editor, "calendar secret": calendar,
                   "link code": code, "link code's address": code_path,
                   "link code, ungrouped": code.replace("-", ""),
                   "visitor cookie": owner.cookie("visitor"),
                   "visitor id": owner.cookie("visitor")[:32]}
        csrf = CSRF.search(requests.get(stack.url(f"/s/{editor}")).text).group(1)

        # About fifty quick posts to the edit link: limit_req turns most away.
        flood = [requests.post(stack.url(f"/s/{editor}/items"), data={"csrf": csrf, "text": f"x{n}"},
                               allow_redirects=False).status_code for n in range(50)]
        assert 429 in flood and 303 in flood, flood
        # Bodies over the 64 KB limit, at every kind of secret address.
        for path in (f"/s/{editor}/items", f"/calendar/{calendar}.ics", code_path):
            assert requests.post(stack.url(path), data={"text": "y" * 70_000}).status_code == 413, path
        time.sleep(1.5)  # the budget fills again
        # A body larger than nginx's buffer goes to a temporary file (a warning).
        big = requests.post(stack.url(f"/s/{editor}/items"), data={"csrf": csrf, "text": "z" * 20_000})
        assert big.status_code == 422, big.status_code
        assert requests.get(stack.url(f"/calendar/{calendar}.ics")).status_code == 200
        # The backend down: nginx cannot pass the request on (502).
        stack.stop_backend()
        for path in (f"/s/{reader}", f"/calendar/{calendar}.ics", code_path, "/lists"):
            assert requests.get(stack.url(path), cookies={"visitor": secrets["visitor cookie"]}).status_code == 502
        stack.nginx.terminate()  # flushes the access log's buffer
        stack.nginx.wait(5)

        logs = {path.name: path.read_text(errors="replace") for path in (stack.dir / "logs").iterdir()}
        assert {"access.log", "error.log", "backend.log"} <= set(logs), sorted(logs)
        # The control: the error log does hold request lines, where no secret is.
        assert '"GET /lists HTTP/1.1"' in logs["error.log"], logs["error.log"]
        assert "/s/<hidden>" in logs["access.log"] and "/calendar/<hidden>" in logs["access.log"]
        for name, text in logs.items():
            for what, secret in secrets.items():
                assert secret.lower() not in text.lower(), f"{what} in {name}"
    finally:
        stack.stop()
