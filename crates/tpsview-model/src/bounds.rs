//! Bounds on what grows with the data (runs, series, table rows): past [`FEW`] entries a list
//! collapses behind one control with a filter, and past [`PAGE`] rows a table pages, so that no
//! file floods the page however many runs or levels it holds. The components apply them.

/// The most entries a list shows without collapsing.
pub const FEW: usize = 12;

/// The most items that each get a control (a field, a card) of their own; past it, one control
/// stands for all of them, with the items listed.
pub const EACH: usize = 3;

/// The most rows a table shows at once.
pub const PAGE: usize = 50;

/// True when `label` is kept by the filter text `filter` (every word of it, any case).
pub fn kept(label: &str, filter: &str) -> bool {
    let l = label.to_lowercase();
    filter
        .split_whitespace()
        .all(|w| l.contains(&w.to_lowercase()))
}

/// Page `page` of `n` rows, clamped to the last: (the page shown, how many pages, its rows).
pub fn page(n: usize, page: usize) -> (usize, usize, std::ops::Range<usize>) {
    let pages = n.div_ceil(PAGE).max(1);
    let at = page.min(pages - 1);
    (at, pages, at * PAGE..((at + 1) * PAGE).min(n))
}

/// The rows of page `page` (clamped) out of `n`.
pub fn page_range(n: usize, at: usize) -> std::ops::Range<usize> {
    page(n, at).2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filter_keeps_labels_with_every_word() {
        assert!(kept("Qwen2 7B · pp512 · flash_attn=1", "qwen FLASH"));
        assert!(!kept("Qwen2 7B · pp512", "qwen flash"));
        assert!(kept("anything", "  "));
    }

    #[test]
    fn pages_cover_every_row_once() {
        let n = 2 * PAGE + 7;
        let mut seen = vec![0; n];
        for p in 0..4 {
            for i in page_range(n, p) {
                seen[i] += 1;
            }
        }
        // Page 3 is past the end: clamped to the last, so its rows count twice.
        assert_eq!(seen.iter().filter(|&&c| c == 1).count(), 2 * PAGE);
        assert!(seen[2 * PAGE..].iter().all(|&c| c == 2));
        assert_eq!(page_range(5, 0), 0..5);
        assert_eq!(page_range(0, 3), 0..0);
    }
}
