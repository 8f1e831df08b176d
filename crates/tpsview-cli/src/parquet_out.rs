//! `tpsview convert --to parquet`: the loaded runs as two Parquet tables for the engines that
//! compare thousands of runs (DuckDB, Polars, Spark): `points.parquet`, a row per run and level
//! with every figure `summarize --json` prints, and `requests.parquet`, a row per request.
//!
//! Written with the `parquet` crate's column writer (no Arrow arrays, no compression codec):
//! each table is a list of typed, nullable columns; an undefined figure is a null, never 0 or NaN.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use bytes::Bytes;
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

use tpsview_core::model::{Outcome, Report, RequestFacts};
use tpsview_core::stats::Dist;
use tpsview_core::summary::Summary;

/// Rows per row group (DuckDB and Polars read row groups in parallel).
const ROW_GROUP: usize = 1 << 20;

/// One column's values; `None` is a null.
enum Values {
    F64(Vec<Option<f64>>),
    I64(Vec<Option<i64>>),
    Bool(Vec<Option<bool>>),
    /// Indices into the table's strings (repeated texts such as run ids are stored once here).
    Text(Vec<Option<u32>>),
}

impl Values {
    fn len(&self) -> usize {
        match self {
            Values::F64(v) => v.len(),
            Values::I64(v) => v.len(),
            Values::Bool(v) => v.len(),
            Values::Text(v) => v.len(),
        }
    }

    fn physical(&self) -> &'static str {
        match self {
            Values::F64(_) => "DOUBLE",
            Values::I64(_) => "INT64",
            Values::Bool(_) => "BOOLEAN",
            Values::Text(_) => "BYTE_ARRAY",
        }
    }
}

/// A named column.
struct Column {
    name: &'static str,
    /// False for a column that is never null (`REQUIRED` in the schema).
    nullable: bool,
    values: Values,
}

/// A table being built row by row.
#[derive(Default)]
struct Table {
    columns: Vec<Column>,
    texts: Vec<Bytes>,
    text_index: std::collections::HashMap<String, u32>,
    /// The column after the last one pushed to.
    next: usize,
}

impl Table {
    fn column(&mut self, name: &'static str, nullable: bool, empty: fn() -> Values) -> &mut Values {
        // Every row pushes its columns in the same order: the column after the last one pushed is
        // almost always the one asked for (no search per value on a million-row table).
        let hint = self.next % self.columns.len().max(1);
        let found = match self.columns.get(hint) {
            Some(c) if c.name == name => Some(hint),
            _ => self.columns.iter().position(|c| c.name == name),
        };
        let i = match found {
            Some(i) => i,
            None => {
                self.columns.push(Column {
                    name,
                    nullable,
                    values: empty(),
                });
                self.columns.len() - 1
            }
        };
        self.next = i + 1;
        &mut self.columns[i].values
    }

    /// A double; an undefined figure (none, or NaN) is a null. Infinity stays: a request rate of
    /// "all at once" is +∞, as in `summarize --json`'s `"inf"`.
    fn f64(&mut self, name: &'static str, v: Option<f64>) {
        if let Values::F64(c) = self.column(name, true, || Values::F64(Vec::new())) {
            c.push(v.filter(|x| !x.is_nan()));
        }
    }

    fn i64(&mut self, name: &'static str, nullable: bool, v: Option<i64>) {
        if let Values::I64(c) = self.column(name, nullable, || Values::I64(Vec::new())) {
            c.push(v);
        }
    }

    fn bool(&mut self, name: &'static str, nullable: bool, v: Option<bool>) {
        if let Values::Bool(c) = self.column(name, nullable, || Values::Bool(Vec::new())) {
            c.push(v);
        }
    }

    fn text(&mut self, name: &'static str, nullable: bool, v: Option<&str>) {
        let id = v.map(|s| match self.text_index.get(s) {
            Some(&id) => id,
            None => {
                let id = self.texts.len() as u32;
                self.texts.push(Bytes::copy_from_slice(s.as_bytes()));
                self.text_index.insert(s.to_owned(), id);
                id
            }
        });
        if let Values::Text(c) = self.column(name, nullable, || Values::Text(Vec::new())) {
            c.push(id);
        }
    }

    fn rows(&self) -> usize {
        self.columns.first().map_or(0, |c| c.values.len())
    }

    /// The Parquet schema: every column in order, texts as UTF-8 strings.
    fn schema(&self, name: &str) -> String {
        let mut out = format!("message {name} {{\n");
        for c in &self.columns {
            let annotation = if matches!(c.values, Values::Text(_)) {
                " (UTF8)"
            } else {
                ""
            };
            out.push_str(&format!(
                "  {} {} {}{annotation};\n",
                if c.nullable { "OPTIONAL" } else { "REQUIRED" },
                c.values.physical(),
                c.name
            ));
        }
        out.push('}');
        out
    }

    fn write(&self, path: &Path, name: &str) -> anyhow::Result<()> {
        let rows = self.rows();
        debug_assert!(self.columns.iter().all(|c| c.values.len() == rows));
        let schema = Arc::new(parse_message_type(&self.schema(name))?);
        let props = Arc::new(WriterProperties::builder().build());
        let file =
            File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
        let mut writer = SerializedFileWriter::new(file, schema, props)?;
        let mut from = 0;
        loop {
            let to = (from + ROW_GROUP).min(rows);
            let mut group = writer.next_row_group()?;
            let mut columns = self.columns.iter();
            while let Some(mut out) = group.next_column()? {
                let Some(c) = columns.next() else {
                    anyhow::bail!("schema and columns differ");
                };
                match &c.values {
                    Values::F64(v) => write_batch(out.typed::<DoubleType>(), &v[from..to], |x| *x)?,
                    Values::I64(v) => write_batch(out.typed::<Int64Type>(), &v[from..to], |x| *x)?,
                    Values::Bool(v) => write_batch(out.typed::<BoolType>(), &v[from..to], |x| *x)?,
                    Values::Text(v) => {
                        write_batch(out.typed::<ByteArrayType>(), &v[from..to], |i| {
                            ByteArray::from(self.texts[*i as usize].clone())
                        })?
                    }
                }
                out.close()?;
            }
            group.close()?;
            if to >= rows {
                break;
            }
            from = to;
        }
        writer.close()?;
        Ok(())
    }
}

/// Writes one column chunk: the non-null values and, for every row, its definition level
/// (1 = a value, 0 = a null; a required column's levels are all 1 and not written).
fn write_batch<T: parquet::data_type::DataType, V>(
    w: &mut parquet::column::writer::ColumnWriterImpl<'_, T>,
    rows: &[Option<V>],
    value: impl Fn(&V) -> T::T,
) -> anyhow::Result<()> {
    for part in rows.chunks(1 << 16) {
        let values: Vec<T::T> = part.iter().flatten().map(&value).collect();
        let levels: Vec<i16> = part.iter().map(|v| i16::from(v.is_some())).collect();
        let required = w.get_descriptor().max_def_level() == 0;
        if required && values.len() != part.len() {
            anyhow::bail!("a null in a required column");
        }
        w.write_batch(&values, (!required).then_some(&levels[..]), None)?;
    }
    Ok(())
}

/// Each latency distribution's statistics, as `<name>_<stat>_ms` columns.
fn dist(t: &mut Table, names: [&'static str; 4], d: &Dist) {
    t.f64(names[0], d.mean);
    t.f64(names[1], d.p50);
    t.f64(names[2], d.p90);
    t.f64(names[3], d.p99);
}

/// Writes `points.parquet` and `requests.parquet` into `dir` (created if missing): `summary` is the
/// summary of `report` (the same runs and points, in the same order). `slo` and `cost` say whether
/// their columns are written. Returns the rows written to each.
pub fn write(
    dir: &Path,
    report: &Report,
    summary: &Summary,
    slo: bool,
    cost: bool,
) -> anyhow::Result<(usize, usize)> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    anyhow::ensure!(
        report.runs.len() == summary.runs.len(),
        "the summary's runs differ from the report's"
    );
    let mut points = Table::default();
    let mut requests = Table::default();
    // Energy columns when any level has energy.
    let energy = summary
        .runs
        .iter()
        .any(|r| r.points.iter().any(|p| p.energy.is_some()));
    // The server's figures get their columns when any level has them (`bench --server-metrics`).
    let server = summary
        .runs
        .iter()
        .any(|r| r.points.iter().any(|p| p.server.is_some()));
    // The numbers of 2026 get their columns when any level has any of them; the requests' facts
    // when any level's requests carry them.
    let turns = summary.runs.iter().flat_map(|r| &r.points).any(|p| {
        let t = &p.metrics.turns;
        t.ttfvt_ms.is_some()
            || t.reasoning_tokens.is_some()
            || t.input_tokens.is_some()
            || t.sessions.is_some()
    });
    let facts = report
        .runs
        .iter()
        .flat_map(|r| &r.points)
        .any(|p| p.requests.as_ref().is_some_and(|q| q.facts.is_some()));
    // The request table's columns, declared first so that a report without per-request data
    // still gets the whole schema (and no row).
    let text = || Values::Text(Vec::new());
    let (i64s, f64s, bools) = (
        || Values::I64(Vec::new()),
        || Values::F64(Vec::new()),
        || Values::Bool(Vec::new()),
    );
    for (name, nullable, empty) in [
        ("run_id", false, text as fn() -> Values),
        ("run", false, text),
        ("level", false, i64s),
        ("concurrency", true, f64s),
        ("request", false, i64s),
        ("ok", false, bools),
        ("status", false, text),
        ("error", true, text),
        ("input_tokens", true, i64s),
        ("output_tokens", false, i64s),
        ("ttft_s", true, f64s),
        ("e2e_s", true, f64s),
        ("tpot_s", true, f64s),
        ("start_s", true, f64s),
    ] {
        requests.column(name, nullable, empty);
    }
    if facts {
        requests.column("session", true, text);
        for name in ["turn", "reasoning_tokens", "cached_prompt_tokens"] {
            requests.column(name, true, i64s);
        }
        requests.column("ttfvt_s", true, f64s);
    }
    for (run, rs) in report.runs.iter().zip(&summary.runs) {
        anyhow::ensure!(run.points.len() == rs.points.len(), "a run's levels differ");
        let id = rs.id.as_str();
        for (level, (point, ps)) in run.points.iter().zip(&rs.points).enumerate() {
            let m = &ps.metrics;
            points.text("run_id", false, Some(id));
            points.text("run", false, Some(&rs.label));
            points.i64("level", false, Some(level as i64));
            points.text("source_file", false, Some(&ps.source_file));
            points.text("source_format", false, Some(&rs.source_format));
            points.text("model", true, rs.meta.model.as_deref());
            points.text("gpu", true, rs.meta.gpu.as_deref());
            points.i64("gpu_count", true, rs.meta.gpu_count.map(i64::from));
            points.f64("concurrency", m.concurrency);
            points.f64("request_rate", m.request_rate);
            let basis = serde_json::to_value(m.basis)?;
            points.text("basis", false, basis.as_str());
            points.f64("duration_s", m.duration_s);
            points.i64("requests_ok", true, m.requests_ok.map(|v| v as i64));
            points.i64("requests_failed", true, m.requests_failed.map(|v| v as i64));
            points.i64("requests_invalid", false, Some(m.requests_invalid as i64));
            points.i64("output_tokens", true, m.output_tokens.map(|v| v as i64));
            points.f64("system_tps", m.system_tps);
            points.f64("per_stream_tps", m.per_stream_tps);
            points.f64("request_throughput", m.request_throughput);
            points.f64("concurrency_achieved", m.concurrency_achieved);
            dist(
                &mut points,
                ["ttft_mean_ms", "ttft_p50_ms", "ttft_p90_ms", "ttft_p99_ms"],
                &m.ttft_ms,
            );
            dist(
                &mut points,
                ["tpot_mean_ms", "tpot_p50_ms", "tpot_p90_ms", "tpot_p99_ms"],
                &m.tpot_ms,
            );
            dist(
                &mut points,
                ["itl_mean_ms", "itl_p50_ms", "itl_p90_ms", "itl_p99_ms"],
                &m.itl_ms,
            );
            dist(
                &mut points,
                ["e2e_mean_ms", "e2e_p50_ms", "e2e_p90_ms", "e2e_p99_ms"],
                &m.e2e_ms,
            );
            let i = m.turns.interactivity.unwrap_or_default();
            points.f64("interactivity_e2e_p50", i.e2e_normalized.p50);
            points.f64("interactivity_e2e_p90", i.e2e_normalized.p90);
            points.f64("interactivity_e2e_p99", i.e2e_normalized.p99);
            points.f64("interactivity_aggregate", i.aggregate);
            if turns {
                let t = &m.turns;
                dist(
                    &mut points,
                    [
                        "ttfvt_mean_ms",
                        "ttfvt_p50_ms",
                        "ttfvt_p90_ms",
                        "ttfvt_p99_ms",
                    ],
                    &t.ttfvt_ms.unwrap_or_default(),
                );
                points.i64(
                    "reasoning_tokens",
                    true,
                    t.reasoning_tokens.map(|v| v as i64),
                );
                points.f64("visible_system_tps", t.visible_system_tps);
                points.i64("input_tokens", true, t.input_tokens.map(|v| v as i64));
                let cached = t.cached_prompt_tokens.map(|v| v as i64);
                points.i64("cached_prompt_tokens", true, cached);
                points.f64("cache_hit_rate", t.cache_hit_rate);
                let tps = t.input_tps.unwrap_or_default();
                points.f64("input_tps_computed", tps.computed);
                points.f64("input_tps_cached", tps.cached);
                let s = t.sessions.as_deref();
                points.i64("sessions", true, s.map(|s| s.count as i64));
                points.f64("session_turns_mean", s.map(|s| s.turns_mean));
                points.f64("session_duration_mean_s", s.and_then(|s| s.duration_s.mean));
                let first = s.and_then(|s| s.ttft_first_turn_ms.mean);
                points.f64("ttft_first_turn_mean_ms", first);
                let later = s.and_then(|s| s.ttft_later_turns_ms.mean);
                points.f64("ttft_later_turns_mean_ms", later);
            }
            points.i64("discrepancies", false, Some(ps.discrepancies.len() as i64));
            if slo {
                let s = ps.slo.as_ref();
                points.f64("slo_attainment", s.and_then(|s| s.attainment));
                points.f64("goodput_rps", s.and_then(|s| s.goodput_rps));
                points.f64("goodput_tps", s.and_then(|s| s.goodput_tps));
                points.bool("slo_met", true, s.and_then(|s| s.met));
            }
            if cost {
                points.f64(
                    "usd_per_million_output_tokens",
                    ps.usd_per_million_output_tokens.flatten(),
                );
            }
            if server {
                let s = ps.server.as_ref();
                let spread = |f: fn(
                    &tpsview_core::server::ServerSummary,
                ) -> Option<tpsview_core::server::Spread>| {
                    s.and_then(f)
                };
                let running = spread(|s| s.running);
                let waiting = spread(|s| s.waiting);
                let kv = spread(|s| s.kv_cache_usage);
                points.f64("server_running_mean", running.map(|v| v.mean));
                points.f64("server_running_p50", running.and_then(|v| v.p50));
                points.f64("server_running_max", running.and_then(|v| v.max));
                points.f64("server_waiting_mean", waiting.map(|v| v.mean));
                points.f64("server_waiting_max", waiting.and_then(|v| v.max));
                points.f64("server_kv_cache_usage_mean", kv.map(|v| v.mean));
                points.f64("server_kv_cache_usage_max", kv.and_then(|v| v.max));
                points.f64("server_generation_tps", s.and_then(|s| s.generation_tps));
                points.f64(
                    "server_tokens_per_decode_step",
                    s.and_then(|s| s.tokens_per_decode_step),
                );
                points.f64("server_difference_pct", s.and_then(|s| s.difference_pct));
                points.f64(
                    "server_prefix_cache_hit_rate",
                    s.and_then(|s| s.prefix_cache_hit_rate),
                );
            }
            if energy {
                let e = ps.energy.as_ref();
                points.f64(
                    "joules_per_output_token",
                    e.map(|e| e.joules_per_output_token),
                );
                points.f64(
                    "output_tokens_per_joule",
                    e.map(|e| e.output_tokens_per_joule),
                );
                points.f64("energy_j", e.and_then(|e| e.joules));
                points.text("energy_basis", true, e.map(|e| e.basis));
            }
            let Some(req) = &point.requests else { continue };
            for i in 0..req.len() {
                requests.text("run_id", false, Some(id));
                requests.text("run", false, Some(&rs.label));
                requests.i64("level", false, Some(level as i64));
                requests.f64("concurrency", point.concurrency);
                requests.i64("request", false, Some(i as i64));
                let (ok, status, error) = match &req.outcome[i] {
                    Outcome::Ok => (true, "ok", None),
                    Outcome::Failed(e) => (false, "failed", Some(&**e)),
                    Outcome::Invalid(e) => (false, "invalid", Some(&**e)),
                };
                requests.bool("ok", false, Some(ok));
                requests.text("status", false, Some(status));
                requests.text("error", true, error);
                requests.i64(
                    "input_tokens",
                    true,
                    req.input_tokens.as_ref().map(|v| i64::from(v[i])),
                );
                let n = req.output_tokens[i];
                requests.i64("output_tokens", false, Some(i64::from(n)));
                let (ttft, e2e) = (req.ttft_s[i], req.e2e_s[i]);
                requests.f64("ttft_s", ok.then_some(ttft));
                requests.f64("e2e_s", ok.then_some(e2e));
                requests.f64(
                    "tpot_s",
                    (ok && n >= 2).then(|| (e2e - ttft) / f64::from(n - 1)),
                );
                requests.f64("start_s", req.start_s.as_ref().map(|v| v[i]));
                if facts {
                    use tpsview_core::model::facts::entry;
                    let f = req.facts.as_deref();
                    let session = f.and_then(|f| f.session.as_ref()?[i].as_deref());
                    requests.text("session", true, session);
                    let n =
                        |c: fn(&RequestFacts) -> &Option<Vec<f64>>| f.and_then(|f| entry(c(f), i));
                    requests.i64("turn", true, n(|f| &f.turn).map(|v| v as i64));
                    let r = n(|f| &f.reasoning_tokens).map(|v| v as i64);
                    requests.i64("reasoning_tokens", true, r);
                    let c = n(|f| &f.cached_prompt_tokens).map(|v| v as i64);
                    requests.i64("cached_prompt_tokens", true, c);
                    requests.f64("ttfvt_s", n(|f| &f.ttfvt_s));
                }
            }
        }
    }
    points.write(&dir.join("points.parquet"), "points")?;
    requests.write(&dir.join("requests.parquet"), "requests")?;
    Ok((points.rows(), requests.rows()))
}
