"""Where the `caldav` library is: a virtual environment of its own,
`.build/caldav-venv` (made by `scripts/install-deps test`), so that the
`urllib3-future` it brings never reaches the system Python the other tests
(requests, Selenium) run in."""
import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENV = ROOT / ".build" / "caldav-venv"
CLIENT = Path(__file__).resolve().parent / "caldav_client.py"


def python() -> Path:
    interpreter = VENV / "bin" / "python"
    assert interpreter.exists(), f"no {interpreter}: run scripts/install-deps test"
    return interpreter


def discover(url, user, password, ops=()):
    """What the caldav library finds at `url` with these credentials, after
    making the changes `ops` (see caldav_client.py)."""
    asked = {"url": url, "user": user, "password": password, "ops": list(ops)}
    finished = subprocess.run(
        [str(python()), str(CLIENT)], input=json.dumps(asked),
        capture_output=True, text=True, timeout=60)
    assert finished.returncode == 0, finished.stderr[-2000:]
    return json.loads(finished.stdout)
