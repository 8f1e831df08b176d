# Independent rewrite of the recorded --json outputs for the new default run names (issue 15):
# a tool-named run "<Tool> · <name>" becomes "<name>", plus " · <gpu>" (or " · N × <gpu>") when
# the name is the run's model and its metadata states a GPU. Applied to the recorded text, not by
# running tpsview.
import json, re, glob, sys
TOOLS = ["AIPerf", "GenAI-Perf", "GuideLLM", "LLMPerf", "TensorRT-LLM", "inference-benchmarker"]
pat = re.compile(r"^(%s) · (.+)$" % "|".join(map(re.escape, TOOLS)))
changed = []
for f in sorted(glob.glob("tests/golden/*.json")):
    text = open(f).read()
    try:
        v = json.loads(text)
    except Exception:
        continue
    runs = v.get("runs", []) if isinstance(v, dict) else []
    subs = {}
    for r in runs:
        lab = r.get("label")
        if not isinstance(lab, str):
            continue
        m = pat.match(lab)
        if not m:
            continue
        new = m.group(2)
        meta = r.get("meta", {})
        if meta.get("model") == new and meta.get("gpu"):
            n = meta.get("gpu_count")
            new += f" · {n} × {meta['gpu']}" if n and n > 1 else f" · {meta['gpu']}"
        subs[lab] = new
    if not subs:
        continue
    for old, new in subs.items():
        o = json.dumps(old, ensure_ascii=False)[1:-1]
        n = json.dumps(new, ensure_ascii=False)[1:-1]
        text = text.replace(o, n)
    open(f, "w").write(text)
    changed.append((f, subs))
for f, s in changed:
    print(f, s)
