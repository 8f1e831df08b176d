#!/usr/bin/env python3
"""Issue 42 (typed facts): a level's GPU telemetry, a tool's statistics of the server's metrics and
a companion export's wall-clock window are typed fields of the point, no longer entries of the
tool's own figures. `summarize --json`'s `reported` (the tool's figures, by its own names) loses the
keys tpsview had made up for them: `telemetry.*`, `server_stats.*`, `companion.*`. What they gave
is unchanged where it was shown (`energy`, `server`). This script rewrites the recorded outputs
from their own text (it does not run tpsview): each such line inside a `"reported"` object goes,
and the comma of the line before it where the object now ends there; an object left empty is
written `{}` on its opening line, as serde_json writes an empty map. Run from the repository root;
prints the files it changed.
"""
import glob
import re

MADE_UP = re.compile(r'^\s*"(telemetry|server_stats|companion)\.[^"]*": ')

for path in sorted(glob.glob("tests/golden/*.json")):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, inside, changed, opened = [], False, False, 0
    for line in lines:
        stripped = line.strip()
        if stripped.startswith('"reported": {'):
            inside, opened = True, len(out)
        elif inside and stripped.startswith("}"):
            inside = False
            if len(out) == opened + 1:
                # Nothing left inside: `"reported": {}` plus what followed the brace.
                out[-1] = out[-1] + stripped
                continue
            if changed and out and out[-1].endswith(","):
                out[-1] = out[-1][:-1]
        if inside and MADE_UP.match(line):
            changed = True
            continue
        out.append(line)
    if changed:
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(out))
        print(path)
