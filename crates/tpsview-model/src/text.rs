//! Number formatting shared by the explanations the core writes and the web components: thousands
//! separators and a fixed number of decimals.

/// `1234.5` with 1 decimal → `"1,234.5"`; a value that rounds to zero never shows a minus sign.
pub fn thousands(v: f64, decimals: usize) -> String {
    let s = format!("{:.*}", decimals, v.abs());
    let (int, frac) = s
        .split_once('.')
        .map_or((s.as_str(), None), |(i, f)| (i, Some(f)));
    let mut out = String::with_capacity(s.len() + int.len() / 3 + 1);
    if v < 0.0 && s.bytes().any(|c| c.is_ascii_digit() && c != b'0') {
        out.push('-');
    }
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::thousands;

    #[test]
    fn groups_thousands_and_keeps_decimals() {
        assert_eq!(thousands(3228.4, 0), "3,228");
        assert_eq!(thousands(-1234567.0, 0), "-1,234,567");
        assert_eq!(thousands(1234.56, 1), "1,234.6");
        assert_eq!(thousands(50.0, 0), "50");
        assert_eq!(thousands(-0.0004, 2), "0.00");
    }
}
