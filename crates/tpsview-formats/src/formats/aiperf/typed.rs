//! A profiling record read straight from its bytes into [`RecordParts`]: the one reader of the
//! record's shape, for the chunked reader's bytes and the whole-file reader's values alike. Each
//! key is taken leniently (a repeated key's last value; a value of the wrong kind as absent; an
//! `error` that is not null as the request's failure, named by its `message`, `type` or `code`; a
//! `benchmark_phase` given in a list as its first item); a record that is not an object has no
//! parts, and the row reading says what it lacks.

use std::fmt;

use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::{unit_scale, RecordParts};
use crate::lenient::{each_key, FromMap, FromSeq, Leaf, ListOr, ObjectOr, Text};
use crate::requests::RowFacts;

pub(super) struct Record(pub RecordParts);

/// A number as `common::num` reads it: finite or infinite, not NaN.
fn number(l: &Leaf) -> Option<f64> {
    l.num().value()
}

impl<'de> Deserialize<'de> for Record {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Record;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a record")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Record, A::Error> {
                let (mut error, mut meta, mut metrics) =
                    (Failure(None), Meta::default(), Metrics::default());
                each_key(&mut map, &["error", "metadata", "metrics"], |key, map| {
                    match key {
                        "error" => error = map.next_value()?,
                        "metadata" => meta = map.next_value::<ObjectOr<Meta>>()?.0,
                        _ => metrics = map.next_value::<ObjectOr<Metrics>>()?.0,
                    }
                    Ok(())
                })?;
                Ok(Record(RecordParts {
                    error: error.0,
                    cancelled: meta.cancelled.as_bool() == Some(true),
                    // Before AIPerf 0.1: `timestamp_ns`, `credit_phase`, `ttft` (the newer keys
                    // win where a record has both).
                    sent: meta.sent.as_i64().or(meta.sent_old.as_i64()),
                    warmup: meta.phase.0.or(meta.phase_old.0).as_deref() == Some("warmup"),
                    ttft: metrics.ttft.0.or(metrics.ttft_old.0),
                    e2e: metrics.e2e.0,
                    output_tokens: metrics.output.0.or(metrics.output_count.0),
                    input_tokens: metrics.input.0,
                    gaps: metrics.gaps.0,
                    facts: RowFacts {
                        session: meta
                            .correlation
                            .0
                            .or(meta.session_num.0)
                            .or(meta.conversation.0),
                        turn: number(&meta.turn),
                        reasoning_tokens: metrics.reasoning.0,
                        ttfvt_s: metrics.ttfvt.0,
                        cached_prompt_tokens: None,
                    },
                }))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Record, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Record(RecordParts::default()))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Record, E> {
                Ok(Record(RecordParts::default()))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Record, E> {
                Ok(Record(RecordParts::default()))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Record, E> {
                Ok(Record(RecordParts::default()))
            }
            fn visit_str<E>(self, _: &str) -> Result<Record, E> {
                Ok(Record(RecordParts::default()))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Record, E> {
                Ok(Record(RecordParts::default()))
            }
            fn visit_unit<E>(self) -> Result<Record, E> {
                Ok(Record(RecordParts::default()))
            }
        }
        d.deserialize_any(V)
    }
}

/// `error`: `None` when null; else the failure's words, its `message`, `type` or `code`
/// (the first that is text), else "error".
struct Failure(Option<String>);

impl<'de> Deserialize<'de> for Failure {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Failure;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Failure, A::Error> {
                let mut said: [Option<String>; 3] = Default::default();
                let keys = ["message", "type", "code"];
                each_key(&mut map, &keys, |key, map| {
                    let at = keys.iter().position(|k| *k == key).unwrap_or(0);
                    said[at] = map.next_value::<Text>()?.0;
                    Ok(())
                })?;
                let [m, t, c] = said;
                Ok(Failure(Some(
                    m.or(t).or(c).unwrap_or_else(|| "error".into()),
                )))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Failure, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Failure(Some("error".into())))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Failure, E> {
                Ok(Failure(Some("error".into())))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Failure, E> {
                Ok(Failure(Some("error".into())))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Failure, E> {
                Ok(Failure(Some("error".into())))
            }
            fn visit_str<E>(self, _: &str) -> Result<Failure, E> {
                Ok(Failure(Some("error".into())))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Failure, E> {
                Ok(Failure(Some("error".into())))
            }
            fn visit_unit<E>(self) -> Result<Failure, E> {
                Ok(Failure(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// `metadata`: the keys the record's reading asks for.
#[derive(Default)]
struct Meta {
    sent: Leaf,
    sent_old: Leaf,
    cancelled: Leaf,
    phase: Text,
    phase_old: Text,
    correlation: Text,
    session_num: Text,
    conversation: Text,
    turn: Leaf,
}

impl<'de> FromMap<'de> for Meta {
    fn from_map<A: MapAccess<'de>>(mut map: A) -> Result<Meta, A::Error> {
        let mut m = Meta::default();
        let keys = [
            "request_start_ns",
            "was_cancelled",
            "benchmark_phase",
            "x_correlation_id",
            "session_num",
            "conversation_id",
            "turn_index",
            "timestamp_ns",
            "credit_phase",
        ];
        each_key(&mut map, &keys, |key, map| {
            match key {
                "request_start_ns" => m.sent = map.next_value()?,
                "was_cancelled" => m.cancelled = map.next_value()?,
                "benchmark_phase" => m.phase = map.next_value()?,
                "x_correlation_id" => m.correlation = map.next_value()?,
                "session_num" => m.session_num = map.next_value()?,
                "conversation_id" => m.conversation = map.next_value()?,
                "turn_index" => m.turn = map.next_value()?,
                "timestamp_ns" => m.sent_old = map.next_value()?,
                _ => m.phase_old = map.next_value()?,
            }
            Ok(())
        })?;
        Ok(m)
    }
}

/// `metrics`: the metrics the record's reading asks for.
#[derive(Default)]
struct Metrics {
    ttft: Seconds,
    ttft_old: Seconds,
    e2e: Seconds,
    output: ValueOf,
    output_count: ValueOf,
    input: ValueOf,
    gaps: Gaps,
    reasoning: ValueOf,
    ttfvt: Seconds,
}

impl<'de> FromMap<'de> for Metrics {
    fn from_map<A: MapAccess<'de>>(mut map: A) -> Result<Metrics, A::Error> {
        let mut m = Metrics::default();
        let keys = [
            "time_to_first_token",
            "request_latency",
            "output_sequence_length",
            "output_token_count",
            "input_sequence_length",
            "inter_chunk_latency",
            "reasoning_token_count",
            "time_to_first_output_token",
            "ttft",
        ];
        each_key(&mut map, &keys, |key, map| {
            match key {
                "time_to_first_token" => m.ttft = map.next_value()?,
                "request_latency" => m.e2e = map.next_value()?,
                "output_sequence_length" => m.output = map.next_value::<ObjectOr<_>>()?.0,
                "output_token_count" => m.output_count = map.next_value::<ObjectOr<_>>()?.0,
                "input_sequence_length" => m.input = map.next_value::<ObjectOr<_>>()?.0,
                "inter_chunk_latency" => m.gaps = map.next_value::<ObjectOr<_>>()?.0,
                "reasoning_token_count" => m.reasoning = map.next_value::<ObjectOr<_>>()?.0,
                "time_to_first_output_token" => m.ttfvt = map.next_value()?,
                _ => m.ttft_old = map.next_value()?,
            }
            Ok(())
        })?;
        Ok(m)
    }
}

/// A metric in seconds, as `seconds` reads it: `{value, unit}` (ms unless the unit says
/// otherwise), or a bare number (or numeric string) in ms.
#[derive(Default)]
struct Seconds(Option<f64>);

impl Seconds {
    fn bare(l: Leaf) -> Seconds {
        Seconds(number(&l).map(|x| x * unit_scale(None)))
    }
}

impl<'de> Deserialize<'de> for Seconds {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Seconds;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Seconds, A::Error> {
                let m = ValueUnit::from_map(map)?;
                Ok(Seconds(
                    number(&m.value).map(|x| x * unit_scale(m.unit.as_str())),
                ))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Seconds, E> {
                Ok(Seconds::bare(Leaf::Int(v)))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Seconds, E> {
                Ok(Seconds::bare(Leaf::UInt(v)))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Seconds, E> {
                Ok(Seconds::bare(Leaf::Float(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Seconds, E> {
                Ok(Seconds::bare(Leaf::Str(v.to_owned())))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Seconds, E> {
                Ok(Seconds(None))
            }
            fn visit_unit<E>(self) -> Result<Seconds, E> {
                Ok(Seconds(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Seconds, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Seconds(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// A metric object's `value` and `unit`.
#[derive(Default)]
struct ValueUnit {
    value: Leaf,
    unit: Leaf,
}

impl<'de> FromMap<'de> for ValueUnit {
    fn from_map<A: MapAccess<'de>>(mut map: A) -> Result<ValueUnit, A::Error> {
        let mut m = ValueUnit::default();
        each_key(&mut map, &["value", "unit"], |key, map| {
            match key {
                "value" => m.value = map.next_value()?,
                _ => m.unit = map.next_value()?,
            }
            Ok(())
        })?;
        Ok(m)
    }
}

/// A metric's `value`, as `num(r, "metrics.<metric>.value")` reads it.
#[derive(Default)]
struct ValueOf(Option<f64>);

impl<'de> FromMap<'de> for ValueOf {
    fn from_map<A: MapAccess<'de>>(map: A) -> Result<ValueOf, A::Error> {
        Ok(ValueOf(number(&ValueUnit::from_map(map)?.value)))
    }
}

/// `inter_chunk_latency`: its `value` list in seconds (NaN for an entry that is not a
/// number), scaled by its `unit`; `None` when `value` is not a list.
#[derive(Default)]
struct Gaps(Option<Vec<f64>>);

impl<'de> FromMap<'de> for Gaps {
    fn from_map<A: MapAccess<'de>>(mut map: A) -> Result<Gaps, A::Error> {
        let (mut values, mut unit) = (None, Leaf::Null);
        each_key(&mut map, &["value", "unit"], |key, map| {
            match key {
                "value" => values = map.next_value::<ListOr<List>>()?.0 .0,
                _ => unit = map.next_value()?,
            }
            Ok(())
        })?;
        let scale = unit_scale(unit.as_str());
        Ok(Gaps(values.map(|mut v| {
            v.iter_mut().for_each(|x| *x *= scale);
            v
        })))
    }
}

/// A list's entries as numbers (NaN for one that is not); `None` when it is not a list.
#[derive(Default)]
struct List(Option<Vec<f64>>);

impl<'de> FromSeq<'de> for List {
    fn from_seq<A: SeqAccess<'de>>(mut seq: A) -> Result<List, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(x) = seq.next_element::<Leaf>()? {
            out.push(x.num().or_nan());
        }
        Ok(List(Some(out)))
    }
}
