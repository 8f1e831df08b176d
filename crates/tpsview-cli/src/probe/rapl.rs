//! The CPU's energy counters through Linux's powercap interface (Intel RAPL, also exposed by AMD
//! since Zen): `/sys/class/powercap/intel-rapl:N/energy_uj`, one package domain per socket (its
//! sub-domains `intel-rapl:N:M` — cores, uncore, DRAM — are parts of it and not added). Each
//! counter wraps at its `max_energy_range_uj`. Reading it needs root on kernels since 5.10
//! (CVE-2020-8694): without it, the probe says "not readable" and why.

use std::path::{Path, PathBuf};

/// The package domains found under a powercap root.
#[derive(Debug)]
pub struct Rapl {
    /// (its `energy_uj` file, its wrap range in µJ, its name).
    domains: Vec<(PathBuf, u64, String)>,
}

impl Rapl {
    /// The package domains under `root` (normally `/sys/class/powercap`), each readable; why not
    /// otherwise.
    pub fn open(root: &Path) -> Result<Rapl, String> {
        let entries = std::fs::read_dir(root).map_err(|e| format!("{}: {e}", root.display()))?;
        let mut domains = Vec::new();
        let mut unreadable = None;
        let mut names: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .and_then(|n| n.strip_prefix("intel-rapl:"))
                    .is_some_and(|rest| !rest.contains(':'))
            })
            .collect();
        names.sort();
        for dir in names {
            let energy = dir.join("energy_uj");
            let read = |p: &Path| -> Result<u64, String> {
                std::fs::read_to_string(p)
                    .map_err(|e| format!("{}: {e}", p.display()))?
                    .trim()
                    .parse::<u64>()
                    .map_err(|e| format!("{}: {e}", p.display()))
            };
            match (read(&energy), read(&dir.join("max_energy_range_uj"))) {
                (Ok(_), Ok(range)) if range > 0 => {
                    let name = std::fs::read_to_string(dir.join("name"))
                        .map(|s| s.trim().to_owned())
                        .unwrap_or_else(|_| dir.display().to_string());
                    domains.push((energy, range, name));
                }
                (Err(e), _) | (_, Err(e)) => unreadable = Some(e),
                _ => {}
            }
        }
        if domains.is_empty() {
            return Err(match unreadable {
                Some(e) => format!("RAPL energy counters not readable ({e}; they need root on Linux 5.10 and later)"),
                None => format!("no RAPL package domain under {}", root.display()),
            });
        }
        Ok(Rapl { domains })
    }

    /// Every domain's counter now, µJ.
    pub fn read(&self) -> Result<Vec<u64>, String> {
        self.domains
            .iter()
            .map(|(p, _, _)| {
                std::fs::read_to_string(p)
                    .map_err(|e| format!("{}: {e}", p.display()))?
                    .trim()
                    .parse::<u64>()
                    .map_err(|e| format!("{}: {e}", p.display()))
            })
            .collect()
    }

    /// Joules between two readings, summed over the domains (a counter that went down wrapped
    /// once at its range: the probe's intervals are seconds, a wrap takes minutes).
    pub fn joules(&self, before: &[u64], after: &[u64]) -> f64 {
        self.domains
            .iter()
            .zip(before.iter().zip(after))
            .map(|((_, range, _), (a, b))| {
                let uj = if b >= a { b - a } else { range - a + b };
                uj as f64 * 1e-6
            })
            .sum()
    }

    /// What it reads, for the report: e.g. `RAPL package-0, package-1 (powercap)`.
    pub fn describe(&self) -> String {
        let names: Vec<&str> = self.domains.iter().map(|d| d.2.as_str()).collect();
        format!(
            "RAPL {} (Linux powercap): the CPU packages' energy, not DRAM's or the board's",
            names.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn domain(root: &Path, name: &str, energy: &str, range: &str) {
        let d = root.join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("energy_uj"), energy).unwrap();
        std::fs::write(d.join("max_energy_range_uj"), range).unwrap();
        std::fs::write(d.join("name"), format!("package-{}\n", &name[11..])).unwrap();
    }

    #[test]
    fn packages_are_summed_sub_domains_left_out_and_a_wrap_counted_once() {
        let dir = tempfile::tempdir().unwrap();
        domain(dir.path(), "intel-rapl:0", "1000000\n", "262143328850\n");
        domain(dir.path(), "intel-rapl:1", "5000000\n", "262143328850\n");
        // A sub-domain (the cores of package 0): part of it, not added.
        domain(dir.path(), "intel-rapl:0:0", "999\n", "262143328850\n");
        let r = Rapl::open(dir.path()).expect("two packages");
        assert_eq!(r.describe().matches("package-").count(), 2);
        let before = r.read().unwrap();
        assert_eq!(before, vec![1_000_000, 5_000_000]);
        // 2.5 J on package 0; package 1 wrapped: 262143328850 − 5000000 + 1000000 µJ.
        let after = vec![3_500_000, 1_000_000];
        let want = 2.5 + (262_143_328_850u64 - 5_000_000 + 1_000_000) as f64 * 1e-6;
        assert!((r.joules(&before, &after) - want).abs() < 1e-6);
    }

    #[test]
    fn no_domain_or_an_unreadable_counter_is_said() {
        let dir = tempfile::tempdir().unwrap();
        let e = Rapl::open(dir.path()).expect_err("empty");
        assert!(e.contains("no RAPL package domain"), "{e}");
        let e = Rapl::open(&dir.path().join("absent")).expect_err("absent");
        assert!(e.contains("absent"), "{e}");
        // A counter that is not a number (as a permission error would leave it unread).
        domain(dir.path(), "intel-rapl:0", "not a number", "100");
        let e = Rapl::open(dir.path()).expect_err("unreadable");
        assert!(e.contains("not readable") && e.contains("energy_uj"), "{e}");
    }
}
