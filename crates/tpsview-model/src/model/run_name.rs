//! A run's name in its parts (issue 42): what the tool or the user named the setup, the folder its
//! files came from where one setup's levels came from several, and which repeat of its setup it
//! is. Shown — and stored, in tpsview/1's and `--json`'s `label` — as the parts joined with ` · `
//! (`Display`); read from that text once, where a label arrives as text (a reader's, a file's).

use std::fmt;

/// How a repeat is named: `run=N` (a `vllm bench sweep` repeat, an AIPerf trial) or `repeat=N`
/// (`tpsview bench --repeat`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RepeatKey {
    /// `run=N`.
    Run,
    /// `repeat=N`.
    Repeat,
}

impl RepeatKey {
    /// Its word.
    pub const fn key(self) -> &'static str {
        match self {
            RepeatKey::Run => "run",
            RepeatKey::Repeat => "repeat",
        }
    }
}

/// Which repeat of its setup a run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Repeat {
    /// How the tool names it.
    pub key: RepeatKey,
    /// Its number.
    pub n: u64,
}

impl fmt::Display for Repeat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.key.key(), self.n)
    }
}

/// A run's name: `setup · folder=F · run=N`, the last two where they apply.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RunName {
    /// What the tool or the user named the setup: the model, the GPU, settings written
    /// `key=value` (` · `-joined); what the repeats of one setup share.
    pub setup: String,
    /// The folder its files came from, where files of one level came from several folders and
    /// each folder is a run (`folder=NAME`, a setting).
    pub folder: Option<String>,
    /// Which repeat of its setup it is.
    pub repeat: Option<Repeat>,
}

impl RunName {
    /// A name of a setup alone.
    pub fn setup(setup: impl Into<String>) -> RunName {
        RunName {
            setup: setup.into(),
            folder: None,
            repeat: None,
        }
    }

    /// The same name as repeat `n` of its setup.
    pub fn with_repeat(mut self, key: RepeatKey, n: u64) -> RunName {
        self.repeat = Some(Repeat { key, n });
        self
    }

    /// A label read as a name: its ` · `-joined parts, the first that is `run=N` or `repeat=N`
    /// the repeat, the last `folder=NAME` the folder, the others the setup in their order.
    pub fn parse(label: &str) -> RunName {
        let mut name = RunName::default();
        let mut setup: Vec<&str> = Vec::new();
        for part in label.split(" · ") {
            let repeat = match part.split_once('=') {
                Some((k @ ("run" | "repeat"), n))
                    if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) =>
                {
                    n.parse().ok().map(|n| Repeat {
                        key: if k == "run" {
                            RepeatKey::Run
                        } else {
                            RepeatKey::Repeat
                        },
                        n,
                    })
                }
                _ => None,
            };
            match (repeat, part.strip_prefix("folder=")) {
                (Some(r), _) if name.repeat.is_none() => name.repeat = Some(r),
                (_, Some(f)) if !f.is_empty() => name.folder = Some(f.to_owned()),
                _ => setup.push(part),
            }
        }
        name.setup = setup.join(" · ");
        name
    }

    /// The name less its repeat: what every repeat of its setup is called.
    pub fn without_repeat(&self) -> RunName {
        RunName {
            repeat: None,
            ..self.clone()
        }
    }

    /// The settings it names, as its header shows them: the `key=value` parts of the setup, then
    /// `folder=NAME`, then the repeat (`run=N`), in order.
    pub fn settings(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .setup
            .split(" · ")
            .filter(|p| p.contains('='))
            .map(str::to_owned)
            .collect();
        if let Some(f) = &self.folder {
            out.push(format!("folder={f}"));
        }
        if let Some(r) = self.repeat {
            out.push(r.to_string());
        }
        out
    }
}

impl fmt::Display for RunName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if !self.setup.is_empty() {
            parts.push(self.setup.clone());
        }
        if let Some(folder) = &self.folder {
            parts.push(format!("folder={folder}"));
        }
        if let Some(r) = self.repeat {
            parts.push(r.to_string());
        }
        f.pad(&parts.join(" · "))
    }
}

/// As the text it prints, quoted and escaped as a string's `Debug` is (what the diagnostics that
/// name a run by its label said before names had parts; and smaller in the page than a derived
/// struct's).
impl fmt::Debug for RunName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string(), f)
    }
}

impl From<String> for RunName {
    fn from(label: String) -> RunName {
        RunName::parse(&label)
    }
}

impl From<&str> for RunName {
    fn from(label: &str) -> RunName {
        RunName::parse(label)
    }
}

/// Whether a name reads as `text` (its parts joined), written piece by piece against it.
impl PartialEq<str> for RunName {
    fn eq(&self, other: &str) -> bool {
        struct Rest<'a>(&'a str);
        impl fmt::Write for Rest<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                self.0 = self.0.strip_prefix(s).ok_or(fmt::Error)?;
                Ok(())
            }
        }
        let mut rest = Rest(other);
        fmt::write(&mut rest, format_args!("{self}")).is_ok() && rest.0.is_empty()
    }
}

impl PartialEq<&str> for RunName {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl serde::Serialize for RunName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for RunName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RunName, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Ok(RunName::parse(&text))
    }
}

#[cfg(test)]
mod tests;
