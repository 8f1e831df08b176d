//! Progress of a long parse, for a caller that shows it (the browser's loading worker): passed to
//! [`crate::formats::parse_any_with_progress`] as a parameter. The byte scanner reports (requests
//! read so far, bytes of the file read so far) every 1,024 requests; a record file read as it
//! arrives (`formats::Stream`), after each chunk that completed a record; the other readers report
//! nothing.

/// Receives progress reports.
pub trait Progress {
    /// Called with (requests read so far, bytes of the file read so far).
    fn report(&mut self, requests: u64, bytes: u64);
}

impl<F: FnMut(u64, u64)> Progress for F {
    fn report(&mut self, requests: u64, bytes: u64) {
        self(requests, bytes);
    }
}

/// Progress nobody watches.
pub struct Silent;

impl Progress for Silent {
    fn report(&mut self, _: u64, _: u64) {}
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_big_vllm_file_reports_requests_as_it_goes() {
        let text = crate::synthetic::vllm_detailed(3_000, 5, 1, false);
        let mut seen = Vec::new();
        let mut watch = |r, b| seen.push((r, b));
        crate::formats::parse_any_with_progress("p.json", text.as_bytes(), &mut watch)
            .expect("parses");
        assert_eq!(seen.iter().map(|x| x.0).collect::<Vec<_>>(), [1_024, 2_048]);
        assert!(seen[0].1 < seen[1].1 && (seen[1].1 as usize) < text.len());
        // The same file as SGLang's format reports the same way; a format without the byte
        // scanner reports nothing, and nothing breaks.
        let mut n = 0;
        let mut count = |_, _| n += 1;
        crate::formats::parse_with_progress(
            crate::Format::SglangServe,
            "p.json",
            text.as_bytes(),
            &mut count,
        )
        .expect("parses");
        assert_eq!(n, 2);
        crate::parse_any("p.json", text.as_bytes()).expect("parses");
    }
}
