//! Progress of a long parse, for a caller that shows it (the browser's loading worker). A
//! thread-local hook: the byte scanner reports (requests read so far, bytes read so far) every 1,024
//! requests; with no hook set a report costs one thread-local read.

use std::cell::RefCell;

/// Called with (requests read so far, bytes of the file read so far).
pub type Hook = Box<dyn FnMut(u64, u64)>;

thread_local! {
    static HOOK: RefCell<Option<Hook>> = const { RefCell::new(None) };
}

/// Sets this thread's hook, or clears it with `None`.
pub fn set_hook(hook: Option<Hook>) {
    HOOK.with_borrow_mut(|h| *h = hook);
}

/// Reports progress to the hook, if any.
pub(crate) fn report(requests: u64, bytes: u64) {
    HOOK.with_borrow_mut(|h| {
        if let Some(f) = h {
            f(requests, bytes);
        }
    });
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    #[test]
    fn a_big_vllm_file_reports_requests_as_it_goes() {
        let text = crate::synthetic::vllm_detailed(3_000, 5, 1, false);
        let seen = Rc::new(RefCell::new(Vec::new()));
        let s = Rc::clone(&seen);
        super::set_hook(Some(Box::new(move |r, b| s.borrow_mut().push((r, b)))));
        crate::parse_any("p.json", text.as_bytes()).expect("parses");
        super::set_hook(None);
        let seen = seen.borrow();
        assert_eq!(seen.iter().map(|x| x.0).collect::<Vec<_>>(), [1_024, 2_048]);
        assert!(seen[0].1 < seen[1].1 && (seen[1].1 as usize) < text.len());
        // No hook: nothing is called, nothing breaks.
        crate::parse_any("p.json", text.as_bytes()).expect("parses");
    }
}
