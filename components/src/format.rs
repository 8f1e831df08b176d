//! Number formatting for display: thousands separators and a fixed number of decimals. The
//! unrounded value always travels beside it in a `data-value` attribute.

/// `1234.5` with 1 decimal → `"1,234.5"`; a whole number without decimals (`8192.0` →
/// `"8,192"`, never `"8,192.0"`); `None` or a non-finite value → an en dash.
pub fn fmt_num(v: Option<f64>, decimals: usize) -> String {
    v.filter(|v| v.is_finite()).map_or_else(
        || "–".to_owned(),
        |v| {
            let whole = v.fract() == 0.0 && v.abs() < 1e15;
            tpsview_core::text::thousands(v, if whole { 0 } else { decimals })
        },
    )
}

/// The exact value for a `data-value` attribute: Rust's shortest round-trip form, which
/// JavaScript's `Number()` reads back to the same double; empty when undefined.
pub fn fmt_value(v: Option<f64>) -> String {
    v.filter(|v| v.is_finite())
        .map(|v| format!("{v}"))
        .unwrap_or_default()
}
