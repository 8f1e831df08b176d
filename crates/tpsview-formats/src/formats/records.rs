//! Record formats read as they arrive (AIPerf's `profile_export.jsonl`, LLMPerf's
//! `*_individual_responses.json`): the bytes are cut into whole records — the elements of one
//! top-level JSON array, or one object after another (JSON lines) — as each completes, and each
//! record goes to its format's [`Sink`] at once, so memory holds the rows and the one record under
//! way, never the file. The sink is the same code the whole-file reader runs over
//! `common::map_records`, so both readings give the same report. A record that starts and ends
//! inside the chunk at hand is offered to the sink where it stands first ([`Sink::record_at`]:
//! serde's stream reader says where it ends), so that braces are counted only for a record that
//! runs past its chunk or that the typed reading leaves to the JSON value.
//!
//! Anything this cutter does not take — a scalar where a record belongs, a record serde_json
//! rejects, text after the array, an empty file — makes it give up: the caller then reads the file
//! whole, whose reader says exactly what is wrong (as for a vLLM file the byte scanner gives up on).

use crate::error::{Diagnostic, ParseError};
use crate::model::Report;

/// Where a record format's records go, one by one, in file order. Each sink reads its record
/// shape one way, with one typed reader of the record's bytes: as the chunked reader cuts them, and
/// from the whole-file reader's JSON values written back out ([`read_whole`]), whose tree is kept
/// only to read past and name what is broken between records.
pub(crate) trait Sink {
    /// Record `i` (0-based, every record counted) as its bytes (one JSON value); `false` when
    /// they are not JSON.
    fn record_bytes(&mut self, i: usize, bytes: &[u8], diags: &mut Vec<Diagnostic>) -> bool;
    /// Record `i` read where it stands: `bytes` start at its `{` and run on past it (to the end of
    /// the chunk at hand). `Some(length)` when read, so that the cutter need not find its end
    /// first; `None` when it runs past `bytes` or is not one this reading takes: the cutter then
    /// cuts it whole and hands it to [`Sink::record_bytes`]. By default always `None`.
    fn record_at(
        &mut self,
        _i: usize,
        _bytes: &[u8],
        _diags: &mut Vec<Diagnostic>,
    ) -> Option<usize> {
        None
    }
    /// `read` of the file's `total` bytes gave the records seen so far: room can be made for the
    /// rest (once per file, early).
    fn reserve_for_rest(&mut self, read: u64, total: u64);
    /// The end of the file: the report, or why there is none.
    fn finish(
        self: Box<Self>,
        diags: Vec<Diagnostic>,
    ) -> Result<(Report, Vec<Diagnostic>), ParseError>;
}

/// A whole file's records into `sink` (`common::map_records`: one array or one record after
/// another, a broken line skipped and named, bare `NaN` quoted), each written back out for the
/// sink's typed reader.
pub(crate) fn read_whole(
    file: &str,
    bytes: &[u8],
    mut sink: impl Sink + 'static,
) -> Result<(Report, Vec<Diagnostic>), ParseError> {
    let mut diags = Vec::new();
    super::common::map_records(file, bytes, &mut diags, |i, r, d| {
        sink.record_bytes(i, &super::common::text_of(r), d)
    })?;
    Box::new(sink).finish(diags)
}

/// Where the cutter is in the file's structure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Before the first byte that is not whitespace (or a byte-order mark).
    Start,
    /// Inside one top-level array, where an element belongs (after `[` or `,`).
    Array,
    /// Inside one top-level array, after an element: `,` or `]` belongs.
    ArrayAfter,
    /// One object after another, at the top level: between them.
    Lines,
    /// After the top-level array's `]`: only whitespace may follow.
    Ended,
    /// Given up.
    Failed,
}

/// Where a record's braces and strings stand as it is cut: inside a record only quotes,
/// backslashes (in strings) and braces matter — brackets balance inside a valid record, and
/// serde_json checks each record when it is read.
#[derive(Debug, Default)]
pub(crate) struct Braces {
    /// Depth of braces (1 = inside the record's own); 0 between records.
    pub(crate) depth: u32,
    in_string: bool,
    escaped: bool,
}

impl Braces {
    /// Just after a record's `{`.
    pub(crate) fn open() -> Braces {
        Braces {
            depth: 1,
            ..Braces::default()
        }
    }

    /// Moves through `chunk[i..]`: the index of the record's closing brace, or `None` when the
    /// chunk ends first.
    pub(crate) fn end(&mut self, chunk: &[u8], mut i: usize) -> Option<usize> {
        while i < chunk.len() {
            if self.escaped {
                self.escaped = false;
                i += 1;
                continue;
            }
            let rest = &chunk[i..];
            let k = if self.in_string {
                memchr::memchr2(b'"', b'\\', rest)
            } else {
                memchr::memchr3(b'"', b'{', b'}', rest)
            }?;
            i += k;
            match chunk[i] {
                b'\\' => self.escaped = true,
                b'"' => self.in_string = !self.in_string,
                b'{' => self.depth += 1,
                _ => {
                    self.depth -= 1;
                    if self.depth == 0 {
                        return Some(i);
                    }
                }
            }
            i += 1;
        }
        None
    }
}

/// What the cutter hands each record to.
pub(crate) trait Take {
    /// A record that starts at `bytes[0]` and may run on past its end: `Some(its length)` when
    /// taken where it stands, `None` to have it cut whole first (the default).
    fn at(&mut self, bytes: &[u8]) -> Option<usize> {
        let _ = bytes;
        None
    }
    /// A whole record's bytes; `false` to give up.
    fn whole(&mut self, bytes: &[u8]) -> bool;
}

impl<F: FnMut(&[u8]) -> bool> Take for F {
    fn whole(&mut self, bytes: &[u8]) -> bool {
        self(bytes)
    }
}

/// Records numbered from `next` into a sink.
struct ToSink<'a> {
    sink: &'a mut dyn Sink,
    diags: &'a mut Vec<Diagnostic>,
    next: usize,
}

/// A sink's typed reading skips the fields it does not use unchecked, where the whole-file
/// reader (a JSON value) rejects text that is not UTF-8: each record is checked here, so that a
/// file either reading refuses, both do (the streamed one then gives way to the whole one).
impl Take for ToSink<'_> {
    fn at(&mut self, bytes: &[u8]) -> Option<usize> {
        let n = self.sink.record_at(self.next, bytes, self.diags)?;
        // Not UTF-8: cut whole, where `whole` refuses it (what the sink took is thrown away
        // with the streamed reading).
        std::str::from_utf8(&bytes[..n]).ok()?;
        self.next += 1;
        Some(n)
    }
    fn whole(&mut self, bytes: &[u8]) -> bool {
        self.next += 1;
        std::str::from_utf8(bytes).is_ok()
            && self.sink.record_bytes(self.next - 1, bytes, self.diags)
    }
}

/// Cuts a byte stream into whole records.
pub(crate) struct Cutter {
    mode: Mode,
    /// Bytes of the record under way that came in earlier chunks.
    pending: Vec<u8>,
    /// Inside a record: where its braces and strings stand.
    braces: Braces,
    /// Bytes of the file seen so far.
    seen: u64,
    /// Bytes of a byte-order mark skipped at the start.
    bom: u8,
    /// Records cut so far.
    count: usize,
}

impl Cutter {
    pub(crate) fn new() -> Cutter {
        Cutter {
            mode: Mode::Start,
            pending: Vec::new(),
            braces: Braces::default(),
            seen: 0,
            bom: 0,
            count: 0,
        }
    }

    /// Records cut so far.
    pub(crate) fn count(&self) -> usize {
        self.count
    }

    /// Cuts the records that `chunk` completes and hands each to `take` (see [`Take`]). `false`
    /// once given up.
    pub(crate) fn feed(&mut self, chunk: &[u8], take: &mut impl Take) -> bool {
        let offset = self.seen;
        self.seen += chunk.len() as u64;
        // Where the record under way starts in this chunk (0 when it began in an earlier one).
        let mut start = if self.braces.depth > 0 { Some(0) } else { None };
        let mut i = 0;
        while i < chunk.len() {
            if self.mode == Mode::Failed {
                return false;
            }
            if self.braces.depth > 0 {
                let Some(end) = self.braces.end(chunk, i) else {
                    break;
                };
                i = end;
                let s = start.take().unwrap_or(0);
                let ok = if self.pending.is_empty() {
                    take.whole(&chunk[s..=i])
                } else {
                    self.pending.extend_from_slice(&chunk[s..=i]);
                    let ok = take.whole(&self.pending);
                    self.pending.clear();
                    ok
                };
                self.count += 1;
                if !ok {
                    self.mode = Mode::Failed;
                } else if self.mode == Mode::Array {
                    self.mode = Mode::ArrayAfter;
                }
                i += 1;
                continue;
            }
            let b = chunk[i];
            // Between records. A byte-order mark is skipped at the file's start (it may arrive
            // split over chunks); a part of one is not text the whole-file reader reads.
            const BOM: &[u8; 3] = b"\xEF\xBB\xBF";
            let at = offset + i as u64;
            if at < 3 && self.mode == Mode::Start && usize::from(self.bom) == at as usize {
                if b == BOM[at as usize] {
                    self.bom += 1;
                    i += 1;
                    continue;
                }
                if self.bom > 0 {
                    self.mode = Mode::Failed;
                    continue;
                }
            }
            if !b.is_ascii_whitespace() {
                self.mode = match (self.mode, b) {
                    (Mode::Start, b'[') => Mode::Array,
                    // A record: read where it stands if the taker can, else cut from here.
                    (Mode::Start | Mode::Lines | Mode::Array, b'{') => {
                        let (within, after) = match self.mode {
                            Mode::Array => (Mode::Array, Mode::ArrayAfter),
                            _ => (Mode::Lines, Mode::Lines),
                        };
                        if let Some(n) = take.at(&chunk[i..]) {
                            self.count += 1;
                            i += n;
                            self.mode = after;
                            continue;
                        }
                        self.open(&mut start, i);
                        within
                    }
                    (Mode::ArrayAfter, b',') => Mode::Array,
                    // `[]` ends with no record (the whole-file reader says so); `[{…},]` is not
                    // JSON.
                    (Mode::ArrayAfter, b']') => Mode::Ended,
                    (Mode::Array, b']') if self.count == 0 => Mode::Ended,
                    // A scalar or an array where a record belongs, a missing or doubled comma,
                    // anything after the array: the whole-file reader says what it is.
                    _ => Mode::Failed,
                };
            }
            i += 1;
        }
        if let Some(s) = start {
            self.pending.extend_from_slice(&chunk[s..]);
        }
        self.mode != Mode::Failed
    }

    fn open(&mut self, start: &mut Option<usize>, at: usize) {
        self.braces = Braces::open();
        *start = Some(at);
    }

    /// The end of the file: whether it held whole records and nothing else (at least one).
    pub(crate) fn complete(&self) -> bool {
        self.count > 0 && self.braces.depth == 0 && matches!(self.mode, Mode::Lines | Mode::Ended)
    }
}

/// A record format read chunk by chunk (see the module's note).
pub(crate) struct RecordStream {
    /// The file's size, when known, until the sink has been told what to expect.
    estimate_at: Option<u64>,
    cutter: Cutter,
    sink: Box<dyn Sink>,
    diags: Vec<Diagnostic>,
}

impl RecordStream {
    pub(crate) fn new(sink: Box<dyn Sink>, size: Option<u64>) -> RecordStream {
        RecordStream {
            estimate_at: size,
            cutter: Cutter::new(),
            sink,
            diags: Vec::new(),
        }
    }
}

impl super::Chunked for RecordStream {
    /// The next bytes; `false` once given up. Reports (records, bytes) after each chunk that
    /// completed a record (a record can be kilobytes: counting to 1,024 could take megabytes).
    fn feed(&mut self, chunk: &[u8], progress: &mut dyn crate::progress::Progress) -> bool {
        let before = self.cutter.count();
        let seen = self.cutter.seen + chunk.len() as u64;
        let mut take = ToSink {
            sink: &mut *self.sink,
            diags: &mut self.diags,
            next: before,
        };
        let ok = self.cutter.feed(chunk, &mut take);
        let i = take.next;
        if ok && i > before {
            progress.report(i as u64, seen);
        }
        // Once a 32nd of the file (at least 1 MB) has given records, the sink can size its columns
        // for the rest.
        if let Some(total) = self.estimate_at {
            if self.cutter.count() > 0 && seen >= (total / 32).max(1 << 20).min(total) {
                self.sink.reserve_for_rest(seen, total);
                self.estimate_at = None;
            }
        }
        ok
    }

    /// The report, or `None` when the file must be read whole.
    fn finish(
        self: Box<Self>,
        _file: &str,
        _progress: &mut dyn crate::progress::Progress,
    ) -> Option<Result<(Report, Vec<Diagnostic>), ParseError>> {
        let this = *self;
        this.cutter.complete().then(|| this.sink.finish(this.diags))
    }
}

#[cfg(test)]
mod tests;
