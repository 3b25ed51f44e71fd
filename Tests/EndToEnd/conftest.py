import pytest

from hosts import serve_accepts_store
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
def postgres_cluster():
    """One throwaway PostgreSQL cluster for the session's tests that ask for
    it (each takes its own database), stopped by pid afterwards."""
    if not serve_accepts_store():
        pytest.skip("`checklists serve` has no --store option in this build: the PostgreSQL store is not in it")
    try:
        from postgres import TemporaryPostgres
    except ImportError as error:
        pytest.skip(f"Tests/EndToEnd/postgres.py (TemporaryPostgres) is missing: {error}")
    cluster = TemporaryPostgres()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
