//! The page's side of loading: starts a worker running the loading worker's own wasm module
//! (`worker.rs`, built as `src/bin/tpsview-worker.rs`, with every importer), hands
//! it a `File` or a URL, shows its progress, and turns its answer into a [`LoadedFile`]. The
//! page's thread only takes the compact result, a column per task; reading and parsing happen in
//! the worker, so a big file never freezes the tab. Cancel terminates the worker, which frees its
//! memory at once. Built-in samples (tpsview/1) are read here, and where no worker can start, a
//! tpsview/1 file is too; any other file then says why it cannot be read.

use std::cell::RefCell;

use js_sys::{Object, Promise, Reflect, Uint8Array};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

use crate::load;
use crate::load::LoadedFile;
use crate::view::View;
use tpsview_core::Format;

/// What the worker is doing, for the progress bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// The file's name.
    pub name: String,
    /// `reading` (a vLLM or SGLang file is parsed while it is read: then with requests) or
    /// `parsing` (a file read whole, then parsed).
    pub phase: String,
    /// Bytes read so far.
    pub read: f64,
    /// The file's size, when known.
    pub total: Option<f64>,
    /// Requests read so far (while parsing).
    pub requests: Option<f64>,
    /// Which file of how many (1-based).
    pub position: (usize, usize),
}

impl Progress {
    /// What the bar says: `Reading x.json (2 of 3): 45.2 of 104.7 MB`, then while parsing the
    /// requests seen so far.
    pub fn describe(&self) -> String {
        let of = if self.position.1 > 1 {
            format!(" ({} of {})", self.position.0, self.position.1)
        } else {
            String::new()
        };
        let name = &self.name;
        match (self.phase.as_str(), self.total) {
            ("parsing", Some(t)) if self.requests.is_some() => format!(
                "Parsing {name}{of} in a worker: {} requests so far, {} of {} MB",
                tpsview_components::fmt_num(self.requests, 0),
                mb(self.read),
                mb(t)
            ),
            ("parsing", _) => format!("Parsing {name}{of} in a worker…"),
            ("reading", Some(t)) if self.requests.is_some() => format!(
                "Reading and parsing {name}{of} in a worker: {} requests so far, {} of {} MB",
                tpsview_components::fmt_num(self.requests, 0),
                mb(self.read),
                mb(t)
            ),
            (_, Some(t)) => format!("Reading {name}{of}: {} of {} MB", mb(self.read), mb(t)),
            (_, None) => format!("Reading {name}{of}: {} MB", mb(self.read)),
        }
    }
}

fn mb(bytes: f64) -> String {
    format!("{:.1}", bytes / 1e6)
}

/// Figures of the last finished load, shown beside the bar and read by the benchmark script.
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    /// The file's name.
    pub name: String,
    /// Its size in bytes.
    pub bytes: f64,
    /// Requests read.
    pub requests: f64,
    /// From handing the job over to the result in the page's state (ms).
    pub total_ms: f64,
    /// Reading the bytes, in the worker (ms).
    pub read_ms: f64,
    /// Parsing, folding and encoding, in the worker (ms).
    pub parse_ms: f64,
    /// The worker's wasm memory at the end: its peak (bytes).
    pub memory: f64,
    /// Read by the loading worker (false: a built-in sample, read on the page).
    pub in_worker: bool,
}

impl Finished {
    /// `x.json: 104.7 MB read and computed in a worker in 0.82 s (127 MB/s), 10,000 requests`
    /// (`on this page` for a built-in sample), and for files of 16 MB or more the worker's peak
    /// memory (below that the module's own few MB dominate and the ratio would mislead).
    pub fn describe(&self) -> String {
        let secs = self.total_ms / 1e3;
        let mut text = format!(
            "{name}: {size} MB read and computed {place} in {secs:.2} s ({rate:.0} MB/s), {requests} requests",
            name = self.name,
            size = mb(self.bytes),
            place = if self.in_worker {
                "in a worker"
            } else {
                "on this page"
            },
            rate = self.bytes / 1e6 / secs.max(1e-9),
            requests = tpsview_components::fmt_num(Some(self.requests), 0)
        );
        if self.in_worker && self.bytes >= 16e6 {
            text.push_str(&format!(
                "; worker memory at its peak {:.0} MB ({:.2} × the file)",
                self.memory / 1e6,
                self.memory / self.bytes
            ));
        }
        text
    }
}

/// Where a file's bytes come from; kept so that it can be read again as another format.
#[derive(Clone)]
pub enum Source {
    /// A file the user picked or dropped.
    File(web_sys::File),
    /// An absolute http(s) URL.
    Url(String),
}

/// The mapping panel's words from the worker's plain object (`worker::panel_js`).
fn panel_of(o: &JsValue) -> Option<tpsview_core::mapping::Panel> {
    let text = |v: JsValue| v.as_string().unwrap_or_default();
    let list = |v: JsValue| -> Vec<JsValue> {
        v.dyn_into::<js_sys::Array>()
            .map(|a| a.to_vec())
            .unwrap_or_default()
    };
    let mapping = get(o, "mapping").as_string()?;
    Some(tpsview_core::mapping::Panel {
        origin: text(get(o, "origin")),
        rows: get(o, "rows").as_f64().unwrap_or(0.0) as usize,
        keys: get(o, "keys").as_f64().unwrap_or(0.0) as usize,
        scope: text(get(o, "scope")),
        concurrency: get(o, "concurrency").as_f64(),
        quantities: list(get(o, "quantities"))
            .into_iter()
            .map(|q| {
                let q = list(q);
                let at = |i: usize| q.get(i).cloned().map(text).unwrap_or_default();
                (at(0), at(1))
            })
            .collect(),
        fields: list(get(o, "fields"))
            .into_iter()
            .map(|f| {
                let f = list(f);
                let at = |i: usize| f.get(i).cloned().unwrap_or(JsValue::UNDEFINED);
                tpsview_core::mapping::PanelField {
                    name: text(at(0)),
                    samples: text(at(1)),
                    quantity: text(at(2)),
                    unit: text(at(3)),
                    units: list(at(4)).into_iter().map(text).collect(),
                }
            })
            .collect(),
        mapping,
    })
}

/// A correction to the mapping a file no reader knows was read through: the mapping's document
/// and the correction (`mapping::edit`), which the worker applies to the file's shape.
pub struct MapEdit {
    /// The mapping document.
    pub mapping: String,
    /// `quantity`, `unit`, `scope` or `concurrency`.
    pub what: String,
    /// The field (for `quantity` and `unit`).
    pub field: String,
    /// The new value's id.
    pub value: String,
}

/// A load's end.
pub enum Outcome {
    /// The file, its view when it is a bundle, and the figures.
    Loaded(Box<LoadedFile>, Option<View>, Option<Finished>),
    /// The user cancelled it.
    Cancelled,
}

/// A file waiting its turn: loads run one at a time, in the order asked.
pub struct Job {
    /// The file's name.
    pub name: String,
    /// Where to read it.
    pub source: Source,
    /// A built-in sample (which the user's first own file replaces).
    pub sample: bool,
    /// Which of its batch (1-based), of how many.
    pub position: (usize, usize),
    /// The view to apply once this job is done (a permalink's, after its last file).
    pub then: Option<View>,
}

/// Queues a batch of files; true when no loop is draining the queue (the caller starts one).
pub fn enqueue(batch: Vec<(String, Source, bool)>, then: Option<View>) -> bool {
    let n = batch.len();
    QUEUE.with_borrow_mut(|q| {
        for (k, (name, source, sample)) in batch.into_iter().enumerate() {
            q.push_back(Job {
                name,
                source,
                sample,
                position: (k + 1, n),
                then: None,
            });
        }
        if let Some(last) = q.back_mut() {
            last.then = then;
        }
    });
    !DRAINING.replace(true)
}

/// The next queued file; `None` ends the draining loop.
pub fn next_job() -> Option<Job> {
    let job = QUEUE.with_borrow_mut(std::collections::VecDeque::pop_front);
    if job.is_none() {
        DRAINING.set(false);
    }
    job
}

/// Drops every queued file (after a cancel); returns how many.
pub fn clear_queue() -> usize {
    QUEUE.with_borrow_mut(|q| {
        let n = q.len();
        q.clear();
        n
    })
}

thread_local! {
    static QUEUE: RefCell<std::collections::VecDeque<Job>> = const { RefCell::new(std::collections::VecDeque::new()) };
    static DRAINING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The running workers (the queue's, and a file being read again as another format), with
    /// the resolvers of their loads' promises, for Cancel.
    static CURRENT: RefCell<Vec<(Worker, js_sys::Function)>> = const { RefCell::new(Vec::new()) };
    /// The loading worker's compiled module, once the first file needed it.
    static WORKER_MODULE: RefCell<Option<JsValue>> = const { RefCell::new(None) };
    /// Files picked or dropped, by the id their `LoadedFile` keeps.
    static SOURCES: RefCell<Vec<web_sys::File>> = const { RefCell::new(Vec::new()) };
}

/// Keeps a picked file for reading again; returns its id.
pub fn remember(file: &web_sys::File) -> u32 {
    SOURCES.with_borrow_mut(|s| {
        s.push(file.clone());
        (s.len() - 1) as u32
    })
}

/// The source of a loaded file, if it can be read again: the file picked or dropped, the URL it
/// came from, or its kept bytes (pasted text, a shared link) as a file of its name.
pub fn source_of(f: &LoadedFile) -> Option<Source> {
    if let Some(id) = f.origin {
        return SOURCES
            .with_borrow(|s| s.get(id as usize).cloned())
            .map(Source::File);
    }
    if let Some(u) = &f.source_url {
        return Some(Source::Url(u.clone()));
    }
    f.bytes
        .as_deref()
        .and_then(|b| file_of(&f.status.name, b))
        .map(Source::File)
}

/// Bytes as a `File` named `name`, for the loading worker (which reads files and URLs).
pub fn file_of(name: &str, bytes: &[u8]) -> Option<web_sys::File> {
    let parts = js_sys::Array::of1(&Uint8Array::from(bytes));
    web_sys::File::new_with_u8_array_sequence(&parts, name).ok()
}

/// Stops the load in progress, if any.
pub fn cancel() {
    for (worker, resolve) in CURRENT.take() {
        worker.terminate();
        let m = Object::new();
        let _ = Reflect::set(&m, &"type".into(), &"cancelled".into());
        let _ = resolve.call1(&JsValue::NULL, &m);
    }
}

/// An absolute URL for `url`, relative ones resolved against the page (the worker's own base is
/// a `blob:` URL).
fn absolute(url: &str) -> Option<String> {
    let base = web_sys::window()?.document()?.base_uri().ok()??;
    web_sys::Url::new_with_base(url, &base)
        .ok()
        .map(|u| u.href())
}

/// The loading worker's boot script and its module's `.wasm`, as the build names them (after their
/// contents' hash, pkg-config/csp.py) in `<meta name="tpsview-worker">`, and whether the script is
/// a classic one (`data-classic`: a `tpsview report` file's, since a `file://` page cannot start a
/// module worker from a blob: URL).
fn worker_files() -> Option<(String, String, bool)> {
    let meta = web_sys::window()?
        .document()?
        .query_selector("meta[name=tpsview-worker]")
        .ok()??;
    Some((
        meta.get_attribute("content")?,
        meta.get_attribute("data-wasm")?,
        meta.has_attribute("data-classic"),
    ))
}

/// The worker's module, compiled once (on the first file) and handed to every worker after.
async fn worker_module(wasm: &str) -> Option<JsValue> {
    if let Some(m) = WORKER_MODULE.with_borrow(Clone::clone) {
        return Some(m);
    }
    let url = absolute(wasm)?;
    let resp = JsFuture::from(web_sys::window()?.fetch_with_str(&url))
        .await
        .ok()?;
    let resp: web_sys::Response = resp.dyn_into().ok()?;
    if !resp.ok() {
        return None;
    }
    let bytes = JsFuture::from(resp.array_buffer().ok()?).await.ok()?;
    let module = JsFuture::from(js_sys::WebAssembly::compile(&bytes))
        .await
        .ok()?;
    WORKER_MODULE.with_borrow_mut(|m| *m = Some(module.clone()));
    Some(module)
}

async fn spawn() -> Option<Worker> {
    let (boot, wasm, classic) = worker_files()?;
    let module = worker_module(&wasm).await?;
    let wopts = WorkerOptions::new();
    wopts.set_type(if classic {
        WorkerType::Classic
    } else {
        WorkerType::Module
    });
    let worker = Worker::new_with_options(&absolute(&boot)?, &wopts).ok()?;
    let first = Object::new();
    let _ = Reflect::set(&first, &"module".into(), &module);
    worker.post_message(&first).ok()?;
    Some(worker)
}

fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Loads one file in a worker, showing progress in `progress`; a file no reader knows is read
/// through `mapping` when given, else through one kept for its fields or proposed
/// (`formats::read_unknown`).
pub async fn load(
    name: &str,
    source: &Source,
    format: Option<Format>,
    is_sample: bool,
    position: (usize, usize),
    progress: RwSignal<Option<Progress>>,
    mapping: Option<&MapEdit>,
) -> Outcome {
    let started = js_sys::Date::now();
    // A built-in sample is read here: the worker's module is fetched only for the user's files.
    if is_sample && matches!(source, Source::Url(_)) && format.is_none() {
        return on_this_thread(name, source, format, is_sample, started).await;
    }
    let Some(worker) = spawn().await else {
        return on_this_thread(name, source, format, is_sample, started).await;
    };
    let job = Object::new();
    let _ = Reflect::set(&job, &"name".into(), &name.into());
    if let Some(f) = format {
        let _ = Reflect::set(&job, &"format".into(), &f.id().into());
    }
    if let Some(m) = mapping {
        for (k, v) in [
            ("mapping", &m.mapping),
            ("what", &m.what),
            ("field", &m.field),
            ("value", &m.value),
        ] {
            let _ = Reflect::set(&job, &k.into(), &v.into());
        }
    }
    let _ = Reflect::set(&job, &"saved".into(), &crate::mappings::kept().into());
    if let Some(l) = crate::mappings::linked() {
        let _ = Reflect::set(&job, &"linked".into(), &l.into());
    }
    match source {
        Source::File(f) => {
            let _ = Reflect::set(&job, &"file".into(), f);
        }
        Source::Url(u) => {
            let url = absolute(u).unwrap_or_else(|| u.clone());
            let _ = Reflect::set(&job, &"url".into(), &url.into());
        }
    }
    let mut resolver = None;
    let answer = Promise::new(&mut |resolve, _| resolver = Some(resolve));
    let Some(resolve) = resolver else {
        return on_this_thread(name, source, format, is_sample, started).await;
    };
    let w = worker.clone();
    let done = resolve.clone();
    let file_name = name.to_owned();
    progress.set(Some(Progress {
        name: file_name.clone(),
        phase: "starting".into(),
        read: 0.0,
        total: match source {
            Source::File(f) => Some(f.size()),
            Source::Url(_) => None,
        },
        requests: None,
        position,
    }));
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        let d = ev.data();
        match get(&d, "type").as_string().as_deref() {
            Some("ready") => {
                let _ = w.post_message(&job);
            }
            Some("progress") => progress.set(Some(Progress {
                name: file_name.clone(),
                phase: get(&d, "phase").as_string().unwrap_or_default(),
                read: get(&d, "read").as_f64().unwrap_or(0.0),
                total: get(&d, "total").as_f64(),
                requests: get(&d, "requests").as_f64(),
                position,
            })),
            _ => {
                let _ = done.call1(&JsValue::NULL, &d);
            }
        }
    });
    let crashed = resolve.clone();
    // An uncaught error in the worker (out of memory) or a worker script that did not load.
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
        ev.prevent_default();
        let m = Object::new();
        let _ = Reflect::set(&m, &"type".into(), &"done".into());
        let what = get(&ev, "message")
            .as_string()
            .unwrap_or_else(|| "the worker did not start".into());
        let why = format!(
            "the loader stopped ({what}); a file this big may need more memory than this tab can have"
        );
        let _ = Reflect::set(&m, &"error".into(), &why.into());
        let _ = crashed.call1(&JsValue::NULL, &m);
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    CURRENT.with_borrow_mut(|c| c.push((worker.clone(), resolve)));
    let d = JsFuture::from(answer).await.unwrap_or(JsValue::UNDEFINED);
    worker.terminate();
    CURRENT.with_borrow_mut(|c| c.retain(|(w, _)| w != &worker));
    drop((on_message, on_error));
    progress.set(None);
    // The page's work after a load (decoding, then the new report's tables and charts) is split
    // into tasks of its own, so that none of them holds the page's thread for long.
    next_task().await;
    if get(&d, "type").as_string().as_deref() == Some("cancelled") {
        return Outcome::Cancelled;
    }
    // A file no reader knows: what it holds and the mapping it was read through; a mapping the
    // user corrected, kept for files of its fields once it reads the file.
    let offer = panel_of(&get(&d, "panel"));
    if let Some(list) = get(&d, "kept").as_string() {
        crate::mappings::keep(&list);
    }
    let failed = |why: String| {
        let mut f = load::failed(name, with_name(name, why));
        keep_source(&mut f, source);
        f.status.mapping = offer.clone();
        Outcome::Loaded(Box::new(f), None, None)
    };
    if let Some(e) = get(&d, "error").as_string() {
        return failed(e);
    }
    let Some(wire) = get(&d, "parsed")
        .dyn_ref::<Uint8Array>()
        .map(Uint8Array::to_vec)
    else {
        return failed("the loader gave no answer".into());
    };
    let parsed = match assemble(&wire, &get(&d, "columns")).await {
        Ok(p) => p,
        Err(e) => return failed(e),
    };
    let mut f = load::loaded(parsed, is_sample);
    keep_source(&mut f, source);
    f.status.mapping = offer;
    next_task().await;
    let view = get(&d, "view").as_string().map(|v| View::from_json(&v));
    let num = |k: &str| get(&d, k).as_f64().unwrap_or(0.0);
    let finished = Finished {
        name: name.to_owned(),
        bytes: num("bytes"),
        requests: num("requests"),
        total_ms: js_sys::Date::now() - started,
        read_ms: num("read_ms"),
        parse_ms: num("parse_ms"),
        memory: num("memory"),
        in_worker: true,
    };
    Outcome::Loaded(Box::new(f), view, Some(finished))
}

/// The worker's pieces put together: the skeleton, then each column in a task of its own (a
/// column of a million requests is a few MB to copy; all of them at once were a long task).
async fn assemble(skeleton: &[u8], columns: &JsValue) -> Result<tpsview_core::Parsed, String> {
    let mut a = tpsview_core::transfer::Assembly::new(skeleton)?;
    let columns: js_sys::Array = columns.clone().dyn_into().unwrap_or_default();
    for c in columns.iter() {
        next_task().await;
        let bytes = c
            .dyn_ref::<Uint8Array>()
            .map(Uint8Array::to_vec)
            .unwrap_or_default();
        a.put(&bytes)?;
    }
    a.finish()
}

/// Resolves in a later task (`tpsview_components::in_next_task`): what runs after it is a task
/// of its own.
pub async fn next_task() {
    let p = Promise::new(&mut |resolve, _| {
        tpsview_components::in_next_task(move || {
            let _ = resolve.call0(&JsValue::NULL);
        });
    });
    let _ = JsFuture::from(p).await;
}

/// Messages name the file; the worker's own do, a crash's does not.
fn with_name(name: &str, why: String) -> String {
    if why.starts_with(name) {
        why
    } else {
        format!("{name}: {why}")
    }
}

fn keep_source(f: &mut LoadedFile, source: &Source) {
    match source {
        Source::File(file) => f.origin = Some(remember(file)),
        Source::Url(u) => f.source_url = Some(u.clone()),
    }
    f.status.can_reread = true;
}

/// What the page reads on its own thread: a built-in sample (a tpsview/1 report, so that the
/// first chart never waits for the loading worker's module), and, where no worker can start, a
/// tpsview/1 report; any other file then gets a message saying why it cannot be read here.
async fn on_this_thread(
    name: &str,
    source: &Source,
    format: Option<Format>,
    is_sample: bool,
    started: f64,
) -> Outcome {
    let mut f = match source {
        Source::File(file) => {
            match gloo_file::futures::read_as_bytes(&gloo_file::File::from(file.clone())).await {
                Ok(bytes) => load::from_bytes(name, &bytes, is_sample),
                Err(e) => load::failed(
                    name,
                    format!("{name}: the browser could not read the file ({e})"),
                ),
            }
        }
        Source::Url(u) => load::fetch(u, is_sample).await,
    };
    if !is_sample && (f.status.error.is_some() || format.is_some_and(|x| x != Format::Tpsview)) {
        let why = f.status.error.take().unwrap_or_default();
        f.parsed = None;
        f.status.error = Some(format!(
            "{name}: the loading worker could not start in this browser, and without it this page reads only tpsview/1 reports ({why})"
        ));
    }
    let view = load::bundle_view(&f);
    let total_ms = js_sys::Date::now() - started;
    let finished = f.parsed.as_ref().map(|p| Finished {
        name: name.to_owned(),
        bytes: f.bytes.as_deref().map_or(0, <[u8]>::len) as f64,
        requests: p.report.request_count() as f64,
        total_ms,
        read_ms: total_ms,
        parse_ms: 0.0,
        memory: 0.0,
        in_worker: false,
    });
    keep_source(&mut f, source);
    Outcome::Loaded(Box::new(f), view, finished)
}
