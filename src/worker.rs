//! The loading worker: its own wasm module (`src/bin/tpsview-worker.rs`, whose `main` calls
//! [`run`]), which the page starts in a dedicated Web Worker (see `loader.rs`) and which carries
//! every importer, so that the page's module does not. A job names a `File` (read with
//! `File.stream()`) or an absolute URL (read with a streamed `fetch`). A vLLM or SGLang
//! `bench_serving` file, an AIPerf `profile_export.jsonl`, LLMPerf responses or a GenAI-Perf
//! `profile_export.json` (the format
//! detected from two small slices at the file's ends) is parsed chunk by chunk as it arrives
//! (`formats::Stream`): the browser reads ahead while a chunk is parsed, and memory never holds
//! the whole file. Any other file, a URL, or a file the streamed reader gives up on, is read
//! chunk by chunk into one buffer and then parsed. Either way the
//! worker folds huge chunk-gap arrays into their distribution (`metrics::fold_gaps`), computes
//! each point's per-request distributions (`metrics::fold_requests`) and posts the
//! result back in binary (`tpsview_core::transfer`), its buffer transferred, not copied. The
//! page's thread never parses.
//!
//! Messages to the page: `{type: "ready"}`, `{type: "progress", phase, read, total, requests?}`,
//! `{type: "done", parsed?: Uint8Array, columns?: Uint8Array[], error?: string, view?: string,
//! bytes, requests, read_ms, parse_ms, memory}` (`parsed` and `columns`: the pieces of
//! `tpsview_core::transfer::split`).

use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, ReadableStream};

use crate::messages::{self, FetchFailure};

/// The largest file read in a browser tab. Reading keeps the file's bytes and the columns parsed
/// from them (about 2× the file for a vLLM detailed file, more for formats read through generic
/// JSON values) in one wasm memory, which cannot pass 4 GiB.
pub const MAX_BYTES: f64 = 1024.0 * 1024.0 * 1024.0;

/// Progress is posted at most this often (ms).
const PROGRESS_EVERY_MS: f64 = 80.0;

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn set(obj: &Object, key: &str, value: impl Into<JsValue>) {
    let _ = Reflect::set(obj, &JsValue::from_str(key), &value.into());
}

fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn message(kind: &str) -> Object {
    let m = Object::new();
    set(&m, "type", kind);
    m
}

fn now() -> f64 {
    js_sys::Date::now()
}

/// Starts serving jobs; called by `main` when it runs inside a worker.
pub fn run() {
    let on_job = Closure::<dyn FnMut(MessageEvent)>::new(|ev: MessageEvent| {
        wasm_bindgen_futures::spawn_local(job(ev.data()));
    });
    scope().set_onmessage(Some(on_job.as_ref().unchecked_ref()));
    on_job.forget();
    let _ = scope().post_message(&message("ready"));
}

/// Where a job's bytes come from.
enum Input {
    File(web_sys::File),
    Url(String),
}

async fn job(data: JsValue) {
    let name = get(&data, "name").as_string().unwrap_or_default();
    let format = get(&data, "format")
        .as_string()
        .and_then(|id| tpsview_core::Format::from_id(&id));
    let input = match get(&data, "file").dyn_into::<web_sys::File>() {
        Ok(f) => Input::File(f),
        Err(_) => Input::Url(get(&data, "url").as_string().unwrap_or_default()),
    };
    // A file no reader knows is read through the mapping given (the viewer's panel: its document
    // and one correction), else one kept for its fields (the link's, then this browser's), else
    // one proposed.
    let text = |k: &str| get(&data, k).as_string();
    // (Not checked here: a mapping being corrected may not read a file yet — its correction is
    // applied first, and the read checks it, naming what is missing.)
    let given = text("mapping")
        .and_then(|t| serde_json::from_str::<tpsview_core::mapping::Mapping>(&t).ok());
    let correction = [text("what"), text("field"), text("value")];
    let kept_list = text("saved").unwrap_or_else(|| "[]".into());
    let mut saved: Vec<tpsview_core::mapping::Mapping> = text("linked")
        .and_then(|t| {
            tpsview_core::mapping::Mapping::from_json("the link's mapping", t.as_bytes()).ok()
        })
        .into_iter()
        .collect();
    saved.extend(tpsview_core::mapping::kept(&kept_list));
    let started = now();
    let done = message("done");
    // A vLLM, SGLang, AIPerf-records, LLMPerf-responses or GenAI-Perf export file is parsed as it
    // arrives; anything
    // else, or a file the streamed reader gives up on, is read whole and then parsed.
    let streamed = match &input {
        Input::File(f) if given.is_none() => streamed(&name, f, format).await,
        _ => Streamed::No,
    };
    let (result, bytes, read_ms, total) = match streamed {
        Streamed::Read(r, read_ms, total) => (r, None, read_ms, total),
        Streamed::Failed(e) => {
            set(&done, "error", e);
            let _ = scope().post_message(&done);
            return;
        }
        Streamed::No => {
            let bytes = match read(&name, input).await {
                Ok(b) => b,
                Err(e) => {
                    set(&done, "error", e);
                    let _ = scope().post_message(&done);
                    return;
                }
            };
            let read_ms = now() - started;
            let total = bytes.len() as f64;
            let result = match &given {
                Some(_) => Err(unknown(&name)),
                None => parse_whole(&name, &bytes, format),
            };
            let result = match result {
                Err(e) if format.is_none() && (given.is_some() || is_unknown(&e)) => {
                    let correct = |shape: &tpsview_core::mapping::Shape| {
                        let [what, field, value] =
                            correction.clone().map(Option::unwrap_or_default);
                        given.map(|m| tpsview_core::mapping::edit(&m, shape, &what, &field, &value))
                    };
                    match tpsview_core::formats::read_unknown(&name, &bytes, correct, &saved) {
                        Some((r, offer)) => {
                            set(&done, "panel", panel_js(&offer.panel()));
                            if r.is_ok() && offer.origin == tpsview_core::mapping::Origin::Given {
                                set(
                                    &done,
                                    "kept",
                                    tpsview_core::mapping::kept_with(&kept_list, &offer.mapping),
                                );
                            }
                            // A proposal that cannot read the file: what the file resembles
                            // (the readers' word), then what the mapping below still needs.
                            match r {
                                Err(m)
                                    if offer.origin == tpsview_core::mapping::Origin::Proposed =>
                                {
                                    Err(tpsview_core::error::ParseError::new(
                                        &name,
                                        tpsview_core::error::ParseErrorKind::Shape(format!(
                                            "{}. The mapping proposed below cannot read it yet: {}",
                                            e.kind, m.kind
                                        )),
                                    ))
                                }
                                r => r,
                            }
                        }
                        None => Err(e),
                    }
                }
                r => r,
            };
            (result, Some(bytes), read_ms, total)
        }
    };
    set(&done, "bytes", total);
    let mut transfer = Array::new();
    match result {
        Ok(mut parsed) => {
            if let Some(b) = &bytes {
                if parsed.format.id() == tpsview_core::formats::tpsview::ID {
                    if let Some(v) = crate::view::view_of_bundle(b) {
                        set(&done, "view", v.to_json());
                    }
                }
            }
            drop(bytes);
            tpsview_core::metrics::fold_gaps(&mut parsed.report);
            // The page's summary then reads each point's percentiles instead of selecting them
            // over every request on its own thread.
            tpsview_core::metrics::fold_requests(&mut parsed.report);
            set(&done, "requests", parsed.report.request_count() as f64);
            // In pieces (a skeleton, then each per-request column), so that the page can take
            // them one task at a time; every buffer is transferred, not copied.
            let pieces = tpsview_core::transfer::split(parsed);
            let wire = Uint8Array::from(pieces.skeleton.as_slice());
            transfer = Array::of1(&wire.buffer());
            let columns = Array::new();
            for c in pieces.columns {
                let c = Uint8Array::from(c.as_slice());
                transfer.push(&c.buffer());
                columns.push(&c);
            }
            set(&done, "parsed", wire);
            set(&done, "columns", columns);
        }
        Err(e) => set(&done, "error", messages::parse_error(&e)),
    }
    set(&done, "read_ms", read_ms);
    set(&done, "parse_ms", now() - started - read_ms);
    set(&done, "memory", memory_bytes());
    let _ = scope().post_message_with_transfer(&done, &transfer);
}

/// The mapping panel's words as a plain object, which the page reads without a JSON decoder of
/// its own for them (`loader::panel_of`): strings, numbers and arrays of them.
fn panel_js(p: &tpsview_core::mapping::Panel) -> Object {
    let strings = |v: &[String]| v.iter().map(JsValue::from).collect::<Array>();
    let o = Object::new();
    set(&o, "origin", p.origin.as_str());
    set(&o, "rows", p.rows as f64);
    set(&o, "keys", p.keys as f64);
    set(&o, "scope", p.scope.as_str());
    set(
        &o,
        "concurrency",
        p.concurrency.map_or(JsValue::NULL, JsValue::from),
    );
    set(&o, "mapping", p.mapping.as_str());
    let q: Array = p
        .quantities
        .iter()
        .map(|(id, words)| Array::of2(&id.into(), &words.into()))
        .collect();
    set(&o, "quantities", q);
    let fields: Array = p
        .fields
        .iter()
        .map(|f| {
            Array::of5(
                &f.name.as_str().into(),
                &f.samples.as_str().into(),
                &f.quantity.as_str().into(),
                &f.unit.as_str().into(),
                &strings(&f.units),
            )
        })
        .collect();
    set(&o, "fields", fields);
    o
}

/// Whether no reader recognised the file.
fn is_unknown(e: &tpsview_core::error::ParseError) -> bool {
    matches!(
        *e.kind,
        tpsview_core::error::ParseErrorKind::UnknownFormat { .. }
    )
}

/// The error a file read through a mapping has where it shows no rows of named fields.
fn unknown(name: &str) -> tpsview_core::error::ParseError {
    tpsview_core::error::ParseError::new(
        name,
        tpsview_core::error::ParseErrorKind::NoData(
            "no rows of named fields to read through a mapping".into(),
        ),
    )
}

/// Parses bytes read whole, reporting requests as the byte scanner reads them.
fn parse_whole(
    name: &str,
    bytes: &[u8],
    format: Option<tpsview_core::Format>,
) -> Result<tpsview_core::formats::Parsed, tpsview_core::error::ParseError> {
    let total = bytes.len() as f64;
    let p = message("progress");
    set(&p, "phase", "parsing");
    set(&p, "read", 0.0);
    set(&p, "total", total);
    let _ = scope().post_message(&p);
    let mut report = reporter(total);
    match format {
        Some(f) => tpsview_core::formats::parse_with_progress(f, name, bytes, &mut report),
        None => tpsview_core::formats::parse_any_with_progress(name, bytes, &mut report),
    }
}

/// Posts (requests read, bytes read) while parsing, at most every 80 ms.
fn reporter(total: f64) -> impl FnMut(u64, u64) {
    let mut last = 0.0;
    move |requests: u64, at: u64| {
        if now() - last >= PROGRESS_EVERY_MS {
            last = now();
            let p = message("progress");
            set(&p, "phase", "parsing");
            set(&p, "read", at as f64);
            set(&p, "total", total);
            set(&p, "requests", requests as f64);
            let _ = scope().post_message(&p);
        }
    }
}

/// How a file read as it arrived ended.
enum Streamed {
    /// Parsed (or found wrong) while reading; the read's end, in ms since the job started; the
    /// file's size.
    Read(
        Result<tpsview_core::formats::Parsed, tpsview_core::error::ParseError>,
        f64,
        f64,
    ),
    /// Not a format read as it arrives, or the scanner gave up: read it whole.
    No,
    /// Reading failed.
    Failed(String),
}

/// Reads a file chunk by chunk into [`tpsview_core::formats::Stream`] when its format is one the
/// byte scanner streams: the format from the job, else detected from the file's two ends (two
/// small slices read first). Memory then holds the parsed columns, never the whole file, and the
/// browser reads the next chunks while this one is parsed.
async fn streamed(
    name: &str,
    file: &web_sys::File,
    format: Option<tpsview_core::Format>,
) -> Streamed {
    use tpsview_core::formats::{self, Stream};
    let started = now();
    let size = file.size();
    if size > MAX_BYTES {
        return Streamed::Failed(too_big(name, size));
    }
    let format = match format {
        Some(f) => Some(f),
        None => {
            let sniff = formats::SNIFF as f64;
            let (Ok(head), Ok(tail)) = (
                slice(file, 0.0, sniff.min(size)).await,
                slice(file, (size - sniff).max(0.0), size).await,
            ) else {
                return Streamed::No;
            };
            formats::detect_ends(&head, &tail)
        }
    };
    let Some(mut stream) = format.and_then(|f| Stream::new(f, name, Some(size as u64))) else {
        return Streamed::No;
    };
    let reader: web_sys::ReadableStreamDefaultReader = file.stream().get_reader().unchecked_into();
    let mut chunk_buf: Vec<u8> = Vec::new();
    let mut read = 0.0;
    // One progress message per 80 ms, with the bytes read and the requests the scanner has
    // reported so far (it reports every 1,024), so the bar's words do not alternate.
    let requests = std::cell::Cell::new(None::<u64>);
    let mut note = |r: u64, _at: u64| requests.set(Some(r));
    let mut last = 0.0;
    loop {
        let r = match JsFuture::from(reader.read()).await {
            Ok(r) => r,
            Err(e) => {
                return Streamed::Failed(format!("{name}: reading stopped ({})", describe(&e)))
            }
        };
        if get(&r, "done").as_bool().unwrap_or(true) {
            break;
        }
        let chunk: Uint8Array = get(&r, "value").unchecked_into();
        let n = chunk.length() as usize;
        chunk_buf.resize(n, 0);
        chunk.copy_to(&mut chunk_buf);
        read += n as f64;
        if !stream.feed(&chunk_buf, &mut note) {
            let _ = reader.cancel();
            return Streamed::No;
        }
        if now() - last >= PROGRESS_EVERY_MS {
            last = now();
            let p = message("progress");
            set(&p, "phase", "reading");
            set(&p, "read", read);
            set(&p, "total", size);
            if let Some(r) = requests.get() {
                set(&p, "requests", r as f64);
            }
            let _ = scope().post_message(&p);
        }
    }
    let read_ms = now() - started;
    match stream.finish(&mut note) {
        Some(r) => Streamed::Read(r, read_ms, read),
        None => Streamed::No,
    }
}

/// Bytes `start..end` of a file.
async fn slice(file: &web_sys::File, start: f64, end: f64) -> Result<Vec<u8>, JsValue> {
    let blob = file.slice_with_f64_and_f64(start, end)?;
    let buf = JsFuture::from(blob.array_buffer()).await?;
    Ok(Uint8Array::new(&buf).to_vec())
}

/// The size of this worker's wasm memory: its peak, since wasm memory never shrinks.
fn memory_bytes() -> f64 {
    let buffer = get(&wasm_bindgen::memory(), "buffer");
    get(&buffer, "byteLength").as_f64().unwrap_or(0.0)
}

fn too_big(name: &str, size: f64) -> String {
    format!(
        "{name}: {:.0} MB is more than this viewer reads in a browser tab ({:.0} MB). `tpsview summarize {name}` (the command-line tool) reads files of any size, and `tpsview convert` can write a smaller tpsview/1 report to open here.",
        size / 1e6,
        MAX_BYTES / 1e6
    )
}

async fn read(name: &str, input: Input) -> Result<Vec<u8>, String> {
    let (stream, total) = match input {
        Input::File(f) => (Some(f.stream()), Some(f.size())),
        Input::Url(url) => fetch(&url).await?,
    };
    let stream = stream.ok_or_else(|| format!("{name}: the browser gave no data to read"))?;
    let reader: web_sys::ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let mut buf: Vec<u8> = Vec::new();
    if let Some(t) = total {
        if t > MAX_BYTES {
            return Err(too_big(name, t));
        }
        buf.try_reserve_exact(t as usize).map_err(|_| {
            format!(
                "{name}: the browser could not give this tab the {:.0} MB of memory the file needs",
                t / 1e6
            )
        })?;
    }
    let mut last = 0.0;
    loop {
        let r = JsFuture::from(reader.read())
            .await
            .map_err(|e| format!("{name}: reading stopped ({})", describe(&e)))?;
        if get(&r, "done").as_bool().unwrap_or(true) {
            break;
        }
        let chunk: Uint8Array = get(&r, "value").unchecked_into();
        let n = chunk.length() as usize;
        if (buf.len() + n) as f64 > MAX_BYTES {
            let _ = reader.cancel();
            return Err(too_big(name, (buf.len() + n) as f64));
        }
        buf.try_reserve(n).map_err(|_| {
            format!(
                "{name}: the browser could not give this tab more memory after {:.0} MB",
                buf.len() as f64 / 1e6
            )
        })?;
        let at = buf.len();
        buf.resize(at + n, 0);
        chunk.copy_to(&mut buf[at..]);
        if now() - last >= PROGRESS_EVERY_MS {
            last = now();
            let p = message("progress");
            set(&p, "phase", "reading");
            set(&p, "read", buf.len() as f64);
            set(&p, "total", total.map_or(JsValue::NULL, JsValue::from));
            let _ = scope().post_message(&p);
        }
    }
    Ok(buf)
}

/// A streamed fetch: the body and its length when the server says it.
async fn fetch(url: &str) -> Result<(Option<ReadableStream>, Option<f64>), String> {
    let resp = JsFuture::from(scope().fetch_with_str(url))
        .await
        .map_err(|e| messages::fetch_error(url, &FetchFailure::Network(describe(&e))))?;
    let resp: web_sys::Response = resp.unchecked_into();
    if !resp.ok() {
        return Err(messages::fetch_error(
            url,
            &FetchFailure::Status(resp.status()),
        ));
    }
    let header = |h: &str| resp.headers().get(h).ok().flatten();
    if header("content-type").is_some_and(|t| t.contains("text/html")) {
        return Err(messages::fetch_error(url, &FetchFailure::Html));
    }
    // A compressed answer's length is not the body's: use it only when the body is not encoded.
    let total = header("content-length")
        .filter(|_| header("content-encoding").is_none())
        .and_then(|v| v.parse::<f64>().ok());
    Ok((resp.body(), total))
}

fn describe(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".into())
}
