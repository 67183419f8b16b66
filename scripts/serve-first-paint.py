#!/usr/bin/env python3
"""Times `replay serve` opening one journal, as a support engineer meets it: the first answer
to the journal's page (the first paint while the page's pass runs), the first moment answered,
the page ready (polling /j/0/progress), and the server's memory (peak and resident). With
--chromium, in headless Chromium instead (scripts/devtools.py): the time to the first paint's
picture in the page, then to the report page rendered after the first paint reloads it.

    python3 scripts/serve-first-paint.py --replay .build/release/replay JOURNAL [--moment SEQ] [--chromium]
"""
import argparse, json, os, re, subprocess, sys, tempfile, time, urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import devtools  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--replay", required=True)
parser.add_argument("--moment", type=int, default=None, help="the moment asked first (default: the middle)")
parser.add_argument("--chromium", action="store_true", help="time the page in headless Chromium")
parser.add_argument("journal")
args = parser.parse_args()

server = subprocess.Popen([args.replay, "serve", args.journal], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
try:
    url = re.search(r"(http://\S+)", server.stdout.readline()).group(1)

    def get(path):
        return urllib.request.urlopen(url + path.lstrip("/"), timeout=900).read()

    if args.chromium:
        with tempfile.TemporaryDirectory() as work:
            browser = devtools.Browser(os.path.join(work, "profile"))
            try:
                page = browser.page
                start = time.time()
                page.call("Page.navigate", url=url + "j/0/")
                page.wait_for("!!document.getElementById('first-paint') || !!(document.body && document.body.dataset.rendered)", "a first paint", 60)
                print("Chromium: first paint %.2f s" % (time.time() - start))
                page.wait_for("document.body && document.body.dataset.rendered === 'ok'", "the page rendered", 900)
                print("Chromium: the page rendered %.2f s" % (time.time() - start))
            finally:
                browser.close()
        sys.exit(0)
    # The moment asked first is chosen before the clock starts (`info` reads the whole journal).
    if args.moment is None:
        info = json.loads(subprocess.run([args.replay, "info", "--json", args.journal], capture_output=True, text=True).stdout)
    moment = args.moment or max(1, info["last_sequence"] // 2)
    start = time.time()
    body = get("/j/0/")
    first = time.time() - start
    kind = "first paint" if b'id="first-paint"' in body else "the page itself"
    print("first answer to /j/0/: %.2f s (%s, %d bytes)" % (first, kind, len(body)))
    get("/j/0/moment?at=%d" % moment)
    print("first moment answered (seq %d): %.2f s" % (moment, time.time() - start))
    while True:
        # Answered once the page is made, or after a second (as the first paint asks).
        state = json.loads(get("/j/0/progress?wait=1000"))
        if state["ready"] or state["failed"]:
            break
    print("page ready: %.2f s %s" % (time.time() - start, "" if state["ready"] else "FAILED: " + state["failed"]))
    status = dict(line.split(":", 1) for line in open("/proc/%d/status" % server.pid) if ":" in line)
    print("server memory: peak %s, resident %s" % (status["VmHWM"].strip(), status["VmRSS"].strip()))
finally:
    server.terminate()
