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
