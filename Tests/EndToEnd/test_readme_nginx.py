"""README.md's system-nginx step 3 against `nginx.conf`, from the README's own
text (`readme_nginx.py`): every directive of `nginx.conf`'s `http` block is
either copied by the step or one it says the system's `nginx.conf` already
has (and the tests' stand-in for Debian's does), every placeholder of what is
copied is explained; and the site built that way answers as the project's
own nginx does: UTF-8 declared on text, no nginx version, bodies over 64 KB
refused. Before, step 3 left `charset`, `server_tokens` and
`client_max_body_size` (then outside the `server` block) behind."""
import re
from pathlib import Path

import pytest
import requests

import readme_nginx
from test_system_nginx import MAIN_CONF, STOCK_FASTCGI_PARAMS, SystemNginxStack


def test_every_http_directive_is_copied_or_provided_by_the_system():
    copied, provided = readme_nginx.copy_list(), readme_nginx.system_provided()
    template = readme_nginx.TEMPLATE.read_text()
    left_out = [name for name, text in readme_nginx.statements(readme_nginx.http_block(template))
                if not readme_nginx.copied(name, text, copied) and not readme_nginx.provided(name, provided)]
    assert left_out == [], f"nginx.conf's http block has {left_out}, which README's step 3 neither copies " \
                           "nor says the system's nginx.conf provides"
    maps = [name for name, _ in readme_nginx.statements(readme_nginx.http_block(template)) if name == "map"]
    assert len(maps) == readme_nginx.map_count()
    # What it says the system provides, the system's nginx.conf has (the
    # tests' stand-in for Debian's, and the real one where installed).
    systems = [MAIN_CONF] + [Path("/etc/nginx/nginx.conf").read_text()] * Path("/etc/nginx/nginx.conf").exists()
    for system in systems:
        names = {name for name, _ in readme_nginx.statements(readme_nginx.http_block(system.replace("{{", "{")
                                                                                         .replace("}}", "}")))}
        for name in provided:
            if name == "types":
                assert "include" in names and "mime.types" in system, name
            elif name != "*_temp_path":
                assert name in names, f"the system's nginx.conf has no {name}"


def test_every_placeholder_of_what_is_copied_is_explained():
    template = readme_nginx.TEMPLATE.read_text()
    used = set()
    for name, text in readme_nginx.statements(readme_nginx.http_block(template)):
        if readme_nginx.copied(name, text, readme_nginx.copy_list()):
            used |= set(re.findall(r"@[A-Z_]+@", text))
    assert used - readme_nginx.placeholders() == set()


def test_the_server_block_carries_what_the_site_needs():
    server = dict(readme_nginx.statements(
        [text for name, text in readme_nginx.statements(readme_nginx.http_block(readme_nginx.TEMPLATE.read_text()))
         if name == "server"][0].split("{", 1)[1].rsplit("}", 1)[0]))
    assert {"charset", "charset_types", "server_tokens", "client_max_body_size"} <= set(server)


@pytest.mark.skipif(not STOCK_FASTCGI_PARAMS.exists(), reason="no system nginx (nginx-common) installed")
def test_the_readme_site_answers_as_the_projects_nginx():
    stack = SystemNginxStack()
    try:
        stack.start()
        css = requests.get(stack.url("/style.css"))
        assert css.status_code == 200
        assert css.headers["Content-Type"] == "text/css; charset=utf-8"
        assert css.headers["Server"] == "nginx", "server_tokens off: no version"
        page = requests.get(stack.url("/lists"))
        assert page.status_code == 200 and page.headers["Server"] == "nginx"
        large = requests.post(stack.url("/lists"), data={"name": "x" * 70_000, "icon": "folder"})
        assert large.status_code == 413, "client_max_body_size 64k"
        assert requests.get(stack.url("/health")).text == "ok\n"
    finally:
        stack.stop()
