"""The product behind nginx configured the way README.md's "Deploying behind a
system nginx" section says: what its step 3 names of the repository's
`nginx.conf`, read from the README's own text (`readme_nginx.py`), with
the `fastcgi_param` lines of `location @backend` replaced by the system's
stock `fastcgi_params`, on a non-default port, the backend on a
Unix socket. A headless Chromium makes a list and adds items to it.

Debian 12's nginx package (1.22.1-9+deb12u11) ends its `fastcgi_params` with
`fastcgi_param HTTP_HOST $host;`: the backend then sees `Host: 127.0.0.1`
without the port the browser wrote, while the browser's `Origin` says
`http://127.0.0.1:PORT`, and before the origin check also read `SERVER_PORT`
every form post was refused with 403.
"""
import re
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By

import readme_nginx
from stack import Stack
from test_browser import SCREENSHOTS, add_item, chromium, heading, profile, wait  # noqa: F401 (profile: fixture)
from visitor import Visitor

STOCK_FASTCGI_PARAMS = Path("/etc/nginx/fastcgi_params")

# What a site gets from Debian's /etc/nginx/nginx.conf around the blocks it
# adds in sites-enabled/ (mime.types, sendfile, gzip, …), with pid, logs and
# temporary files moved into the run folder so that the test leaves the
# system's nginx alone.
MAIN_CONF = """\
{user}
worker_processes 2;
pid nginx.pid;
error_log logs/error.log warn;
events {{ worker_connections 768; }}
http {{
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log logs/access.log;
    gzip on;
    client_body_temp_path tmp/client_body;
    fastcgi_temp_path tmp/fastcgi;
    proxy_temp_path tmp/proxy;
    uwsgi_temp_path tmp/uwsgi;
    scgi_temp_path tmp/scgi;
    include sites-enabled/*;
}}
"""


def block(conf: str, opening: str) -> str:
    """The block of `conf` that starts with the line `opening … {`, braces balanced."""
    start = re.search(rf"^\s*{re.escape(opening)}\b[^\n{{]*\{{", conf, re.M)
    assert start, f"no {opening} block in nginx.conf"
    depth = 0
    for index in range(start.end() - 1, len(conf)):
        depth += {"{": 1, "}": -1}.get(conf[index], 0)
        if depth == 0:
            return conf[start.start():index + 1].strip("\n")
    raise AssertionError(f"unbalanced {opening} block")


def install_system_site(stack, extra_params=()):
    """Rewrites `stack`'s rendered nginx.conf as README.md tells an operator
    to lay it out: the repository's blocks in sites-enabled/checklists, the
    stock `fastcgi_params` (plus `extra_params`) for its `fastcgi_param`
    lines, under the system's main nginx.conf."""
    rendered = (stack.dir / "nginx.conf").read_text()  # render-nginx-conf's output, as in step 3
    user = re.search(r"^(?:user |# not started as root).*$", rendered, re.M).group(0)
    server = block(rendered, "server")
    params = re.compile(r"^([ \t]*)fastcgi_param .*\n(?:[ \t]*fastcgi_param .*\n)*", re.M)
    assert len(params.findall(server + "\n")) == 1, "expected one run of fastcgi_param lines"
    lines = [f"include {STOCK_FASTCGI_PARAMS};", *extra_params]
    server = params.sub(lambda m: "".join(f"{m.group(1)}{line}\n" for line in lines), server + "\n", count=1)
    site = stack.dir / "sites-enabled" / "checklists"
    site.parent.mkdir()
    # What README's step 3 says to copy, read from its own text.
    original = block(rendered, "server").strip()
    copy = readme_nginx.site(rendered)
    assert original in copy, "README's step 3 no longer copies the server block"
    site.write_text(copy.replace(original, server.strip()))
    (stack.dir / "nginx.conf").write_text(MAIN_CONF.format(user=user))


def access_log(stack) -> str:
    path = stack.dir / "logs/access.log"
    return path.read_text() if path.exists() else ""


class SystemNginxStack(Stack):
    """A Stack whose nginx is configured as README.md tells an operator to."""

    def __init__(self, extra_params=(), backend_arguments=()):
        super().__init__()
        self.backend_arguments = list(backend_arguments)
        install_system_site(self, extra_params)

    def access_log(self) -> str:
        return access_log(self)


@pytest.fixture
def system_stack(request):
    running = SystemNginxStack(**getattr(request, "param", {}))
    try:
        yield running.start()
    finally:
        running.stop()


def make_list(driver, name, items):
    """From the page shown, through All Lists: a new list `name` with `items`
    (the enhancement script on)."""
    driver.find_element(By.LINK_TEXT, "All Lists").click()
    wait(driver, lambda d: heading(d) == "All Lists")
    driver.find_element(By.LINK_TEXT, "New List").click()
    driver.find_element(By.ID, "list-name").send_keys(name)
    driver.find_element(By.CSS_SELECTOR, "input[name=icon][value=trips]").click()
    driver.find_element(By.CSS_SELECTOR, "form.stacked button[type=submit]").click()
    wait(driver, lambda d: heading(d) == name)
    for text in items:
        add_item(driver, text, True)


def posts_answered(log: str):
    """(status, path) of every POST in nginx's combined access log."""
    return [(int(status), path) for path, status in re.findall(r'"POST (\S+) [^"]*" (\d{3}) ', log)]


@pytest.mark.skipif(not STOCK_FASTCGI_PARAMS.exists(), reason="no system nginx (nginx-common) installed")
@pytest.mark.parametrize("system_stack", [
    # The system's file exactly as its package installed it.
    {},
    # Debian 12's current package ends fastcgi_params with this line (the one
    # on the machine that wrote this test does). A system whose package
    # predates it would pass the browser's Host, port and all, and never see
    # the fault: the line is added here so that every machine tests it.
    {"extra_params": ["fastcgi_param HTTP_HOST $host;"]},
], ids=["stock-fastcgi-params", "debian-12-host-without-port"], indirect=True)
def test_a_browser_makes_a_list_and_adds_items(system_stack, profile, request):
    driver = chromium(profile, javascript=True)
    try:
        driver.get(system_stack.url("/"))
        assert heading(driver) == "List"
        make_list(driver, "Groceries", ["milk", "eggs"])
        # From the server, not from the script's copy of the page.
        driver.get(driver.current_url)
        texts = [button.text for button in driver.find_elements(By.CSS_SELECTOR, "button.check")]
        assert sorted(texts) == ["eggs", "milk"]
        assert heading(driver) == "Groceries"
    finally:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(SCREENSHOTS / f"system-nginx-{request.node.callspec.id}.png"))
        driver.quit()
    # A calendar's address, fetched through this nginx, is logged without its secret.
    visitor = Visitor(system_stack)
    assert visitor.post("/settings/calendar").status_code == 303
    secret = re.search(r"/calendar/([0-9a-f]{64})\.ics", visitor.get("/settings").text).group(1)
    assert visitor.get(f"/calendar/{secret}.ics").status_code == 200
    system_stack.wait_until(lambda: '"GET /calendar/<hidden> ' in system_stack.access_log(),
                            "nginx's log buffer (flushed every second)")
    posts = posts_answered(system_stack.access_log())
    assert (303, "/lists") in posts, posts  # the new list, accepted
    assert not [post for post in posts if post[0] == 403], posts
    assert secret not in system_stack.access_log()


@pytest.mark.skipif(not STOCK_FASTCGI_PARAMS.exists(), reason="no system nginx (nginx-common) installed")
@pytest.mark.parametrize("configured", [False, True], ids=["host-and-port", "public-origin"])
def test_a_configured_public_origin_is_the_only_one_accepted(configured):
    # `serve --public-origin` is for deployments where neither Host nor the
    # listening port is what the browser saw (a proxy before nginx). A post
    # naming the site as localhost (Host and Origin agree, nginx's $host is
    # "localhost", SERVER_PORT the port) is accepted without it, refused with it.
    stack = SystemNginxStack()
    here = f"http://127.0.0.1:{stack.port}"
    if configured:
        stack.backend_arguments = ["--public-origin", here]
    try:
        stack.start()
        visitor = Visitor(stack)
        accepted = visitor.post("/lists", {"name": "Here", "icon": "folder"}, headers={"Origin": here})
        assert accepted.status_code == 303, accepted.status_code
        # requests keys its cookie jar by the Host header: send the cookie itself.
        cookie = "; ".join(f"{c.name}={c.value}" for c in visitor.http.cookies)
        other = visitor.post("/lists", {"name": "There", "icon": "folder"},
                             headers={"Origin": f"http://localhost:{stack.port}",
                                      "Host": f"localhost:{stack.port}", "Cookie": cookie})
        assert other.status_code == (403 if configured else 303), other.status_code
        names = visitor.get("/lists").text
        assert "Here" in names and ("There" in names) != configured
    finally:
        stack.stop()
