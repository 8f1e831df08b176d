//! What the user chose to see — baseline, hidden runs and series, axis, statistic, per-GPU — as
//! one value that the permalink, the exported bundle and browser storage all carry.

use serde::{Deserialize, Serialize};
use tpsview_core::chart_spec::ChartOptions;
use tpsview_core::slo::{Slo, SloError};
use tpsview_core::stats::Stat;
use tpsview_core::vocabulary::RunId;

/// The view, shared by every page through context.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct View {
    /// The baseline run (the first run when unset or gone).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<RunId>,
    /// Runs hidden on every chart. A run's id is its label unless labels repeat, so views saved
    /// before ids existed name the same runs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hidden_runs: Vec<RunId>,
    /// Series hidden on every chart, by name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hidden_series: Vec<String>,
    /// Linear concurrency axis.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub linear: bool,
    /// Log y axis on the charts against concurrency.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub log_y: bool,
    /// The latency lines' statistic (`mean`, `p50`, `p90`, `p99`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub stat: String,
    /// The latency band as the line's 99 % interval instead of p50–p99.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub latency_interval: bool,
    /// System-wide figures per GPU.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub per_gpu: bool,
    /// GPU counts the user gave, by run.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gpu_counts: Vec<(RunId, u32)>,
    /// The SLO as the user wrote it (`ttft_p90_ms=500,tpot_p90_ms=50`; see
    /// `tpsview_core::slo::Slo::parse`); empty for none.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub slo: String,
    /// The price of a GPU-hour in USD the user stated, for the cost of a million tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gpu_hour_usd: Option<f64>,
    /// The interactivity chart's y axis in USD per million output tokens.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cost_axis: bool,
    /// The interactivity chart's x axis in tokens/s per user (E2E-normalized, p90).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub per_user: bool,
}

impl View {
    /// The chart options this view asks for.
    pub fn chart_options(&self) -> ChartOptions {
        ChartOptions {
            linear_x: self.linear,
            log_y: self.log_y,
            hidden: self.hidden_series.clone(),
            hidden_runs: self.hidden_runs.clone(),
            stat: Stat::parse(&self.stat).unwrap_or_default(),
            latency_interval: self.latency_interval,
            per_gpu: self.per_gpu,
            gpu_counts: self.gpu_counts.clone(),
            slo: self.slo().and_then(Result::ok),
            cost_axis: self.cost_axis && self.price().is_some(),
            per_user_x: self.per_user,
        }
    }

    /// The SLO, read: `None` when none is set, else what `Slo::parse` says of the text.
    pub fn slo(&self) -> Option<Result<Slo, SloError>> {
        (!self.slo.trim().is_empty()).then(|| Slo::parse(&self.slo))
    }

    /// The GPU-hour price, when a usable one is set.
    pub fn price(&self) -> Option<f64> {
        self.gpu_hour_usd.filter(|p| p.is_finite() && *p > 0.0)
    }

    /// Takes the chart options the controls changed.
    pub fn set_chart_options(&mut self, o: &ChartOptions) {
        self.linear = o.linear_x;
        self.log_y = o.log_y;
        self.hidden_series.clone_from(&o.hidden);
        self.hidden_runs.clone_from(&o.hidden_runs);
        self.stat = match o.stat {
            Stat::Mean => String::new(),
            s => s.name().to_owned(),
        };
        self.latency_interval = o.latency_interval;
        self.per_gpu = o.per_gpu;
        self.gpu_counts.clone_from(&o.gpu_counts);
        self.cost_axis = o.cost_axis;
        self.per_user = o.per_user_x;
    }

    /// Hides a shown run, shows a hidden one.
    pub fn toggle_run(&mut self, id: &RunId) {
        match self.hidden_runs.iter().position(|h| h == id) {
            Some(i) => {
                self.hidden_runs.remove(i);
            }
            None => self.hidden_runs.push(id.clone()),
        }
    }

    /// Forgets a removed run: shown again, and no longer the baseline, if it comes back.
    pub fn forget_run(&mut self, id: &RunId) {
        self.hidden_runs.retain(|h| h != id);
        self.gpu_counts.retain(|(r, _)| r != id);
        if self.baseline.as_ref() == Some(id) {
            self.baseline = None;
        }
    }

    /// Sets (or, with 0, clears) a run's GPU count.
    pub fn set_gpu_count(&mut self, id: &RunId, n: u32) {
        self.gpu_counts.retain(|(r, _)| r != id);
        if n > 0 {
            self.gpu_counts.push((id.clone(), n));
        }
    }

    /// The view as compact JSON (for the permalink's `view` parameter and bundles).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A view from JSON; unknown or broken input gives the default view.
    pub fn from_json(s: &str) -> View {
        serde_json::from_slice(s.as_bytes()).unwrap_or_default()
    }
}

/// A bundle's view: the `view` object a tpsview/1 file exported by the app carries.
#[derive(Deserialize, Default)]
#[serde(default)]
struct WithView {
    view: Option<View>,
}

/// The view stored in a bundle's bytes, if it has one.
pub fn view_of_bundle(bytes: &[u8]) -> Option<View> {
    serde_json::from_slice::<WithView>(bytes).ok()?.view
}

/// A `tpsview/1` bundle: the report's JSON with the view added as a top-level `view` object
/// (readers that do not know it ignore it).
pub fn bundle(report_json: &str, view: &View) -> String {
    match report_json.strip_prefix('{') {
        Some(rest) => format!("{{\"view\":{},{rest}", view.to_json()),
        None => report_json.to_owned(),
    }
}

// A path of its own: the loading worker's binary includes this file too (src/bin/).
#[cfg(test)]
#[path = "view/tests.rs"]
mod tests;
