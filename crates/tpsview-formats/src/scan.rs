//! A byte scanner for the shapes big benchmark files are made of: objects whose values are long
//! arrays of numbers, arrays of arrays of numbers, and long strings to skip. It reads numbers
//! straight into columns, several times faster than going through serde's visitors, and gives up
//! (returns `None`) on anything it does not expect, so that the caller falls back to the serde path,
//! which handles every oddity and names it in a diagnostic. It never panics on any input.

/// Exact powers of ten as f64 (10^0 … 10^22 are exactly representable).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Deepest nesting `skip_value` accepts before giving up (the serde path then reports it).
const MAX_DEPTH: usize = 128;

/// A cursor over JSON bytes.
pub struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Scanner<'a> {
    /// Starts at the first byte.
    pub fn new(b: &'a [u8]) -> Self {
        Scanner { b, i: 0 }
    }

    /// Starts at byte `i` (a reader resuming where its last step ended).
    pub fn at(b: &'a [u8], i: usize) -> Self {
        Scanner { b, i }
    }

    /// Where the cursor is.
    pub fn pos(&self) -> usize {
        self.i
    }

    /// True when only whitespace is left.
    pub fn at_end(&mut self) -> bool {
        self.ws();
        self.i >= self.b.len()
    }

    fn ws(&mut self) {
        while let Some(c) = self.b.get(self.i) {
            if matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
                self.i += 1;
            } else {
                break;
            }
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.b.get(self.i).copied()
    }

    /// Consumes `c` (after whitespace) or gives up.
    pub fn expect(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// Consumes `c` if it comes next.
    pub fn eat(&mut self, c: u8) -> bool {
        let hit = self.peek() == Some(c);
        if hit {
            self.i += 1;
        }
        hit
    }

    /// The raw bytes of a string between its quotes (escapes left as written), and whether it
    /// holds any escape.
    pub fn string_raw(&mut self) -> Option<(&'a [u8], bool)> {
        self.expect(b'"')?;
        let start = self.i;
        let mut escaped = false;
        loop {
            let k = memchr::memchr2(b'"', b'\\', &self.b[self.i..])?;
            self.i += k;
            if self.b[self.i] == b'\\' {
                escaped = true;
                self.i += 2;
                if self.i > self.b.len() {
                    return None;
                }
            } else {
                let s = &self.b[start..self.i];
                self.i += 1;
                return Some((s, escaped));
            }
        }
    }

    /// An object key, unescaped only when it has no escapes (keys we act on never do).
    pub fn key(&mut self) -> Option<&'a str> {
        let (raw, escaped) = self.string_raw()?;
        if escaped {
            return None;
        }
        let k = std::str::from_utf8(raw).ok()?;
        self.expect(b':')?;
        Some(k)
    }

    /// The bytes of the next value, whatever it is, skipped without building it.
    pub fn skip_value(&mut self) -> Option<&'a [u8]> {
        let start = {
            self.ws();
            self.i
        };
        let mut depth = 0usize;
        loop {
            match self.peek()? {
                b'"' => {
                    self.string_raw()?;
                }
                b'[' | b'{' => {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        return None;
                    }
                    self.i += 1;
                    continue;
                }
                b']' | b'}' => {
                    depth = depth.checked_sub(1)?;
                    self.i += 1;
                }
                b',' | b':' if depth > 0 => {
                    self.i += 1;
                    continue;
                }
                _ => {
                    let k = self.b[self.i..].iter().position(|c| {
                        matches!(c, b',' | b']' | b'}' | b' ' | b'\n' | b'\r' | b'\t')
                    })?;
                    if k == 0 {
                        return None;
                    }
                    self.i += k;
                }
            }
            if depth == 0 {
                return Some(&self.b[start..self.i]);
            }
        }
    }

    /// One JSON number. Short decimals (the common case) take Clinger's exact fast path; others
    /// go through fast-float2's correctly rounded Eisel-Lemire parser. `null`, strings and literals
    /// like `NaN` make it give up.
    pub fn number(&mut self) -> Option<f64> {
        self.ws();
        // fast-float2 reads the number in one pass (Clinger's exact path for short ones inside
        // it); its grammar is wider than JSON's, so the token it read is checked after.
        let rest = &self.b[self.i..];
        let (v, n) = fast_float2::parse_partial::<f64, _>(rest).ok()?;
        if !json_number(&rest[..n], rest.get(n).copied()) {
            return None;
        }
        self.i += n;
        Some(v)
    }

    /// The tests' second reading of a number, by other means than [`Scanner::number`] (which
    /// it was until 2026-12-01): JSON's grammar checked digit by digit here, the value by
    /// Clinger's exact division when short, else by the standard library's parser.
    #[cfg(test)]
    pub(crate) fn number_by_parts(&mut self) -> Option<f64> {
        self.ws();
        let b = self.b;
        let start = self.i;
        let mut i = start;
        let neg = b.get(i) == Some(&b'-');
        if neg {
            i += 1;
        }
        let mut mant: u64 = 0;
        let int_start = i;
        // One digit before the point (most latencies and gaps), else digit by digit.
        let mut digits = match b.get(i..i + 2) {
            Some(&[d, b'.']) if d.is_ascii_digit() => {
                mant = u64::from(d - b'0');
                i += 1;
                1
            }
            _ => accumulate_digits_bytewise(b, &mut i, &mut mant),
        };
        let int_len = i - int_start;
        // JSON forbids leading zeros ("01") and a bare sign.
        if int_len == 0 || (int_len > 1 && b[int_start] == b'0') {
            return None;
        }
        let mut exp10: i32 = 0;
        if b.get(i) == Some(&b'.') {
            i += 1;
            let frac_start = i;
            digits += accumulate_digits(b, &mut i, &mut mant);
            if i == frac_start {
                return None;
            }
            exp10 = -((i - frac_start) as i32);
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            let eneg = match b.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            let e_start = i;
            let mut e: i32 = 0;
            while let Some(&c) = b.get(i) {
                if !c.is_ascii_digit() {
                    break;
                }
                e = e.saturating_mul(10).saturating_add(i32::from(c - b'0'));
                i += 1;
            }
            if i == e_start {
                return None;
            }
            exp10 = exp10.saturating_add(if eneg { -e } else { e });
        }
        self.i = i;
        let v = if digits <= 19 && mant < (1u64 << 53) && exp10.unsigned_abs() <= 22 {
            // Both operands exact, one correctly rounded operation: the exact answer (Clinger).
            let m = mant as f64;
            if exp10 < 0 {
                m / POW10[exp10.unsigned_abs() as usize]
            } else {
                m * POW10[exp10 as usize]
            }
        } else {
            // Long mantissas (Python's 17-digit repr) and big exponents: Eisel-Lemire, correctly
            // rounded, on the token already checked against JSON's grammar above.
            parse_long(&b[start + usize::from(neg)..i])?
        };
        Some(if neg { -v } else { v })
    }

    /// Inside an array, at a value: reads values of the common shape of latencies and gaps —
    /// one integer digit, a point, one to seven fraction digits, no exponent (`0.026525`), each
    /// followed by `,` or `, ` — into `out`, each in one step on one 16-byte read (the next value's place
    /// depends only on this value's length, so the reads do not wait on one another's bytes).
    /// `true` when the array's `]` ended it (consumed); `false` at the first value of another
    /// shape, where [`Scanner::number`] then reads. A value read here is the one `number`
    /// gives: the same digits, the same exact division (Clinger).
    #[inline(always)]
    fn short_decimals(&mut self, out: &mut Vec<f64>) -> bool {
        let b = self.b;
        let mut i = self.i;
        if b.get(i) == Some(&b' ') {
            i += 1;
        }
        while let Some(head) = b.get(i..).and_then(|r| r.first_chunk::<16>()) {
            let d = head[0].wrapping_sub(b'0');
            if d > 9 || head[1] != b'.' {
                break;
            }
            let mut x = [0u8; 8];
            x.copy_from_slice(&head[2..10]);
            let x = u64::from_le_bytes(x);
            let k = leading_digits(x) as usize;
            if k == 0 || k == 8 {
                break;
            }
            let v = (u64::from(d) * POW10_INT[k] + digits_value(x, k as u32)) as f64 / POW10[k];
            // The two bytes after the digits, from the bytes already read.
            let after = (u128::from_le_bytes(*head) >> (8 * (2 + k))) as u16;
            if after == u16::from_le_bytes(*b", ") {
                out.push(v);
                i += 4 + k;
                continue;
            }
            match after as u8 {
                b',' => {
                    out.push(v);
                    i += 3 + k;
                }
                b']' => {
                    out.push(v);
                    self.i = i + 3 + k;
                    return true;
                }
                _ => break,
            }
        }
        self.i = i;
        false
    }

    /// `[n, n, …]` appended to `out`.
    pub fn f64_array(&mut self, out: &mut Vec<f64>) -> Option<()> {
        self.expect(b'[')?;
        if self.eat(b']') {
            return Some(());
        }
        // Values the one-step path did not take in a row: past a few, the row is taken to be
        // of another shape (Python's 17-digit repr) and read by `number` alone.
        let mut missed = 0u32;
        loop {
            if missed < 4 {
                let before = out.len();
                if self.short_decimals(out) {
                    return Some(());
                }
                missed = if out.len() > before { 0 } else { missed + 1 };
            }
            out.push(self.number()?);
            // The separator right after the number (the common case), else after whitespace.
            match self.b.get(self.i) {
                Some(b',') => {
                    self.i += 1;
                    continue;
                }
                Some(b']') => {
                    self.i += 1;
                    return Some(());
                }
                _ => {}
            }
            if self.eat(b',') {
                continue;
            }
            return self.expect(b']');
        }
    }
}

/// The JSON path (`runs[0].points[2].requests.ttft_s`) of the value containing byte `offset`, found
/// by walking the text up to it. Used to name the field of a parse error after serde_json has
/// reported its position; it never fails, and on malformed text gives the best path it can.
pub fn path_at(b: &[u8], offset: usize) -> String {
    enum Frame {
        Obj(Option<String>),
        Arr(usize),
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut expect_key = false;
    let end = offset.min(b.len());
    let mut i = 0;
    while i < end {
        match b[i] {
            b'{' => {
                stack.push(Frame::Obj(None));
                expect_key = true;
            }
            b'[' => stack.push(Frame::Arr(0)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Arr(n)) => *n += 1,
                Some(Frame::Obj(k)) => {
                    *k = None;
                    expect_key = true;
                }
                None => {}
            },
            b':' => expect_key = false,
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                if expect_key {
                    if let Some(Frame::Obj(k)) = stack.last_mut() {
                        *k = Some(String::from_utf8_lossy(&b[start..i.min(b.len())]).into_owned());
                    }
                    expect_key = false;
                }
            }
            _ => {}
        }
        i += 1;
    }
    let mut out = String::new();
    for f in &stack {
        match f {
            Frame::Obj(Some(k)) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Frame::Obj(None) => {}
            Frame::Arr(n) => out.push_str(&format!("[{n}]")),
        }
    }
    out
}

/// The byte offset of serde_json's 1-based (line, column) position.
pub fn offset_of(b: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match memchr::memchr(b'\n', &b[start..]) {
            Some(k) => start += k + 1,
            None => return b.len(),
        }
    }
    (start + column).min(b.len())
}

/// Whether `token`, which fast-float2 read as a number, is one by JSON's grammar
/// (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`). fast-float2 also takes a leading `+`,
/// leading zeros, `5.`, `.5`, `inf` and `nan`, and leaves an exponent without digits unread
/// (`1e`, `1e+`: then `next`, the byte after the token, is its `e`), which JSON refuses.
fn json_number(token: &[u8], next: Option<u8>) -> bool {
    let exponent = |c: &u8| matches!(c, b'e' | b'E');
    if next.is_some_and(|c| c.is_ascii_digit() || (exponent(&c) && !token.iter().any(exponent))) {
        return false;
    }
    let mut p = usize::from(token.first() == Some(&b'-'));
    match token.get(p) {
        Some(b'0') => p += 1,
        Some(b'1'..=b'9') => {
            p += 1;
            while token.get(p).is_some_and(u8::is_ascii_digit) {
                p += 1;
            }
        }
        _ => return false,
    }
    match token.get(p) {
        None | Some(b'e' | b'E') => true,
        Some(b'.') => token.get(p + 1).is_some_and(u8::is_ascii_digit),
        _ => false,
    }
}

#[cfg(test)]
fn parse_long(token: &[u8]) -> Option<f64> {
    std::str::from_utf8(token).ok()?.parse().ok()
}

/// Reads ASCII digits from `b[*i..]` into `mant` (wrapping past 19 digits: the caller checks the
/// count), advancing `*i`; returns how many it read. Eight bytes at a time while eight remain
/// (SWAR: which lead with digits, and their value, in a few integer operations), then byte by byte.
#[cfg(test)]
fn accumulate_digits(b: &[u8], i: &mut usize, mant: &mut u64) -> u32 {
    let mut n = 0;
    while let Some(&word) = b.get(*i..).and_then(|r| r.first_chunk::<8>()) {
        let x = u64::from_le_bytes(word);
        let k = leading_digits(x);
        if k == 0 {
            return n;
        }
        *mant = mant
            .wrapping_mul(POW10_INT[k as usize])
            .wrapping_add(digits_value(x, k));
        n += k;
        *i += k as usize;
        if k < 8 {
            return n;
        }
    }
    n + accumulate_digits_bytewise(b, i, mant)
}

/// [`accumulate_digits`] one byte at a time (integer parts: mostly one digit).
#[cfg(test)]
fn accumulate_digits_bytewise(b: &[u8], i: &mut usize, mant: &mut u64) -> u32 {
    let mut n = 0;
    while let Some(&c) = b.get(*i) {
        if !c.is_ascii_digit() {
            break;
        }
        *mant = mant.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
        n += 1;
        *i += 1;
    }
    n
}

/// 10^k for k ≤ 8.
const POW10_INT: [u64; 9] = [
    1,
    10,
    100,
    1_000,
    10_000,
    100_000,
    1_000_000,
    10_000_000,
    100_000_000,
];

/// How many of the eight bytes of `x` (the first in the lowest byte) are ASCII digits before the
/// first that is not. A byte is a digit when its high nibble is 3 both as is and after adding 6
/// (0x3A..0x3F become 0x40..0x45); a byte of 0xFA or more carries into the next, but that byte
/// already ends the run.
fn leading_digits(x: u64) -> u32 {
    const HIGH: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    const THREES: u64 = 0x3030_3030_3030_3030;
    let not_digit =
        ((x & HIGH) ^ THREES) | ((x.wrapping_add(0x0606_0606_0606_0606) & HIGH) ^ THREES);
    not_digit.trailing_zeros() / 8
}

/// The value of the first `k` (1..=8) digit bytes of `x`: they are moved to the top, zeros before
/// them, and the eight are combined pairwise (2 → 4 → 8 digits) with three multiplications.
fn digits_value(x: u64, k: u32) -> u64 {
    let d = x & 0x0F0F_0F0F_0F0F_0F0F;
    let d = d << (8 * (8 - k));
    let d = (d.wrapping_mul(10) + (d >> 8)) & 0x00FF_00FF_00FF_00FF;
    let d = (d.wrapping_mul(100) + (d >> 16)) & 0x0000_FFFF_0000_FFFF;
    (d.wrapping_mul(10_000) + (d >> 32)) & 0xFFFF_FFFF
}

#[cfg(test)]
mod tests;
