//! GPU telemetry as the tools write it (AIPerf's summary and per-sample export, GenAI-Perf's
//! `telemetry_stats`): each GPU's energy over a window (the rise of DCGM's cumulative counter) and
//! its mean power, summed over distinct GPUs into the point's [`Telemetry`] that `energy` reads. Two exporters
//! scraping one GPU (the same UUID) count it once, at the mean of what they say of it.

use std::collections::BTreeMap;

use super::aiperf::GPUS_LABEL;
use crate::model::Telemetry;

/// Joules in one of an energy `unit` as the tools spell it.
pub(crate) fn joules_per(unit: &str) -> Option<f64> {
    Some(match unit {
        "MJ" => 1e6,
        "kJ" => 1e3,
        "J" => 1.0,
        "mJ" => 1e-3,
        _ => return None,
    })
}

/// Watts in one of a power `unit`.
pub(crate) fn watts_per(unit: &str) -> Option<f64> {
    Some(match unit {
        "W" => 1.0,
        "kW" => 1e3,
        "mW" => 1e-3,
        _ => return None,
    })
}

/// One GPU as the exporters report it.
struct Gpu {
    /// Its UUID, else where it was reported (`exporter/gpu_N`).
    id: String,
    /// Its model name.
    name: String,
    /// The exporters that reported it.
    sources: Vec<String>,
    /// Energy (J) over the window, per exporter.
    energy_j: Vec<Option<f64>>,
    /// Mean power (W), per exporter.
    power_w: Vec<Option<f64>>,
}

/// The GPUs of a window, gathered exporter by exporter.
#[derive(Default)]
pub(crate) struct Gpus(Vec<Gpu>);

impl Gpus {
    /// What `source` reports of GPU `id`.
    pub(crate) fn add(
        &mut self,
        id: String,
        name: &str,
        source: &str,
        energy_j: Option<f64>,
        power_w: Option<f64>,
    ) {
        match self.0.iter_mut().find(|g| g.id == id) {
            Some(g) => {
                g.sources.push(source.to_owned());
                g.energy_j.push(energy_j);
                g.power_w.push(power_w);
            }
            None => self.0.push(Gpu {
                id,
                name: name.to_owned(),
                sources: vec![source.to_owned()],
                energy_j: vec![energy_j],
                power_w: vec![power_w],
            }),
        }
    }

    /// Their energy and mean power (each summed over the GPUs, `None` where one GPU lacks it;
    /// no window) and the label [`GPUS_LABEL`] naming the GPUs and who reported them. `None`
    /// and no label when there is no GPU.
    pub(crate) fn write(self, labels: &mut BTreeMap<String, String>) -> Option<Telemetry> {
        if self.0.is_empty() {
            return None;
        }
        let mean = |v: &[Option<f64>]| {
            v.iter()
                .copied()
                .sum::<Option<f64>>()
                .map(|s| s / v.len() as f64)
        };
        let telemetry = Telemetry {
            energy_j: self.0.iter().map(|g| mean(&g.energy_j)).sum(),
            mean_power_w: self.0.iter().map(|g| mean(&g.power_w)).sum(),
            window_s: None,
        };
        let named: Vec<String> = self
            .0
            .iter()
            .map(|g| {
                let mut s = if g.name.is_empty() {
                    g.id.clone()
                } else {
                    format!("{} ({})", g.name, g.id)
                };
                if g.sources.len() > 1 {
                    s.push_str(&format!(
                        " — reported by {} exporters ({}): counted once",
                        g.sources.len(),
                        g.sources.join(", ")
                    ));
                }
                s
            })
            .collect();
        labels.insert(
            GPUS_LABEL.into(),
            format!(
                "{} GPU{}: {}",
                self.0.len(),
                if self.0.len() == 1 { "" } else { "s" },
                named.join("; ")
            ),
        );
        Some(telemetry)
    }
}
