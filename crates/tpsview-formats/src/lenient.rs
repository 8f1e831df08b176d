//! Lenient readers for the numbers real benchmark tools write: JSON numbers, numbers as strings
//! (`"12.5"`, `"1,146.31"`, `"inf"`), and `null`. They read straight into columns without building
//! a `serde_json::Value`, and record what they could not read instead of failing the whole file,
//! so one bad request is listed and the rest still load.

use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};
use std::fmt;

/// One number as a tool wrote it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// A finite or infinite value.
    Value(f64),
    /// `null` or absent.
    Missing,
    /// A string or other value that is not a number.
    Bad,
}

impl Num {
    /// The value, with NaN for missing or bad entries.
    pub fn or_nan(self) -> f64 {
        match self {
            Num::Value(v) => v,
            _ => f64::NAN,
        }
    }

    /// The value when it is one and not NaN (`common::num`'s reading of a JSON value).
    pub fn value(self) -> Option<f64> {
        match self {
            Num::Value(v) if !v.is_nan() => Some(v),
            _ => None,
        }
    }
}

/// Parses a number written as a string: surrounding space, thousands separators, `inf`/`nan`.
pub fn parse_num_str(s: &str) -> Num {
    let t = s.trim();
    match t.to_ascii_lowercase().as_str() {
        "inf" | "+inf" | "infinity" | "+infinity" => return Num::Value(f64::INFINITY),
        "-inf" | "-infinity" => return Num::Value(f64::NEG_INFINITY),
        "nan" => return Num::Value(f64::NAN),
        "" | "null" | "none" => return Num::Missing,
        _ => {}
    }
    let cleaned: String;
    let t = if t.contains(',') {
        cleaned = t.replace(',', "");
        cleaned.as_str()
    } else {
        t
    };
    t.parse::<f64>().map(Num::Value).unwrap_or(Num::Bad)
}

impl<'de> serde::Deserialize<'de> for Num {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Leaf::deserialize(d).map(|l| l.num())
    }
}

/// One JSON value by its kind, as typed readers of a record take each key where the tree readers
/// ask a `serde_json::Value` (`as_i64`, `as_f64`, `as_str`, `as_bool`, [`Num`]); a list or
/// object is read past, not kept. What importers keep of metadata and figure keys, without
/// building a `serde_json::Value` (whose deserializer would weigh on the wasm bundle).
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Leaf {
    /// A negative integer.
    Int(i64),
    /// A non-negative integer.
    UInt(u64),
    /// Any other number.
    Float(f64),
    /// A string.
    Str(String),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    #[default]
    Null,
    /// A list or an object.
    Other,
}

impl Leaf {
    /// `Value::as_i64`: an integer that fits in an i64.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Leaf::Int(v) => Some(v),
            Leaf::UInt(v) => i64::try_from(v).ok(),
            _ => None,
        }
    }

    /// `Value::as_f64`: any number.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Leaf::Int(v) => Some(v as f64),
            Leaf::UInt(v) => Some(v as f64),
            Leaf::Float(v) => Some(v),
            _ => None,
        }
    }

    /// `Value::as_str`.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Leaf::Str(s) => Some(s),
            _ => None,
        }
    }

    /// `Value::as_bool`.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Leaf::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The number as [`Num`] reads it (a number, a numeric string, null, or bad).
    pub fn num(&self) -> Num {
        match self {
            Leaf::Str(s) => parse_num_str(s),
            Leaf::Null => Num::Missing,
            _ => self.as_f64().map_or(Num::Bad, Num::Value),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Leaf {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Leaf;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_i64<E>(self, v: i64) -> Result<Leaf, E> {
                Ok(Leaf::Int(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Leaf, E> {
                Ok(Leaf::UInt(v))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Leaf, E> {
                Ok(Leaf::Float(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<Leaf, E> {
                Ok(Leaf::Str(v.to_owned()))
            }
            fn visit_string<E>(self, v: String) -> Result<Leaf, E> {
                Ok(Leaf::Str(v))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Leaf, E> {
                Ok(Leaf::Bool(v))
            }
            fn visit_unit<E>(self) -> Result<Leaf, E> {
                Ok(Leaf::Null)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Leaf, A::Error> {
                while seq.next_element::<de::IgnoredAny>()?.is_some() {}
                Ok(Leaf::Other)
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Leaf, A::Error> {
                while map
                    .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(Leaf::Other)
            }
        }
        d.deserialize_any(V)
    }
}

/// A value read as text, as the tree readers' `common::text` reads it: a string that is not
/// empty, a number written out, a list's first item when it is a string; else `None`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Text(pub Option<String>);

impl<'de> serde::Deserialize<'de> for Text {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Text;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_i64<E>(self, v: i64) -> Result<Text, E> {
                Ok(Text(Some(v.to_string())))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Text, E> {
                Ok(Text(Some(v.to_string())))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Text, E> {
                Ok(Text(serde_json::Number::from_f64(v).map(|n| n.to_string())))
            }
            fn visit_str<E>(self, v: &str) -> Result<Text, E> {
                Ok(Text((!v.is_empty()).then(|| v.to_owned())))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Text, E> {
                Ok(Text(None))
            }
            fn visit_unit<E>(self) -> Result<Text, E> {
                Ok(Text(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Text, A::Error> {
                let first = seq.next_element::<Leaf>()?;
                while seq.next_element::<de::IgnoredAny>()?.is_some() {}
                Ok(Text(match first {
                    Some(Leaf::Str(s)) => Some(s),
                    _ => None,
                }))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Text, A::Error> {
                while map
                    .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(Text(None))
            }
        }
        d.deserialize_any(V)
    }
}

/// A typed reader of an object's keys (the last of a repeated key counts, as in a JSON value).
pub trait FromMap<'de>: Sized + Default {
    /// Reads the object.
    fn from_map<A: de::MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

/// A typed reader of a list's items.
pub trait FromSeq<'de>: Sized + Default {
    /// Reads the list.
    fn from_seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error>;
}

/// `T` read from an object; a value of any other kind read past, as `T::default()`: where a tree
/// reader's path into a value of the wrong kind finds nothing.
pub struct ObjectOr<T>(pub T);

/// `T` read from a list; a value of any other kind read past, as `T::default()`.
pub struct ListOr<T>(pub T);

/// The one visitor behind [`ObjectOr`] and [`ListOr`]: `object` says which kind is read.
struct KindVisitor<T> {
    object: bool,
    read: std::marker::PhantomData<T>,
}

/// How a [`KindVisitor`] reads the kind it wants.
trait ReadKind<'de>: Sized + Default {
    fn map<A: de::MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
    fn seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error>;
}

impl<'de, T: FromMap<'de>> ReadKind<'de> for ObjectOr<T> {
    fn map<A: de::MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        T::from_map(map).map(ObjectOr)
    }
    fn seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<de::IgnoredAny>()?.is_some() {}
        Ok(Self::default())
    }
}

impl<'de, T: FromSeq<'de>> ReadKind<'de> for ListOr<T> {
    fn map<A: de::MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        while map
            .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
            .is_some()
        {}
        Ok(Self::default())
    }
    fn seq<A: SeqAccess<'de>>(seq: A) -> Result<Self, A::Error> {
        T::from_seq(seq).map(ListOr)
    }
}

impl<T: Default> Default for ObjectOr<T> {
    fn default() -> Self {
        ObjectOr(T::default())
    }
}

impl<T: Default> Default for ListOr<T> {
    fn default() -> Self {
        ListOr(T::default())
    }
}

impl<'de, T: ReadKind<'de>> Visitor<'de> for KindVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(if self.object { "an object" } else { "a list" })
    }
    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::map(map)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        T::seq(seq)
    }
    fn visit_i64<E>(self, _: i64) -> Result<T, E> {
        Ok(T::default())
    }
    fn visit_u64<E>(self, _: u64) -> Result<T, E> {
        Ok(T::default())
    }
    fn visit_f64<E>(self, _: f64) -> Result<T, E> {
        Ok(T::default())
    }
    fn visit_str<E>(self, _: &str) -> Result<T, E> {
        Ok(T::default())
    }
    fn visit_bool<E>(self, _: bool) -> Result<T, E> {
        Ok(T::default())
    }
    fn visit_unit<E>(self) -> Result<T, E> {
        Ok(T::default())
    }
}

impl<'de, T: FromMap<'de>> serde::Deserialize<'de> for ObjectOr<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(KindVisitor {
            object: true,
            read: std::marker::PhantomData,
        })
    }
}

impl<'de, T: FromSeq<'de>> serde::Deserialize<'de> for ListOr<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(KindVisitor {
            object: false,
            read: std::marker::PhantomData,
        })
    }
}

/// An object's values at the keys given ([`Leaf`]s, in the keys' order; the last of a repeated
/// key; `Leaf::Null` for a missing one), every other key read past: a record read as a tree
/// reader's `at(record, key)` reads it, without building the record. Anything but an object is
/// an error.
pub struct Fields<'k>(pub &'k [&'k str]);

impl<'de> DeserializeSeed<'de> for Fields<'_> {
    type Value = Vec<Leaf>;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Vec<Leaf>, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Fields<'_> {
    type Value = Vec<Leaf>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Vec<Leaf>, A::Error> {
        let mut out = vec![Leaf::Null; self.0.len()];
        each_key_at(&mut map, self.0, |at, map| {
            out[at] = map.next_value()?;
            Ok(())
        })?;
        Ok(out)
    }
}

/// Reads an object's keys: each of `keys` is handed to `each` with the map, to read its value
/// (`map.next_value()`, the last of a repeated key counting as in a JSON value); every other key's
/// value is read past. Keys are compared where they lie, never copied.
pub fn each_key<'de, 'k, A: de::MapAccess<'de>>(
    map: &mut A,
    keys: &[&'k str],
    mut each: impl FnMut(&'k str, &mut A) -> Result<(), A::Error>,
) -> Result<(), A::Error> {
    each_key_at(map, keys, |i, map| each(keys[i], map))
}

/// [`each_key`], handing over the key's place in `keys`.
fn each_key_at<'de, A: de::MapAccess<'de>>(
    map: &mut A,
    keys: &[&str],
    mut each: impl FnMut(usize, &mut A) -> Result<(), A::Error>,
) -> Result<(), A::Error> {
    while let Some(k) = map.next_key_seed(KeyAt(keys))? {
        match k {
            Some(i) => each(i, map)?,
            None => {
                map.next_value::<de::IgnoredAny>()?;
            }
        }
    }
    Ok(())
}

/// Where a key is among the keys given, compared where it lies (no copy of it).
struct KeyAt<'k>(&'k [&'k str]);

impl<'de> DeserializeSeed<'de> for KeyAt<'_> {
    type Value = Option<usize>;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Option<usize>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyAt<'_> {
    type Value = Option<usize>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E>(self, v: &str) -> Result<Option<usize>, E> {
        Ok(self.0.iter().position(|k| *k == v))
    }
}

/// What a JSON document is, for an error message about an unrecognised file: an object's first
/// keys, or an array's length.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// An object: up to 8 of its keys.
    Object(Vec<String>),
    /// An array of this many items.
    Array(usize),
    /// Anything else.
    Scalar,
}

impl<'de> serde::Deserialize<'de> for Shape {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Shape;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("JSON")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Shape, A::Error> {
                let mut keys = Vec::new();
                while let Some(k) = map.next_key::<String>()? {
                    map.next_value::<de::IgnoredAny>()?;
                    if keys.len() < 8 {
                        keys.push(k);
                    }
                }
                Ok(Shape::Object(keys))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Shape, A::Error> {
                let mut n = 0;
                while seq.next_element::<de::IgnoredAny>()?.is_some() {
                    n += 1;
                }
                Ok(Shape::Array(n))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Shape, E> {
                Ok(Shape::Scalar)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Shape, E> {
                Ok(Shape::Scalar)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Shape, E> {
                Ok(Shape::Scalar)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Shape, E> {
                Ok(Shape::Scalar)
            }
            fn visit_str<E>(self, _: &str) -> Result<Shape, E> {
                Ok(Shape::Scalar)
            }
            fn visit_unit<E>(self) -> Result<Shape, E> {
                Ok(Shape::Scalar)
            }
        }
        d.deserialize_any(V)
    }
}

/// A column read leniently: NaN stands for every entry that was missing or not a number, so the
/// shared validation (`requests::validate_requests`, `requests::token_counts`) names it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Column {
    /// The values.
    pub values: Vec<f64>,
}

impl<'de> serde::Deserialize<'de> for Column {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Column;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of numbers")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Column, A::Error> {
                let mut values = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some(n) = seq.next_element::<Num>()? {
                    values.push(n.or_nan());
                }
                Ok(Column { values })
            }
        }
        d.deserialize_seq(V)
    }
}

/// A list of lists of numbers (e.g. per-request chunk gaps) read into one flat array with offsets.
/// A row that is not an array (e.g. `null`) becomes empty and is listed in `bad_rows`; entries that
/// are not numbers become NaN, which validation names.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RaggedColumn {
    /// The flattened rows.
    pub data: crate::model::Ragged,
    /// Rows that were not arrays.
    pub bad_rows: Vec<usize>,
}

struct RowSeed<'a> {
    values: &'a mut Vec<f64>,
}

impl<'de> DeserializeSeed<'de> for RowSeed<'_> {
    type Value = bool;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for RowSeed<'_> {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of numbers")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<bool, A::Error> {
        while let Some(n) = seq.next_element::<Num>()? {
            self.values.push(n.or_nan());
        }
        Ok(true)
    }
    fn visit_unit<E>(self) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_f64<E>(self, _: f64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_u64<E>(self, _: u64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_i64<E>(self, _: i64) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_str<E>(self, _: &str) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_bool<E>(self, _: bool) -> Result<bool, E> {
        Ok(false)
    }
    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        while map
            .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
            .is_some()
        {}
        Ok(false)
    }
}

impl<'de> serde::Deserialize<'de> for RaggedColumn {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RaggedColumn;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of arrays of numbers")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RaggedColumn, A::Error> {
                let mut out = RaggedColumn::default();
                out.data.offsets.push(0);
                loop {
                    let row = out.data.offsets.len() - 1;
                    match seq.next_element_seed(RowSeed {
                        values: &mut out.data.values,
                    })? {
                        None => break,
                        Some(ok) => {
                            if !ok {
                                out.bad_rows.push(row);
                            }
                            out.data.offsets.push(out.data.values.len() as u32);
                        }
                    }
                }
                Ok(out)
            }
        }
        d.deserialize_seq(V)
    }
}

/// Replaces the bare `NaN`, `Infinity` and `-Infinity` literals that Python's `json.dumps` writes
/// (and strict JSON forbids) with the strings `"nan"`, `"inf"`, `"-inf"`, outside strings only.
/// Returns `None` when there were none. Called only after a strict parse failed, so clean files pay
/// nothing.
pub fn quote_nonfinite_literals(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(bytes.len() + 64);
    let mut in_str = false;
    let mut escaped = false;
    let mut changed = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_str {
            out.push(b);
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_str = false;
            }
            i += 1;
            continue;
        }
        let rest = &bytes[i..];
        let replacement: Option<(&[u8], &[u8])> = if rest.starts_with(b"-Infinity") {
            Some((b"-Infinity", b"\"-inf\""))
        } else if rest.starts_with(b"Infinity") {
            Some((b"Infinity", b"\"inf\""))
        } else if rest.starts_with(b"NaN") {
            Some((b"NaN", b"\"nan\""))
        } else {
            None
        };
        if let Some((lit, rep)) = replacement {
            out.extend_from_slice(rep);
            i += lit.len();
            changed = true;
            continue;
        }
        if b == b'"' {
            in_str = true;
        }
        out.push(b);
        i += 1;
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests;
