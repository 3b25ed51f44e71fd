import pytest

from stack import Stack


@pytest.fixture
def stack():
    """A fresh nginx + backend for one test, stopped by pid afterwards."""
    running = Stack()
    try:
        yield running.start()
    finally:
        running.stop()


@pytest.fixture(scope="session")
def certificate_authority():
    """The session's own certificate authority and a certificate it signed
    for 127.0.0.1 (see tls.py), removed afterwards."""
    from tls import CertificateAuthority
    authority = CertificateAuthority()
    try:
        yield authority
    finally:
        authority.remove()


@pytest.fixture
def https_stack(certificate_authority):
    """A fresh nginx + backend serving HTTPS with the session's certificate."""
    running = Stack(tls=certificate_authority)
    try:
        yield running.start()
    finally:
        running.stop()


@pytest.fixture(scope="session")
def postgres_cluster():
    """One throwaway PostgreSQL cluster for the session's tests that ask for
    it (each takes its own database), stopped by pid afterwards. Never
    skipped: `scripts/install-deps test` installs PostgreSQL 15."""
    from postgres import TemporaryPostgres
    cluster = TemporaryPostgres()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
