#!/usr/bin/env python3
"""Renumbers the redaction tokens (`kind:` and 12 hex digits) of a `replay export --redact` output in
order of first appearance, so that two exports made under different random keys can be compared
byte for byte: `scripts/renumber-tokens.py A.ndjson A.renumbered` (and the same for B), then `cmp`."""
import re, sys
seen = {}
pat = re.compile(rb'([a-z]+):([0-9a-f]{12})')
def sub(m):
    k = m.group(0)
    if k not in seen:
        seen[k] = b'%s:T%07d' % (m.group(1), len(seen))
    return seen[k]
with open(sys.argv[1], 'rb') as f, open(sys.argv[2], 'wb') as o:
    for line in f:
        o.write(pat.sub(sub, line))
