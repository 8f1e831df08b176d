//! The byte scanner's reading of vLLM result objects, in small resumable steps: one key with a
//! small value, or one element of a per-request array (a number, a request's chunk gaps, an error
//! text). A step either completes or leaves everything as it was, so the same reader serves a whole
//! file in memory ([`read_all`]) and a file arriving chunk by chunk ([`StepScanner`]): there a step
//! that runs past the bytes received so far is retried once more have come. A step that cannot
//! complete on the whole file (anything unusual: a `null` in an array, a bare `NaN`, a broken
//! line) makes the reader give up, and the caller reads the file through serde, which names
//! every problem.

use super::{Col, Key, RawVllm};
use crate::lenient::{Column, RaggedColumn};
use crate::progress::Progress;
use crate::scan::Scanner;

/// A per-request array being read, element by element.
enum Array {
    Column(Col, Vec<f64>),
    Itls(RaggedColumn),
    Errors(Vec<Option<String>>),
    /// Per-request data tpsview does not use (texts): each element skipped unread.
    Skip,
}

/// Where the reader stands between two steps.
enum At {
    /// Between objects: `{`, whitespace, or the end.
    Object,
    /// After `{` or `,` inside an object: a key.
    Key,
    /// Inside a per-request array, after `[` or `,`: an element.
    Array(Array),
    /// After a value inside an object: `,` or `}`.
    AfterValue,
}

/// Whether a step finished the input.
enum Step {
    Went,
    End,
}

/// The reader's state: the objects read so far and where it stands in the current one.
pub(super) struct Reader {
    at: At,
    raw: RawVllm,
    out: Vec<RawVllm>,
    /// The file's size when known: bounds the gap buffer reserved up front.
    size: Option<usize>,
}

/// The reader met something it does not read; the caller reads the file through serde.
pub(super) struct GaveUp;

impl Reader {
    pub(super) fn new(size: Option<usize>) -> Self {
        Reader {
            at: At::Object,
            raw: RawVllm::default(),
            out: Vec::new(),
            size,
        }
    }

    /// Reads `b[*pos..]` by whole steps, moving `*pos` past each completed one. `base` is the
    /// file offset of `b[0]` (for progress). With `last` false, a step that runs past the end of
    /// `b` is left for later (`Ok`); with `last` true it means the reader gives up, and `Ok` means
    /// every object was read.
    pub(super) fn advance(
        &mut self,
        b: &[u8],
        pos: &mut usize,
        last: bool,
        base: u64,
        progress: &mut dyn Progress,
    ) -> Result<(), GaveUp> {
        loop {
            let mut s = Scanner::at(b, *pos);
            match self.step(&mut s, last, base, progress) {
                Some(Step::Went) => *pos = s.pos(),
                Some(Step::End) => return Ok(()),
                None if last => return Err(GaveUp),
                None => return Ok(()),
            }
        }
    }

    /// The objects read, once [`advance`](Self::advance) with `last` returned `Ok`.
    pub(super) fn into_objects(self) -> Vec<RawVllm> {
        self.out
    }

    /// One step, or `None` with the state unchanged.
    fn step(
        &mut self,
        s: &mut Scanner<'_>,
        last: bool,
        base: u64,
        progress: &mut dyn Progress,
    ) -> Option<Step> {
        match &mut self.at {
            At::Object => {
                if s.at_end() {
                    return last.then_some(Step::End);
                }
                s.expect(b'{')?;
                if s.eat(b'}') {
                    self.out.push(std::mem::take(&mut self.raw));
                } else {
                    self.at = At::Key;
                }
            }
            At::Key => {
                let key = s.key()?;
                self.at = match Key::of(key) {
                    Key::Column(c) => {
                        s.expect(b'[')?;
                        if s.eat(b']') {
                            *self.raw.column(c) = Some(Column { values: Vec::new() });
                            At::AfterValue
                        } else {
                            At::Array(Array::Column(c, Vec::new()))
                        }
                    }
                    Key::Itls => {
                        s.expect(b'[')?;
                        let mut r = RaggedColumn::default();
                        r.data.offsets.push(0);
                        if s.eat(b']') {
                            self.raw.itls = Some(r);
                            At::AfterValue
                        } else {
                            self.reserve_gaps(&mut r, base + s.pos() as u64);
                            At::Array(Array::Itls(r))
                        }
                    }
                    Key::Errors => {
                        s.expect(b'[')?;
                        if s.eat(b']') {
                            self.raw.errors = Some(Vec::new());
                            At::AfterValue
                        } else {
                            At::Array(Array::Errors(Vec::new()))
                        }
                    }
                    Key::Ignored => {
                        if s.eat(b'[') {
                            if s.eat(b']') {
                                At::AfterValue
                            } else {
                                At::Array(Array::Skip)
                            }
                        } else {
                            s.skip_value()?;
                            At::AfterValue
                        }
                    }
                    Key::Other => {
                        // Small values (summary figures, config, metadata): read the usual way.
                        let span = s.skip_value()?;
                        let mut de = serde_json::Deserializer::from_slice(span);
                        RawVllm::take_value(&mut self.raw, key.to_owned(), &mut de).ok()?;
                        At::AfterValue
                    }
                };
            }
            At::Array(array) => {
                let more = match array {
                    Array::Column(_, values) => {
                        let v = s.number()?;
                        let more = next(s)?;
                        values.push(v);
                        more
                    }
                    Array::Itls(r) => {
                        let before = r.data.values.len();
                        let row = s.f64_array(&mut r.data.values).and_then(|()| {
                            let end = u32::try_from(r.data.values.len()).ok()?;
                            Some((end, next(s)?))
                        });
                        let Some((end, more)) = row else {
                            r.data.values.truncate(before);
                            return None;
                        };
                        r.data.offsets.push(end);
                        let rows = r.data.offsets.len() - 1;
                        if rows % 1024 == 0 {
                            progress.report(rows as u64, base + s.pos() as u64);
                        }
                        more
                    }
                    Array::Errors(errs) => {
                        let e = error_text(s)?;
                        let more = next(s)?;
                        errs.push(e);
                        more
                    }
                    Array::Skip => {
                        s.skip_value()?;
                        next(s)?
                    }
                };
                if !more {
                    match std::mem::replace(&mut self.at, At::AfterValue) {
                        At::Array(Array::Column(c, values)) => {
                            *self.raw.column(c) = Some(Column { values });
                        }
                        At::Array(Array::Itls(r)) => self.raw.itls = Some(r),
                        At::Array(Array::Errors(e)) => self.raw.errors = Some(e),
                        _ => {}
                    }
                }
            }
            At::AfterValue => {
                if s.eat(b',') {
                    self.at = At::Key;
                } else {
                    s.expect(b'}')?;
                    self.out.push(std::mem::take(&mut self.raw));
                    self.at = At::Object;
                }
            }
        }
        Some(Step::Went)
    }

    /// vLLM writes `output_lens` before `itls`: with one token per chunk the gaps number
    /// Σ(output_lens − 1). Reserving that once spares the doubling reallocations (old and new
    /// buffer alive together: the load's peak memory) on a big file. `at` is the file offset.
    fn reserve_gaps(&self, r: &mut RaggedColumn, at: u64) {
        let Some(o) = &self.raw.output_lens else {
            return;
        };
        let expect = o.values.iter().map(|n| n - 1.0).sum::<f64>().max(0.0);
        // At most one gap per two bytes of what is left of the file.
        let most = self
            .size
            .map_or(usize::MAX, |n| n.saturating_sub(at as usize) / 2);
        r.data.values.reserve_exact((expect as usize).min(most));
        r.data.offsets.reserve_exact(o.values.len().min(most) + 1);
    }
}

/// After an array element: `,` (more follow, `true`) or `]` (the end, `false`).
fn next(s: &mut Scanner<'_>) -> Option<bool> {
    if s.eat(b',') {
        Some(true)
    } else {
        s.expect(b']')?;
        Some(false)
    }
}

/// One entry of `errors`: `""` is none.
fn error_text(s: &mut Scanner<'_>) -> Option<Option<String>> {
    let (text, escaped) = s.string_raw()?;
    Some(match (text.is_empty(), escaped) {
        (true, _) => None,
        (false, false) => Some(std::str::from_utf8(text).ok()?.to_owned()),
        (false, true) => {
            Some(serde_json::from_slice::<String>(&[b"\"", text, b"\""].concat()).ok()?)
        }
    })
}

/// A window this big is worth reading in two halves on two cores.
const SPLIT_MIN: usize = 256 << 10;

/// The first `[` at or after `from` that follows `],` (whitespace allowed between): where a row
/// of the chunk-gap array would start.
fn row_start_after(b: &[u8], from: usize) -> Option<usize> {
    // The last byte before `end` that is not whitespace, and where it is.
    let last_before = |end: usize| b[..end].iter().rposition(|c| !c.is_ascii_whitespace());
    let mut i = from;
    while let Some(k) = memchr::memchr(b'[', &b[i..]) {
        let at = i + k;
        if let Some(comma) = last_before(at).filter(|&j| b[j] == b',') {
            if last_before(comma).is_some_and(|j| b[j] == b']') {
                return Some(at);
            }
        }
        i = at + 1;
    }
    None
}

/// Rows of numbers `[n, …],` from the start of `b`, each followed by a comma, until one is not
/// (the array's last row, an incomplete one, anything else): their values into `values`, each
/// row's end in those values into `ends`, and the bytes read (up to just after the last comma).
/// `values` and `ends` are cleared first: the caller hands the same two back for each chunk, so
/// their memory is written once, not faulted in afresh per chunk.
fn rows_until_last_comma(b: &[u8], values: &mut Vec<f64>, ends: &mut Vec<usize>) -> usize {
    let mut s = Scanner::new(b);
    values.clear();
    ends.clear();
    let mut read = 0;
    loop {
        let len = values.len();
        if s.f64_array(values).is_none() || !s.eat(b',') {
            values.truncate(len);
            return read;
        }
        ends.push(values.len());
        read = s.pos();
    }
}

/// Reads a whole file in memory; `None` when the reader gives up.
pub(super) fn read_all(bytes: &[u8], progress: &mut dyn Progress) -> Option<Vec<RawVllm>> {
    let mut reader = Reader::new(Some(bytes.len()));
    let mut pos = 0;
    reader.advance(bytes, &mut pos, true, 0, progress).ok()?;
    Some(reader.into_objects())
}

/// Rows of chunk gaps read apart from the column they belong to: their values, and each row's
/// end in those values.
#[derive(Default)]
struct Rows {
    values: Vec<f64>,
    ends: Vec<usize>,
}

impl Rows {
    /// Appends the rows to `column` and empties them; `false` when an offset would no longer fit
    /// the column's `u32` (as the reader's own step would have found).
    fn append_to(&mut self, column: &mut RaggedColumn) -> bool {
        let shift = column.data.values.len();
        if let Some(&last) = self.ends.last() {
            if u32::try_from(shift + last).is_err() {
                return false;
            }
        }
        column.data.values.extend_from_slice(&self.values);
        column
            .data
            .offsets
            .extend(self.ends.iter().map(|&e| (shift + e) as u32));
        self.values.clear();
        self.ends.clear();
        true
    }
}

/// A vLLM file read as it arrives: each chunk is read up to its last complete element, and only
/// the unread rest (less than one element) is kept for the next chunk, so memory holds the
/// columns and one chunk, never the whole file.
pub(crate) struct StepScanner {
    reader: Reader,
    /// Bytes received and not yet read.
    buf: Vec<u8>,
    /// The file offset of `buf[0]`.
    base: u64,
    /// Whether the start (a byte-order mark) was looked at.
    started: bool,
    gave_up: bool,
    /// Rows of the chunk-gap array read on the other core ([`StepScanner::split_gaps`]) and not yet
    /// appended to the column, and the buffer the next such rows go into (kept, so that their
    /// memory is written once, not faulted in afresh per chunk).
    pending: Rows,
    spare: Rows,
    /// How many bytes past the start of a step may arrive before a step that still cannot
    /// complete is taken to be one the scanner does not read (a `NaN`, a `null`) rather than one
    /// not yet whole: [`PATIENCE`], lower in tests.
    patience: usize,
    /// How many unread bytes to wait for before the next try: twice as many as the last try
    /// left unread. A step retried from its start on every chunk would rescan a long value
    /// (a big config object, a long text) once per chunk — quadratic in it with small chunks;
    /// doubling the window between tries bounds the rescanning to twice the value's length.
    retry_at: usize,
    /// How many times the reader was run over the window (tests count them).
    #[cfg(test)]
    tries: usize,
}

/// No element of a well-formed file comes near this size (a request's gaps are ~20 bytes each),
/// so a step that cannot complete with this much past its start never will: give up then, not at
/// the end of the file, so that the caller can turn to the ordinary reader at once.
pub(super) const PATIENCE: usize = 32 << 20;

impl StepScanner {
    /// A reader for a file of `size` bytes when known.
    pub(crate) fn new(size: Option<u64>) -> Self {
        StepScanner {
            reader: Reader::new(size.and_then(|n| usize::try_from(n).ok())),
            buf: Vec::new(),
            base: 0,
            started: false,
            gave_up: false,
            pending: Rows::default(),
            spare: Rows::default(),
            patience: PATIENCE,
            retry_at: 0,
            #[cfg(test)]
            tries: 0,
        }
    }

    #[cfg(test)]
    pub(super) fn set_patience(&mut self, bytes: usize) {
        self.patience = bytes;
    }

    /// Takes the next bytes of the file. `false` once the reader has given up (the caller then
    /// reads the whole file through the ordinary path; more chunks are ignored).
    pub(crate) fn feed(&mut self, chunk: &[u8], progress: &mut dyn Progress) -> bool {
        if self.gave_up {
            return false;
        }
        self.buf.extend_from_slice(chunk);
        if !self.started {
            if self.buf.len() < 3 {
                return true;
            }
            self.started = true;
            if self.buf.starts_with(b"\xEF\xBB\xBF") {
                self.buf.drain(..3);
                self.base += 3;
            }
        }
        if self.buf.len() < self.retry_at {
            if self.buf.len() > self.patience {
                self.gave_up = true;
                self.buf = Vec::new();
            }
            return !self.gave_up;
        }
        // Read only up to the last `,` `]` or `}`: a number is never cut, and a step that runs
        // past it (a string or row not yet complete) waits for more.
        let Some(end) = memchr::memrchr3(b',', b']', b'}', &self.buf) else {
            return true;
        };
        let mut pos = 0;
        #[cfg(test)]
        {
            self.tries += 1;
        }
        if crate::par::parallel() {
            self.split_gaps(end + 1, &mut pos, progress);
        }
        // Rows still pending can only wait while nothing else completes after them: a row ends
        // with `]`, so without one in the rest of the window this step would read nothing.
        let waits =
            !self.pending.ends.is_empty() && memchr::memchr(b']', &self.buf[pos..=end]).is_none();
        if !waits && !self.flush_pending() {
            self.gave_up = true;
            return false;
        }
        if !waits
            && self
                .reader
                .advance(&self.buf[..=end], &mut pos, false, self.base, progress)
                .is_err()
        {
            self.gave_up = true;
            return false;
        }
        self.buf.drain(..pos);
        self.base += pos as u64;
        self.retry_at = self.buf.len().saturating_mul(2);
        if self.buf.len() > self.patience {
            self.gave_up = true;
            self.buf = Vec::new();
        }
        !self.gave_up
    }

    /// With two cores, inside the chunk-gap array (most of a detailed file's bytes): the window
    /// `buf[..end]` is cut at a row start found after three eighths of it; the rest is read on the
    /// other core into [`StepScanner::spare`] while this one appends the rows the last window left
    /// pending and reads up to that start. Appending writes the column's fresh memory (page
    /// faults: about as costly as reading the numbers), so this core takes the smaller share and
    /// no core waits while the other copies. The other core's rows are kept — pending, appended
    /// on the next window — only when this core's reading ends exactly at the cut, still inside
    /// the array: then the cut really was a row start, whatever bytes looked like one; else this
    /// core goes on over them alone.
    fn split_gaps(&mut self, end: usize, pos: &mut usize, progress: &mut dyn Progress) {
        if end < SPLIT_MIN || !matches!(self.reader.at, At::Array(Array::Itls(_))) {
            return;
        }
        let b = &self.buf[..end];
        let Some(at) = row_start_after(b, end * 3 / 8) else {
            return;
        };
        let reader = &mut self.reader;
        let pending = &mut self.pending;
        let spare = &mut self.spare;
        let base = self.base;
        let mut upto = 0;
        let (first, read) = crate::par::join(
            || {
                let At::Array(Array::Itls(r)) = &mut reader.at else {
                    return Err(());
                };
                if !pending.append_to(r) {
                    return Err(());
                }
                reader
                    .advance(
                        &b[..at],
                        &mut upto,
                        false,
                        base,
                        &mut crate::progress::Silent,
                    )
                    .map_err(|_| ())
            },
            || rows_until_last_comma(&b[at..], &mut spare.values, &mut spare.ends),
        );
        *pos = upto;
        if first.is_err() {
            // The reader gives up on its next step, as it would have alone.
            return;
        }
        let joined = b[upto..at].iter().all(u8::is_ascii_whitespace) && read > 0;
        let At::Array(Array::Itls(r)) = &self.reader.at else {
            return;
        };
        if !joined {
            return;
        }
        std::mem::swap(&mut self.pending, &mut self.spare);
        let before = r.data.offsets.len() - 1;
        let after = before + self.pending.ends.len();
        if after / 1024 > before / 1024 {
            progress.report((after / 1024 * 1024) as u64, base + (at + read) as u64);
        }
        *pos = at + read;
    }

    /// Appends the pending rows to the column; `false` when they no longer fit it.
    fn flush_pending(&mut self) -> bool {
        if self.pending.ends.is_empty() {
            return true;
        }
        match &mut self.reader.at {
            At::Array(Array::Itls(r)) => self.pending.append_to(r),
            _ => false,
        }
    }

    /// The end of the file: the objects read, or `None` when the reader gave up.
    pub(super) fn finish(mut self, progress: &mut dyn Progress) -> Option<Vec<RawVllm>> {
        if self.gave_up {
            return None;
        }
        if !self.started && self.buf.starts_with(b"\xEF\xBB\xBF") {
            self.buf.drain(..3);
        }
        if !self.flush_pending() {
            return None;
        }
        let mut pos = 0;
        self.reader
            .advance(&self.buf, &mut pos, true, self.base, progress)
            .ok()?;
        Some(self.reader.into_objects())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader fed `head` (ending inside the chunk-gap array), its unread rest and `window`
    /// then read by [`StepScanner::split_gaps`] directly.
    fn split(head: &str, window: &str) -> (StepScanner, usize) {
        let mut c = StepScanner::new(None);
        assert!(c.feed(head.as_bytes(), &mut crate::progress::Silent));
        assert!(matches!(c.reader.at, At::Array(Array::Itls(_))));
        c.buf.extend_from_slice(window.as_bytes());
        let mut pos = 0;
        let end = c.buf.len();
        c.split_gaps(end, &mut pos, &mut crate::progress::Silent);
        assert!(c.flush_pending());
        (c, pos)
    }

    fn rows(c: &StepScanner) -> usize {
        match &c.reader.at {
            At::Array(Array::Itls(r)) => r.data.rows(),
            _ => usize::MAX,
        }
    }

    #[test]
    fn a_long_value_fed_byte_by_byte_is_tried_a_logarithmic_number_of_times() {
        // A config object of 500 entries (its commas each end a window) before the columns.
        let entries: Vec<String> = (0..500).map(|i| format!("\"k{i}\": {i}")).collect();
        let file = format!(
            "{{\"config\": {{{}}}, \"ttfts\": [0.5, 0.25], \"output_lens\": [3, 4]}}",
            entries.join(", ")
        );
        let mut c = StepScanner::new(Some(file.len() as u64));
        for b in file.as_bytes().chunks(1) {
            assert!(c.feed(b, &mut crate::progress::Silent));
        }
        // Retried from its start on every comma, the object would be scanned once per byte fed after its first comma (thousands).
        assert!(c.tries < 64, "{} tries", c.tries);
        let streamed = c.finish(&mut crate::progress::Silent).expect("reads");
        assert_eq!(streamed.len(), 1);
        let col = |c: &Option<Column>| c.as_ref().map(|c| c.values.clone());
        assert_eq!(col(&streamed[0].ttfts), Some(vec![0.5, 0.25]));
        assert_eq!(col(&streamed[0].output_lens), Some(vec![3.0, 4.0]));
    }

    #[test]
    fn rows_of_gaps_empty_ones_included_and_a_cut_array() {
        let objects = read_all(
            br#"{"itls": [[0.1, 0.2], [], [0.3]]}"#,
            &mut crate::progress::Silent,
        )
        .expect("reads");
        let gaps = &objects[0].itls.as_ref().expect("gaps").data;
        assert_eq!(gaps.offsets, [0, 2, 2, 3]);
        assert_eq!(gaps.values, [0.1, 0.2, 0.3]);
        assert!(read_all(br#"{"itls": [[1,2],[3"#, &mut crate::progress::Silent).is_none());
    }

    #[test]
    fn a_window_of_rows_is_read_in_two_halves_and_spliced() {
        let head = "{\"output_lens\": [3], \"itls\": [[0.5, 0.25], ";
        let row = "[0.1, 0.2, 0.3], ";
        let window = row.repeat(40_000);
        let (c, pos) = split(head, &window);
        // Every row followed by its comma is read, up to the window's last comma.
        assert_eq!(rows(&c), 1 + 40_000);
        assert_eq!(pos, c.buf.len() - 1);
        let At::Array(Array::Itls(r)) = &c.reader.at else {
            unreachable!()
        };
        assert_eq!(r.data.values.len(), 2 + 3 * 40_000);
        assert_eq!(r.data.offsets[..4], [0, 2, 5, 8]);
        assert_eq!(r.data.values[r.data.values.len() - 3..], [0.1, 0.2, 0.3]);
    }

    #[test]
    fn rows_found_in_text_after_the_array_are_thrown_away() {
        let head = "{\"output_lens\": [3], \"itls\": [[0.5, 0.25], ";
        // The array ends before the window's middle; texts that look like rows follow.
        let window = format!(
            "{}[0.7]], \"t\": [\"{}\"], ",
            "[0.1], ".repeat(10_000),
            "], [1, 2], ".repeat(40_000)
        );
        let (c, pos) = split(head, &window);
        // This half read on past the array's end; nothing from the other half was spliced in.
        assert!(matches!(c.reader.at, At::Key | At::AfterValue | At::Object));
        let gaps = c
            .reader
            .raw
            .itls
            .as_ref()
            .expect("the array was read")
            .data
            .rows();
        assert_eq!(gaps, 1 + 10_000 + 1);
        assert!(pos < window.len() / 2 + 20);
    }
}
