#!/usr/bin/env python3
"""Trunk post-build hook: move Trunk's inline module script into a file and add a strict
Content-Security-Policy, so the page runs with no inline script at all; and give the loading
worker's files (which Trunk does not hash) names with their content's hash, so that a browser never
pairs a cached worker module with a newer page: `loader-worker-<h>.js` imports
`tpsview-worker-<h>.js`, and the page finds it and `tpsview-worker-<h>_bg.wasm` (which the page
compiles once and hands to each worker) in `<meta name="tpsview-worker">`; the teaching screens'
module likewise: `teach-boot-<h>.js` imports `tpsview-teach-<h>.js`, named in
`<meta name="tpsview-teach">`, which the page loads the first time one of those screens opens.

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
    worker = hash_module(staging, "loader-worker", "tpsview-worker")
    teach = hash_module(staging, "teach-boot", "tpsview-teach")
    if worker is None or teach is None:
        return 1
    wasm = worker.replace("loader-worker-", "tpsview-worker-").replace(".js", "_bg.wasm")
    meta += f'\n    <meta name="tpsview-worker" content="./{worker}" data-wasm="./{wasm}" />'
    teach_wasm = teach.replace("teach-boot-", "tpsview-teach-").replace(".js", "_bg.wasm")
    meta += f'\n    <meta name="tpsview-teach" content="./{teach}" data-wasm="./{teach_wasm}" />'
    html = html.replace("<head>", "<head>\n    " + meta, 1)
    with open(path, "w", encoding="utf-8") as f:
        f.write(html)
    return 0


def hash_module(staging: str, boot_stem: str, module: str):
    """Renames a module's three files (its boot script, wasm-bindgen's glue, the wasm: the loading
    worker's, the teaching screens') after one hash of their contents; returns the boot's name."""
    names = [f"{boot_stem}.js", f"{module}.js", f"{module}_bg.wasm"]
    paths = [os.path.join(staging, n) for n in names]
    missing = [n for n, p in zip(names, paths) if not os.path.exists(p)]
    if missing:
        print(f"csp.py: the files of {module} are missing: {', '.join(missing)}", file=sys.stderr)
        return None
    digest = hashlib.sha256()
    for p in paths:
        digest.update(open(p, "rb").read())
    h = digest.hexdigest()[:16]
    boot = open(paths[0], encoding="utf-8").read()
    for n in names[1:]:
        stem, ext = n.split(".", 1)
        if stem.endswith("_bg"):
            new = f"{module}-{h}_bg.{ext}"
        else:
            new = f"{stem}-{h}.{ext}"
        if n.endswith(".js"):
            if f"./{n}" not in boot:
                print(f"csp.py: {boot_stem}.js does not name ./{n}", file=sys.stderr)
                return None
            boot = boot.replace(f"./{n}", f"./{new}")
        os.rename(os.path.join(staging, n), os.path.join(staging, new))
    glue_path = os.path.join(staging, f"{module}-{h}.js")
    glue = open(glue_path, encoding="utf-8").read()
    # The glue's own default path to its wasm, should it ever be used.
    glue = glue.replace(f"'{module}_bg.wasm'", f"'{module}-{h}_bg.wasm'")
    open(glue_path, "w", encoding="utf-8").write(glue)
    boot_name = f"{boot_stem}-{h}.js"
    open(os.path.join(staging, boot_name), "w", encoding="utf-8").write(boot)
    os.remove(paths[0])
    return boot_name


if __name__ == "__main__":
    sys.exit(main())
