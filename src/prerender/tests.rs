use super::*;

/// The committed first view is what the components render now: any change to a component, a
/// class, a number's format, the core's arithmetic or the sample shows here first.
#[test]
fn the_committed_first_view_is_what_the_components_render() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(PATH);
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let now = first_view_html();
    if committed != now {
        let at = committed
            .bytes()
            .zip(now.bytes())
            .position(|(a, b)| a != b)
            .unwrap_or(committed.len().min(now.len()));
        let around = |s: &str| {
            s.get(at.saturating_sub(80)..(at + 80).min(s.len()))
                .unwrap_or("")
                .to_owned()
        };
        panic!(
            "{PATH} is not what the components render now (first difference at byte {at}):\n  committed: …{}…\n  rendered:  …{}…\nregenerate it: cargo run -p tpsview-web -- first-view",
            around(&committed),
            around(&now)
        );
    }
}

/// The contract the page's scripts and tests rely on: the static chart, the cards' and the
/// table's test ids with their values, the status line the boot script writes into, and inert
/// controls (nothing is wired to them before the app replaces them).
#[test]
fn the_first_view_carries_the_apps_test_ids_and_values() {
    let html = first_view_html();
    for want in [
        r#"data-testid="chart-throughput""#,
        r#"data-drawn="true""#,
        r#"data-static="true""#,
        r#"data-testid="kpi-peak-system""#,
        r#"data-testid="summary-row""#,
        r#"data-testid="run-header""#,
        r#"id="boot-status""#,
        r#"<div class="viewer-page-controls" inert>"#,
        "<svg",
    ] {
        assert!(html.contains(want), "the first view lacks {want}");
    }
    // The peak system T/s card's value is the largest system T/s of the table's rows.
    let values = |attr: &str| -> Vec<f64> {
        html.split(attr)
            .skip(1)
            .filter_map(|rest| rest.split('"').nth(1)?.parse().ok())
            .collect()
    };
    let peak = html
        .split(r#"data-testid="kpi-peak-system""#)
        .nth(1)
        .and_then(|rest| {
            rest.split("data-value=\"")
                .nth(1)?
                .split('"')
                .next()?
                .parse::<f64>()
                .ok()
        })
        .expect("the peak card has a data-value");
    let system = values(r#"data-metric="system_tps" data-value="#);
    assert!(!system.is_empty(), "the table has system T/s cells");
    let max = system.iter().cloned().fold(f64::MIN, f64::max);
    assert!(
        (peak - max).abs() <= 1e-9 * max,
        "peak card {peak} vs the table's largest {max}"
    );
    // No script and no event attribute: the static view runs nothing.
    assert!(
        !html.contains("<script"),
        "the first view carries no script"
    );
    let handler = html.match_indices(" on").any(|(i, _)| {
        let rest = &html[i + 3..];
        let name: String = rest.chars().take_while(char::is_ascii_lowercase).collect();
        !name.is_empty() && rest[name.len()..].starts_with('=')
    });
    assert!(!handler, "the first view carries no event attribute");
}
