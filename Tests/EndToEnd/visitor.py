"""A visitor with a cookie jar, speaking HTTP to the stack like a browser without JavaScript."""
import re

import requests

CSRF = re.compile(r'name="csrf" value="([0-9a-f]+)"')
LIST_LINK = re.compile(r'<a class="row-main" href="/lists/(\d+)">')
HEADING = re.compile(r"<h1>(?:<span[^>]*>.*?</span>)?(.*?)</h1>", re.S)


class Visitor:
    def __init__(self, stack, session=None):
        self.stack = stack
        self.http = session or stack.session()

    def get(self, path, **kwargs):
        kwargs.setdefault("allow_redirects", False)
        return self.http.get(self.stack.url(path), **kwargs)

    def head(self, path, **kwargs):
        return self.http.head(self.stack.url(path), **kwargs)

    def csrf(self):
        """The visitor's CSRF token, read from a form as a browser would."""
        page = self.get("/lists/new")
        assert page.status_code == 200, page.status_code
        return CSRF.search(page.text).group(1)

    def post(self, path, fields=None, csrf=True, **kwargs):
        data = dict(fields or {})
        if csrf is True:
            data["csrf"] = self.csrf()
        elif csrf:
            data["csrf"] = csrf
        kwargs.setdefault("allow_redirects", False)
        return self.http.post(self.stack.url(path), data=data, **kwargs)

    def create_list(self, name, icon="folder"):
        response = self.post("/lists", {"name": name, "icon": icon})
        assert response.status_code == 303, (response.status_code, response.text)
        return int(response.headers["Location"].rsplit("/", 1)[1])

    def add_item(self, list_id, text):
        response = self.post(f"/lists/{list_id}/items", {"text": text})
        assert response.status_code == 303, (response.status_code, response.text)
        return response

    def import_file(self, name, content):
        """Uploads a file on Settings → Import and confirms its preview, as
        a person does; returns the confirmation's answer."""
        uploaded = self.http.post(self.stack.url("/settings/import"), data={"csrf": self.csrf()},
                                  files={"file": (name, content)}, allow_redirects=False)
        assert uploaded.status_code == 303, uploaded.text[:300]
        preview = self.get("/settings/import/preview").text
        digest = re.search(r'name="digest" value="([0-9a-f]{64})"', preview).group(1)
        return self.post("/settings/import/confirm", {"digest": digest})

    def list_ids(self):
        """The ids on All Lists, in the screen's order."""
        return [int(found) for found in LIST_LINK.findall(self.get("/lists").text)]

    def heading(self, response):
        return HEADING.search(response.text).group(1).strip()

    def cookie(self, name):
        """The product's cookie `name` (`__Host-name` over HTTPS)."""
        return self.http.cookies.get(self.stack.cookie_name(name))

    def set_cookie(self, name, value):
        """Sets the product's cookie `name` as the product would have."""
        self.http.cookies.set(self.stack.cookie_name(name), value, domain="127.0.0.1", path="/",
                              secure=bool(self.stack.tls))
