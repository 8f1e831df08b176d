#!/usr/bin/env python3
"""Trunk post-build hook: move Trunk's inline module script into a file and add a strict
Content-Security-Policy, so the page runs with no inline script at all.

Reads and rewrites $TRUNK_STAGING_DIR/index.html. The policy: scripts and styles only from the
page's own origin ('wasm-unsafe-eval' is what lets WebAssembly compile); network reads
(connect-src) from anywhere over http(s), because `?src=URL` fetches a report the user names.
Inline style *attributes* (not <style> elements, not scripts) are allowed: plotters' wasm font
backend measures text with a <span style="..."> it creates; no report string ever reaches a style
attribute.
"""
import hashlib
import os
import re
import sys

POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self' data: blob:; connect-src 'self' https: http:; object-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)


def main() -> int:
    staging = os.environ.get("TRUNK_STAGING_DIR")
    if not staging:
        print("csp.py: TRUNK_STAGING_DIR is not set (run it as a Trunk hook)", file=sys.stderr)
        return 1
    path = os.path.join(staging, "index.html")
    html = open(path, encoding="utf-8").read()
    match = re.search(r'<script type="module">(.*?)</script>', html, re.S)
    if not match:
        print("csp.py: no inline module script found; leaving index.html as is", file=sys.stderr)
        return 1
    body = match.group(1).strip() + "\n"
    name = "init-" + hashlib.sha256(body.encode()).hexdigest()[:16] + ".js"
    with open(os.path.join(staging, name), "w", encoding="utf-8") as f:
        f.write(body)
    html = html.replace(match.group(0), f'<script type="module" src="./{name}"></script>')
    meta = f'<meta http-equiv="Content-Security-Policy" content="{POLICY}" />'
    html = html.replace("<head>", "<head>\n    " + meta, 1)
    with open(path, "w", encoding="utf-8") as f:
        f.write(html)
    return 0


if __name__ == "__main__":
    sys.exit(main())
