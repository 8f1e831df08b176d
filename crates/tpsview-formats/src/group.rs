//! Groups parsed files into runs: the same engine, model and label make one run, and each file
//! (or each object of a multi-object file) is one concurrency level of it. A tool's raw-data file
//! and its summary (GenAI-Perf's pair, AIPerf's pair, trtllm-bench's request and report files,
//! LLMPerf's responses and summary) become one point. A label the user chose regroups a file.

use crate::error::Diagnostic;
use crate::formats::FormatExt;
use crate::formats::{Format, Parsed};
use crate::model::{Point, Report, Run, RunName};

/// Pairs each raw-data point with the one summary point of the same tool it belongs to: the same
/// level (or a level only one of them knows), and no other candidate. The summary's figures,
/// level, label and metadata join the raw data; the summary point is then dropped.
fn pair(files: &mut [Parsed], diags: &mut Vec<Diagnostic>) {
    // (file, run, point) of every summary point.
    let mut summaries: Vec<(usize, usize, usize)> = Vec::new();
    for (f, p) in files.iter().enumerate() {
        if Format::ALL
            .iter()
            .any(|d| d.summary_partners().contains(&p.format))
        {
            for (r, run) in p.report.runs.iter().enumerate() {
                for k in 0..run.points.len() {
                    summaries.push((f, r, k));
                }
            }
        }
    }
    let mut taken = vec![false; summaries.len()];
    let mut merges = Vec::new();
    for (f, p) in files.iter().enumerate() {
        let partners = p.format.summary_partners();
        if partners.is_empty() {
            continue;
        }
        for (r, run) in p.report.runs.iter().enumerate() {
            for (k, point) in run.points.iter().enumerate() {
                let fits = |s: &&(usize, usize, usize)| {
                    let (sf, sr, sk) = **s;
                    let q = &files[sf].report.runs[sr].points[sk];
                    partners.contains(&files[sf].format)
                        && (point.concurrency.is_none()
                            || q.concurrency.is_none()
                            || point.concurrency == q.concurrency)
                        && (point.request_rate.is_none()
                            || q.request_rate.is_none()
                            || point.request_rate == q.request_rate)
                };
                let cands: Vec<usize> = summaries
                    .iter()
                    .enumerate()
                    .filter(|(i, s)| !taken[*i] && fits(s))
                    .map(|(i, _)| i)
                    .collect();
                if let [one] = cands[..] {
                    taken[one] = true;
                    merges.push(((f, r, k), summaries[one]));
                }
            }
        }
    }
    let mut drop: Vec<(usize, usize, usize)> = Vec::new();
    for ((f, r, k), (sf, sr, sk)) in merges {
        let summary_run = files[sf].report.runs[sr].clone();
        let mut meta = summary_run.meta.clone();
        meta.inherit(&files[sf].report.meta);
        let q: Point = summary_run.points[sk].clone();
        let (sname, dname) = (files[sf].file.clone(), files[f].file.clone());
        let run = &mut files[f].report.runs[r];
        run.label = summary_run.label.clone();
        let mut own = std::mem::take(&mut run.meta);
        own.inherit(&meta);
        run.meta = own;
        let p = &mut run.points[k];
        p.concurrency = p.concurrency.or(q.concurrency);
        p.request_rate = p.request_rate.or(q.request_rate);
        p.reported.tool = q.reported.tool;
        p.reported.figures.extend(q.reported.figures);
        p.reported.recomputed.extend(q.reported.recomputed);
        p.samples = p.samples.take().or(q.samples);
        p.sampled_from = p.sampled_from.or(q.sampled_from);
        // The summary's own telemetry and statistics over the level take precedence.
        p.telemetry = q.telemetry.or(p.telemetry);
        p.server_stats = q.server_stats.or(p.server_stats.take());
        diags.push(Diagnostic::info(
            &dname,
            "(file)",
            format!("paired with its summary {sname}: one point"),
        ));
        drop.push((sf, sr, sk));
    }
    drop.sort_unstable();
    for &(f, r, k) in drop.iter().rev() {
        files[f].report.runs[r].points.remove(k);
    }
    for p in files.iter_mut() {
        p.report.runs.retain(|r| !r.points.is_empty());
    }
}

/// What makes runs of several files one run: the same label and, unless the user named the run
/// (then the label alone), the same engine and model.
#[derive(Debug, Clone, PartialEq)]
pub struct RunKey {
    label: RunName,
    /// `None` when the label alone decides.
    engine_model: Option<(Option<String>, Option<String>)>,
}

impl RunKey {
    /// The key of `run` (its metadata inherited from its report); `by_label` when a user named it.
    pub fn of(run: &Run, by_label: bool) -> RunKey {
        RunKey {
            label: run.label.clone(),
            engine_model: (!by_label).then(|| (run.meta.engine.clone(), run.meta.model.clone())),
        }
    }

    /// The key of run `target` of a grouped report, given the files it was grouped from (where a
    /// user's name for a file makes its label decide alone).
    pub fn of_grouped(target: &Run, files: &[&Parsed]) -> RunKey {
        let by_label = files
            .iter()
            .any(|f| f.run_label.as_deref().is_some_and(|l| target.label == *l));
        RunKey::of(target, by_label)
    }

    /// True when `run` (metadata inherited) joins the run of this key.
    pub fn matches(&self, run: &Run) -> bool {
        run.label == self.label
            && self
                .engine_model
                .as_ref()
                .is_none_or(|(e, m)| run.meta.engine == *e && run.meta.model == *m)
    }

    /// True when run `r` of file `file` joins the run of this key when the files are grouped.
    pub fn takes(&self, file: &Parsed, r: usize) -> bool {
        let Some(run) = file.report.runs.get(r) else {
            return false;
        };
        if let Some(l) = &file.run_label {
            return self.label == *l.as_str();
        }
        let mut meta = run.meta.clone();
        meta.inherit(&file.report.meta);
        run.label == self.label
            && self
                .engine_model
                .as_ref()
                .is_none_or(|(e, m)| meta.engine == *e && meta.model == *m)
    }
}

/// Where a companion may sit from its records in time (seconds between their windows).
const COMPANION_REACH_S: f64 = 60.0;
/// The least share of the requests' window a GPU-telemetry export must cover for its energy to
/// be the level's.
const TELEMETRY_COVER: f64 = 0.9;

/// The folder of a file's name (`""` for a file not from a folder).
fn folder(name: &str) -> &str {
    name.rsplit_once('/').map_or("", |(d, _)| d)
}

/// The wall-clock window (epoch seconds) of a point's requests, where the file dates them.
fn epoch_window(p: &Point) -> Option<(f64, f64)> {
    let r = p.requests.as_ref()?;
    let (a, b) = r.window()?;
    let e = r.epoch_s?;
    Some((e + a, e + b))
}

/// What a companion export brings to its level.
#[derive(Clone, Copy, PartialEq)]
enum Companion {
    /// The server's series (`server_metrics_export.jsonl`).
    Series,
    /// The GPUs' energy and power (`gpu_telemetry_export.jsonl`).
    Gpus,
    /// AIPerf's statistics of the server's metrics (`server_metrics_export.json` / `.csv`).
    Stats,
}

/// Attaches each of AIPerf's companion exports (server metrics, GPU telemetry: one point without
/// requests, on the wall clock where the file dates it) to the AIPerf records of its level: the
/// records in its folder when one is there, else those whose requests lie nearest in time
/// (overlapping, or within [`COMPANION_REACH_S`]). The server's series goes onto the records'
/// clock; the GPUs' energy and power become the level's telemetry where they cover
/// [`TELEMETRY_COVER`] of its requests' window (a summary's own telemetry, paired later, takes
/// precedence); AIPerf's statistics of the server's metrics become the level's server
/// statistics, and go to the AIPerf summary in their folder where it has no records. A companion with nowhere to go is
/// said and left out.
fn attach(files: &mut [Parsed], diags: &mut Vec<Diagnostic>) {
    // (file, run, point, window) of every records point (dated: its requests' wall-clock
    // window) and, for the statistics, of every summary point (undated).
    let mut records = Vec::new();
    let mut summaries = Vec::new();
    for (f, p) in files.iter().enumerate() {
        for (r, run) in p.report.runs.iter().enumerate() {
            for (k, q) in run.points.iter().enumerate() {
                match p.format {
                    Format::AiperfRecords => {
                        if let Some(w) = epoch_window(q) {
                            records.push((f, r, k, w));
                        }
                    }
                    Format::AiperfSummary => summaries.push((f, r, k, (f64::NAN, f64::NAN))),
                    _ => {}
                }
            }
        }
    }
    for c in 0..files.len() {
        let kind = match files[c].format {
            Format::AiperfServerMetrics => Companion::Series,
            Format::AiperfGpuTelemetry => Companion::Gpus,
            Format::AiperfServerStats => Companion::Stats,
            _ => continue,
        };
        let Some(mut run) = files[c].report.runs.pop() else {
            continue;
        };
        files[c].report.runs.clear();
        let Some(mut point) = run.points.pop() else {
            continue;
        };
        let name = files[c].file.clone();
        let (from, to) = point.epoch_window_s.unwrap_or((f64::NAN, f64::NAN));
        // The records in its folder when one is there (for the statistics, else the summary
        // there); else the nearest in time, if one alone.
        let in_folder =
            |list: &[(usize, usize, usize, (f64, f64))]| -> Vec<(usize, usize, usize, (f64, f64))> {
                list.iter()
                    .filter(|t| folder(&files[t.0].file) == folder(&name))
                    .copied()
                    .collect()
            };
        let mut here = in_folder(&records);
        if here.is_empty() && kind == Companion::Stats {
            here = in_folder(&summaries);
        }
        let sole = here.len() == 1;
        // An undated companion (AIPerf's CSV) has no place in time: its folder or nothing.
        let dated = from.is_finite() && to.is_finite();
        let pool = match here.is_empty() {
            false => here,
            true if dated => records.clone(),
            true => Vec::new(),
        };
        let apart = |w: (f64, f64)| (w.0 - to).max(from - w.1).max(0.0);
        let mut best = f64::INFINITY;
        let mut near = Vec::new();
        for &t in &pool {
            let d = if sole { 0.0 } else { apart(t.3) };
            if d < best {
                best = d;
                near.clear();
            }
            if d == best && d <= COMPANION_REACH_S {
                near.push(t);
            }
        }
        let [(f, r, k, (w0, w1))] = near[..] else {
            diags.push(Diagnostic::warning(
                &name,
                "(file)",
                None,
                format!(
                    "an AIPerf export of what the server or its GPUs saw, and {} of the AIPerf profile_export.jsonl files near it in time or in its folder fit it: open it with its level's records",
                    near.len()
                ),
            ));
            continue;
        };
        let target_file = files[f].file.clone();
        let share = (to.min(w1) - from.max(w0)).max(0.0) / (w1 - w0).max(f64::MIN_POSITIVE);
        let run_to = &mut files[f].report.runs[r];
        let target = &mut run_to.points[k];
        let said = match kind {
            Companion::Series if target.server.is_some() => {
                format!("{target_file} has the server's metrics already: left out")
            }
            Companion::Series => {
                let Some(mut series) = point.server.take() else {
                    continue;
                };
                let epoch = target
                    .requests
                    .as_ref()
                    .and_then(|q| q.epoch_s)
                    .unwrap_or(0.0);
                for t in &mut series.t_s {
                    *t -= epoch;
                }
                target.server = Some(series);
                diags.push(Diagnostic::info(
                    &name,
                    "(file)",
                    format!("attached to {target_file}, on its requests' clock"),
                ));
                continue;
            }
            Companion::Gpus if share < TELEMETRY_COVER => format!(
                "the GPU samples cover {:.1} s, {:.0} % of the {:.1} s of {target_file}'s requests: too little to be that level's energy, so none is taken from them",
                to - from,
                share * 100.0,
                w1 - w0
            ),
            Companion::Gpus | Companion::Stats => {
                target.concurrency = target.concurrency.or(point.concurrency);
                // What the level has already (a summary's own telemetry) stays.
                target.telemetry = target.telemetry.or(point.telemetry);
                target.server_stats = target.server_stats.take().or(point.server_stats.take());
                for (key, v) in std::mem::take(&mut run.meta.labels) {
                    run_to.meta.labels.entry(key).or_insert(v);
                }
                let what = if kind == Companion::Gpus {
                    "the GPUs' energy and power over the telemetry window"
                } else {
                    "AIPerf's statistics of the server's metrics over its profiling window (no series over time: the .jsonl export has them)"
                };
                diags.push(Diagnostic::info(
                    &name,
                    "(file)",
                    format!("attached to {target_file}: {what}"),
                ));
                continue;
            }
        };
        diags.push(Diagnostic::warning(&name, "timestamp_ns", None, said));
    }
}

/// Merges the runs of several parsed files into one report, grouping by (engine, model, label)
/// and sorting each run's points by concurrency, then request rate. Points that claim the same
/// level are kept and flagged.
pub fn group(mut files: Vec<Parsed>) -> (Report, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    folder_metadata(&mut files, &mut diags);
    attach(&mut files, &mut diags);
    pair(&mut files, &mut diags);
    // MLPerf system descriptions: no run of their own; their runs take the GPU name and count.
    let systems: Vec<(String, crate::model::Metadata)> = files
        .iter()
        .filter(|p| p.format == Format::MlperfSystem)
        .map(|p| (p.file.clone(), p.report.meta.clone()))
        .collect();
    let mut runs: Vec<Run> = Vec::new();
    // Runs relabelled by the user group by label alone.
    let mut forced: Vec<RunName> = Vec::new();
    for parsed in files {
        diags.extend(parsed.diagnostics);
        for mut run in parsed.report.runs {
            run.meta.inherit(&parsed.report.meta);
            if let Some(l) = &parsed.run_label {
                // A name given to a sweep's files names the setup: its repeats stay apart.
                run.label = RunName {
                    repeat: run.label.repeat,
                    ..RunName::parse(l)
                };
                forced.push(run.label.clone());
            }
            let by_label = forced.contains(&run.label);
            match runs
                .iter_mut()
                .find(|r| RunKey::of(r, by_label).matches(&run))
            {
                Some(existing) => existing.points.append(&mut run.points),
                None => runs.push(run),
            }
        }
    }
    apply_systems(&systems, &mut runs, &mut diags);
    let mut out: Vec<Run> = Vec::with_capacity(runs.len());
    for mut run in runs {
        // Unstable sort with the load order as the last key: same result as a stable sort, and a
        // much smaller instantiation in the browser build.
        let mut keyed: Vec<(f64, f64, usize, crate::model::Point)> = run
            .points
            .drain(..)
            .enumerate()
            .map(|(i, p)| {
                (
                    p.concurrency.unwrap_or(f64::INFINITY),
                    p.request_rate.unwrap_or(f64::INFINITY),
                    i,
                    p,
                )
            })
            .collect();
        keyed.sort_unstable_by(|a, b| {
            a.0.total_cmp(&b.0)
                .then(a.1.total_cmp(&b.1))
                .then(a.2.cmp(&b.2))
        });
        run.points = keyed.into_iter().map(|k| k.3).collect();
        let first = out.len();
        split_by_folder(run, &forced, &mut out, &mut diags);
        for run in &out[first..] {
            for w in run.points.windows(2) {
                if same_level(&w[0], &w[1]) {
                    diags.push(Diagnostic::warning(
                        &w[1].source_file,
                        "concurrency",
                        None,
                        format!(
                            "run {:?}: {} and {} both claim concurrency {}; both are kept",
                            run.label,
                            w[0].source_file,
                            w[1].source_file,
                            w[0].concurrency.unwrap_or_default()
                        ),
                    ));
                }
            }
        }
    }
    let runs = out;
    (
        Report {
            meta: Default::default(),
            runs,
        },
        diags,
    )
}

/// Two points of one concurrency level (and rate).
fn same_level(a: &Point, b: &Point) -> bool {
    a.concurrency.is_some() && a.concurrency == b.concurrency && a.request_rate == b.request_rate
}

/// Pushes `run` (its points sorted by level) to `out` — or, where files of different folders
/// claim one of its levels, one run per folder: runs alike (same engine, model and label) from
/// two sweeps of one model, a baseline's folder and a variant's, are two runs, not one with every
/// level twice. The folder is the first where two such files' paths part; each part is named
/// after it, `folder=NAME` (before a repeat's `run=N`, so each one's repeats stay one setup). A name the user
/// gave is kept whole; one folder's files that claim one level stay together, flagged.
fn split_by_folder(run: Run, forced: &[RunName], out: &mut Vec<Run>, diags: &mut Vec<Diagnostic>) {
    let depth = run.points.windows(2).find_map(|w| {
        let (fa, fb) = (folder(&w[0].source_file), folder(&w[1].source_file));
        if !same_level(&w[0], &w[1]) || fa == fb {
            return None;
        }
        fa.split('/').zip(fb.split('/')).position(|(x, y)| x != y)
    });
    let Some(d) = depth.filter(|_| !forced.contains(&run.label)) else {
        out.push(run);
        return;
    };
    let first = out.len();
    let Run {
        label,
        source_format,
        meta,
        points,
        axis,
    } = run;
    for p in points {
        let name = match folder(&p.source_file).split('/').nth(d) {
            // `folder=…`, a setting: the run's header shows it among its settings.
            Some(k) => RunName {
                folder: Some(k.to_owned()),
                ..label.clone()
            },
            None => label.clone(),
        };
        match out[first..].iter_mut().find(|r| r.label == name) {
            Some(r) => r.points.push(p),
            None => out.push(Run {
                label: name,
                source_format: source_format.clone(),
                meta: meta.clone(),
                points: vec![p],
                axis: axis.clone(),
            }),
        }
    }
    diags.push(Diagnostic::info(
        &out[first].points[0].source_file,
        "(file)",
        format!(
            "run {label:?}: its files in {} folders claim the same levels: kept apart, each named after its folder",
            out.len() - first
        ),
    ));
}

/// Gives MLPerf runs the accelerator name and count of their submission's `systems/<name>.json`:
/// the one whose file name (or `system_name`) is the system in the log's path, or — when one system
/// file was loaded and a run's path names none — that one. A system file no run takes is said.
/// Tools that write their run's configuration in a file of its own beside the results
/// (inference-perf's `config.yaml`, genai-bench's `experiment_metadata.json`, evalscope's
/// `benchmark_args.json`): read as a report
/// with metadata and no runs, by the tool's own reader.
const FOLDER_METADATA: &[Format] = &[Format::InferencePerf, Format::GenaiBench, Format::Evalscope];

/// Gives each run of a [`FOLDER_METADATA`] tool the metadata of that tool's configuration file
/// in its folder (where there is exactly one): its model, engine and labels fill what the run
/// lacks, and a run named after the tool alone is named after the model. A configuration with
/// no results beside it is said.
fn folder_metadata(files: &mut [Parsed], diags: &mut Vec<Diagnostic>) {
    let configs: Vec<(usize, Format, String)> = files
        .iter()
        .enumerate()
        .filter(|(_, p)| {
            FOLDER_METADATA.contains(&p.format)
                && p.report.runs.is_empty()
                && p.report.meta != crate::model::Metadata::default()
        })
        .map(|(i, p)| (i, p.format, folder(&p.file).to_owned()))
        .collect();
    for &(c, format, ref dir) in &configs {
        if configs
            .iter()
            .filter(|(_, f, d)| *f == format && d == dir)
            .count()
            > 1
        {
            continue;
        }
        let meta = files[c].report.meta.clone();
        let mut used = false;
        for p in files.iter_mut() {
            if p.format != format || folder(&p.file) != dir.as_str() || p.report.runs.is_empty() {
                continue;
            }
            used = true;
            for run in &mut p.report.runs {
                let tool = format.id();
                if let Some(model) = meta.model.as_deref().filter(|_| run.meta.model.is_none()) {
                    if let Some(rest) = run.label.setup.strip_prefix(tool) {
                        run.label.setup = format!("{model}{rest}");
                    }
                }
                run.meta.inherit(&meta);
            }
        }
        if !used {
            diags.push(Diagnostic::info(
                &files[c].file,
                "(file)",
                "a run's configuration with none of its results loaded beside it (from the same folder): nothing took its model",
            ));
        }
    }
}

fn apply_systems(
    systems: &[(String, crate::model::Metadata)],
    runs: &mut [Run],
    diags: &mut Vec<Diagnostic>,
) {
    let mut used = vec![false; systems.len()];
    for run in runs
        .iter_mut()
        .filter(|r| r.source_format == crate::formats::mlperf::TOOL)
    {
        let named = run.meta.labels.get("system").cloned();
        let pick = systems.iter().position(|(_, m)| {
            named.as_ref().is_some_and(|n| {
                m.labels.get("system_file") == Some(n) || m.labels.get("system") == Some(n)
            })
        });
        let pick = pick.or((named.is_none() && systems.len() == 1).then_some(0));
        let Some(k) = pick else { continue };
        used[k] = true;
        let m = &systems[k].1;
        if run.meta.gpu.is_none() {
            run.meta.gpu.clone_from(&m.gpu);
        }
        if run.meta.gpu_count.is_none() {
            run.meta.gpu_count = m.gpu_count;
        }
        for (key, v) in &m.labels {
            run.meta
                .labels
                .entry(key.clone())
                .or_insert_with(|| v.clone());
        }
    }
    for ((file, _), used) in systems.iter().zip(used) {
        if !used {
            diags.push(Diagnostic::info(
                file,
                "system_name",
                "no MLPerf log loaded with it runs on this system (the logs' path names another, or none was loaded): nothing took its GPU count",
            ));
        }
    }
}
