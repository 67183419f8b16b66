#!/usr/bin/env python3
"""Runs the unit suite in two layers and proves every test ran exactly once (`make unit-tests`).

1. Lists the tests of the built test bundle with Swift Testing's event stream, which names each
   suite's and test's tags, and `swift test list`.
2. The tests without the `.endToEnd` tag (on the test or on a suite around it) run in parallel, as
   many at once as there are cores (--width): `swift test --skip-build --parallel --skip
   <end-to-end>` with SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH.
3. The `.endToEnd` tests run one at a time: `swift test --skip-build --no-parallel --filter
   <end-to-end>` (docs/RELIABILITY.md, "Two layers").
4. The check: each run's xUnit report names the tests that ran. A test that ran twice, a test of
   `swift test list` that ran in neither run, a test that is not in the list, an end-to-end test
   that ran in parallel or a parallel one that ran in the end-to-end run fails, naming the tests.

The whole takes at most --timeout seconds (each run gets what is left); a run that overruns is
killed with its process group. Exit status: the first failing run's, else 1 when the check
fails, else 0. The reports stay in --out.

`--self-test` feeds the check planted mistakes (a test run twice, one missing, one in the wrong
layer, one unknown) and fails unless each is named.

Usage: unit-tests.py [--swift SWIFT] [--out DIR] [--timeout SECONDS] [--width N] [--layer both|parallel|serial]
       unit-tests.py --self-test
"""
import argparse
import json
import os
import html
import re
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TAG = ".endToEnd"
BUNDLE = "EngagementSDKPackageTests.xctest"


class Failure(Exception):
    """A problem that stops the run, with what went wrong and where."""


def listed_tests(swift):
    """The test names of `swift test list` (Module.Suite/Nested/function(labels:))."""
    result = subprocess.run([swift, "test", "list", "--skip-build"], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    if result.returncode != 0:
        raise Failure(f"`{swift} test list --skip-build` failed ({result.returncode}):\n{result.stderr}")
    # A name that would be ambiguous (`seeds()` in three modules' FuzzRegressionTests) is listed
    # with its source location ("/File.swift:41:6"), which the reports leave out.
    names = [re.sub(r"/[^/]+\.swift:\d+:\d+$", "", line.strip()) for line in result.stdout.splitlines() if line.strip()]
    if not names:
        raise Failure(f"`{swift} test list --skip-build` listed no test")
    return names


def tagged_tests(swift, scratch):
    """Every test function of the bundle, by its `swift test list` name, with whether it or a
    suite around it carries the end-to-end tag, read from Swift Testing's event stream."""
    bin_path = subprocess.run([swift, "build", "--show-bin-path"], cwd=ROOT, capture_output=True,
                              text=True, check=True, timeout=300).stdout.strip()
    bundle = os.path.join(bin_path, BUNDLE)
    if not os.path.exists(bundle):
        raise Failure(f"no test bundle at {bundle}: build it with `{swift} build --build-tests`")
    stream = os.path.join(scratch, "list.jsonl")
    environment = dict(os.environ, SWT_EXPERIMENTAL_EVENT_STREAM_FIELDS_ENABLED="1")
    result = subprocess.run([bundle, "--testing-library", "swift-testing", "--list-tests",
                             "--event-stream-output-path", stream, "--event-stream-version", "0"],
                            cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300)
    if result.returncode != 0:
        raise Failure(f"listing {bundle}'s tests failed ({result.returncode}):\n{result.stderr}")
    suites, functions = {}, {}
    with open(stream) as lines:
        for number, line in enumerate(lines, 1):
            record = json.loads(line)
            if record.get("kind") != "test":
                continue
            payload = record["payload"]
            tagged = TAG in payload.get("_tags", [])
            if payload["kind"] == "suite":
                suites[payload["id"]] = tagged
            elif payload["kind"] == "function":
                # The id ends with the source location ("/File.swift:12:6"); the list's name does not.
                name = payload["id"].rsplit("/", 1)[0]
                if name in functions:
                    raise Failure(f"{stream}:{number}: test {name} listed twice")
                functions[name] = tagged
            else:
                raise Failure(f"{stream}:{number}: unknown test kind {payload['kind']!r}")
    if not functions:
        raise Failure(f"{stream}: the event stream listed no test")
    # Tags apply to everything inside a suite; the stream gives each only where it is written.
    result = {}
    for name, tagged in functions.items():
        parts = name.split("/")
        inherited = any(suites.get("/".join(parts[:length]), False) for length in range(1, len(parts)))
        result[name] = tagged or inherited
    return result


def end_to_end_pattern(tags):
    """One regular expression matching exactly the end-to-end tests: a whole suite where every
    test in it is end-to-end, a single test otherwise."""
    end_to_end = sorted(name for name, tagged in tags.items() if tagged)
    if not end_to_end:
        raise Failure(f"no test carries {TAG}: the tags were not read (Swift Testing's event stream changed?)")
    prefixes = []
    for name in end_to_end:
        parts = name.split("/")
        # The outermost suite all of whose tests are end-to-end, else the test itself.
        chosen = None
        for length in range(1, len(parts)):
            suite = "/".join(parts[:length]) + "/"
            if all(tagged for other, tagged in tags.items() if other.startswith(suite)):
                chosen = "^" + re.escape(suite)
                break
        if chosen is None:
            function = parts[-1].split("(", 1)[0]
            chosen = "^" + re.escape("/".join(parts[:-1]) + "/" + function) + r"\("
        if chosen not in prefixes:
            prefixes.append(chosen)
    pattern = "|".join(prefixes)
    compiled = re.compile(pattern)
    wrong = [name for name, tagged in tags.items() if bool(compiled.search(name)) != tagged]
    if wrong:
        raise Failure("the end-to-end pattern does not match the tags exactly (an overloaded test "
                      "name?): " + ", ".join(sorted(wrong)))
    return pattern


def ran_tests(report):
    """The tests an xUnit report of Swift Testing names, in the list's form, in report order."""
    if not os.path.exists(report):
        raise Failure(f"no xUnit report at {report}: the run ended before writing it (a crash?)")
    names = []
    with open(report, encoding="utf-8", errors="replace") as file:
        text = file.read()
    try:
        cases = [(case.get("classname"), case.get("name")) for case in ElementTree.fromstring(text).iter("testcase")]
    except ElementTree.ParseError:
        # A failure's message is written as the test recorded it (control characters, a value's
        # raw text), which can leave the report not well-formed: the test cases' own elements
        # are still read, so a failing run names what ran and its failures stay visible above.
        cases = [(html.unescape(classname), html.unescape(name))
                 for classname, name in re.findall(r'<testcase classname="([^"]*)" name="([^"]*)"', text)]
    for classname, name in cases:
        # classname "SDKTests.SecurityTests.KeyringTests" is "SDKTests.SecurityTests/KeyringTests".
        module, _, suites = classname.partition(".")
        path = module + ("." + suites.replace(".", "/") if suites else "")
        names.append(path + "/" + name)
    return names


def check(listed, tags, parallel_run, serial_run):
    """The problems with two runs' tests against the list and the tags: empty when every listed
    test ran exactly once, in its own layer."""
    problems = []
    listed_set = set(listed)
    if set(tags) != listed_set:
        problems.append("`swift test list` and the event stream list different tests: "
                        + ", ".join(sorted(listed_set ^ set(tags))))
    seen = {}
    for layer, names in (("parallel", parallel_run), ("end-to-end", serial_run)):
        for name in names:
            seen.setdefault(name, []).append(layer)
    for name, layers in sorted(seen.items()):
        if len(layers) > 1:
            problems.append(f"{name} ran {len(layers)} times ({', '.join(layers)})")
        if name not in listed_set:
            problems.append(f"{name} ran ({layers[0]}) but `swift test list` does not list it")
        elif tags.get(name) is not None and (layers[0] == "end-to-end") != tags[name]:
            want = "end-to-end" if tags[name] else "parallel"
            problems.append(f"{name} ran in the {layers[0]} run but belongs to the {want} one")
    for name in listed:
        if name not in seen:
            problems.append(f"{name} is listed but ran in neither run")
    return problems


def run(command, deadline, label, environment=None):
    """Runs `command` with its output on ours, killing its process group at the deadline."""
    print(f"== {label}: {' '.join(command[:6])} ...", flush=True)
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=ROOT, start_new_session=True,
                               env=dict(os.environ, **(environment or {})))
    try:
        status = process.wait(timeout=max(1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        print(f"error: {label} overran the time left of --timeout and was killed", file=sys.stderr)
        status = 124
    except BaseException:
        # Interrupted (^C, SIGTERM from an outer timeout): the run is in a session of its own and
        # would go on without us.
        os.killpg(process.pid, signal.SIGKILL)
        raise
    print(f"== {label}: exit {status} after {time.monotonic() - started:.1f} s", flush=True)
    return status


def main(arguments):
    started = time.monotonic()
    deadline = started + arguments.timeout
    os.makedirs(arguments.out, exist_ok=True)
    listed = listed_tests(arguments.swift)
    tags = tagged_tests(arguments.swift, arguments.out)
    pattern = end_to_end_pattern(tags)
    end_to_end = sum(tags.values())
    print(f"{len(listed)} tests: {len(listed) - end_to_end} in parallel, {end_to_end} end-to-end one at a time",
          flush=True)
    reports = {layer: os.path.join(arguments.out, layer + ".xml") for layer in ("parallel", "serial")}
    for report in reports.values():
        for path in (report, report[:-4] + "-swift-testing.xml"):
            if os.path.exists(path):
                os.remove(path)
    statuses = []
    layers = ("parallel", "serial") if arguments.layer == "both" else (arguments.layer,)
    if "parallel" in layers:
        # As many tests at once as there are cores. Unbounded, Swift Testing starts every test at
        # once and a test's time limit counts from then: under load, a suite of quick tests that
        # waited a minute for a thread overran its limit without having run.
        statuses.append(run([arguments.swift, "test", "--skip-build", "--parallel", "--skip", pattern,
                             "--xunit-output", reports["parallel"]], deadline, f"parallel layer, {arguments.width} at once",
                            {"SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH": str(arguments.width)}))
    if "serial" in layers:
        statuses.append(run([arguments.swift, "test", "--skip-build", "--no-parallel", "--filter", pattern,
                             "--xunit-output", reports["serial"]], deadline, "end-to-end layer"))
    # SwiftPM writes Swift Testing's report next to the path given, with this suffix.
    runs = {layer: ran_tests(reports[layer][:-4] + "-swift-testing.xml") if layer in layers else []
            for layer in ("parallel", "serial")}
    if arguments.layer == "both":
        problems = check(listed, tags, runs["parallel"], runs["serial"])
        for problem in problems:
            print(f"error: {problem}", file=sys.stderr)
        if not problems:
            print(f"check: all {len(listed)} listed tests ran exactly once, {len(runs['parallel'])} in parallel "
                  f"and {len(runs['serial'])} end-to-end", flush=True)
    else:
        problems = []
    print(f"unit tests: {time.monotonic() - started:.1f} s", flush=True)
    failed = [status for status in statuses if status != 0]
    if failed:
        return failed[0]
    return 1 if problems else 0


def self_test():
    """Plants each mistake the check exists for and requires it named; a clean pair passes."""
    listed = ["M.A/one()", "M.A/two()", "M.B/three(x:)", "M.C/Inner/four()"]
    tags = {"M.A/one()": False, "M.A/two()": True, "M.B/three(x:)": True, "M.C/Inner/four()": False}
    clean = (["M.A/one()", "M.C/Inner/four()"], ["M.A/two()", "M.B/three(x:)"])
    cases = {
        "clean": (clean, []),
        "twice": ((clean[0] + ["M.A/one()"], clean[1]), ["M.A/one() ran 2 times"]),
        "in both runs": ((clean[0] + ["M.A/two()"], clean[1]), ["M.A/two() ran 2 times"]),
        "missing": ((["M.A/one()"], clean[1]), ["M.C/Inner/four() is listed but ran in neither run"]),
        "wrong layer": ((["M.A/one()", "M.C/Inner/four()", "M.A/two()"], ["M.B/three(x:)"]),
                        ["M.A/two() ran in the parallel run but belongs to the end-to-end one"]),
        "unknown": ((clean[0] + ["M.Z/ghost()"], clean[1]), ["M.Z/ghost() ran (parallel) but"]),
    }
    failures = []
    for label, ((parallel_run, serial_run), expected) in cases.items():
        problems = check(listed, tags, parallel_run, serial_run)
        if not expected and problems:
            failures.append(f"{label}: expected no problem, got {problems}")
        for text in expected:
            if not any(problem.startswith(text) for problem in problems):
                failures.append(f"{label}: expected a problem starting {text!r}, got {problems}")
    # The pattern: a suite whose tests are all end-to-end becomes one prefix, a tagged test in an
    # untagged suite its own; a name that would also match a neighbour is refused.
    pattern = end_to_end_pattern(tags)
    if pattern != r"^M\.A/two\(|^M\.B/":
        failures.append(f"pattern: got {pattern!r}")
    try:
        end_to_end_pattern({"M.A/two()": True, "M.A/two(x:)": False})
        failures.append("an overloaded name split across layers was accepted")
    except Failure:
        pass
    with tempfile.TemporaryDirectory() as scratch:
        report = os.path.join(scratch, "r.xml")
        with open(report, "w") as file:
            file.write('<testsuites><testsuite><testcase classname="M.C.Inner" name="four()" />'
                       '<testcase classname="M.A" name="one()" /></testsuite></testsuites>')
        if ran_tests(report) != ["M.C/Inner/four()", "M.A/one()"]:
            failures.append(f"xUnit names: got {ran_tests(report)}")
    for failure in failures:
        print(f"self-test failed: {failure}", file=sys.stderr)
    if not failures:
        print(f"self-test: {len(cases)} cases and the pattern checked")
    return 1 if failures else 0


if __name__ == "__main__":
    # SIGTERM ends the script as ^C does, so a run under way is killed with it.
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--swift", default=os.environ.get("SWIFT", "swift"))
    parser.add_argument("--out", default=os.path.join(ROOT, ".build", "unit-tests"))
    parser.add_argument("--timeout", type=float, default=1200)
    parser.add_argument("--layer", choices=["both", "parallel", "serial"], default="both")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    parser.add_argument("--width", type=int, default=cores,
                        help="tests run at once in the parallel layer (default: the cores this process may use)")
    parser.add_argument("--self-test", action="store_true")
    options = parser.parse_args()
    try:
        sys.exit(self_test() if options.self_test else main(options))
    except Failure as failure:
        print(f"error: {failure}", file=sys.stderr)
        sys.exit(1)
