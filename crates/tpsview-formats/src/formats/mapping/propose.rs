//! A first mapping from the names a field carries (`ttft`, `tpot`, `itl`, `latency`/`e2e`,
//! `output_tokens`, `prompt_tokens`, `start`/`end`, `concurrency`, …) and its unit from a suffix
//! (`_ms`, `_s`, `(ms)`, `_ns`) or, failing that, its magnitude. A proposal, for a person to
//! correct: nothing here is final.

use super::{FieldInfo, FieldMap, Mapping, Quantity, Scope, Shape, Unit, ID};

/// The words of a name, lower-cased: `Avg TTFT (ms)` → `avg ttft ms`.
fn words(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() && prev_lower {
            out.push(' ');
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(' ');
        }
    }
    format!(" {} ", out.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The quantity a name says, where it says one.
fn quantity_of(w: &str, scope: Scope) -> Option<Quantity> {
    let has = |s: &str| w.contains(s);
    let per_second =
        has(" per s") || has(" per sec") || (has(" s ") && has(" tok")) || has("throughput");
    Some(
        if has(" ttft ") || has(" time to first token") || has(" first token") {
            Quantity::Ttft
        } else if has(" tpot ") || has(" time per output token") {
            Quantity::Tpot
        } else if has(" itl ") || has(" inter token") {
            if scope == Scope::Request {
                Quantity::Tpot
            } else {
                Quantity::Itl
            }
        } else if per_second && (has(" req") || has(" rps ") || has(" qps ")) {
            Quantity::RequestThroughput
        } else if per_second && (has("output") || has(" tok") || has(" generat")) {
            Quantity::OutputThroughput
        } else if has(" e2e") || has(" latency ") || has(" e2el ") || has(" request latency") {
            Quantity::E2e
        } else if has(" output tokens ")
            || has(" completion tokens ")
            || has(" output len")
            || has(" generated tokens ")
            || has(" num output")
            || has(" osl ")
            || has(" output token count ")
            || has(" tokens out ")
            || has(" n gen ")
        {
            Quantity::OutputTokens
        } else if has(" prompt tokens ")
            || has(" input tokens ")
            || has(" input len")
            || has(" prompt len")
            || has(" isl ")
            || has(" num input")
        {
            Quantity::InputTokens
        } else if has(" concurrency ")
            || has(" parallel ")
            || has(" num users ")
            || w == " users "
            || has(" clients ")
        {
            Quantity::Concurrency
        } else if has(" request rate ") || has(" rate ") {
            Quantity::RequestRate
        } else if scope == Scope::Request && (has(" start") || has(" send") || has(" sent ")) {
            Quantity::Start
        } else if scope == Scope::Request && (has(" end ") || has(" end time") || has(" finish")) {
            Quantity::End
        } else if scope == Scope::Request && (has(" error") || has(" failed ") || has(" status ")) {
            Quantity::Error
        } else if scope == Scope::Level && (has(" duration") || has(" elapsed")) {
            Quantity::Duration
        } else if scope == Scope::Request && (has(" duration") || has(" elapsed")) {
            Quantity::E2e
        } else if scope == Scope::Level && (has(" completed ") || has(" successful ")) {
            Quantity::RequestsOk
        } else {
            return None;
        },
    )
}

/// The unit a field holding `q` is likely written in: the only one `q` takes, else a time's
/// from the field's name and magnitude.
pub(super) fn unit_for(f: &FieldInfo, q: Quantity) -> Unit {
    match q.units() {
        [only] => *only,
        _ => time_unit(&words(&f.name), q, f),
    }
}

/// A time's unit from its name's suffix, else its magnitude (a timestamp's: since the epoch).
fn time_unit(w: &str, q: Quantity, f: &FieldInfo) -> Unit {
    for (suffix, u) in [
        (" ms ", Unit::Ms),
        (" msec ", Unit::Ms),
        (" milliseconds ", Unit::Ms),
        (" us ", Unit::Us),
        (" ns ", Unit::Ns),
        (" s ", Unit::S),
        (" sec ", Unit::S),
        (" secs ", Unit::S),
        (" seconds ", Unit::S),
    ] {
        if w.contains(suffix) {
            return u;
        }
    }
    let m = f.median.unwrap_or(0.0).abs();
    if matches!(q, Quantity::Start | Quantity::End) {
        // Seconds since 1970 are ~1.7e9; ms ~1.7e12; µs ~1.7e15; ns ~1.7e18.
        return match m {
            x if x > 1e17 => Unit::Ns,
            x if x > 1e14 => Unit::Us,
            x if x > 1e11 => Unit::Ms,
            _ => Unit::S,
        };
    }
    // A TPOT or ITL of more than 5 (s) is implausible; a TTFT or E2E of more than 300 (s) too.
    let limit = if matches!(q, Quantity::Tpot | Quantity::Itl) {
        5.0
    } else {
        300.0
    };
    match m {
        x if x > limit * 1e6 => Unit::Ns,
        x if x > limit * 1e3 => Unit::Us,
        x if x > limit => Unit::Ms,
        _ => Unit::S,
    }
}

/// A first mapping of a file's shape: rows are requests where a field says TTFT per row and the
/// file has many rows, else levels.
pub fn propose(shape: &Shape) -> Mapping {
    let names: Vec<String> = shape.fields.iter().map(|f| words(&f.name)).collect();
    let mean_or_pct = names
        .iter()
        .any(|w| w.contains(" mean ") || w.contains(" avg ") || w.contains(" p99 "));
    let scope = if shape.rows > 1 && !mean_or_pct {
        Scope::Request
    } else {
        Scope::Level
    };
    let mut fields: Vec<FieldMap> = Vec::new();
    for (f, w) in shape.fields.iter().zip(&names) {
        // A level's percentile other than the mean is not the mean.
        if scope == Scope::Level
            && [
                " p50 ", " p90 ", " p95 ", " p99 ", " median ", " min ", " max ", " std",
            ]
            .iter()
            .any(|s| w.contains(s))
        {
            continue;
        }
        let Some(q) = quantity_of(w, scope) else {
            continue;
        };
        if f.numeric == 0 && q != Quantity::Error {
            continue;
        }
        if fields.iter().any(|m| m.quantity == q) {
            continue;
        }
        let unit = unit_for(f, q);
        fields.push(FieldMap {
            field: f.name.clone(),
            quantity: q,
            unit,
        });
    }
    Mapping {
        format: ID.to_owned(),
        records: shape.records.clone(),
        scope,
        keys: shape.keys.clone(),
        fields,
        concurrency: None,
        label: None,
    }
}
