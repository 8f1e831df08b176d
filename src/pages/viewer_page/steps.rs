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
fn judge_steps(
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
fn interval_steps(
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

/// When each table below the first view is built: every figure (`below`), then the baseline diff,
/// then each tool's definitions, each a task after the one before, the first a task after the
/// answer and the charts' specs, so that a load of dozens of runs never builds the whole page in
/// one task; the page counts as busy until they are. All false again while a new summary is made.
#[derive(Clone, Copy)]
pub(super) struct Stages {
    /// The table of every figure (and the intervals after it).
    pub below: ReadSignal<bool>,
    /// The baseline diff (and its verdicts).
    pub diff: ReadSignal<bool>,
    /// Each tool's definitions.
    pub defs: ReadSignal<bool>,
}

impl Stages {
    pub(super) fn new(ready: ReadSignal<bool>) -> Stages {
        let (below, set_below) = signal(false);
        let (diff, set_diff) = signal(false);
        let (defs, set_defs) = signal(false);
        let task = tpsview_components::Latest::new();
        Effect::new(move |_| {
            if ready.get() {
                task.run_later(move || {
                    set_below.set(true);
                    task.run_later(move || {
                        set_diff.set(true);
                        task.run_later(move || set_defs.set(true));
                    });
                });
            } else {
                set_below.set(false);
                set_diff.set(false);
                set_defs.set(false);
            }
        });
        Stages { below, diff, defs }
    }
}

/// Each level's own intervals into `intervals`, computed in steps once the table of every figure
/// is up (`below`); new runs (`judged_ids`) start over.
pub(super) fn intervals_once_below(
    report: Memo<crate::state::Grouped>,
    intervals: RwSignal<Option<Vec<Vec<Option<noise::LevelIntervals>>>>>,
    judged_ids: Memo<Vec<tpsview_core::vocabulary::RunId>>,
    below: ReadSignal<bool>,
) {
    let task = tpsview_components::Latest::new();
    Effect::new(move |_| {
        judged_ids.track();
        intervals.set(None);
        if below.get() {
            interval_steps(task, report, intervals, Default::default(), Vec::new());
        }
    });
}

/// The diff's verdicts against noise (`noise::judge_some`), judged once the diff is shown, in
/// steps of at most [`VERDICT_STEP`] resampled values a task so that no task holds the thread
/// long however many runs there are; a figure dearer than [`VERDICT_MAX`] alone, or past
/// [`VERDICT_BUDGET`] in all, says `tpsview compare` judges it. `None` while judging: the diff
/// table is shown once judged. A new baseline or new runs start over (the `Latest` stream drops
/// the old steps).
pub(super) fn verdicts_once_shown(
    report: Memo<crate::state::Grouped>,
    summary: Memo<tpsview_core::Summary>,
    baseline_index: Memo<usize>,
    judged_ids: Memo<Vec<tpsview_core::vocabulary::RunId>>,
    shown: ReadSignal<bool>,
) -> RwSignal<Option<Vec<noise::Judged>>> {
    let verdicts = RwSignal::new(None::<Vec<noise::Judged>>);
    let task = tpsview_components::Latest::new();
    Effect::new(move |_| {
        let b = baseline_index.get();
        judged_ids.track();
        verdicts.set(None);
        if !shown.get() {
            return;
        }
        let opts = noise::JudgeOptions {
            max_cost: Some(VERDICT_MAX),
            budget: Some(VERDICT_BUDGET),
            ..noise::JudgeOptions::default()
        };
        judge_steps(
            task,
            report,
            summary,
            verdicts,
            b,
            opts,
            Default::default(),
            Vec::new(),
        );
    });
    verdicts
}
