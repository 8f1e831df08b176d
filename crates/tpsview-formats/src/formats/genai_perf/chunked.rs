//! A GenAI-Perf `profile_export.json` read as it arrives: each request of
//! `experiments[e].requests` is cut from the bytes as soon as it completes, read with the same
//! serde seed the whole-file reader uses (`stream::Request`), reduced to a row and dropped, so
//! memory holds the rows and the one request under way, never the file (an export is mostly
//! response texts). Everything else — the root's other keys, each experiment's header — is kept
//! byte for byte as a *skeleton* (the file with its request lists emptied), read at the end by
//! the whole-file reader's own seeds; the rows then take the empty lists' places.
//!
//! So serde checks every byte: the skeleton as one document, each request as one value, and this
//! cutter only the commas between requests that it leaves out of the skeleton. Anything it does
//! not take — a key written with escapes, a repeated `experiments` or `requests` key, a request
//! that is not an object or not JSON (a bare `NaN`), text after the root — makes it give up, and
//! the caller reads the file whole, whose reader names the problem or reads it leniently.

use serde::de::DeserializeSeed;

use super::stream::{Export, Record};
use super::{build_export, inputs_model, row_of, ReadRequest, RequestParts};
use crate::error::{Diagnostic, ParseError};
use crate::formats::records::Braces;
use crate::model::Report;
use crate::progress::Progress;

/// What a container means to the cutter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// The root object.
    Root,
    /// The root's `experiments` list.
    Experiments,
    /// One of its objects.
    Experiment,
    /// An experiment's `requests` list: its objects are cut, its commas left out.
    Requests(Sep),
    /// Anything else (kept in the skeleton as it is).
    Other,
}

/// Where a `requests` list is between its elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sep {
    /// After `[`: a request or `]`.
    Open,
    /// After `,`: a request.
    Comma,
    /// After a request: `,` or `]`.
    Done,
}

/// The keys the cutter tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    Experiments,
    Requests,
    Other,
}

#[derive(Debug)]
struct Frame {
    role: Role,
    object: bool,
    /// In an object: a key comes next (after `{` or `,`).
    expect_key: bool,
    /// In an object: its last key.
    key: Key,
    /// The root or an experiment: its `experiments` or `requests` key was met.
    special_met: bool,
}

impl Frame {
    fn new(role: Role, object: bool) -> Frame {
        Frame {
            role,
            object,
            expect_key: object,
            key: Key::Other,
            special_met: false,
        }
    }
}

/// One experiment's requests, as cut.
struct Experiment {
    path: String,
    /// Whether it has a `requests` list.
    listed: bool,
    rows: Vec<ReadRequest>,
    diags: Vec<Diagnostic>,
}

/// The export read chunk by chunk (see the module's note).
pub(crate) struct ExportStream {
    file: String,
    stack: Vec<Frame>,
    /// Inside a string outside the requests: whether a backslash came just before, and whether the
    /// string is an object's key (then its bytes are gathered in `key`).
    string: Option<(bool, bool)>,
    key: Vec<u8>,
    /// After an object's `:`: the key whose value comes next.
    value_of: Option<Key>,
    /// The request under way, and its bytes from earlier chunks.
    cut: Option<Braces>,
    pending: Vec<u8>,
    skeleton: Vec<u8>,
    experiments: Vec<Experiment>,
    model: Option<String>,
    requests: usize,
    /// The first bytes, held until a byte-order mark can be told from text.
    head: Vec<u8>,
    started: bool,
    ended: bool,
    gave_up: bool,
    seen: u64,
}

impl ExportStream {
    pub(crate) fn new(file: &str) -> ExportStream {
        ExportStream {
            file: file.to_owned(),
            stack: Vec::new(),
            string: None,
            key: Vec::new(),
            value_of: None,
            cut: None,
            pending: Vec::new(),
            skeleton: Vec::new(),
            experiments: Vec::new(),
            model: None,
            requests: 0,
            head: Vec::new(),
            started: false,
            ended: false,
            gave_up: false,
            seen: 0,
        }
    }

    /// The next bytes; `false` once given up. Reports (requests, bytes) after each chunk that
    /// completed a request.
    fn take(&mut self, chunk: &[u8], progress: &mut dyn Progress) -> bool {
        if self.gave_up {
            return false;
        }
        self.seen += chunk.len() as u64;
        let before = self.requests;
        let ok = if self.started {
            self.scan(chunk)
        } else {
            self.head.extend_from_slice(chunk);
            if self.head.len() < 3 {
                return true;
            }
            self.start()
        };
        if !ok {
            self.gave_up = true;
            self.pending = Vec::new();
            self.skeleton = Vec::new();
            self.experiments = Vec::new();
            return false;
        }
        if self.requests > before {
            progress.report(self.requests as u64, self.seen);
        }
        true
    }

    /// The held first bytes, without a byte-order mark.
    fn start(&mut self) -> bool {
        self.started = true;
        let head = std::mem::take(&mut self.head);
        self.scan(super::super::strip_bom(&head))
    }

    /// The end of the file: the report, or `None` when the file must be read whole.
    fn end(mut self) -> Option<Result<(Report, Vec<Diagnostic>), ParseError>> {
        if !self.gave_up && !self.started && !self.start() {
            return None;
        }
        if self.gave_up || !self.ended {
            return None;
        }
        let mut de = serde_json::Deserializer::from_slice(&self.skeleton);
        let (experiments, _) = Export { file: &self.file }
            .deserialize(&mut de)
            .and_then(|v| de.end().map(|()| v))
            .ok()?;
        let mut experiments = experiments?;
        if experiments.len() != self.experiments.len() {
            return None;
        }
        for (e, cut) in experiments.iter_mut().zip(self.experiments) {
            match (&e.requests, cut.listed) {
                (Some(r), true) if r.is_empty() && e.diags.is_empty() => {
                    e.requests = Some(cut.rows);
                    e.diags = cut.diags;
                }
                (None, false) => {}
                _ => return None,
            }
        }
        Some(build_export(
            &self.file,
            experiments,
            self.model,
            Vec::new(),
        ))
    }

    /// Cuts what `chunk` completes; `false` to give up.
    fn scan(&mut self, chunk: &[u8]) -> bool {
        let mut i = 0;
        // Where the request under way starts in this chunk (`None`: in an earlier one).
        let mut from: Option<usize> = None;
        while i < chunk.len() {
            if let Some(cut) = &mut self.cut {
                let Some(end) = cut.end(chunk, i) else {
                    self.pending.extend_from_slice(&chunk[from.unwrap_or(0)..]);
                    return true;
                };
                self.cut = None;
                let ok = match from.take() {
                    Some(s) => self.request(&chunk[s..=end]),
                    None => {
                        let mut bytes = std::mem::take(&mut self.pending);
                        bytes.extend_from_slice(&chunk[..=end]);
                        let ok = self.request(&bytes);
                        bytes.clear();
                        self.pending = bytes;
                        ok
                    }
                };
                if !ok {
                    return false;
                }
                i = end + 1;
                continue;
            }
            let b = chunk[i];
            i += 1;
            if let Some((escaped, is_key)) = &mut self.string {
                self.skeleton.push(b);
                if *escaped {
                    *escaped = false;
                } else if b == b'\\' {
                    // A key written with escapes could spell `requests`: the whole reader reads it.
                    if *is_key {
                        return false;
                    }
                    *escaped = true;
                } else if b == b'"' {
                    let is_key = *is_key;
                    self.string = None;
                    if is_key && !self.key_read() {
                        return false;
                    }
                } else if *is_key {
                    self.key.push(b);
                }
                continue;
            }
            if b.is_ascii_whitespace() {
                if !matches!(self.stack.last(), Some(f) if matches!(f.role, Role::Requests(_))) {
                    self.skeleton.push(b);
                }
                continue;
            }
            if self.ended {
                return false;
            }
            let Some(top) = self.stack.last_mut() else {
                if b != b'{' {
                    return false;
                }
                self.skeleton.push(b);
                self.stack.push(Frame::new(Role::Root, true));
                continue;
            };
            if let Role::Requests(sep) = top.role {
                match (b, sep) {
                    (b'{', Sep::Open | Sep::Comma) => {
                        top.role = Role::Requests(Sep::Done);
                        // Read where it stands; one that runs past the chunk is cut first.
                        match self.request_at(&chunk[i - 1..]) {
                            Read::Ended(len) => i += len - 1,
                            Read::Runs => {
                                self.cut = Some(Braces::open());
                                from = Some(i - 1);
                            }
                            Read::Broken => return false,
                        }
                    }
                    (b',', Sep::Done) => top.role = Role::Requests(Sep::Comma),
                    (b']', Sep::Open | Sep::Done) => {
                        self.skeleton.push(b);
                        self.stack.pop();
                    }
                    _ => return false,
                }
                continue;
            }
            self.skeleton.push(b);
            if let Some(key) = self.value_of.take() {
                if !self.value(b, key) {
                    return false;
                }
                continue;
            }
            let top = self.stack.last_mut().expect("a frame");
            // A string or a scalar in the experiments list: the whole reader says what it is.
            if top.role == Role::Experiments && !matches!(b, b'{' | b',' | b']') {
                return false;
            }
            match b {
                b'"' => {
                    let is_key = top.object && top.expect_key;
                    top.expect_key = false;
                    self.key.clear();
                    self.string = Some((false, is_key));
                }
                b':' if top.object => self.value_of = Some(top.key),
                b',' if top.object => top.expect_key = true,
                b'}' | b']' => {
                    self.stack.pop();
                    if self.stack.is_empty() {
                        self.ended = true;
                    }
                }
                b'{' | b'[' => {
                    // An element of a list (a value of a key goes through `value`).
                    let object = b == b'{';
                    let role = match top.role {
                        Role::Experiments if object => {
                            self.experiments.push(Experiment {
                                path: format!("experiments[{}]", self.experiments.len()),
                                listed: false,
                                rows: Vec::new(),
                                diags: Vec::new(),
                            });
                            Role::Experiment
                        }
                        Role::Experiments => return false,
                        _ => Role::Other,
                    };
                    self.stack.push(Frame::new(role, object));
                }
                _ => {}
            }
        }
        if let Some(s) = from {
            self.pending.extend_from_slice(&chunk[s..]);
        }
        true
    }

    /// An object's key has been read (its bytes in `key`).
    fn key_read(&mut self) -> bool {
        let top = self.stack.last_mut().expect("a frame");
        let special = match top.role {
            Role::Root if self.key == b"experiments" => Key::Experiments,
            Role::Experiment if self.key == b"requests" => Key::Requests,
            _ => Key::Other,
        };
        if special != Key::Other {
            // A repeated `experiments` or `requests`: the last one counts in JSON, and the whole
            // reader reads it so.
            if top.special_met {
                return false;
            }
            top.special_met = true;
        }
        top.key = special;
        true
    }

    /// The first byte `b` of the value of `key` in the object on top.
    fn value(&mut self, b: u8, key: Key) -> bool {
        let role = self.stack.last().expect("a frame").role;
        let new = match (role, key, b) {
            (Role::Root, Key::Experiments, b'[') => Frame::new(Role::Experiments, false),
            (Role::Experiment, Key::Requests, b'[') => {
                // The skeleton keeps `[`; the requests and their commas are left out.
                if let Some(e) = self.experiments.last_mut() {
                    e.listed = true;
                }
                Frame::new(Role::Requests(Sep::Open), false)
            }
            // `experiments` or `requests` that is not a list: the whole reader says so.
            (_, Key::Experiments | Key::Requests, _) => return false,
            (_, _, b'{') => Frame::new(Role::Other, true),
            (_, _, b'[') => Frame::new(Role::Other, false),
            (_, _, b'"') => {
                self.key.clear();
                self.string = Some((false, false));
                return true;
            }
            _ => return true,
        };
        self.stack.push(new);
        true
    }

    /// The request that `bytes` start with (at its `{`), read where it stands: how many bytes it
    /// took, or that it runs past them, or that it is not one the whole reader would read alike.
    fn request_at(&mut self, bytes: &[u8]) -> Read {
        fn first<const INPUTS: bool>(bytes: &[u8]) -> Result<(Record<INPUTS>, usize), bool> {
            let mut values =
                serde_json::Deserializer::from_slice(bytes).into_iter::<Record<INPUTS>>();
            match values.next() {
                Some(Ok(r)) => Ok((r, values.byte_offset())),
                Some(Err(e)) => Err(e.is_eof()),
                None => Err(true),
            }
        }
        let read = if self.model.is_none() {
            first::<true>(bytes).map(|(Record(p, i), n)| (p, i, n))
        } else {
            first::<false>(bytes).map(|(Record(p, i), n)| (p, i, n))
        };
        match read {
            Ok((parts, inputs, n)) => {
                if self.add(parts, inputs) {
                    Read::Ended(n)
                } else {
                    Read::Broken
                }
            }
            Err(true) => Read::Runs,
            Err(false) => Read::Broken,
        }
    }

    /// One request's whole bytes (cut over chunks), read as [`ExportStream::request_at`] reads one
    /// where it stands; `false` unless they are exactly one request.
    fn request(&mut self, bytes: &[u8]) -> bool {
        matches!(self.request_at(bytes), Read::Ended(n) if n == bytes.len())
    }

    /// A request read: its row added to its experiment's.
    fn add(&mut self, parts: RequestParts, inputs: Option<serde_json::Value>) -> bool {
        let Some(e) = self.experiments.last_mut() else {
            return false;
        };
        if self.model.is_none() {
            self.model = inputs.as_ref().and_then(inputs_model);
        }
        let i = e.rows.len();
        e.rows
            .push(row_of(&self.file, &e.path, i, parts, &mut e.diags));
        self.requests += 1;
        true
    }
}

impl super::super::Chunked for ExportStream {
    fn feed(&mut self, chunk: &[u8], progress: &mut dyn Progress) -> bool {
        self.take(chunk, progress)
    }

    fn finish(
        self: Box<Self>,
        _file: &str,
        _progress: &mut dyn Progress,
    ) -> Option<Result<(Report, Vec<Diagnostic>), ParseError>> {
        (*self).end()
    }
}

/// What reading a request where it stands in a chunk gave.
enum Read {
    /// Read: its length in bytes.
    Ended(usize),
    /// It runs past the chunk.
    Runs,
    /// Not JSON the whole reader would read alike: give up.
    Broken,
}
