"""Check the two recorded `compare --json` outputs after issue 32 against those before it (it does
not run tpsview):  python3 check-compare-verdicts-2026-12-02.py OLD NEW [OLD NEW]
Every key of the old output is there with the same value; the new keys are `threshold_pct` (2),
`confidence` (0.99) and `verdicts`: one per compared figure (8) per level of each run other than
the baseline, none judged — the compare fixtures carry the tools' figures only, no requests — each
with its reason."""
import json
import sys

args = sys.argv[1:]
for old_path, new_path in zip(args[::2], args[1::2]):
    old, new = json.load(open(old_path)), json.load(open(new_path))
    for k, v in old.items():
        assert new[k] == v, k
    assert set(new) - set(old) == {"threshold_pct", "confidence", "verdicts"}
    assert new["threshold_pct"] == 2 and new["confidence"] == 0.99
    levels = sum(len(r["rows"]) for r in old["runs"])
    assert len(new["verdicts"]) == 8 * levels, (len(new["verdicts"]), levels)
    for j in new["verdicts"]:
        assert j["verdict"] is None and j["change"] is None and j["not_judged"], j
    print(f"{new_path}: old keys unchanged; {len(new['verdicts'])} verdicts, none judged")
