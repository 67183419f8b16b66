#!/usr/bin/env python3
"""`make serve-check`: `replay serve` in headless Chromium, driven over the DevTools protocol.

    serve-check.py --replay BIN WORKDIR

Writes the demo journal, a simulated journal of 312 calls (seed 3, 400 steps: more calls than
the static report embeds states for) and a copy of the demo, serves the three, and in Chromium:
loads the demo's page, picks the simulated journal in the journal picker, clicks a call whose
state the static report does not embed and reads the state in the DOM (it must be the bytes
`replay state --at` prints), steps with the keyboard (Right: next fact, Shift+Right: next call,
]: next switch, Left: back) checking each moment's state, scrubs, searches every fact, follows a
deep link into the third journal, and checks that no script error or console error happened. Then asks the server for paths outside
its journals' endpoints (all refused). Last, serves the demo with `--received` and its receipt log
as a misbehaving backend would have written it (report-check.py receipts): the page draws a
receipt mark per verdict, a click on the misrouted receipt opens its call's moment, which names
the verdict and the project that received it, and a deep link to the lost call names its
verdict, all without a script error. Then serves the simulated journal with `--page-wait 0`: the
first paint answers, and its script reloads it into the rendered page. Exit 1 on the first failure.
"""
import argparse
import http.client
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import devtools  # noqa: E402


def fail(message):
    print("serve-check: FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def run(*arguments):
    done = subprocess.run(list(arguments), capture_output=True, text=True)
    if done.returncode not in (0, 1):
        fail(f"{' '.join(arguments)} exited {done.returncode}: {done.stderr}")
    return done.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--replay", required=True)
    parser.add_argument("workdir")
    arguments = parser.parse_args()
    replay, work = os.path.abspath(arguments.replay), os.path.abspath(arguments.workdir)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    demo, copy = os.path.join(work, "demo"), os.path.join(work, "demo-copy")
    run(replay, "demo", "--out", demo)
    shutil.copytree(demo, copy)
    run(replay, "simulate", "--seeds", "1", "--from-seed", "3", "--steps", "400", "--keep", os.path.join(work, "simulated"))
    journal = os.path.join(work, "simulated", "3")
    state = lambda path, seq: run(replay, "state", "--at", str(seq), path)
    calls = sorted(json.loads(line)["seq"] for line in run(replay, "audit", "--json", journal).splitlines()[:-1]
                   if json.loads(line)["seq"] is not None)
    switches = sorted(json.loads(line)["seq"] for line in run(
        replay, "timeline", "--json", "--kind", "switchRouted", "--kind", "switchStarted", "--kind", "switchLanded", journal).splitlines())

    server = subprocess.Popen([replay, "serve", demo, journal, copy], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    browser = None
    try:
        first = server.stdout.readline()
        if "http://127.0.0.1:" not in first:
            fail(f"replay serve printed {first!r}: {server.stderr.read() if server.poll() is not None else ''}")
        url = first.split(" on ")[1].strip()
        port = int(url.rsplit(":", 1)[1].strip("/"))
        browser = devtools.Browser(os.path.join(work, "profile"))
        page = browser.page
        for domain in ("Page", "Runtime", "Log"):
            page.call(domain + ".enable")

        page.call("Page.navigate", url=url + "j/0/")
        page.wait_for("document.body && document.body.dataset.rendered === 'ok'", "the page to render")
        if page.evaluate("document.querySelectorAll('.lane.project').length") != 2:
            fail("the served page does not draw the demo's two project lanes")
        print("serve-check: the demo's page renders (2 project lanes)")
        page.evaluate("(() => { const p = document.getElementById('journal-picker'); p.value = '1'; p.dispatchEvent(new Event('change')); })()")
        page.wait_for("location.pathname === '/j/1/' && document.body && document.body.dataset.rendered === 'ok'", "the picked journal's page")
        if page.evaluate("Object.keys(JSON.parse(document.getElementById('report-data').textContent).states).length") >= len(calls):
            fail("the simulated journal's report embeds a state for every call; pick a longer story")

        # A call the static report would not have embedded: its state comes from the server.
        target = page.evaluate("""(() => {
          const D = JSON.parse(document.getElementById('report-data').textContent);
          for (const el of document.querySelectorAll('.mark')) {
            const m = D.marks[Number(el.dataset.mark)];
            if (m.seq === null || D.states[String(m.seq)]) continue;
            const box = el.getBoundingClientRect(), x = box.left + box.width / 2, y = box.top + box.height / 2;
            if (document.elementFromPoint(x, y) === el) return {seq: m.seq, x: x, y: y, name: m.name};
          }
          return null; })()""")
        if not target:
            fail("no clickable call mark whose state the report leaves out")
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            page.call("Input.dispatchMouseEvent", type=kind, x=target["x"], y=target["y"], button="left", clickCount=1)
        seq = target["seq"]
        expect_moment(page, seq, state(journal, seq), f"clicking the {target['name']} call at seq {seq}")
        if not page.evaluate("!!document.getElementById('moment-audit') && !!document.getElementById('state-diff')"):
            fail("the call's moment shows no audit row or no diff")
        print(f"serve-check: clicked call {target['name']} at seq {seq} (not embedded in the report): state as `replay state --at`")

        def press(key, code, keycode, shift=False):
            modifiers = 8 if shift else 0
            page.call("Input.dispatchKeyEvent", type="rawKeyDown", key=key, code=code, windowsVirtualKeyCode=keycode, modifiers=modifiers)
            page.call("Input.dispatchKeyEvent", type="keyUp", key=key, code=code, windowsVirtualKeyCode=keycode, modifiers=modifiers)

        press("ArrowRight", "ArrowRight", 39)
        seq += 1
        expect_moment(page, seq, state(journal, seq), "Right (next fact)")
        press("ArrowRight", "ArrowRight", 39, shift=True)
        seq = next(call for call in calls if call > seq)
        expect_moment(page, seq, state(journal, seq), "Shift+Right (next call)")
        press("]", "BracketRight", 221)
        seq = next(switch for switch in switches if switch > seq)
        expect_moment(page, seq, state(journal, seq), "] (next switch)")
        press("ArrowLeft", "ArrowLeft", 37)
        seq -= 1
        expect_moment(page, seq, state(journal, seq), "Left (previous fact)")
        print(f"serve-check: stepped by keyboard to seq {seq}: each state as `replay state --at`")

        # The simulated story may erase or age out its first segments: the scrubber starts at the
        # journal's first retained record.
        first = json.loads(run(replay, "info", "--json", journal))["first_sequence"]
        scrubbed = first + 19
        page.evaluate(f"(() => {{ const s = document.getElementById('scrubber'); s.value = {scrubbed}; s.dispatchEvent(new Event('input')); }})()")
        expect_moment(page, scrubbed, state(journal, scrubbed), f"the scrubber at {scrubbed}")

        page.evaluate("document.getElementById('fact-search').focus()")
        page.call("Input.insertText", text="registerToken")
        page.call("Input.dispatchKeyEvent", type="rawKeyDown", key="Enter", code="Enter", windowsVirtualKeyCode=13)
        page.call("Input.dispatchKeyEvent", type="keyUp", key="Enter", code="Enter", windowsVirtualKeyCode=13)
        hits = int(page.wait_for("document.body.dataset.factHits", "fact search results"))
        if hits < 1:
            fail("searching every fact for registerToken found nothing")
        print(f"serve-check: searching every fact for registerToken: {hits} hit(s)")

        page.call("Page.navigate", url=url + "j/2/#seq=145")
        page.wait_for("location.pathname === '/j/2/' && document.body && document.body.dataset.rendered === 'ok'", "the third journal's page")
        expect_moment(page, 145, state(copy, 145), "the deep link j/2/#seq=145")
        picker = page.evaluate("(() => { const p = document.getElementById('journal-picker'); return p ? [p.options.length, p.value] : null; })()")
        if picker != [3, "2"]:
            fail(f"the journal picker shows {picker}, not three journals with the third chosen")
        print("serve-check: a deep link into the third journal (the picker shows it) opens seq 145")

        errors = page.evaluate("window.__reportErrors.length")
        thrown = [event for event in page.events if event.get("method") == "Runtime.exceptionThrown"]
        logged = [event["params"] for event in page.events if event.get("method") in ("Runtime.consoleAPICalled", "Log.entryAdded")
                  and (event["params"].get("type") == "error" or event["params"].get("entry", {}).get("level") == "error")]
        if errors or thrown or logged:
            fail(f"script errors: {errors} collected, {thrown[:3]} thrown, {logged[:3]} logged")

        for path in ("/../../../../etc/passwd", "/j/0/%2e%2e/%2e%2e/etc/passwd", "/j/0/" + sorted(os.listdir(demo))[0],
                     "/j/3/", "/j/0/..%2f..%2fetc%2fpasswd"):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
            connection.putheader("Host", f"127.0.0.1:{port}")
            connection.endheaders()
            status = connection.getresponse().status
            if status != 404:
                fail(f"GET {path} answered {status}, not 404")
        print("serve-check: paths outside the served journals' endpoints are refused")
        check_received(replay, work, demo, page)
        first_paint(replay, page, journal)
    except devtools.DevToolsError as error:
        fail(str(error))
    finally:
        if browser:
            browser.close()
        server.kill()
        server.wait()
    print("serve-check: all good")


def check_received(replay, work, demo, page):
    """`replay serve --received`: receipt marks on the page, verdicts in a call's moment."""
    log = os.path.join(work, "received-bad.ndjson")
    check = os.path.join(os.path.dirname(os.path.abspath(__file__)), "report-check.py")
    done = subprocess.run([sys.executable, check, "receipts", os.path.join(demo, "received.ndjson"), log], capture_output=True, text=True)
    if done.returncode != 0:
        fail("report-check.py receipts: " + done.stderr)
    server = subprocess.Popen([replay, "serve", demo, "--received", log], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = server.stdout.readline()
        if "http://127.0.0.1:" not in first:
            fail(f"replay serve --received printed {first!r}: {server.stderr.read() if server.poll() is not None else ''}")
        url = first.split(" on ")[1].strip()
        page.call("Page.navigate", url=url + "j/0/")
        page.wait_for("location.pathname === '/j/0/' && document.body && document.body.dataset.rendered === 'ok'", "the page with receipts")
        verdicts = page.evaluate("document.body.dataset.verdicts")
        if verdicts != "elsewhere=1 lost=1 duplicate=2 unconfirmed=0 late=1 unjournaled=1 agreed=7 unjudged=0":
            fail(f"the served page's receipt marks are {verdicts!r}")
        print(f"serve-check: --received draws the receipt marks ({verdicts})")
        target = page.evaluate("""(() => {
          const el = document.querySelector('.receipt.elsewhere');
          const box = el.getBoundingClientRect(), x = box.left + box.width / 2, y = box.top + box.height / 2;
          const D = JSON.parse(document.getElementById('report-data').textContent);
          return {x: x, y: y, seq: D.received.marks[Number(el.dataset.receipt)].seq}; })()""")
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            page.call("Input.dispatchMouseEvent", type=kind, x=target["x"], y=target["y"], button="left", clickCount=1)
        page.wait_for(f"document.body.dataset.moment === '{target['seq']}' && !!document.getElementById('moment-received')",
                      f"the misrouted call's moment (seq {target['seq']})")
        shown = page.evaluate("document.getElementById('moment-received').textContent")
        if "elsewhere" not in shown or "EU 7ea1b232ba580c4e" not in shown or "200" not in shown:
            fail(f"the misrouted call's moment does not name its verdict and the project that received it: {shown!r}")
        print(f"serve-check: a click on the misrouted receipt opens seq {target['seq']}, which names elsewhere and EU")
        lost = page.evaluate("JSON.parse(document.getElementById('report-data').textContent).received.marks.find(r => r.verdict === 'lost').seq")
        page.call("Page.navigate", url=url + f"j/0/#seq={lost}")
        page.wait_for(f"document.body.dataset.moment === '{lost}' && !!document.getElementById('moment-received')", f"the lost call's moment (seq {lost})")
        shown = page.evaluate("document.getElementById('moment-received').textContent")
        if "lost" not in shown or "no receipt" not in shown:
            fail(f"the lost call's moment does not say so: {shown!r}")
        print(f"serve-check: the deep link #seq={lost} names the lost call's verdict")
        errors = page.evaluate("window.__reportErrors.length")
        thrown = [event for event in page.events if event.get("method") == "Runtime.exceptionThrown"]
        if errors or thrown:
            fail(f"script errors with receipts: {errors} collected, {thrown[:3]} thrown")
    finally:
        server.kill()
        server.wait()


def first_paint(replay, page, journal):
    """`--page-wait 0`: the page's address answers with the first paint at once; its script asks
    for the pass's progress and reloads into the page, which renders without a script error."""
    server = subprocess.Popen([replay, "serve", "--page-wait", "0", journal], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = server.stdout.readline()
        if "http://127.0.0.1:" not in first:
            fail(f"replay serve --page-wait 0 printed {first!r}: {server.stderr.read() if server.poll() is not None else ''}")
        url = first.split(" on ")[1].strip()
        port = url.rsplit(":", 1)[1].strip("/")
        page.call("Page.navigate", url=url + "j/0/")
        page.wait_for(f"location.port === '{port}' && location.pathname === '/j/0/' && document.body && document.body.dataset.rendered === 'ok'",
                      "the page after its first paint")
        how = page.evaluate("performance.getEntriesByType('navigation')[0].type")
        if how != "reload":
            fail(f"the page was reached by {how!r}, not by the first paint's reload")
        errors = page.evaluate("window.__reportErrors.length")
        thrown = [event for event in page.events if event.get("method") == "Runtime.exceptionThrown"]
        if errors or thrown:
            fail(f"script errors after the first paint: {errors} collected, {thrown[:3]} thrown")
        print("serve-check: --page-wait 0 answers with the first paint, which reloads into the rendered page")
    finally:
        server.kill()
        server.wait()


def expect_moment(page, seq, expected, what):
    page.wait_for(f"document.body.dataset.moment === '{seq}'", f"seq {seq} after {what}")
    shown = page.evaluate("document.getElementById('state-text').textContent")
    if shown != expected:
        fail(f"after {what}, the page's state for seq {seq} differs from `replay state --at {seq}`:\n{shown[:400]!r}\n{expected[:400]!r}")


if __name__ == "__main__":
    main()
