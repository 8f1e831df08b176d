//! What a pointer or the arrow keys find on a chart: the tooltip's rows at a position, a level
//! pinned by the walkthrough, the levels the keys step through.

use super::*;

impl ChartSpec {
    /// A chart of `id` with nothing in it.
    pub fn empty(id: ChartKind) -> ChartSpec {
        ChartSpec {
            id,
            x: Axis {
                label: String::new(),
                scale: Scale::Linear,
                range: (0.0, 1.0),
            },
            panels: Vec::new(),
            bars: Vec::new(),
            shade: None,
            marks: Vec::new(),
        }
    }

    /// The tooltip at data x `x` (and, for the scatter chart, data y `y` in panel `panel`): the
    /// nearest point's x, and the value of every visible series there.
    pub fn hover(&self, x: f64, y: Option<f64>, panel: usize) -> Option<Hover> {
        if self.id == ChartKind::Interactivity {
            return self.hover_point(x, y?, panel);
        }
        // The requests' panel; the server's panels under it are hovered as lines.
        if self.id == ChartKind::Timeline && panel == 0 {
            let row = y?.floor() as usize;
            // A session's lane holds its turns: the one under the pointer, else the nearest.
            let gap = |b: &Bar| (b.start - x).max(x - b.end).max(0.0);
            let bar = (0..self.bars.len())
                .filter(|&k| self.bars[k].row == row)
                .min_by(|&a, &b| gap(&self.bars[a]).total_cmp(&gap(&self.bars[b])))?;
            let b = &self.bars[bar];
            let rows = if b.failed {
                vec![HoverRow {
                    panel: String::new(),
                    run: String::new(),
                    series: "failed or unusable: no timing".into(),
                    value: f64::NAN,
                }]
            } else {
                vec![
                    HoverRow {
                        panel: String::new(),
                        run: String::new(),
                        series: "sent at (s)".into(),
                        value: b.start,
                    },
                    HoverRow {
                        panel: String::new(),
                        run: String::new(),
                        series: "TTFT (ms)".into(),
                        value: (b.first_token - b.start) * 1e3,
                    },
                    HoverRow {
                        panel: String::new(),
                        run: String::new(),
                        series: "decode (ms)".into(),
                        value: (b.end - b.first_token) * 1e3,
                    },
                    HoverRow {
                        panel: String::new(),
                        run: String::new(),
                        series: "E2E (ms)".into(),
                        value: (b.end - b.start) * 1e3,
                    },
                ]
            };
            return Some(Hover {
                x: b.start,
                title: match b.turn {
                    Some(t) => format!("session {}, turn {t} (request {})", b.row + 1, b.request),
                    None => format!("request {} (row {})", b.request, b.row),
                },
                rows,
                at: vec![HoverAt::Bar(bar)],
            });
        }
        let ax = self.x.scale.to_axis(x)?;
        let nearest = self
            .panels
            .iter()
            // The batch the server ran is drawn, not hovered: its x is not a level.
            .flat_map(|p| p.series.iter().filter(|s| s.name != super::RAN))
            .flat_map(|s| s.points.iter().map(|q| q.0))
            .filter_map(|px| Some((px, (self.x.scale.to_axis(px)? - ax).abs())))
            .min_by(|a, b| a.1.total_cmp(&b.1))?
            .0;
        let (mut rows, mut at) = (Vec::new(), Vec::new());
        for (pi, p) in self.panels.iter().enumerate() {
            for (si, s) in p.series.iter().enumerate() {
                if s.name == super::RAN {
                    continue;
                }
                // `nearest` is one of the points' own x values: an exact match, not a tolerance.
                if let Some(k) = s.points.iter().position(|q| q.0 == nearest) {
                    rows.push(HoverRow {
                        panel: p.title.clone(),
                        run: s.run_label.clone(),
                        series: s.name.clone(),
                        value: s.points[k].1,
                    });
                    at.push(HoverAt::Point {
                        panel: pi,
                        series: si,
                        point: k,
                    });
                }
            }
        }
        Some(Hover {
            x: nearest,
            title: format!(
                "{} {nearest}",
                self.x.label.split([' ', ',']).next().unwrap_or("level")
            ),
            rows,
            at,
        })
    }

    fn hover_point(&self, x: f64, y: f64, panel: usize) -> Option<Hover> {
        let p = self.panels.get(panel)?;
        let (sx, sy) = (
            (self.x.range.1 - self.x.range.0).max(1e-12),
            (p.y.range.1 - p.y.range.0).max(1e-12),
        );
        let (si, k) = p
            .series
            .iter()
            .enumerate()
            .filter(|(_, s)| s.mark == Mark::Points)
            .flat_map(|(si, s)| {
                s.points
                    .iter()
                    .enumerate()
                    .map(move |(k, q)| (si, k, ((q.0 - x) / sx).hypot((q.1 - y) / sy)))
            })
            .min_by(|a, b| a.2.total_cmp(&b.2))
            .map(|(si, k, _)| (si, k))?;
        let s = &p.series[si];
        let (px, py) = s.points[k];
        let label = s.labels.get(k).cloned().unwrap_or_default();
        // The axes' quantities as the chart was built: x per stream or per user, y system T/s or
        // a cost.
        let x_name = if self.x.label == super::interactivity::PER_USER_X_LABEL {
            "tokens/s per user, p90"
        } else {
            "per-stream T/s"
        };
        let y_name = p.y.label.strip_suffix(" (log)").unwrap_or(&p.y.label);
        Some(Hover {
            x: px,
            title: format!("{} at concurrency {label}", s.run_label),
            rows: vec![
                HoverRow {
                    panel: p.title.clone(),
                    run: s.run_label.clone(),
                    series: x_name.into(),
                    value: px,
                },
                HoverRow {
                    panel: p.title.clone(),
                    run: s.run_label.clone(),
                    series: y_name.into(),
                    value: py,
                },
            ],
            at: vec![HoverAt::Point {
                panel,
                series: si,
                point: k,
            }],
        })
    }

    /// The tooltip for level `x` as if hovered on its first point (the walkthrough's highlight).
    pub fn pin(&self, x: f64) -> Option<Hover> {
        let y = self
            .panels
            .first()?
            .series
            .iter()
            .flat_map(|s| &s.points)
            .find(|p| p.0 == x)?
            .1;
        self.hover(x, Some(y), 0)
    }

    /// [`ChartSpec::pin`] by concurrency level: on the scatter chart, whose x is per-stream T/s,
    /// the point labelled with that level.
    pub fn pin_level(&self, concurrency: f64) -> Option<Hover> {
        if self.id != ChartKind::Interactivity {
            return self.pin(concurrency);
        }
        let label = format!("{concurrency}");
        let s = self
            .panels
            .first()?
            .series
            .iter()
            .find(|s| s.labels.contains(&label))?;
        let k = s.labels.iter().position(|l| *l == label)?;
        self.hover(s.points[k].0, Some(s.points[k].1), 0)
    }

    /// The distinct x positions of all series, ascending (the levels arrow keys step through).
    pub fn levels(&self) -> Vec<f64> {
        let mut xs: Vec<f64> = self
            .panels
            .iter()
            // The batch the server ran is drawn, not hovered: its x is not a level.
            .flat_map(|p| p.series.iter().filter(|s| s.name != super::RAN))
            .flat_map(|s| s.points.iter().map(|q| q.0))
            .collect();
        xs.sort_unstable_by(f64::total_cmp);
        xs.dedup();
        xs
    }

    /// The tooltip one level to the right (`step` = 1) or left (−1) of `from`, or at the first
    /// level when nothing is shown yet; clamped at both ends.
    pub fn step_hover(&self, from: Option<f64>, step: i32) -> Option<Hover> {
        let xs = self.levels();
        let last = xs.len().checked_sub(1)?;
        let next = match from.and_then(|x| xs.iter().position(|&l| l == x)) {
            Some(i) => (i as i64 + i64::from(step)).clamp(0, last as i64) as usize,
            None => 0,
        };
        self.pin(xs[next])
    }

    /// Every series name a user can toggle, in order, once each.
    pub fn series_names(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for s in self.panels.iter().flat_map(|p| &p.series) {
            if !out.contains(&s.name) {
                out.push(s.name.clone());
            }
        }
        out
    }
}
