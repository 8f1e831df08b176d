//! Reading a big file as it arrives (vLLM, SGLang, AIPerf records, LLMPerf responses, GenAI-Perf
//! exports): one thread reads the file in chunks while this one parses them
//! ([`formats::Stream`]), so the disk read and the parse overlap on two cores, and memory holds
//! the parsed columns and a few chunks, never the whole file.

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::mpsc;

use tpsview_core::error::ParseError;
use tpsview_core::formats::{self, Format, Parsed};
use tpsview_core::progress::Silent;

/// Smaller files are read whole: a thread is not worth it.
const STREAM_FROM: u64 = 4 << 20;
/// The read size. Chunks are recycled, so their pages are faulted in once.
const CHUNK: usize = 1 << 20;
/// Chunks in flight between the reading thread and the parser.
const IN_FLIGHT: usize = 4;

/// The file read as it arrives, when its format is one read that way (`formats::Stream`: vLLM and
/// SGLang `bench_serving`, AIPerf records, LLMPerf responses, GenAI-Perf exports) and it is big
/// enough; `Ok(None)` when it must be read whole (another format,
/// a small file, or something the scanner does not read — the whole-file reader then names it).
pub fn read_streamed(
    path: &Path,
    name: &str,
    format: Option<Format>,
) -> std::io::Result<Option<Result<Parsed, ParseError>>> {
    let mut file = File::open(path)?;
    let size = file.metadata()?.len();
    if size < STREAM_FROM {
        return Ok(None);
    }
    let format = match format {
        Some(f) => f,
        None => {
            let sniff = formats::SNIFF as u64;
            let mut head = vec![0; formats::SNIFF];
            let mut tail = vec![0; formats::SNIFF];
            file.read_exact_at(&mut head, 0)?;
            file.read_exact_at(&mut tail, size - sniff)?;
            match formats::detect_ends(&head, &tail) {
                Some(f) => f,
                None => return Ok(None),
            }
        }
    };
    let Some(mut stream) = formats::Stream::new(format, name, Some(size)) else {
        return Ok(None);
    };
    let (full_tx, full_rx) = mpsc::sync_channel::<(Vec<u8>, usize)>(IN_FLIGHT);
    let (empty_tx, empty_rx) = mpsc::channel::<Vec<u8>>();
    let mut accepted = true;
    let read = std::thread::scope(|scope| {
        let reader = scope.spawn(move || -> std::io::Result<()> {
            loop {
                let mut buf = empty_rx.try_recv().unwrap_or_else(|_| vec![0; CHUNK]);
                let mut n = 0;
                while n < CHUNK {
                    match file.read(&mut buf[n..])? {
                        0 => break,
                        k => n += k,
                    }
                }
                if n == 0 || full_tx.send((buf, n)).is_err() {
                    return Ok(());
                }
            }
        });
        for (buf, n) in &full_rx {
            accepted = stream.feed(&buf[..n], &mut Silent);
            if !accepted {
                break;
            }
            let _ = empty_tx.send(buf);
        }
        // Stops the reader if the parser stopped first.
        drop(full_rx);
        reader
            .join()
            .unwrap_or_else(|_| Err(std::io::Error::other("the reading thread stopped")))
    });
    read?;
    Ok(if accepted {
        stream.finish(&mut Silent)
    } else {
        None
    })
}
