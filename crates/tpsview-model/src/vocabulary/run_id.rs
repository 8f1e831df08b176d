//! A run's identity among the runs of one report.

use serde::{Deserialize, Serialize};

/// A run's identity among the runs of one report: what hiding, removing, the baseline, GPU counts
/// and the permalink's view name a run by. It is the run's label when no other run has that label
/// (so views saved before ids existed still name the same runs), else the label with the model —
/// then the engine, then an ordinal — added until it is unique. The same files give the same ids.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RunId(String);

impl RunId {
    /// An id read back from a saved view or typed by a user.
    pub fn new(s: impl Into<String>) -> RunId {
        RunId(s.into())
    }

    /// The id as text: also the run's name in legends, pickers and tables, where labels repeat.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The ids of runs given as (label, engine, model), in order: distinct, and each as short as
    /// it can be.
    pub fn assign<'a>(
        runs: impl IntoIterator<Item = (&'a str, Option<&'a str>, Option<&'a str>)>,
    ) -> Vec<RunId> {
        let runs: Vec<_> = runs.into_iter().collect();
        let count = |f: &dyn Fn(usize) -> String, i: usize| {
            let me = f(i);
            (0..runs.len()).filter(|&j| f(j) == me).count()
        };
        let label = |i: usize| runs[i].0.to_owned();
        let with_model = |i: usize| match runs[i].2 {
            Some(m) if !m.is_empty() => format!("{} · {m}", runs[i].0),
            _ => label(i),
        };
        let with_engine = |i: usize| match runs[i].1 {
            Some(e) if !e.is_empty() => format!("{} · {e}", with_model(i)),
            _ => with_model(i),
        };
        let mut ids: Vec<String> = (0..runs.len())
            .map(|i| {
                if count(&label, i) == 1 {
                    label(i)
                } else if count(&with_model, i) == 1 {
                    with_model(i)
                } else {
                    with_engine(i)
                }
            })
            .collect();
        // Whatever is still shared gets an ordinal: #2, #3, … after the first.
        for i in 0..ids.len() {
            let earlier = ids[..i].iter().filter(|x| **x == ids[i]).count();
            if earlier > 0 {
                let mut k = earlier + 1;
                while ids.contains(&format!("{} #{k}", ids[i])) {
                    k += 1;
                }
                ids[i] = format!("{} #{k}", ids[i]);
            }
        }
        ids.into_iter().map(RunId).collect()
    }
}

impl From<&str> for RunId {
    fn from(s: &str) -> RunId {
        RunId(s.to_owned())
    }
}

impl PartialEq<&str> for RunId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<str> for RunId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl std::fmt::Display for RunId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(&self.0)
    }
}
