"""Recount the energy of the InferenceX agg files with measured power
(tests/fixtures/inferencex/*_power*.json) from the files themselves (it does not run tpsview) and
compare with the `summarize --json` output given after each file:
    python3 check-inferencex-power-2026-12-04.py FILE OUT [FILE OUT ...]
The rule (crates/tpsview-analysis/src/energy.rs): power_valid 0 → no energy; else InferenceX's own
joules_per_output_token, its inverse, total_gpu_energy_j, the deployment's mean power
(avg_total_gpu_power_w, else avg_power_w × tp), and how far apart (%) that power ÷ the output rate
(output_tput_per_gpu × tp) is from the file's J per token; a note past 1 %."""
import json
import sys

args = sys.argv[1:]
for path, out in zip(args[::2], args[1::2]):
    f = json.load(open(path))
    got = json.load(open(out))["runs"][0]["points"][0].get("energy")
    if f.get("power_valid") == 0:
        assert got is None, got
        print(f"{path}: power_valid 0 → no energy")
        continue
    jpt = f["joules_per_output_token"]
    power = f.get("avg_total_gpu_power_w") or f["avg_power_w"] * f["tp"]
    rate = f["output_tput_per_gpu"] * f["tp"]
    apart = abs(power / rate - jpt) / jpt * 100
    assert got["joules_per_output_token"] == jpt
    assert abs(got["output_tokens_per_joule"] - 1 / jpt) <= 1e-15 / jpt
    assert got["joules"] == f.get("total_gpu_energy_j")
    assert got["mean_power_w"] == power
    assert abs(got["apart_pct"] - apart) <= 1e-9 * apart, (got["apart_pct"], apart)
    assert (got["note"] is not None) == (apart > 1.0)
    assert got["basis"] == "the tool's" and f"{f['tp']} GPUs" in got["gpus"]
    print(f"{path}: {jpt} J/token as written; {power} W ÷ {rate:.2f} T/s = {power / rate:.6f} "
          f"({apart:.2f} % apart, no note under 1 %)")
