"""A certificate authority of the tests' own, made with openssl, and a
certificate it signed for 127.0.0.1 and localhost: nginx serves HTTPS with
them, `requests` verifies against the authority, and Chromium trusts it
through an NSS database in a home folder of its own (never
--ignore-certificate-errors)."""
import shutil
import subprocess
import tempfile
from pathlib import Path


class CertificateAuthority:
    NAME = "Checklists tests CA"

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="checklists-tls-"))
        self.dir.chmod(0o755)  # nginx's workers may run as another user
        self.certificate_path = self.dir / "ca.pem"
        self.server_certificate = self.dir / "server.pem"
        self.server_key = self.dir / "server.key"
        self._make()

    def _openssl(self, *arguments):
        subprocess.run(["openssl", *arguments], check=True, capture_output=True, cwd=self.dir)

    def _make(self):
        ca_key = self.dir / "ca.key"
        self._openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                      "-nodes", "-keyout", ca_key, "-out", self.certificate_path, "-days", "2",
                      "-subj", f"/CN={self.NAME}",
                      "-addext", "basicConstraints=critical,CA:TRUE",
                      "-addext", "keyUsage=critical,keyCertSign,cRLSign")
        request = self.dir / "server.csr"
        self._openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                      "-keyout", self.server_key, "-out", request, "-subj", "/CN=127.0.0.1")
        extensions = self.dir / "server.ext"
        extensions.write_text("basicConstraints=critical,CA:FALSE\n"
                              "keyUsage=critical,digitalSignature\n"
                              "extendedKeyUsage=serverAuth\n"
                              "subjectAltName=IP:127.0.0.1,DNS:localhost\n")
        self._openssl("x509", "-req", "-in", request, "-CA", self.certificate_path, "-CAkey", ca_key,
                      "-CAcreateserial", "-out", self.server_certificate, "-days", "2",
                      "-extfile", extensions)
        self.server_key.chmod(0o644)  # read by nginx's workers under root too; a throwaway key

    def issue(self, name: str) -> tuple[Path, Path]:
        """A certificate for the DNS name `name` signed by this authority, and
        its key (mode 0600): a server on another machine, such as a database."""
        key, certificate = self.dir / f"{name}.key", self.dir / f"{name}.pem"
        request, extensions = self.dir / f"{name}.csr", self.dir / f"{name}.ext"
        self._openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                      "-keyout", key, "-out", request, "-subj", f"/CN={name}")
        extensions.write_text("basicConstraints=critical,CA:FALSE\n"
                              "keyUsage=critical,digitalSignature\n"
                              "extendedKeyUsage=serverAuth\n"
                              f"subjectAltName=DNS:{name}\n")
        self._openssl("x509", "-req", "-in", request, "-CA", self.certificate_path, "-CAkey", self.dir / "ca.key",
                      "-CAcreateserial", "-out", certificate, "-days", "2", "-extfile", extensions)
        key.chmod(0o600)
        return certificate, key

    def browser_home(self) -> Path:
        """A home folder whose NSS database (where Chromium on Linux looks
        for the user's certificates) trusts this authority for websites."""
        home = Path(tempfile.mkdtemp(prefix="checklists-home-"))
        database = home / ".pki" / "nssdb"
        database.mkdir(parents=True)
        subprocess.run(["certutil", "-N", "-d", f"sql:{database}", "--empty-password"],
                       check=True, capture_output=True)
        subprocess.run(["certutil", "-A", "-d", f"sql:{database}", "-n", self.NAME, "-t", "C,,",
                        "-i", self.certificate_path], check=True, capture_output=True)
        return home

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)
