//! Getting bytes into the core: files from the picker or a drop, pasted text, and URLs (the
//! built-in samples and `?src=`), and the loaded file they become. Parsing happens in the core;
//! this only fetches and reads. The browser-only parts (the picker's `FileList`, `fetch`) are
//! compiled for wasm32 alone; the rest is tested natively.

use std::sync::Arc;

use tpsview_components::FileStatus;
#[cfg(test)]
use tpsview_core::formats::Format;
use tpsview_core::formats::Parsed;

use crate::messages;
#[cfg(target_arch = "wasm32")]
use crate::messages::FetchFailure;

/// One file as loaded: what the user sees about it, and its data when it parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedFile {
    /// Name, format, error, diagnostics.
    pub status: FileStatus,
    /// The data, when the file parsed.
    pub parsed: Option<Parsed>,
    /// True for the built-in example, which the user's first own file replaces.
    pub is_sample: bool,
    /// The file's bytes (files up to 64 MB), to read it again as another format.
    pub bytes: Option<std::sync::Arc<[u8]>>,
    /// Where it was fetched from (a sample's path or a `?src=` URL): what a permalink can hold.
    pub source_url: Option<String>,
    /// The picked or dropped file it was read from (`loader::remember`), to read it again.
    pub origin: Option<u32>,
    /// The run name the user gave it, kept when the file is read again — even through a read
    /// as a format that failed.
    pub user_label: Option<String>,
}

/// The built-in samples: (menu label, path under the site root).
pub const SAMPLES: &[(&str, &str)] = &[
    (
        "H100 SXM · Llama 3.1 70B FP8 (simulated)",
        "samples/h100-llama70b-fp8.tpsview.json",
    ),
    (
        "llama.cpp on 2 CPU cores (measured with tpsview bench)",
        "samples/cpu-llamacpp-sweep.tpsview.json",
    ),
    (
        "The batching effect on 2 CPU cores (measured with tpsview probe)",
        "samples/cpu-probe.tpsview.json",
    ),
];

/// Files up to this size keep their bytes, so that they can be read again as another format.
const KEEP_BYTES: usize = 64 << 20;

/// Reads bytes the page reads itself — tpsview/1 reports: a built-in sample, a shared link's
/// bundle, runs kept in this browser — into a loaded file; never fails: an error becomes the
/// file's status. Every other file is read by the loading worker (`loader.rs`), whose module
/// carries the importers; the page's does not (`formats::parse_tpsview` links no other).
pub fn from_bytes(name: &str, bytes: &[u8], is_sample: bool) -> LoadedFile {
    let result = tpsview_core::formats::parse_tpsview(name, bytes);
    finish(name, Arc::from(bytes), result, is_sample)
}

/// What the loading worker makes of bytes, as `format` or the detected format (natively, for the
/// tests of the app's logic; in the browser this runs in the worker).
#[cfg(test)]
pub fn read_as(
    name: &str,
    bytes: Arc<[u8]>,
    format: Option<Format>,
    is_sample: bool,
) -> LoadedFile {
    let result = match format {
        Some(f) => tpsview_core::formats::parse(f, name, &bytes),
        None => tpsview_core::formats::parse_any(name, &bytes),
    };
    finish(name, bytes, result, is_sample)
}

/// A parse's result as a loaded file, its bytes kept (files up to 64 MB) to read it again.
fn finish(
    name: &str,
    bytes: Arc<[u8]>,
    result: Result<Parsed, tpsview_core::ParseError>,
    is_sample: bool,
) -> LoadedFile {
    let keep = (bytes.len() <= KEEP_BYTES).then_some(bytes);
    let mut f = match result {
        Ok(parsed) => loaded(parsed, is_sample),
        Err(e) => failed(name, messages::parse_error(&e)),
    };
    f.status.can_reread = keep.is_some();
    f.bytes = keep;
    f
}

/// The view a loaded `tpsview/1` bundle carries (read from its kept bytes), if any.
pub fn bundle_view(f: &LoadedFile) -> Option<crate::view::View> {
    f.bytes
        .as_deref()
        .filter(|_| f.status.format_id == Some(tpsview_core::formats::tpsview::ID))
        .and_then(crate::view::view_of_bundle)
}

/// A file that parsed.
pub fn loaded(parsed: tpsview_core::Parsed, is_sample: bool) -> LoadedFile {
    LoadedFile {
        status: FileStatus {
            name: parsed.file.clone(),
            format: Some(parsed.format.name().to_owned()),
            format_id: Some(parsed.format.id()),
            run_label: parsed
                .report
                .runs
                .first()
                .map(|r| r.label.to_string())
                .unwrap_or_default(),
            can_reread: false,
            error: None,
            diagnostics: parsed.diagnostics.clone(),
            mapping: None,
        },
        parsed: Some(parsed),
        is_sample,
        bytes: None,
        source_url: None,
        origin: None,
        user_label: None,
    }
}

/// A file that could not be loaded.
pub fn failed(name: &str, error: String) -> LoadedFile {
    LoadedFile {
        status: FileStatus {
            name: name.to_owned(),
            format: None,
            format_id: None,
            run_label: String::new(),
            can_reread: false,
            error: Some(error),
            diagnostics: Vec::new(),
            mapping: None,
        },
        parsed: None,
        is_sample: false,
        bytes: None,
        source_url: None,
        origin: None,
        user_label: None,
    }
}

/// The files of a picker or drop, taken out of the live `FileList` (which clearing the picker
/// empties).
#[cfg(target_arch = "wasm32")]
pub fn take_files(list: &web_sys::FileList) -> Vec<web_sys::File> {
    (0..list.length()).filter_map(|i| list.get(i)).collect()
}

/// A picked file's name: its path inside the folder when a folder was picked
/// (`webkitRelativePath`, e.g. `exp/SERVE--max_num_seqs=8-BENCH--max_concurrency=4/run=0.json`,
/// which names a sweep's setting), else its own name.
#[cfg(target_arch = "wasm32")]
pub fn picked_name(f: &web_sys::File) -> String {
    js_sys::Reflect::get(f, &"webkitRelativePath".into())
        .ok()
        .and_then(|v| v.as_string())
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| f.name())
}

/// Files named by their paths; when they came from a folder (a path has a `/`), the ones to
/// read in the order to read them ([`tpsview_core::formats::vllm::sweep::select`]: benchmark
/// files in natural order, less what a sweep's layout repeats) and a note naming what was left
/// out. Files not from a folder are all read, in the order given.
pub fn from_folder<T>(named: Vec<(String, T)>) -> (Vec<(String, T)>, Option<String>) {
    if !named.iter().any(|(n, _)| n.contains('/')) {
        return (named, None);
    }
    let names: Vec<&str> = named.iter().map(|(n, _)| n.as_str()).collect();
    let chosen = tpsview_core::formats::vllm::sweep::select(&names);
    let others = named.len() - chosen.read.len() - chosen.skipped.len();
    // Said once per file name and reason (a sweep has a summary.json per setting).
    let mut groups: Vec<(&str, &str, usize)> = Vec::new();
    for (i, why) in &chosen.skipped {
        let base = names[*i].rsplit('/').next().unwrap_or(names[*i]);
        match groups.iter_mut().find(|(b, w, _)| *b == base && w == why) {
            Some(g) => g.2 += 1,
            None => groups.push((base, why, 1)),
        }
    }
    let mut parts: Vec<String> = groups
        .iter()
        .map(|(base, why, n)| match n {
            1 => format!("{base} ({why})"),
            n => format!("{n} × {base} ({why})"),
        })
        .collect();
    if others > 0 {
        parts.push(format!(
            "{others} file(s) that are not .json, .jsonl, .csv, .yaml or MLPerf logs"
        ));
    }
    let note = (!parts.is_empty()).then(|| {
        format!(
            "From the folder, {} file(s) are read; left out: {}.",
            chosen.read.len(),
            parts.join("; ")
        )
    });
    let mut slots: Vec<Option<(String, T)>> = named.into_iter().map(Some).collect();
    let read = chosen
        .read
        .iter()
        .filter_map(|&i| slots[i].take())
        .collect();
    (read, note)
}

/// The files of a drop, each named by its path when folders were dropped (every file inside them
/// and their sub-folders); `None` when no folder was dropped (the drop's plain file list then
/// serves). The entries must be taken while the drop event is dispatched; the walk is async.
#[cfg(target_arch = "wasm32")]
pub fn dropped_entries(dt: &web_sys::DataTransfer) -> Option<Vec<web_sys::FileSystemEntry>> {
    let items = dt.items();
    let entries: Vec<web_sys::FileSystemEntry> = (0..items.length())
        .filter_map(|i| items.get(i))
        .filter_map(|it| it.webkit_get_as_entry().ok().flatten())
        .collect();
    entries.iter().any(|e| e.is_directory()).then_some(entries)
}

/// Every file under the dropped entries, named by its path (without the leading `/`).
#[cfg(target_arch = "wasm32")]
pub async fn walk(entries: Vec<web_sys::FileSystemEntry>) -> Vec<(String, web_sys::File)> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let mut out = Vec::new();
    let mut todo = entries;
    while let Some(e) = todo.pop() {
        if let Some(d) = e.dyn_ref::<web_sys::FileSystemDirectoryEntry>() {
            let reader = d.create_reader();
            // readEntries answers in batches until an empty one.
            loop {
                let batch = js_sys::Promise::new(&mut |ok, err| {
                    let _ = reader.read_entries_with_callback_and_callback(&ok, &err);
                });
                let Ok(batch) = JsFuture::from(batch).await else {
                    break;
                };
                let batch = js_sys::Array::from(&batch);
                if batch.length() == 0 {
                    break;
                }
                todo.extend(batch.iter().filter_map(|v| v.dyn_into().ok()));
            }
        } else if let Some(f) = e.dyn_ref::<web_sys::FileSystemFileEntry>() {
            let file =
                js_sys::Promise::new(&mut |ok, err| f.file_with_callback_and_callback(&ok, &err));
            if let Ok(file) = JsFuture::from(file).await {
                if let Ok(file) = file.dyn_into::<web_sys::File>() {
                    out.push((e.full_path().trim_start_matches('/').to_owned(), file));
                }
            }
        }
    }
    out
}

/// The name a URL's file is shown under: its last path segment.
pub fn url_name(url: &str) -> String {
    url.rsplit('/')
        .next()
        .filter(|s| !s.is_empty())
        .unwrap_or(url)
        .to_owned()
}

/// Only http(s) and relative addresses are fetched.
pub fn scheme_ok(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    !lower.contains(':') || lower.starts_with("https://") || lower.starts_with("http://")
}

/// Fetches a built-in sample (a tpsview/1 report) and reads it on the page's thread, so that the
/// first chart never waits for the loading worker's module; also the fallback for a URL where no
/// loading worker starts.
#[cfg(target_arch = "wasm32")]
pub async fn fetch(url: &str, is_sample: bool) -> LoadedFile {
    let name = url_name(url);
    if !scheme_ok(url) {
        return failed(&name, messages::fetch_error(url, &FetchFailure::Scheme));
    }
    let resp = match gloo_net::http::Request::get(url).send().await {
        Ok(r) => r,
        Err(e) => {
            return failed(
                &name,
                messages::fetch_error(url, &FetchFailure::Network(e.to_string())),
            )
        }
    };
    if !resp.ok() {
        return failed(
            &name,
            messages::fetch_error(url, &FetchFailure::Status(resp.status())),
        );
    }
    if resp
        .headers()
        .get("content-type")
        .is_some_and(|t| t.contains("text/html"))
    {
        return failed(&name, messages::fetch_error(url, &FetchFailure::Html));
    }
    match resp.binary().await {
        Ok(bytes) => {
            let mut f = from_bytes(&name, &bytes, is_sample);
            f.source_url = Some(url.to_owned());
            f
        }
        Err(e) => failed(
            &name,
            messages::fetch_error(url, &FetchFailure::Network(e.to_string())),
        ),
    }
}

// A path of its own: the teaching module's binary includes this file too (src/bin/).
#[cfg(test)]
#[path = "load/tests.rs"]
mod tests;
