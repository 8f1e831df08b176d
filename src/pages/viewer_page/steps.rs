//! The page's long computations in steps, a task each, so that no task holds the thread however
//! many runs there are: the diff's verdicts against noise and each level's own intervals.

use leptos::prelude::*;
use tpsview_core::noise;

/// Resampled values the page draws for the diff's verdicts in one task (about 10 ms).
pub(crate) const VERDICT_STEP: usize = 4_000_000;
/// The most one figure's interval may draw in the page (it is drawn in one task).
pub(crate) const VERDICT_MAX: usize = 8_000_000;
/// The most the page draws for one comparison's verdicts in all.
pub(crate) const VERDICT_BUDGET: usize = 400_000_000;

/// One step of the diff's verdicts, then the next in a task of its own until all are judged.
#[allow(clippy::too_many_arguments)]
pub(super) fn judge_steps(
    stream: tpsview_components::Latest,
    report: Memo<crate::state::Grouped>,
    summary: Memo<tpsview_core::Summary>,
    into: RwSignal<Option<Vec<noise::Judged>>>,
    baseline: usize,
    opts: noise::JudgeOptions,
    mut at: noise::Cursor,
    mut out: Vec<noise::Judged>,
) {
    stream.run_later(move || {
        let done = report.try_with_untracked(|g| {
            summary.try_with_untracked(|s| {
                noise::judge_some(
                    &g.report,
                    s,
                    baseline,
                    &opts,
                    &mut at,
                    VERDICT_STEP,
                    &mut out,
                )
            })
        });
        match done.flatten() {
            Some(true) => {
                into.try_set(Some(out));
            }
            Some(false) => judge_steps(stream, report, summary, into, baseline, opts, at, out),
            None => {}
        }
    });
}

/// Each level's own intervals (`noise::intervals_some`), a step of at most `VERDICT_STEP`
/// resampled values a task, within the verdicts' limits, until every level has them.
pub(super) fn interval_steps(
    stream: tpsview_components::Latest,
    report: Memo<crate::state::Grouped>,
    into: RwSignal<Option<Vec<Vec<Option<noise::LevelIntervals>>>>>,
    mut at: noise::LevelCursor,
    mut out: Vec<Vec<Option<noise::LevelIntervals>>>,
) {
    stream.run_later(move || {
        let limits = noise::Limits {
            max_cost: Some(VERDICT_MAX),
            budget: Some(VERDICT_BUDGET),
        };
        let done = report.try_with_untracked(|g| {
            noise::intervals_some(&g.report, &mut at, VERDICT_STEP, &limits, &mut out)
        });
        match done {
            Some(true) => {
                into.try_set(Some(out));
            }
            Some(false) => interval_steps(stream, report, into, at, out),
            None => {}
        }
    });
}
