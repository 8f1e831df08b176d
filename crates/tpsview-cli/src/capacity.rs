//! The capacity options `summarize` and `convert --to parquet` share: a latency target (SLO) and a
//! GPU-hour price, checked once and applied to a summary.

use std::process::ExitCode;

use tpsview_core::model::Report;
use tpsview_core::slo::Slo;
use tpsview_core::summary::Summary;

/// `--slo`, `--gpu-hour-usd`, `--gpus`.
#[derive(clap::Args, Debug, Default)]
pub struct Capacity {
    /// Check every level against a latency target: per-request `ttft_ms=`, `tpot_ms=`, `e2e_ms=`,
    /// level statistics `<ttft|tpot|itl|e2e>_<mean|p50|p90|p95|p99>_ms=`, and `attainment=` (the
    /// share of requests that must meet the per-request targets, default 0.9), comma-separated.
    /// Adds each level's attainment, goodput and whether it meets the SLO, and each run's capacity.
    /// `--slo file`: the targets the files state (an MLPerf scenario's TTFT and TPOT limits).
    #[arg(long, value_name = "TARGETS")]
    pub slo: Option<String>,
    /// A price per GPU-hour in USD (your figure, not a fact tpsview knows): adds USD per million
    /// output tokens at every level. The GPU count is each run's metadata's, or --gpus.
    #[arg(long, value_name = "USD")]
    pub gpu_hour_usd: Option<f64>,
    /// GPUs the server used, for runs whose metadata has no GPU count (with --gpu-hour-usd).
    #[arg(long, value_name = "N")]
    pub gpus: Option<u32>,
}

impl Capacity {
    /// The SLO, once the options are checked; a usage error (exit 2) is printed and returned.
    pub fn check(&self) -> Result<Option<Slo>, ExitCode> {
        let slo = self
            .slo
            .as_deref()
            .filter(|t| *t != FROM_FILES)
            .map(Slo::parse)
            .transpose()
            .map_err(|e| usage(&format!("--slo: {e}")))?;
        if let Some(p) = self.gpu_hour_usd.filter(|p| !(p.is_finite() && *p > 0.0)) {
            return Err(usage(&format!(
                "--gpu-hour-usd {p}: a price must be a positive number"
            )));
        }
        if self.gpus == Some(0) {
            return Err(usage("--gpus 0: a GPU count must be at least 1"));
        }
        Ok(slo)
    }

    /// Adds the SLO's and the price's figures to `summary` (the summary of `report`); a run
    /// without a GPU count under a price is a usage error (exit 2), and so is `--slo file` when
    /// the files state no targets, or different ones. Returns the SLO text applied.
    pub fn apply(
        &self,
        report: &Report,
        summary: &mut Summary,
        slo: Option<&Slo>,
    ) -> Result<Option<String>, ExitCode> {
        let mut text = self.slo.clone();
        let from_files;
        let slo = if self.slo.as_deref() == Some(FROM_FILES) {
            let targets = tpsview_core::slo::file_targets(report);
            match targets.as_slice() {
                [(t, _)] => {
                    from_files = Slo::parse(t).map_err(|e| usage(&format!("--slo file: {e}")))?;
                    text = Some(t.clone());
                    Some(&from_files)
                }
                [] => return Err(usage("--slo file: no file states its latency targets (MLPerf logs do, in their test parameters); give the targets")),
                many => {
                    let list: Vec<String> = many
                        .iter()
                        .map(|(t, runs)| format!("{t} ({})", runs.join(", ")))
                        .collect();
                    return Err(usage(&format!(
                        "--slo file: the files state different targets: {}; give one of them",
                        list.join("; ")
                    )));
                }
            }
        } else {
            slo
        };
        if let Some(slo) = slo {
            tpsview_core::summary::apply_slo(report, &mut summary.runs, slo);
        }
        if let Some(price) = self.gpu_hour_usd {
            let missing = tpsview_core::summary::apply_cost(&mut summary.runs, price, |rs| {
                self.gpus.or(rs.meta.gpu_count)
            });
            if let Some(id) = missing.first() {
                return Err(usage(&format!(
                    "--gpu-hour-usd: run {:?} states no GPU count: give --gpus N",
                    id.as_str()
                )));
            }
        }
        Ok(text)
    }
}

/// `--slo file`: the targets the files state.
const FROM_FILES: &str = "file";

fn usage(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}
