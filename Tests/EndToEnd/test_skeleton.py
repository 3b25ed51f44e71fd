"""The walking skeleton: nginx serves Public/ itself and passes the rest to the backend."""
import http.client
import signal
import threading
import time

import requests


def test_dynamic_page_comes_from_the_backend_through_nginx(stack):
    response = requests.get(stack.url("/health"))
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/plain")
    assert response.headers["Server"] == "nginx"  # server_tokens off: no version
    assert response.text == "ok\n"


def test_static_file_is_served_by_nginx_with_a_long_cache(stack):
    (stack.public / "probe.css").write_text("body { color: black }\n")
    (stack.public / "probe.css").chmod(0o644)
    response = requests.get(stack.url("/probe.css"))
    assert response.status_code == 200
    assert response.text == "body { color: black }\n"
    assert response.headers["Content-Type"].startswith("text/css")
    assert "max-age=31536000" in response.headers["Cache-Control"]


def test_missing_static_file_shows_the_generated_404_page(stack):
    response = requests.get(stack.url("/missing.css"))
    assert response.status_code == 404
    assert (stack.public / "404.html").read_text() == response.text


def test_body_over_the_limit_is_refused_by_nginx(stack):
    response = requests.post(stack.url("/lists"), data=b"x" * (65 * 1024),
                             headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert response.status_code == 413


def test_backend_down_shows_the_generated_50x_page(stack):
    code, seconds = stack.stop_backend()
    assert code == 0
    response = requests.get(stack.url("/health"))
    assert response.status_code == 502
    assert (stack.public / "50x.html").read_text() == response.text
    stack.start_backend()
    assert requests.get(stack.url("/health")).status_code == 200


def test_sigterm_under_load_drains_without_truncating_a_response(stack):
    expected = requests.get(stack.url("/health")).content
    fifty = (stack.public / "50x.html").read_bytes()
    outcomes = {"ok": 0, "down": 0}
    problems = []
    lock = threading.Lock()
    stop = threading.Event()

    def client():
        connection = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=5)
        while not stop.is_set():
            try:
                connection.request("GET", "/health")
                reply = connection.getresponse()
                body = reply.read()
            except (OSError, http.client.HTTPException) as error:
                with lock:
                    problems.append(f"transport: {error!r}")
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=5)
                continue
            with lock:
                if reply.status == 200 and body == expected:
                    outcomes["ok"] += 1
                elif reply.status == 502 and body == fifty:
                    outcomes["down"] += 1
                else:
                    problems.append(f"{reply.status}: {body[:80]!r}")
        connection.close()

    threads = [threading.Thread(target=client) for _ in range(8)]
    for thread in threads:
        thread.start()
    time.sleep(1.0)
    code, seconds = stack.stop_backend(signal.SIGTERM)
    time.sleep(0.5)
    stop.set()
    for thread in threads:
        thread.join()
    assert code == 0
    assert seconds < 2.0
    assert outcomes["ok"] > 100
    assert outcomes["down"] > 0  # nginx answered with the 50x page while it was down
    assert problems == []
