"""A proxy in front of the stack's nginx, as README's deployment step 4
has it: a second nginx that ends TLS with the tests' certificate and passes
plain HTTP on, naming each client in X-Forwarded-For. Clients reach it
from distinct loopback addresses (127.0.0.2, 127.0.0.3, …), so that there
is more than one client address to count."""
import os
import subprocess

import requests
from requests.adapters import HTTPAdapter

from stack import Stack, free_port

CONF = """{user}
worker_processes 1;
pid proxy.pid;
error_log logs/error.log warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path tmp/client_body;
    proxy_temp_path tmp/proxy;
    fastcgi_temp_path tmp/fastcgi;
    uwsgi_temp_path tmp/uwsgi;
    scgi_temp_path tmp/scgi;
    server {{
        listen 127.0.0.1:{port} ssl;
        ssl_certificate {certificate};
        ssl_certificate_key {key};
        location / {{
            proxy_pass http://127.0.0.1:{site_port};
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        }}
    }}
}}
"""


class FromAddress(HTTPAdapter):
    """Connects from `address` (any 127.x.y.z is this machine's loopback)."""

    def __init__(self, address):
        self.address = address
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.address, 0)
        super().init_poolmanager(*args, **kwargs)


class TLSProxy:
    """The proxy in front of `stack` (started and stopped by pid here); it
    stands in for the stack where a Visitor needs one (`url`, `session`)."""

    def __init__(self, stack: Stack, authority):
        self.stack = stack
        self.tls = authority
        self.port = free_port()
        self.dir = stack.dir / "proxy"
        for folder in ("logs", "tmp"):
            (self.dir / folder).mkdir(parents=True)
        user = "user nobody nogroup;" if os.getuid() == 0 else ""
        (self.dir / "nginx.conf").write_text(CONF.format(
            user=user, port=self.port, site_port=stack.port,
            certificate=authority.server_certificate, key=authority.server_key))
        self.process = None

    @property
    def origin(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        return self.origin + path

    def cookie_name(self, name: str) -> str:
        return f"__Host-{name}"

    def session(self, address="127.0.0.2") -> requests.Session:
        """A client at `address`, verifying the proxy's certificate."""
        session = requests.Session()
        session.verify = str(self.tls.certificate_path)
        session.trust_env = False  # else REQUESTS_CA_BUNDLE would replace `verify`
        session.mount("https://", FromAddress(address))
        session.mount("http://", FromAddress(address))
        return session

    def start(self):
        self.process = subprocess.Popen(
            ["nginx", "-p", f"{self.dir}/", "-c", str(self.dir / "nginx.conf"), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=open(self.dir / "logs/stderr", "w"))
        self.stack.wait_until(self._listening, "the proxy to listen")
        return self

    def _listening(self) -> bool:
        import socket
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return True
        except OSError:
            return False

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
