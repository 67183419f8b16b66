#!/usr/bin/env python3
"""Cross-checks the fleet SQL against replay's own per-journal answers (`make fleet-check`).

    fleet/check.py --replay PATH [--journals N] [--engine duckdb|spark] [--jobs J] WORKDIR

Generates a fleet of N simulated journals with their backends' receipt logs (`replay simulate
--keep WORKDIR/journals --receipt-logs`), exports it into one file (`replay export --redact
--format ndjson --single-file -o WORKDIR/ndjson/fleet.ndjson`: one file, which the engine reads
in parallel, where a file per journal made it open 10,000), runs fleet/run.py's queries on the
engine, and compares every query's answer with the sum, over the journals, of what `replay
audit --json` and `replay diagnose --json` say about each journal (one process per command over
the whole folder: `--jobs J` journals side by side). Then the reconciliation
(fleet/reconcile/): the SQL's verdict on every call, with its project and the journal's outcome
and time, against `replay reconcile --json` over the same journals and logs, call by call, and
its totals per verdict, project, SDK version and outcome against replay's. Steps that do not
need each other's answers run side by side (audit and diagnose while the engine converts the
export; reconcile while the engine works); the phases' wall and CPU times are printed at the
end. Exit status 0 when every query agrees, 1 on any difference (each printed), 2 when a step
could not run.
"""
import argparse
import collections
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as fleet  # noqa: E402

try:
    # replay's answers over 10,000 journals are ~100 MB of JSON lines: orjson (installed with
    # duckdb by scripts/install-fleet-deps.sh) parses them in 0.6x the time; json, the same values.
    from orjson import loads as load_json
except ImportError:
    load_json = json.loads

GATE_DECISIONS = {"executed", "queued", "replayed", "inline", "refused"}
RUNS_ITSELF = {"started", "enqueued", "initialization"}


def replay(binary, *arguments):
    done = subprocess.run([binary, *arguments], capture_output=True, text=True)
    if done.returncode not in (0, 1):
        raise SystemExit(f"fleet-check: `replay {' '.join(arguments)}` exited {done.returncode}: {done.stderr.strip()}")
    return done


class Background:
    """`replay ARGUMENTS` started now, its output gathered in files of WORKDIR; `result()` waits
    for it and returns what `replay()` would have."""

    def __init__(self, binary, work, name, *arguments):
        self.arguments = arguments
        self.out = open(os.path.join(work, name + ".out"), "w+")
        self.err = open(os.path.join(work, name + ".err"), "w+")
        self.process = subprocess.Popen([binary, *arguments], stdout=self.out, stderr=self.err, text=True)

    def result(self):
        code = self.process.wait()
        self.out.seek(0)
        self.err.seek(0)
        done = subprocess.CompletedProcess(self.process.args, code, self.out.read(), self.err.read())
        self.out.close()
        self.err.close()
        if code not in (0, 1):
            raise SystemExit(f"fleet-check: `replay {' '.join(self.arguments)}` exited {code}: {done.stderr.strip()}")
        return done


class Phases:
    """Wall and CPU seconds (this process's and its finished children's) of each phase."""

    def __init__(self):
        self.rows = []
        self.started = self.last = time.monotonic()
        self.cpu_started = self.cpu_last = self._cpu()

    @staticmethod
    def _cpu():
        times = os.times()
        return times.user + times.system + times.children_user + times.children_system

    def done(self, name):
        now, cpu = time.monotonic(), self._cpu()
        self.rows.append((name, now - self.last, cpu - self.cpu_last))
        self.last, self.cpu_last = now, cpu

    def line(self):
        return ("; ".join(f"{name} {wall:.1f} s ({cpu:.1f} CPU-s)" for name, wall, cpu in self.rows)
                + f"; total {time.monotonic() - self.started:.1f} s ({self._cpu() - self.cpu_started:.1f} CPU-s)")


def answers_by_journal(done, command):
    """The lines of `replay COMMAND --json --jobs J FOLDER` (its finished run, `done`) over
    every journal of the folder in one process: each journal's lines (their tag removed), by
    journal path; each journal's id (as the export's rows write it), by path; and the
    total. Every journal must have been answered."""
    lines = [load_json(line) for line in done.stdout.splitlines() if line]
    total = lines.pop()["total"]
    if total["skipped"]:
        raise SystemExit(f"fleet-check: `replay {command}` skipped {', '.join(total['skipped'])}")
    answers = collections.defaultdict(list)
    ids = {}
    for line in lines:
        journal = line.pop("journal")
        ids[journal] = line.pop("journal_id") or ""
        answers[journal].append(line)
    return answers, ids, total


def per_journal(rows, reports):
    """What replay audit and diagnose say about one journal (its audit lines, the summary last,
    and its switch reports), as the five queries count it."""
    counts = {name: collections.Counter() for name in
              ("switch_outcomes", "calls_elsewhere", "disables_not_durable", "received_per_project", "discarded_by_reason")}
    rows, summary = rows[:-1], rows[-1]["summary"]
    for row in rows:
        outcome = row["outcome"] or {}
        if outcome.get("status") == "discarded":
            counts["discarded_by_reason"][(outcome["reason"]["discard"], row["name"])] += 1
        took_effect = outcome.get("project") if outcome.get("status") in ("delivered", "applied") else None
        if took_effect and row["name"] not in ("initialize", "switchProject") and took_effect != row["live_at_call"]:
            decisions = [gate for gate in row["gate"] if gate in GATE_DECISIONS]
            counts["calls_elsewhere"][(row["name"], decisions[-1] if decisions else "none")] += 1
    for project, received in summary["requests_delivered"].items():
        counts["received_per_project"][(project,)] += received["for_calls"] + received["sdk_own"]
    for report in reports:
        if report["routing"]["routing"] in RUNS_ITSELF and report["result"] is not None:
            reasons = [re.sub("[0-9a-f]{16}", "<project>", reason) for reason in report["reasons"]] or [None]
            for reason in reasons:
                counts["switch_outcomes"][(SDK_VERSION, report["result"], reason)] += 1
        durability = report["disable_durability"]
        if durability is not None and not durability["within_bound"]:
            counts["disables_not_durable"][(SDK_VERSION,)] += 1
    return counts


# The simulated fleet is of one SDK version; the queries' version columns are checked against it.
SDK_VERSION = None


def from_sql(results):
    """The queries' rows as the same counters (keys without the columns replay cannot know)."""
    keyed = {
        "switch_outcomes": lambda row: ((row["sdk_version"], row["result"], row["reason"]), row["switches"]),
        "calls_elsewhere": lambda row: ((row["call_name"], row["why"]), row["calls"]),
        "disables_not_durable": lambda row: ((row["sdk_version"],), row["disables"]),
        "received_per_project": lambda row: ((row["project"],), row["requests"]),
        "discarded_by_reason": lambda row: ((row["reason"], row["call_name"]), row["calls"]),
    }
    counters = {}
    for name, key in keyed.items():
        counter = collections.Counter()
        for row in results[name]:
            k, value = key(row)
            counter[k] += value
        counters[name] = counter
    return counters


# A token of the redacted export (`text:1a2b…`): what redaction made of a word the SDK did not
# write itself (a module's error, a server's message).
TOKEN = re.compile(r"\b(?:email|user|token|data|body|text):[0-9a-f]+")


def as_redacted(replay, sql):
    """Replay's switch reasons (read from the journals as recorded) keyed as the redacted export
    shows them: each reason is counted under the SQL reason it matches, a token standing for one
    word. A reason that matches none keeps its own key (and is reported as a difference)."""
    patterns = []
    for key in sql:
        reason = key[2]
        if reason is None or not TOKEN.search(reason):
            continue
        pattern = "".join(r"[^\s;]+?" if part is None else re.escape(part)
                          for part in _split_tokens(reason))
        patterns.append((key, re.compile(pattern + r"\Z")))
    keyed = collections.Counter()
    for key, count in replay.items():
        target = key
        if key[2] is not None and key not in sql:
            target = next((candidate for candidate, pattern in patterns
                           if candidate[:2] == key[:2] and pattern.match(key[2])), key)
        keyed[target] += count
    return keyed


def _split_tokens(text):
    """`text` as its literal parts, with None where a token stands."""
    parts, last = [], 0
    for match in TOKEN.finditer(text):
        parts.append(text[last:match.start()])
        parts.append(None)
        last = match.end()
    parts.append(text[last:])
    return parts


# The kinds of record that mark a journal missing facts: a gap, or an erasure on request.
MISSING_FACTS = "('journalGap', 'localDataErased')"


def scan_rows(engine):
    """What the export's rows say that the check needs before it runs the queries, by journal
    id, asked of the engine (its `fleet` and `call_rows` views over every row): the journals
    with a journalGap or localDataErased row; the other journals one of whose queued calls has
    the wire id of another such journal's call; and per journal, the calls its journal ended
    without delivering them (wire id, project, path and the time it ended them, in journal
    order), for tamper_receipts."""
    missing = {row["journal_id"] for row in engine.rows(f"SELECT DISTINCT journal_id FROM fleet WHERE kind IN {MISSING_FACTS}")}
    owners = collections.defaultdict(set)
    for row in engine.rows(
            "WITH owned AS (SELECT DISTINCT journal_id, wire_call_id AS wire FROM call_rows WHERE kind IN ('taskQueued', 'eventBatched')) "
            "SELECT owned.wire, owned.journal_id FROM owned "
            "JOIN (SELECT wire FROM owned GROUP BY wire HAVING COUNT(*) > 1) AS twice ON owned.wire = twice.wire"):
        owners[row["wire"]].add(row["journal_id"])
    undelivered = collections.defaultdict(list)
    for row in engine.rows(
            "SELECT journal_id, wire_call_ids, row_project, task_endpoint, time FROM fleet "
            "WHERE (kind = 'taskCompleted' AND (outcome_status IS NULL OR outcome_status <> 'delivered')) OR kind = 'eventsExpired' "
            "ORDER BY journal_id, seq"):
        for wire in row["wire_call_ids"] or []:
            undelivered[row["journal_id"]].append({"call_id": wire, "project": row["row_project"],
                                                   "endpoint": row["task_endpoint"], "outcome_at": row["time"]})
    # Among the journals compared: one that misses facts is set aside for that already.
    shared = {journal for journals in owners.values() if len(journals - missing) > 1 for journal in journals - missing}
    return missing, shared, undelivered


def reconcile_start(binary, work, journals):
    """`replay reconcile --json` over every journal of the folder and the receipt log beside each
    (`<journal>/received.ndjson`), started in the background (``reconcile_expected`` takes its
    answer)."""
    logs = sorted(os.path.join(journals, name, RECEIPT_LOG) for name in os.listdir(journals)
                  if os.path.isfile(os.path.join(journals, name, RECEIPT_LOG)))
    return Background(binary, work, "reconcile", "reconcile", "--json", journals, "--received", *logs), len(logs)


def reconcile_expected(started):
    """The answer of ``reconcile_start``'s run: each row as the key the SQL's `reconcile/calls`
    rows are compared by, counted, the summary and the number of logs."""
    running, logs = started
    done = running.result()
    lines = [load_json(line) for line in done.stdout.splitlines() if line]
    summary = lines.pop()["summary"]
    if summary["problems"] or summary["not_judged"]:
        print(f"fleet-check: replay reconcile named {summary['problems']} problem(s) and left {summary['not_judged']} "
              f"call(s) not judged:\n{done.stderr.strip()}")
    rows = collections.Counter()
    for line in lines:
        if line["verdict"] == "unjournaled":
            rows[("unjournaled", line["call_id"], line["receipts"][0]["project"], "none", None)] += 1
        else:
            rows[(line["verdict"], line["call_id"], line["project"], re.match(r"[a-z]*", line["journal_outcome"]).group(0), line["outcome_at"])] += 1
    return rows, summary, logs


def reconcile_compare(expected, summary, results, engine):
    """The differences between replay's reconciliation and the SQL's, printed; their number."""
    differences = []
    got = collections.Counter((row["verdict"], row["wire_call_id"], row["project"], row["outcome_status"], row["outcome_at"])
                              for row in results["reconcile/calls"])
    for key in sorted(set(expected) | set(got), key=repr):
        if expected[key] != got[key]:
            differences.append(f"call {key}: replay says {expected[key]}, {engine} says {got[key]}")
    verdicts = ("elsewhere", "lost", "duplicate", "unconfirmed", "late", "unjournaled", "agreed")
    want = {verdict: count for verdict, count in summary["verdicts"].items() if count}
    answered = {row["verdict"]: row["calls"] for row in results["reconcile/verdicts"]}
    if want != answered:
        differences.append(f"verdicts: replay says {want}, {engine} says {answered}")
    per_project = {project: {verdict: counts[verdict] for verdict in verdicts} for project, counts in summary["projects"].items()}
    answered = {row["project"]: {verdict: row[verdict] for verdict in verdicts} for row in results["reconcile/by_project"]}
    for project in sorted(set(per_project) | set(answered)):
        if per_project.get(project) != answered.get(project):
            differences.append(f"project {project}: replay says {per_project.get(project)}, {engine} says {answered.get(project)}")
    by_version = {row["sdk_version"]: {verdict: row[verdict] for verdict in verdicts} for row in results["reconcile/by_sdk_version"]}
    want_version = {SDK_VERSION: {verdict: summary["verdicts"][verdict] for verdict in verdicts}}
    if by_version != want_version:
        differences.append(f"per SDK version: replay says {want_version}, {engine} says {by_version}")
    # Per cause: replay names the journal's outcome of each call; the SQL's causes summed over path and reason.
    by_outcome = collections.Counter()
    for (verdict, _, _, outcome, _), count in expected.items():
        by_outcome[(outcome, verdict)] += count
    answered = collections.Counter()
    for row in results["reconcile/by_cause"]:
        for verdict in verdicts:
            answered[(row["outcome_status"], verdict)] += row[verdict]
    if +by_outcome != +answered:
        differences.append(f"per cause (outcome, verdict): replay says {dict(+by_outcome)}, {engine} says {dict(+answered)}")
    for difference in differences:
        print(f"fleet-check: reconcile {difference}")
    return len(differences)


# The receipt log `replay simulate --receipt-logs` writes in each kept journal's directory.
RECEIPT_LOG = "received.ndjson"

# How tamper_receipts changes the receipt log of journal number i (i % 8), so that every
# verdict occurs: the simulated backend's logs, after a calm end, agree with their journals.
TAMPERING = {
    1: "first receipt removed (lost, when its call was delivered)",
    2: "first receipt stored again (duplicate)",
    3: "first receipt taken by another project (elsewhere)",
    4: "first receipt a day later (late)",
    5: "a receipt of a call the journal did not deliver (unconfirmed)",
    6: "a receipt of the stream that no call has (unjournaled)",
    7: "first receipt sent again, deduplicated, and again answered 500 (agreed: no evidence either way)",
}


def tamper_receipts(journals, undelivered):
    """Changes every journal's receipt log but every eighth (TAMPERING), in place; returns how
    many of each change were made. `undelivered`: per journal, calls it did not deliver
    (scan_rows)."""
    names = sorted(name for name in os.listdir(journals) if os.path.isfile(os.path.join(journals, name, RECEIPT_LOG)))
    logs = [os.path.join(journals, name, RECEIPT_LOG) for name in names]
    projects = sorted({json.loads(line)["project"] for log in logs for line in open(log)})
    made = collections.Counter()
    for index, (name, log) in enumerate(zip(names, logs)):
        with open(log) as handle:
            lines = [json.loads(line) for line in handle if line.strip()]
        way = index % 8
        if way == 0 or not lines:
            continue
        first = lines[0]
        if way == 1:
            lines.pop(0)
        elif way == 2:
            lines.append(dict(first, duplicate=False))
        elif way == 3:
            others = [project for project in projects if project != first["project"]]
            if not others:
                continue
            first["project"] = others[index % len(others)]
        elif way == 4:
            received = datetime.datetime.strptime(first["received_at"], "%Y-%m-%dT%H:%M:%S.%fZ")
            first["received_at"] = (received + datetime.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        elif way == 5:
            received = {line["call_id"] for line in lines}
            calls = [call for call in undelivered.get(name, []) if call["call_id"] not in received]
            if not calls:
                continue
            call = calls[0]
            lines.append(dict(first, project=call["project"], endpoint=call["endpoint"], call_id=call["call_id"], status=200,
                              duplicate=False, received_at=call["outcome_at"] or first["received_at"]))
        elif way == 6:
            lines.append(dict(first, call_id="%032x" % (int(first["call_id"], 16) ^ 0x5A5A), duplicate=False))
        elif way == 7:
            lines.append(dict(first, duplicate=True))
            lines.append(dict(first, status=500, duplicate=False))
        made[TAMPERING[way]] += 1
        # A new file where the log was, not the same one emptied: ext4 writes a file emptied
        # and written again out at once when it is closed, and with the export's gigabyte still
        # on its way to the disk, 10,000 such closes waited ~20 s for it.
        os.remove(log)
        with open(log, "x") as handle:
            handle.writelines(json.dumps(line) + "\n" for line in lines)
    return made


def set_aside(journals, folder, names, why):
    """Moves the journals `names` (folder names) out of `journals` into `folder`, and says so."""
    if not names:
        return
    os.makedirs(folder)
    for name in names:
        shutil.move(os.path.join(journals, name), os.path.join(folder, name))
    print(f"fleet-check: {len(names)} journal(s) {why} set aside, not compared "
          f"(seeds {', '.join(names[:10])}{', ...' if len(names) > 10 else ''})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--replay", required=True, help="the replay executable")
    parser.add_argument("--journals", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--engine", choices=sorted(fleet.ENGINES), default="duckdb")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("workdir")
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.replay)
    work = os.path.abspath(arguments.workdir)
    journals, ndjson = os.path.join(work, "journals"), os.path.join(work, "ndjson")
    jobs = str(arguments.jobs)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(ndjson)
    phases = Phases()

    simulated = replay(binary, "simulate", "--seeds", str(arguments.journals), "--steps", str(arguments.steps), "--keep", journals,
                       "--receipt-logs", "--jobs", jobs)
    if simulated.returncode != 0:
        raise SystemExit(f"fleet-check: the simulation failed:\n{simulated.stdout}{simulated.stderr}")
    phases.done("simulate")
    exported = replay(binary, "export", "--redact", "--format", "ndjson", "--single-file", "--jobs", jobs,
                      "-o", os.path.join(ndjson, "fleet.ndjson"), journals)
    if exported.returncode != 0:
        raise SystemExit(f"fleet-check: the export failed:\n{exported.stdout}{exported.stderr}")
    phases.done("export")

    # Side by side: replay's answers over every journal (audit, diagnose), read by a thread of
    # this process as each ends, and the engine's conversion; the journals set aside in
    # prepare() are then left out of both sides.
    audit_run = Background(binary, work, "audit", "audit", "--json", "--jobs", jobs, journals)
    diagnose_run = Background(binary, work, "diagnose", "diagnose", "--json", "--jobs", jobs, journals)
    answered = {}

    def read_answers():
        try:
            answered["audit"] = answers_by_journal(audit_run.result(), "audit")
            answered["diagnose"] = answers_by_journal(diagnose_run.result(), "diagnose")
        except BaseException as error:  # handed to the main thread, raised there
            answered["error"] = error

    reading = threading.Thread(target=read_answers)
    reading.start()
    prepared = {}

    def prepare(engine):
        global SDK_VERSION
        missing, shared, undelivered = scan_rows(engine)
        reading.join()
        if "error" in answered:
            raise answered["error"]
        prepared["audits"], ids, _ = answered["audit"]
        prepared["diagnoses"], _, _ = answered["diagnose"]
        phases.done(f"audit, diagnose, {arguments.engine}'s conversion and scan")
        names = {journal_id: os.path.basename(path) for path, journal_id in ids.items()}
        if len(names) != len(ids) or "" in names:
            raise SystemExit("fleet-check: the journals' ids are not one per journal: cannot tell the export's rows apart")
        unknown = (missing | shared | set(undelivered)) - set(names)
        if unknown:
            raise SystemExit(f"fleet-check: the export has rows of journal(s) `replay audit` did not answer: {', '.join(sorted(unknown)[:10])}")
        # A journal with a gap (its journal could not record for a while, then came back), or
        # one erased on request (eraseLocalData: it begins again at a snapshot, mid-story),
        # misses facts: replay rebuilds what it can from the snapshot after the gap, SQL over
        # rows cannot, so the two are not compared there (as `replay check` does not judge
        # rules across either). Such journals are set aside, named in the output, and neither
        # side counts them.
        gapped = sorted(names[journal_id] for journal_id in missing)
        set_aside(journals, os.path.join(work, "journals-with-gaps"), gapped, "with a journal gap or an erasure")
        # Journals whose calls share a wire id with another journal's: not expected (each word
        # of the journal id is mixed before it meets the call's, WireCallID), but if it
        # happened, `replay reconcile` would hold them as one call and the SQL as one per
        # journal, and neither would be right: such journals are set aside, named, and neither
        # side counts them.
        sharing = sorted((names[journal_id] for journal_id in shared), key=lambda name: (len(name), name))
        set_aside(journals, os.path.join(work, "journals-sharing-wire-ids"), sharing, "whose calls share a wire call id with another's")
        tampered = tamper_receipts(journals, {names[journal_id]: calls for journal_id, calls in undelivered.items()})
        print("fleet-check: receipt logs changed so that every verdict occurs: "
              + "; ".join(f"{count} × {what}" for what, count in sorted(tampered.items())))
        version = replay(binary, "info", "--json", os.path.join(journals, sorted(os.listdir(journals))[0])).stdout
        SDK_VERSION = re.search(r"engagement-sdk/([^ \"]+)", version).group(1)
        # replay's reconciliation side by side with the engine's. The engine reads the same
        # logs' lines from one file (SQL does not see which file a line came from; one file,
        # not 10,000, is what costs it least to open).
        prepared["reconciling"] = reconcile_start(binary, work, journals)
        with open(received, "wb") as combined:
            for name in sorted(os.listdir(journals)):
                log = os.path.join(journals, name, RECEIPT_LOG)
                if os.path.isfile(log):
                    with open(log, "rb") as handle:
                        shutil.copyfileobj(handle, combined)
        phases.done("set aside, logs changed")
        return missing | shared

    received = os.path.join(work, "received.ndjson")
    try:
        results, figures = fleet.run(arguments.engine, ndjson, received=[received], calls=True, prepare=prepare)
    finally:
        reading.join()
    reconciliation = {name: results.pop(name) for name in list(results) if name.startswith("reconcile/")}
    expected_calls, reconcile_summary, logs = reconcile_expected(prepared["reconciling"])
    phases.done(f"{arguments.engine}'s queries, reconcile")
    audits, diagnoses = prepared["audits"], prepared["diagnoses"]

    expected = {name: collections.Counter() for name in results}
    paths = [os.path.join(journals, name) for name in sorted(os.listdir(journals))]
    if not set(paths) <= set(audits):
        raise SystemExit(f"fleet-check: `replay audit` answered {len(set(paths) & set(audits))} journal(s) of {len(paths)}")
    for path in paths:
        for name, counter in per_journal(audits[path], diagnoses.get(path, [])).items():
            expected[name].update(counter)

    answered = from_sql(results)
    expected["switch_outcomes"] = as_redacted(expected["switch_outcomes"], answered["switch_outcomes"])
    mismatches = 0
    for name in sorted(expected):
        want, got = +expected[name], +answered[name]
        if want == got:
            print(f"fleet-check: {name}: {len(got)} group(s), {sum(got.values())} in all: agrees")
            continue
        for key in sorted(set(want) | set(got), key=repr):
            if want[key] != got[key]:
                mismatches += 1
                print(f"fleet-check: {name} {key}: replay says {want[key]}, {arguments.engine} says {got[key]}")
    differences = reconcile_compare(expected_calls, reconcile_summary, reconciliation, arguments.engine)
    mismatches += differences
    calls = sum(expected_calls.values())
    verdicts = ", ".join(f"{count} {verdict}" for verdict, count in reconcile_summary["verdicts"].items() if count)
    print(f"fleet-check: reconcile: {calls} call(s) and receipt(s) of {len(paths)} journals against {logs} receipt logs ({verdicts}): "
          + ("every verdict agrees, call by call" if not differences else f"{differences} difference(s)"))
    phases.done("compared")
    print(f"fleet-check: {len(paths)} journals, {figures['rows']} rows; {phases.line()}")
    convert = figures.get("convert_s", 0)
    print(f"fleet-check: {arguments.engine}: session start {figures['start_s']} s, NDJSON to Parquet {convert} s "
          f"({figures['rows'] / convert if convert else 0:,.0f} rows/s), the {len(results)} queries {figures['queries_s']} s "
          f"({figures['rows'] / figures['queries_s'] if figures['queries_s'] else 0:,.0f} rows/s), "
          f"reconciliation {figures.get('reconcile_s', 0)} s, total {figures['total_s']} s")
    if mismatches:
        print(f"fleet-check: {mismatches} difference(s) between the fleet SQL and replay")
        sys.exit(1)
    print(f"fleet-check: every query agrees with replay over {len(paths)} journals")


if __name__ == "__main__":
    main()
