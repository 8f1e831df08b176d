"""Recount the energy of the two real AIPerf 0.6.0 summaries with GPU telemetry
(tests/fixtures/aiperf/telemetry-c{1,4}_profile_export_aiperf.json) from the files themselves (it
does not run tpsview) and compare with `summarize --json` outputs given after each file:
    python3 check-energy-2026-12-02.py FILE OUT [FILE OUT ...]
The rule (crates/tpsview-analysis/src/energy.rs): distinct GPUs by UUID (two DCGM exporters report the
same one here; a GPU's figures are the mean of its exporters'), each GPU's energy_consumption max − min
in its unit (MJ), summed; ÷ the file's
total_output_tokens; mean power = the GPUs' gpu_power_usage avg, summed; the note when the counter
and mean power × the telemetry window (summary end_time − start_time) differ by more than 10 %."""
import datetime
import json
import sys

scale = {"MJ": 1e6, "kJ": 1e3, "J": 1.0, "mJ": 1e-3}
args = sys.argv[1:]
for path, out in zip(args[::2], args[1::2]):
    f = json.load(open(path))
    seen = {}
    for url, e in f["telemetry_data"]["endpoints"].items():
        for key, g in e["gpus"].items():
            m = g["metrics"]
            ec = m["energy_consumption"]
            seen.setdefault(g["gpu_uuid"], []).append(
                ((ec["max"] - ec["min"]) * scale[ec["unit"]], m["gpu_power_usage"]["avg"]))
    # A GPU several exporters report: the mean of what they say.
    joules = sum(sum(j for j, _ in v) / len(v) for v in seen.values())
    power = sum(sum(p for _, p in v) / len(v) for v in seen.values())
    tokens = f["total_output_tokens"]["avg"]
    w = f["telemetry_data"]["summary"]
    window = (datetime.datetime.fromisoformat(w["end_time"])
              - datetime.datetime.fromisoformat(w["start_time"])).total_seconds()
    got = json.load(open(out))["runs"][0]["points"][0]["energy"]
    assert len(seen) == 1 and got["gpus"].startswith("1 GPU:"), got["gpus"]
    assert abs(got["joules"] - joules) <= 1e-9 * joules, (got["joules"], joules)
    assert abs(got["mean_power_w"] - power) <= 1e-9 * power
    assert abs(got["joules_per_output_token"] - joules / tokens) <= 1e-12 * joules / tokens
    assert abs(got["output_tokens_per_joule"] - tokens / joules) <= 1e-12 * tokens / joules
    apart = abs(joules - power * window) / (power * window)
    assert (got["note"] is not None) == (apart > 0.10), apart
    # tpsview takes the window as a difference of epoch seconds in doubles (~1e-7 s of rounding).
    assert abs(got["apart_pct"] - apart * 100) <= 1e-6 * apart * 100, (got["apart_pct"], apart * 100)
    assert got["window"].endswith(f"{window:.1f} s"), (got["window"], window)
    print(f"{path}: {len(seen)} GPU, {joules:.1f} J, {power:.2f} W, {tokens:.0f} tokens → "
          f"{joules / tokens:.4f} J/token, {tokens / joules:.4f} tokens/J; "
          f"power × window ({window:.3f} s) {power * window:.0f} J ({apart * 100:.0f} % apart)")
