//! Number formatting for display: thousands separators and a fixed number of decimals. The
//! unrounded value always travels beside it in a `data-value` attribute.

/// `1234.5` with 1 decimal → `"1,234.5"`; `None` → an en dash.
pub fn fmt_num(v: Option<f64>, decimals: usize) -> String {
    let Some(v) = v.filter(|v| v.is_finite()) else {
        return "–".to_owned();
    };
    let s = format!("{:.*}", decimals, v.abs());
    let (int, frac) = s
        .split_once('.')
        .map_or((s.as_str(), None), |(i, f)| (i, Some(f)));
    let mut grouped = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let sign = if v < 0.0 && s.chars().any(|c| c.is_ascii_digit() && c != '0') {
        "-"
    } else {
        ""
    };
    match frac {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

/// The exact value for a `data-value` attribute: Rust's shortest round-trip form, which
/// JavaScript's `Number()` reads back to the same double; empty when undefined.
pub fn fmt_value(v: Option<f64>) -> String {
    v.filter(|v| v.is_finite())
        .map(|v| format!("{v}"))
        .unwrap_or_default()
}
