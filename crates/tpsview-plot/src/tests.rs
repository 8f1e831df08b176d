use super::*;
use tpsview_core::chart_spec::{self, Bar, ChartOptions};
use tpsview_core::metrics::MetricOptions;
use tpsview_core::summary::Summary;

fn seed() -> (tpsview_core::model::Report, Summary) {
    let report = tpsview_core::simulate::seed_report();
    let text = tpsview_core::formats::tpsview::write(&report);
    let parsed = tpsview_core::parse_any("seed.json", text.as_bytes()).unwrap();
    (
        report,
        tpsview_core::summarize(vec![parsed], &MetricOptions::default()),
    )
}

/// Draws `spec` into an SVG string and returns it with the layout.
fn render(spec: &chart_spec::ChartSpec) -> (String, Layout) {
    let mut svg = String::new();
    let layout = {
        let area = Backend::Svg(SVGBackend::with_string(&mut svg, (800, 600))).into_drawing_area();
        draw_chart(&area, spec, Theme::default()).unwrap()
    };
    (svg, layout)
}

#[test]
fn throughput_svg_has_both_panels_lines_markers_and_log2_labels() {
    let (_, s) = seed();
    let svg = chart_svg(
        &chart_spec::throughput(&s, &ChartOptions::default()),
        (800, 600),
    )
    .unwrap();
    assert!(svg.contains("system T/s"));
    assert!(svg.contains("per-stream T/s"));
    assert_eq!(
        svg.matches(r#"stroke-width="2""#).count(),
        2 + 2 + 1,
        "a data line per panel, its legend swatch, and the peak's ring"
    );
    assert_eq!(
        svg.matches("<circle").count(),
        8 + 1,
        "a marker per point, and the peak's ring"
    );
    for label in [">\n1\n<", ">\n16\n<", ">\n64\n<", ">\n128\n<"] {
        assert!(svg.contains(label), "x label {label:?}");
    }
}

#[test]
fn latency_svg_draws_bands_as_polygons() {
    let (_, s) = seed();
    let svg = chart_svg(
        &chart_spec::latency(&s, &ChartOptions::default()),
        (800, 600),
    )
    .unwrap();
    assert_eq!(
        svg.matches("<polygon").count(),
        2,
        "p50–p99 bands of TPOT and TTFT"
    );
}

#[test]
fn interactivity_svg_labels_points_and_draws_the_frontier() {
    let (_, s) = seed();
    let svg = chart_svg(
        &chart_spec::interactivity(&s, &ChartOptions::default()),
        (800, 500),
    )
    .unwrap();
    assert!(svg.contains("  128"), "point label");
    assert!(svg.contains("Pareto frontier"));
}

#[test]
fn timeline_svg_draws_two_spans_per_request_and_the_steady_window() {
    let (report, _) = seed();
    let spec = chart_spec::timeline(&report.runs[0].points[1]).unwrap();
    let svg = chart_svg(&spec, (800, 500)).unwrap();
    assert!(
        svg.matches("<rect").count() > 2 * 128,
        "two spans per request and the steady window"
    );
    assert!(svg.contains("steady state"));
}

#[test]
fn layout_maps_pixels_back_to_data() {
    let (_, s) = seed();
    let spec = chart_spec::throughput(&s, &ChartOptions::default());
    let (_, layout) = render(&spec);
    assert_eq!(layout.panels.len(), 2);
    let p = layout.panels[0];
    let (l, r, t, b) = (
        f64::from(p.rect.0),
        f64::from(p.rect.1),
        f64::from(p.rect.2),
        f64::from(p.rect.3),
    );
    let (panel, x, y) = layout.data_at(l, b).unwrap();
    assert_eq!(panel, 0);
    assert!((x - spec.x.range.0).abs() < 1e-9 && (y - spec.panels[0].y.range.0).abs() < 1e-9);
    let (_, x, _) = layout.data_at(r, t).unwrap();
    assert!((x / spec.x.range.1 - 1.0).abs() < 1e-9);
    assert!(
        layout.data_at(0.0, 0.0).is_none(),
        "outside every plotting area"
    );
    let (panel, _, _) = layout
        .data_at((l + r) / 2.0, f64::from(layout.panels[1].rect.2) + 5.0)
        .unwrap();
    assert_eq!(panel, 1);
}

#[test]
fn hover_layer_draws_a_crosshair_and_a_ring_per_series_at_the_level() {
    let (_, s) = seed();
    let spec = chart_spec::throughput(&s, &ChartOptions::default());
    let (_, layout) = render(&spec);
    let h = spec.hover(64.0, None, 0).unwrap();
    let mut layer = String::new();
    {
        let area =
            Backend::Svg(SVGBackend::with_string(&mut layer, (800, 600))).into_drawing_area();
        draw_hover(&area, &spec, &layout, Some(&h), Theme::default()).unwrap();
    }
    assert_eq!(
        layer.matches("<circle").count(),
        2,
        "one ring per panel's series"
    );
    assert_eq!(
        layer.matches("<polyline").count(),
        2,
        "one crosshair per panel"
    );
    // A timeline's tooltip marks its own bar even when another request was sent at the same time.
    let (report, _) = seed();
    let mut tl = chart_spec::timeline(&report.runs[0].points[1]).unwrap();
    tl.bars[4].start = tl.bars[3].start;
    let (_, tl_layout) = render(&tl);
    let marks: Vec<String> = [3usize, 4]
        .iter()
        .map(|&row| {
            let h = tl.hover(1.0, Some(row as f64 + 0.5), 0).unwrap();
            let mut marks = String::new();
            {
                let area = Backend::Svg(SVGBackend::with_string(&mut marks, (800, 600)))
                    .into_drawing_area();
                draw_hover(&area, &tl, &tl_layout, Some(&h), Theme::default()).unwrap();
            }
            assert_eq!(marks.matches("<rect").count(), 1, "{marks}");
            marks
        })
        .collect();
    assert_ne!(
        marks[0], marks[1],
        "rows 3 and 4 are marked at their own rows"
    );
    // The ring sits where the point was drawn.
    let p = layout.panels[0];
    let (cx, _) = p.pixel(6.0, 0.0);
    assert!(layer.contains(&format!("cx=\"{cx}\"")), "{layer}");
    let mut empty = String::new();
    {
        let area =
            Backend::Svg(SVGBackend::with_string(&mut empty, (800, 600))).into_drawing_area();
        draw_hover(&area, &spec, &layout, None, Theme::default()).unwrap();
    }
    assert!(!empty.contains("<circle"));
}

#[test]
fn empty_and_degenerate_charts_draw_without_error() {
    let empty = Summary {
        runs: vec![],
        diagnostics: vec![],
    };
    for spec in [
        chart_spec::throughput(&empty, &ChartOptions::default()),
        chart_spec::interactivity(&empty, &ChartOptions::default()),
    ] {
        assert!(chart_svg(&spec, (400, 300)).unwrap().contains("<rect"));
    }
}

#[test]
fn the_legend_never_sits_on_the_only_point() {
    // One level (a single vLLM file): its point is at the top left of the system panel.
    let text = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/vllm/detailed-small.json"
    ))
    .unwrap();
    let parsed = tpsview_core::parse_any("d.json", &text).unwrap();
    let s = tpsview_core::summarize(vec![parsed], &MetricOptions::default());
    let spec = chart_spec::throughput(&s, &ChartOptions::default());
    let pos = legend_corner(&spec, &spec.panels[0]);
    assert!(
        !matches!(pos, SeriesLabelPosition::UpperLeft),
        "the point is at the upper left"
    );
    // Rising lines keep the upper left free; falling ones the lower left.
    let (_, seed) = seed();
    let spec = chart_spec::throughput(&seed, &ChartOptions::default());
    assert!(matches!(
        legend_corner(&spec, &spec.panels[0]),
        SeriesLabelPosition::UpperLeft
    ));
    assert!(matches!(
        legend_corner(&spec, &spec.panels[1]),
        SeriesLabelPosition::LowerLeft | SeriesLabelPosition::LowerRight
    ));
}

#[test]
fn a_timeline_with_more_requests_than_pixel_rows_draws_few_rectangles_covering_the_same_time() {
    // 10,000 requests, 10 in flight, each waiting 0.1 s then decoding 1 s.
    let bars: Vec<Bar> = (0..10_000)
        .map(|i| {
            let s = (i / 10) as f64 * 1.1;
            Bar {
                row: i,
                turn: None,
                request: i,
                start: s,
                first_token: s + 0.1,
                end: s + 1.1,
                failed: i % 997 == 0,
            }
        })
        .collect();
    let few = spans::timeline_spans(&bars[..100], 400, 1000, (0.0, 1100.0));
    assert_eq!(
        few.len(),
        2 * 99,
        "one wait and one decode span per request that did not fail"
    );
    let spans = spans::timeline_spans(&bars, 400, 1000, (0.0, 1100.0));
    assert!(spans.len() <= 400 * 2 * 3, "{} rectangles", spans.len());
    // Every pixel row group covers exactly its requests' rows, and the union of their time.
    let group = 10_000usize.div_ceil(400);
    for s in &spans {
        assert_eq!(s.row0 as usize % group, 0);
        assert!(s.x1 >= s.x0);
    }
    // Rows 0..25 are 3 batches (the first request failed): decode covers 0.1–1.1, 1.2–2.2 and
    // 2.3–3.3. At 1,000 columns over 1,100 s a pixel is 1.1 s: the 0.1 s gaps close (0.1–3.3);
    // at 100,000 columns they stay.
    let decode_of = |spans: &[spans::Span]| -> f64 {
        spans
            .iter()
            .filter(|s| s.row0 == 0.0 && s.decode)
            .map(|s| s.x1 - s.x0)
            .sum()
    };
    assert!((decode_of(&spans) - 3.2).abs() < 1e-9);
    let fine = spans::timeline_spans(&bars, 400, 100_000, (0.0, 1100.0));
    assert!(
        (decode_of(&fine) - 3.0).abs() < 1e-9,
        "{}",
        decode_of(&fine)
    );
    assert!(spans
        .iter()
        .any(|s| s.row0 == 0.0 && !s.decode && s.x0.abs() < 1e-12));
}

#[test]
fn twelve_run_colours_before_one_repeats() {
    let first: std::collections::BTreeSet<(u8, u8, u8)> =
        (0..12).map(run_colour).map(|c| (c.0, c.1, c.2)).collect();
    assert_eq!(first.len(), 12);
    assert_eq!(run_colour(12), run_colour(0));
}

#[test]
fn exports_carry_the_legend_and_a_provenance_footer_the_page_canvas_does_not() {
    let (_, s) = seed();
    let spec = chart_spec::throughput(&s, &ChartOptions::default());
    let footer = "tpsview · run A · model M · a.json · 2026-11-30";
    let svg = chart_svg_with_footer(&spec, (900, 600), Some(footer)).unwrap();
    assert!(svg.contains(footer), "the footer is in the image");
    // The legend's words are drawn into an export…
    let entries = legend_entries(&spec, false);
    assert!(!entries.is_empty());
    for e in &entries {
        assert!(svg.contains(&e.label), "{} in the export", e.label);
    }
    // …and not into the page's canvas, whose legend is HTML.
    let mut page = String::new();
    {
        let area = Backend::Svg(SVGBackend::with_string(&mut page, (900, 600))).into_drawing_area();
        draw_chart(
            &area,
            &spec,
            Theme {
                legend: false,
                ..Theme::default()
            },
        )
        .unwrap();
    }
    for e in &entries {
        assert!(!page.contains(&e.label), "{} drawn over the data", e.label);
    }
    // One entry per run and series, in the run's colour.
    assert_eq!(entries[0].colour, run_colour(0));
    assert!(entries[0].label.ends_with("— system T/s"));
}

#[test]
fn peak_and_knee_marks_are_drawn_with_their_labels() {
    let (_, s) = seed();
    let spec = chart_spec::throughput(&s, &ChartOptions::default());
    assert_eq!(spec.marks.len(), 1);
    let svg = chart_svg(&spec, (900, 600)).unwrap();
    let mut none = spec.clone();
    none.marks.clear();
    let bare = chart_svg(&none, (900, 600)).unwrap();
    assert_eq!(
        svg.matches("peak").count(),
        bare.matches("peak").count() + 1,
        "the label is drawn"
    );
    assert_eq!(
        svg.matches("<circle").count(),
        bare.matches("<circle").count() + 1,
        "one ring more"
    );
}

#[test]
fn on_a_log_y_axis_a_pointer_maps_back_to_the_value_drawn_there() {
    let (_, s) = seed();
    let spec = chart_spec::throughput(
        &s,
        &ChartOptions {
            log_y: true,
            ..Default::default()
        },
    );
    let (svg, layout) = render(&spec);
    let p = layout.panels[0];
    assert_eq!(p.y_scale, chart_spec::Scale::Log10);
    // A decade is labelled on the axis.
    assert!(
        svg.contains(">\n100\n<") || svg.contains(">\n1000\n<"),
        "decade labels"
    );
    // The seed's point at concurrency 16: its pixel maps back to its value.
    let (x, y) = spec.panels[0].series[0].points[1];
    let (px, py) = p.pixel(x.log2(), y.log10());
    let (panel, _, back) = layout.data_at(f64::from(px), f64::from(py)).unwrap();
    assert_eq!(panel, 0);
    assert!((back / y - 1.0).abs() < 0.02, "{back} vs {y}");
}

#[test]
fn a_long_title_shrinks_then_is_cut_to_fit_a_narrow_canvas() {
    let t = "system T/s: the decode model's bound (dashed) and the run's levels";
    assert_eq!(fit_caption(t, 900, 1.0), (t.to_owned(), 13.0));
    // 66 characters at 0.55 em: 13 px needs 472 px, 10 px 363 px.
    let (same, size) = fit_caption(t, 400, 1.0);
    assert_eq!(same, t);
    assert!((10.0..13.0).contains(&size));
    let (cut, size) = fit_caption(t, 300, 1.0);
    assert_eq!(size, 10.0);
    assert!(
        cut.ends_with('…') && cut.chars().count() as f64 * 5.5 <= 300.0 - 16.0,
        "{cut}"
    );
}

/// The `<text …>` tag whose content is `label` in a plotters SVG, and its `y`.
fn text_at(svg: &str, label: &str) -> (String, f64) {
    let end = svg
        .find(&format!(">\n{label}\n</text>"))
        .expect("the label");
    let start = svg[..end].rfind("<text").expect("its element");
    let tag = &svg[start..end];
    let at = tag.find(" y=\"").expect("a y") + 4;
    let y = tag[at..at + tag[at..].find('"').unwrap()].parse().unwrap();
    (tag.to_owned(), y)
}

/// Whether a label hangs above its point (anchored by its bottom).
fn above(tag: &str) -> bool {
    tag.contains("dy=\"-0.5ex\"")
}

#[test]
fn a_label_marked_below_is_drawn_under_its_ring() {
    let (_, s) = seed();
    let mut spec = chart_spec::throughput(&s, &ChartOptions::default());
    let peak = spec.marks[0].clone();
    let at = |mut m: chart_spec::Annotation, x: f64, y: f64, text: &str| {
        m.x = x;
        m.y = y;
        m.text = text.into();
        m
    };
    // A knee at the peak's point, marked below by the spec: the peak's label above the ring,
    // the knee's under it.
    let mut knee = at(peak.clone(), peak.x, peak.y, "knee");
    knee.below = true;
    spec.marks = vec![peak.clone(), knee];
    let svg = chart_svg(&spec, (900, 600)).unwrap();
    let ((pt, p), (kt, k)) = (text_at(&svg, "peak"), text_at(&svg, "knee"));
    assert!(above(&pt) && !above(&kt), "{pt}\n{kt}");
    // Above ends at its y, below starts at its own: apart by the ring and two gaps.
    assert!(k - p >= 14.0, "peak label at y {p}, knee at y {k}");
    // Far from it (the first level, a quarter as high): both above their rings.
    let low = at(
        peak.clone(),
        spec.panels[0].series[0].points[0].0,
        peak.y / 4.0,
        "knee",
    );
    spec.marks = vec![peak, low];
    let svg = chart_svg(&spec, (900, 600)).unwrap();
    let ((pt, _), (kt, _)) = (text_at(&svg, "peak"), text_at(&svg, "knee"));
    assert!(above(&pt) && above(&kt), "{pt}\n{kt}");
}

#[test]
fn plotters_errors_become_typed_plot_errors_with_their_words() {
    use plotters::prelude::DrawingAreaErrorKind;
    use plotters_backend::DrawingErrorKind;
    let io = std::io::Error::other("disk full");
    let e: PlotError =
        DrawingAreaErrorKind::BackendError(DrawingErrorKind::DrawingError(io)).into();
    assert_eq!(e, PlotError::Backend("disk full".into()));
    assert_eq!(e.to_string(), "the chart could not be drawn: disk full");
    let e: PlotError = DrawingAreaErrorKind::<std::io::Error>::LayoutError.into();
    assert_eq!(e, PlotError::Layout);
    let e: PlotError = DrawingAreaErrorKind::<std::io::Error>::SharingError.into();
    assert_eq!(e, PlotError::Sharing);
    let font: Box<dyn std::error::Error + Send + Sync> = "no glyph".into();
    let e: PlotError =
        DrawingAreaErrorKind::<std::io::Error>::BackendError(DrawingErrorKind::FontError(font))
            .into();
    assert_eq!(e, PlotError::Font("no glyph".into()));
}
