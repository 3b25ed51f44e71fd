"""Runs caldav-server-tester's checks one class at a time, so that a check
that stops with an error (on a server that refuses events, some of the
tester's event checks do) is reported as such and the others still run;
the tester's own command stops at the first. Run with the interpreter of
`.build/dav-tools-venv` (see server_tester.py).

Reads a JSON object on standard input (`url`, `user`, `password`, and
`calendar`, the name of a calendar to work in, or null) and prints
{"features": {name: support level}, "aborted": {check class: error}}."""
import inspect
import json
import re
import sys

from caldav.davclient import get_davclient
from caldav_server_tester import checks
from caldav_server_tester.checker import ServerQuirkChecker
from caldav_server_tester.checks_base import Check

FEATURE = re.compile(r"^## (\S+)\nFeature support level found: (\S+)", re.M)


def main():
    asked = json.load(sys.stdin)
    aborted = {}
    with get_davclient(url=asked["url"], username=asked["user"], password=asked["password"]) as connection:
        checker = ServerQuirkChecker(connection, extra_clients=[])
        if asked.get("calendar"):
            checker.expected_features.set_feature("test-calendar.compatibility-tests", {"name": asked["calendar"]})
        classes = sorted((name, kind) for name, kind in inspect.getmembers(checks, inspect.isclass)
                         if kind.__module__ == checks.__name__ and issubclass(kind, Check) and kind is not Check)
        try:
            for name, kind in classes:
                try:
                    kind(checker).run_check(only_once=True)
                except Exception as error:  # the tester's own failure: reported, the rest still run
                    aborted[name] = f"{type(error).__name__}: {error}"[:300]
        finally:
            try:
                checker.cleanup(force=True)
            except Exception as error:
                aborted["cleanup"] = f"{type(error).__name__}: {error}"[:300]
        report = checker.report(verbose=True, show_diff=False, return_what=str)
    json.dump({"features": dict(FEATURE.findall(report)), "aborted": aborted}, sys.stdout)


if __name__ == "__main__":
    main()
