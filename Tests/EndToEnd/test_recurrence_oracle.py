"""The repeating items' next occurrences (`Recurrence.Rule.next`) against
python-dateutil's rrule, over thousands of random rules and start times.

`checklists recurrence` reads `RRULE START N` lines and prints each rule's
next N occurrences, each computed from the one before (as an item moves on
when it is checked); dateutil computes the same occurrences from the start.
Both work on wall-clock times (the zone is applied afterwards, see
RecurrenceTests for the changes of clocks). The rules are drawn with a fixed
seed, so a failure names a line that fails again.
"""
import random
import subprocess
from datetime import datetime, timedelta

from dateutil.rrule import DAILY, MONTHLY, WEEKLY, YEARLY, rrule, weekdays

from stack import backend_binary

RULES = 4000
OCCURRENCES = 6
FREQUENCIES = {"DAILY": DAILY, "WEEKLY": WEEKLY, "MONTHLY": MONTHLY, "YEARLY": YEARLY}
CODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def random_start(rng: random.Random) -> datetime:
    # Month ends and leap days drawn more often than a uniform day would be.
    year = rng.randint(1971, 2060)
    month = rng.randint(1, 12)
    if rng.random() < 0.3:
        day = rng.choice([28, 29, 30, 31])
    else:
        day = rng.randint(1, 28)
    while True:
        try:
            date = datetime(year, month, day)
            break
        except ValueError:
            day -= 1
    if rng.random() < 0.1:
        date = datetime(rng.choice([2000, 2004, 2020, 2024, 2096]), 2, 29)
    return date.replace(hour=rng.randint(0, 23), minute=rng.choice([0, 15, 30, 59]),
                        second=rng.choice([0, 0, 0, 7]))


def random_rule(rng: random.Random, start: datetime):
    """An RRULE value within the subset and the same rule for dateutil."""
    name = rng.choice(list(FREQUENCIES))
    parts = [f"FREQ={name}"]
    arguments = {"freq": FREQUENCIES[name], "dtstart": start}
    interval = rng.choice([1, 1, 1, 2, 3, 4, 5, 7, 12, 13])
    if interval != 1 or rng.random() < 0.2:
        parts.append(f"INTERVAL={interval}")
    arguments["interval"] = interval
    if name == "WEEKLY" and rng.random() < 0.7:
        days = sorted(rng.sample(range(7), rng.randint(1, 7)))
        parts.append("BYDAY=" + ",".join(CODES[d] for d in days))
        arguments["byweekday"] = [weekdays[d] for d in days]
    if name == "MONTHLY" and rng.random() < 0.7:
        day = rng.choice([1, 15, 28, 29, 30, 31, -1, -2, -31, rng.randint(1, 31)])
        parts.append(f"BYMONTHDAY={day}")
        arguments["bymonthday"] = day
    if rng.random() < 0.2:
        until = start + timedelta(days=rng.randint(0, 3000), hours=rng.randint(0, 23))
        parts.append("UNTIL=" + until.strftime("%Y%m%dT%H%M%S"))
        arguments["until"] = until
    if rng.random() < 0.1:
        parts.append("WKST=MO")
    return ";".join(parts), rrule(**arguments)


def expected(rule, start: datetime) -> str:
    occurrences = []
    for occurrence in rule.xafter(start, count=OCCURRENCES, inc=False):
        if occurrence.year > 9999:
            break
        occurrences.append(occurrence.strftime("%Y%m%dT%H%M%S"))
    return " ".join(occurrences)


def run_backend(lines):
    completed = subprocess.run(
        [str(backend_binary()), "recurrence"], input="\n".join(lines) + "\n",
        capture_output=True, text=True, timeout=300, check=True)
    return completed.stdout.splitlines()


def test_next_occurrences_agree_with_dateutil():
    rng = random.Random(20261128)
    lines, wanted = [], []
    for _ in range(RULES):
        start = random_start(rng)
        text, rule = random_rule(rng, start)
        lines.append(f"{text} {start.strftime('%Y%m%dT%H%M%S')} {OCCURRENCES}")
        wanted.append(expected(rule, start))
    answers = run_backend(lines)
    assert len(answers) == len(lines)
    mismatches = [(line, answer, want)
                  for line, answer, want in zip(lines, answers, wanted) if answer != want]
    assert not mismatches, (
        f"{len(mismatches)} of {len(lines)} rules differ from dateutil; first ones:\n"
        + "\n".join(f"{line}\n  ours:     {answer}\n  dateutil: {want}"
                    for line, answer, want in mismatches[:5]))
    # The comparison compared something: most rules have every occurrence.
    full = sum(1 for answer in answers if len(answer.split()) == OCCURRENCES)
    assert full > RULES * 0.7


def test_a_rule_outside_the_subset_is_not_computed():
    answers = run_backend([
        "FREQ=MONTHLY;BYDAY=2TU 20260101T090000 3",
        "FREQ=HOURLY 20260101T090000 3",
        "FREQ=WEEKLY;WKST=SU;INTERVAL=2;BYDAY=MO,SU 20260101T090000 3",
        "FREQ=DAILY 20260101T090000 3",
    ])
    assert answers == ["custom", "custom", "custom",
                       "20260102T090000 20260103T090000 20260104T090000"]
