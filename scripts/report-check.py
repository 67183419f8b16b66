#!/usr/bin/env python3
"""Checks `replay report` pages as headless Chromium rendered them (stdlib only).

  report-check.py dom DOM.html CHROMIUM.log [--expect name=value ...] [--selected SEQ TEXT]
      the page rendered (data-rendered="ok"), collected no script error (data-errors="0"),
      Chromium logged no console message, and each body attribute data-NAME equals VALUE;
      with --selected, the deep link opened that moment and the details show TEXT.
  report-check.py png SHOT.png
      the screenshot is not blank: enough non-white pixels and distinct colours.
  report-check.py receipts IN.ndjson OUT.ndjson
      writes the receipt log IN (the demo's, every call agreed) as a backend that misbehaved
      would have: its 2nd line received by the other project (elsewhere), its 3rd dropped
      (lost), its 4th stored twice (duplicate), its 6th 3 s late (late), and a receipt of
      the same stream with an id no call has (unjournaled); every other line agrees.
  report-check.py seq REPORT.html VERDICT
      prints the sequence number of the first call whose receipt mark has VERDICT.
"""
import json
import re
import struct
import sys
import zlib


def fail(message):
    print("report-check: FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def check_dom(dom_path, log_path, args):
    dom = open(dom_path, encoding="utf-8", errors="replace").read()
    log = open(log_path, encoding="utf-8", errors="replace").read()
    body = re.search(r"<body([^>]*)>", dom)
    if not body:
        fail("no <body> in the dumped DOM")
    attributes = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', body.group(1)))
    if attributes.get("rendered") != "ok":
        fail("the page did not finish rendering (body attributes: %s)" % attributes)
    if attributes.get("errors") != "0":
        fail("the page collected %s script error(s)" % attributes.get("errors"))
    console = [line for line in log.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    if console:
        fail("Chromium logged console messages:\n" + "\n".join(console))
    expectations = []
    selected = None
    index = 0
    while index < len(args):
        if args[index] == "--expect":
            expectations.append(args[index + 1].split("=", 1))
            index += 2
        elif args[index] == "--selected":
            selected = (args[index + 1], args[index + 2])
            index += 3
        else:
            fail("unknown argument " + args[index])
    for name, value in expectations:
        if attributes.get(name) != value:
            fail("data-%s is %r, expected %r" % (name, attributes.get(name), value))
    if selected:
        if attributes.get("selected") != selected[0]:
            fail("the deep link did not open seq %s (data-selected=%r)" % (selected[0], attributes.get("selected")))
        details = re.search(r'<aside id="details">(.*?)</aside>', dom, re.S)
        if not details or selected[1] not in details.group(1):
            fail("the details panel does not show %r" % selected[1])
    print("report-check: %s ok (%s)" % (dom_path, ", ".join("%s=%s" % item for item in sorted(attributes.items()))))


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(path + " is not a PNG")
    position, idat = 8, b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        chunk = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
        elif kind == b"IDAT":
            idat += chunk
        position += 12 + length
    if depth != 8 or colour not in (2, 6):
        fail("unexpected PNG layout (bit depth %d, colour type %d)" % (depth, colour))
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    rows = []
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def check_png(path):
    width, height, channels, rows = pixels(path)
    colours, coloured = set(), 0
    for row in rows:
        for x in range(0, width * channels, channels):
            pixel = row[x:x + 3]
            colours.add(pixel)
            if pixel != b"\xff\xff\xff":
                coloured += 1
    share = coloured / float(width * height)
    if len(colours) < 64 or share < 0.05:
        fail("%s looks blank: %d distinct colours, %.1f%% non-white pixels" % (path, len(colours), 100 * share))
    print("report-check: %s ok (%dx%d, %d distinct colours, %.1f%% non-white)" % (path, width, height, len(colours), 100 * share))


def check_device(dom_path, log_path, png_path, roles):
    """A device folder's page: no console message, a lane of bars per process in the picture,
    each bar and each fact linking to its process's report, the bars drawn (their colours are
    in the screenshot)."""
    dom = open(dom_path, encoding="utf-8", errors="replace").read()
    log = open(log_path, encoding="utf-8", errors="replace").read()
    console = [line for line in log.splitlines() if "CONSOLE" in line or "Uncaught" in line]
    if console:
        fail("Chromium logged console messages on the device page:\n" + "\n".join(console))
    svg = re.search(r'<svg class="device-overview".*?</svg>', dom, re.S)
    if not svg:
        fail("the device page has no overview picture")
    found = re.findall(r'<text[^>]*class="role"[^>]*>([^<]*)</text>', svg.group(0))
    if found != roles:
        fail("the picture's lanes are %r, expected %r" % (found, roles))
    for role in roles:
        bars = len(re.findall(r'<a href="device-%s\.html#seq=\d+"><title>%s: ' % (role, role), svg.group(0)))
        facts = len(re.findall(r'<td><a href="device-%s\.html#seq=\d+">' % role, dom))
        if bars == 0 or facts == 0:
            fail("lane %s: %d bar(s) and %d fact row(s) link to its report" % (role, bars, facts))
        print("report-check: device lane %s: %d bar(s), %d fact row(s)" % (role, bars, facts))
    width, height, channels, rows = pixels(png_path)
    drawn = {colour: 0 for colour in (b"\x4e\x79\xa7", b"\xe1\x57\x59")}
    for row in rows:
        for x in range(0, width * channels, channels):
            pixel = bytes(row[x:x + 3])
            if pixel in drawn:
                drawn[pixel] += 1
    if not all(drawn.values()):
        fail("%s: the bars' colours are not on screen (%r pixels)" % (png_path, drawn))
    print("report-check: %s ok (bars drawn: %d input, %d switch pixels)" % (png_path, drawn[b"\x4e\x79\xa7"], drawn[b"\xe1\x57\x59"]))


def misbehave(source, target):
    lines = [json.loads(line) for line in open(source, encoding="utf-8") if line.strip()]
    if len(lines) < 7:
        fail("%s has %d receipt(s); the demo's has 11" % (source, len(lines)))
    projects = sorted({line["project"] for line in lines})
    if len(projects) < 2:
        fail("%s names one project; the demo's names two" % source)
    out = []
    for index, line in enumerate(lines):
        if index == 1:
            line = dict(line, project=[p for p in projects if p != line["project"]][0])
        elif index == 2:
            continue
        elif index == 3:
            out.append(line)
            line = dict(line, received_at=shifted(line["received_at"], 0.1))
        elif index == 5:
            line = dict(line, received_at=shifted(line["received_at"], 3))
        out.append(line)
    stray = dict(lines[6])
    stray["call_id"] = stray["call_id"][:-1] + ("0" if stray["call_id"][-1] != "0" else "1")
    out.append(stray)
    with open(target, "w", encoding="utf-8") as handle:
        for line in out:
            handle.write(json.dumps(line, separators=(",", ":")) + "\n")
    print("report-check: wrote %s (%d receipt(s): one elsewhere, lost, duplicate, late and unjournaled)" % (target, len(out)))


def verdict_seq(report, verdict):
    html = open(report, encoding="utf-8").read()
    data = re.search(r'<script id="report-data" type="application/json">(.*?)</script>', html, re.S)
    if not data:
        fail(report + " embeds no report data")
    for mark in json.loads(data.group(1)).get("received", {}).get("marks", []):
        if mark["verdict"] == verdict and mark["seq"] is not None:
            print(mark["seq"])
            return
    fail("%s has no receipt mark of a call with verdict %s" % (report, verdict))


def shifted(text, seconds):
    """`2025-11-24T16:00:02.000000Z` plus `seconds` (within the minute's day; the demo's are)."""
    match = re.fullmatch(r"(.*T)(\d\d):(\d\d):(\d\d(?:\.\d+)?)Z", text)
    if not match:
        fail("unexpected received_at %r" % text)
    total = int(match.group(2)) * 3600 + int(match.group(3)) * 60 + float(match.group(4)) + seconds
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return "%s%02d:%02d:%09.6fZ" % (match.group(1), hours, minutes, secs)


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "dom":
        check_dom(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) == 4 and sys.argv[1] == "seq":
        verdict_seq(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "receipts":
        misbehave(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 6 and sys.argv[1] == "device":
        check_device(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    elif len(sys.argv) == 3 and sys.argv[1] == "png":
        check_png(sys.argv[2])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
