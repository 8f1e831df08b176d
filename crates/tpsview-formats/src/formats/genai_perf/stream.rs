//! Serde seeds that read an export with one request's JSON value in memory at a time.

use std::fmt;

use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::{inputs_model, row_of, Experiment, Output, RequestParts};
use crate::lenient::{each_key, FromMap, FromSeq, Leaf, ListOr, ObjectOr};

/// The root object: its `experiments` (else `None`), and the first request's model.
pub(super) struct Export<'a> {
    pub(super) file: &'a str,
}

impl<'de> DeserializeSeed<'de> for Export<'_> {
    type Value = (Option<Vec<Experiment>>, Option<String>);
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Export<'_> {
    type Value = (Option<Vec<Experiment>>, Option<String>);
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a GenAI-Perf export object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut model = None;
        let mut experiments = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == "experiments" {
                experiments = Some(map.next_value_seed(Experiments {
                    file: self.file,
                    model: &mut model,
                })?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok((experiments, model))
    }
}

struct Experiments<'a> {
    file: &'a str,
    model: &'a mut Option<String>,
}

impl<'de> DeserializeSeed<'de> for Experiments<'_> {
    type Value = Vec<Experiment>;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Experiments<'_> {
    type Value = Vec<Experiment>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of experiments")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(e) = seq.next_element_seed(One {
            file: self.file,
            index: out.len(),
            model: &mut *self.model,
        })? {
            out.push(e);
        }
        Ok(out)
    }
}

struct One<'a> {
    file: &'a str,
    index: usize,
    model: &'a mut Option<String>,
}

impl<'de> DeserializeSeed<'de> for One<'_> {
    type Value = Experiment;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for One<'_> {
    type Value = Experiment;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an experiment object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut header = serde_json::Map::new();
        let mut requests = None;
        let mut diags = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if key == "requests" {
                requests = Some(map.next_value_seed(Requests {
                    file: self.file,
                    path: format!("experiments[{}]", self.index),
                    model: &mut *self.model,
                    diags: &mut diags,
                })?);
            } else {
                header.insert(key, map.next_value::<Value>()?);
            }
        }
        Ok(Experiment {
            header: Value::Object(header),
            requests,
            diags,
        })
    }
}

struct Requests<'a> {
    file: &'a str,
    path: String,
    model: &'a mut Option<String>,
    diags: &'a mut Vec<crate::error::Diagnostic>,
}

impl<'de> DeserializeSeed<'de> for Requests<'_> {
    type Value = Vec<super::ReadRequest>;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Requests<'_> {
    type Value = Vec<super::ReadRequest>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of requests")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        // One request at a time, read into its parts (no tree of its responses), reduced to
        // a row; its request_inputs kept only until a request names the model.
        while let Some((parts, inputs)) = seq.next_element_seed(Request {
            want_inputs: self.model.is_none(),
        })? {
            if self.model.is_none() {
                *self.model = inputs.as_ref().and_then(inputs_model);
            }
            out.push(row_of(self.file, &self.path, out.len(), parts, self.diags));
        }
        Ok(out)
    }
}

/// One request, the one reader of its shape (the streamed reading, the chunked one and the tree
/// path's values): `timestamp` (an integer), `response_timestamps` (the integers among them),
/// `response_outputs` (each response's `text_output`, else its SSE event); a repeated key's last
/// value, anything that is not what a key should hold read as absent, anything but an object as
/// a request with no parts.
struct Request {
    want_inputs: bool,
}

/// [`Request`] as a type, for `serde_json`'s stream reader (which says where a value ends):
/// its parts, and its `request_inputs` when `INPUTS`.
#[derive(Default)]
pub(super) struct Record<const INPUTS: bool>(pub(super) RequestParts, pub(super) Option<Value>);

impl<'de, const INPUTS: bool> serde::Deserialize<'de> for Record<INPUTS> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (parts, inputs) = Request {
            want_inputs: INPUTS,
        }
        .deserialize(d)?;
        Ok(Record(parts, inputs))
    }
}

impl<'de> DeserializeSeed<'de> for Request {
    type Value = (RequestParts, Option<Value>);
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Request {
    type Value = (RequestParts, Option<Value>);
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a request")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (mut parts, mut inputs) = (RequestParts::default(), None);
        let keys = [
            "timestamp",
            "response_timestamps",
            "response_outputs",
            "request_inputs",
        ];
        let keys = if self.want_inputs {
            &keys[..]
        } else {
            &keys[..3]
        };
        each_key(&mut map, keys, |key, map| {
            match key {
                "timestamp" => parts.sent = map.next_value::<Leaf>()?.as_i64(),
                "response_timestamps" => parts.stamps = map.next_value::<ListOr<Ints>>()?.0 .0,
                "response_outputs" => parts.outputs = map.next_value::<ListOr<Outputs>>()?.0 .0,
                _ => inputs = Some(map.next_value()?),
            }
            Ok(())
        })?;
        Ok((parts, inputs))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Default::default())
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Default::default())
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Default::default())
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Default::default())
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Default::default())
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Default::default())
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Default::default())
    }
}

/// A list's integers (`Value::as_i64` of each item; the others left out); none when it is
/// not a list.
#[derive(Default)]
struct Ints(Vec<i64>);

impl<'de> FromSeq<'de> for Ints {
    fn from_seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Ints, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(x) = seq.next_element::<Leaf>()? {
            out.extend(x.as_i64());
        }
        Ok(Ints(out))
    }
}

/// `response_outputs`: each response as [`OneOutput`] reads it; `None` when it is not a
/// list.
#[derive(Default)]
struct Outputs(Option<Vec<Output>>);

impl<'de> FromSeq<'de> for Outputs {
    fn from_seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Outputs, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(ObjectOr(OneOutput(o))) = seq.next_element()? {
            out.push(o);
        }
        Ok(Outputs(Some(out)))
    }
}

/// One response: its `text_output` or else its `response` (the last of a repeated key), each
/// only when a string.
#[derive(Default)]
struct OneOutput(Output);

impl<'de> FromMap<'de> for OneOutput {
    fn from_map<A: MapAccess<'de>>(mut map: A) -> Result<OneOutput, A::Error> {
        let (mut text, mut response) = (Leaf::Null, Leaf::Null);
        each_key(&mut map, &["text_output", "response"], |key, map| {
            match key {
                "text_output" => text = map.next_value()?,
                _ => response = map.next_value()?,
            }
            Ok(())
        })?;
        Ok(OneOutput(match (text.as_str(), response.as_str()) {
            (Some(t), _) => Output::text(t),
            (None, Some(r)) => Output::event(r),
            (None, None) => Output::default(),
        }))
    }
}
