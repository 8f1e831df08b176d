//! The GPU's energy during a batch's decode steps, through NVML (`nvml-wrapper`: libnvidia-ml is
//! loaded at run time, as cuBLAS is — a machine without it gets a reason, not a link failure).
//! NVML's energy counter (`nvmlDeviceGetTotalEnergyConsumption`, mJ since the driver loaded;
//! Volta and newer) where the GPU has one, else its power readings (`nvmlDeviceGetPowerUsage`,
//! mW) around each step. Either updates every few tens of milliseconds, far slower than a decode
//! step, so the steps are repeated over a window of at least [`ENERGY_WINDOW_S`] to be counted.

use std::ffi::OsStr;
use std::time::Instant;

use nvml_wrapper::Nvml;

/// The least time a batch's steps are repeated for its energy to be read.
pub const ENERGY_WINDOW_S: f64 = 1.0;

/// How the energy is had.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Source {
    /// The energy counter, mJ.
    Counter,
    /// Power readings, mW, integrated over the steps.
    Samples,
}

/// NVML opened on one GPU.
pub struct Power {
    nvml: Nvml,
    bus: String,
    name: String,
    source: Source,
}

/// The energy of a run of steps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Energy {
    /// Joules per step.
    pub joules_per_step: f64,
    /// Mean power over the steps, W.
    pub watts: f64,
    /// Steps counted.
    pub steps: usize,
}

impl Power {
    /// NVML on the GPU at PCI bus id `bus` (`00000000:19:00.0`), from the system's libnvidia-ml.
    pub fn open(bus: &str) -> Result<Power, String> {
        Power::open_with(None, bus)
    }

    /// The same from the library at `lib` (a test's stand-in), else the system's.
    pub fn open_with(lib: Option<&OsStr>, bus: &str) -> Result<Power, String> {
        let mut b = Nvml::builder();
        if let Some(l) = lib {
            b.lib_path(l);
        }
        let nvml = b
            .init()
            .map_err(|e| format!("NVML (libnvidia-ml) could not be loaded or started: {e}"))?;
        let device = nvml
            .device_by_pci_bus_id(bus)
            .map_err(|e| format!("NVML has no GPU at PCI bus {bus}: {e}"))?;
        let name = device.name().unwrap_or_else(|_| "the GPU".into());
        let source = match device.total_energy_consumption() {
            Ok(_) => Source::Counter,
            Err(counter) => match device.power_usage() {
                Ok(_) => Source::Samples,
                Err(power) => {
                    return Err(format!(
                        "NVML reads neither {name}'s energy counter ({counter}) nor its power ({power})"
                    ))
                }
            },
        };
        Ok(Power {
            nvml,
            bus: bus.to_owned(),
            name,
            source,
        })
    }

    /// What is read, for the report.
    pub fn describe(&self) -> String {
        match self.source {
            Source::Counter => format!(
                "NVML, {} (PCI {}): its energy counter over at least {ENERGY_WINDOW_S} s of each batch's steps",
                self.name, self.bus
            ),
            Source::Samples => format!(
                "NVML, {} (PCI {}): its power readings around each step over at least {ENERGY_WINDOW_S} s of each batch's steps (no energy counter on this GPU)",
                self.name, self.bus
            ),
        }
    }

    /// The counter in mJ, or the power in mW.
    fn read(&self) -> Result<f64, String> {
        let d = self
            .nvml
            .device_by_pci_bus_id(self.bus.as_str())
            .map_err(|e| format!("NVML: {e}"))?;
        match self.source {
            Source::Counter => d
                .total_energy_consumption()
                .map(|mj| mj as f64)
                .map_err(|e| format!("NVML energy counter: {e}")),
            Source::Samples => d
                .power_usage()
                .map(f64::from)
                .map_err(|e| format!("NVML power: {e}")),
        }
    }

    /// Runs `step` (one decode step, finished when it returns) again and again for at least
    /// `window_s`, and the energy it took.
    pub fn over(
        &self,
        window_s: f64,
        mut step: impl FnMut() -> Result<(), String>,
    ) -> Result<Energy, String> {
        // The clock spans the counter's two readings (started before the first, stopped after
        // the last), so a thread held up between a reading and the clock moves neither apart.
        let start = Instant::now();
        let first = self.read()?;
        let (mut steps, mut power_sum, mut last) = (0usize, 0.0, first);
        while steps == 0 || start.elapsed().as_secs_f64() < window_s {
            step()?;
            steps += 1;
            if self.source == Source::Samples {
                // The mean of the readings around the steps (trapezoids of equal width, as the
                // steps are alike).
                let now = self.read()?;
                power_sum += (last + now) / 2.0;
                last = now;
            }
        }
        let (joules, elapsed) = match self.source {
            Source::Counter => {
                let last = self.read()?;
                ((last - first) * 1e-3, start.elapsed().as_secs_f64())
            }
            Source::Samples => {
                let elapsed = start.elapsed().as_secs_f64();
                (power_sum / steps as f64 * 1e-3 * elapsed, elapsed)
            }
        };
        energy(joules, steps, elapsed)
    }
}

/// Joules over `steps` steps in `elapsed` seconds as an [`Energy`]; an error where the counter
/// did not move (its resolution) or went down.
fn energy(joules: f64, steps: usize, elapsed: f64) -> Result<Energy, String> {
    if !(joules > 0.0 && joules.is_finite()) || elapsed <= 0.0 || steps == 0 {
        return Err(format!(
            "NVML counted {joules} J over {steps} steps in {elapsed:.3} s: no reading"
        ));
    }
    Ok(Energy {
        joules_per_step: joules / steps as f64,
        watts: joules / elapsed,
        steps,
    })
}

#[cfg(test)]
mod tests;
