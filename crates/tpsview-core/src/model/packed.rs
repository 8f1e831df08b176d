//! `#[serde(with)]` helpers that write the per-request columns as raw little-endian bytes in a
//! binary format (the loading worker's postcard, see `transfer.rs`), and as plain sequences in a
//! human-readable one. Decoding a million requests is then a few copies, not millions of calls
//! (65 ms of the page's thread for a 1,000,000-response file, element by element).

use serde::de::{Error as _, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::marker::PhantomData;

use super::Outcome;

/// A number with a fixed little-endian width.
pub(crate) trait Le: Copy {
    const SIZE: usize;
    fn put(self, out: &mut Vec<u8>);
    fn get(b: &[u8]) -> Self;
}

macro_rules! le {
    ($t:ty, $n:literal) => {
        impl Le for $t {
            const SIZE: usize = $n;
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(b: &[u8]) -> Self {
                let mut a = [0; $n];
                a.copy_from_slice(b);
                <$t>::from_le_bytes(a)
            }
        }
    };
}

le!(f64, 8);
le!(u32, 4);
le!(u8, 1);

/// A column's raw little-endian bytes.
pub(crate) fn to_bytes<T: Le>(v: &[T]) -> Vec<u8> {
    let mut b = Vec::with_capacity(v.len() * T::SIZE);
    for &x in v {
        x.put(&mut b);
    }
    b
}

/// A column from its raw bytes; `None` when they are not a whole number of values.
pub(crate) fn from_bytes<T: Le>(b: &[u8]) -> Option<Vec<T>> {
    (b.len() % T::SIZE == 0).then(|| b.chunks_exact(T::SIZE).map(T::get).collect())
}

/// Outcomes written packed on their own (a column of the split transfer).
pub(crate) struct OutcomesOut<'a>(pub &'a [Outcome]);

impl Serialize for OutcomesOut<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        outcomes::serialize(self.0, s)
    }
}

/// Outcomes read back from [`OutcomesOut`].
pub(crate) struct OutcomesIn(pub Vec<Outcome>);

impl<'de> Deserialize<'de> for OutcomesIn {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        outcomes::deserialize(d).map(OutcomesIn)
    }
}

struct BytesOf<T>(PhantomData<T>);

impl<T: Le> Visitor<'_> for BytesOf<T> {
    type Value = Vec<T>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a packed column of {}-byte numbers", T::SIZE)
    }
    fn visit_bytes<E: serde::de::Error>(self, b: &[u8]) -> Result<Vec<T>, E> {
        from_bytes(b).ok_or_else(|| E::invalid_length(b.len(), &self))
    }
}

/// A column, packed in binary formats.
struct Col<'a, T>(&'a [T]);

impl<T: Le + Serialize> Serialize for Col<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            self.0.serialize(s)
        } else {
            s.serialize_bytes(&to_bytes(self.0))
        }
    }
}

/// A column read back.
struct Owned<T>(Vec<T>);

impl<'de, T: Le + Deserialize<'de>> Deserialize<'de> for Owned<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if d.is_human_readable() {
            Vec::deserialize(d).map(Owned)
        } else {
            d.deserialize_bytes(BytesOf(PhantomData)).map(Owned)
        }
    }
}

/// `Vec<T>` packed.
pub(crate) mod vec {
    use super::*;

    pub fn serialize<T: Le + Serialize, S: Serializer>(v: &[T], s: S) -> Result<S::Ok, S::Error> {
        Col(v).serialize(s)
    }

    pub fn deserialize<'de, T: Le + Deserialize<'de>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<T>, D::Error> {
        Owned::deserialize(d).map(|c| c.0)
    }
}

/// `Option<Vec<T>>` packed.
pub(crate) mod opt {
    use super::*;

    pub fn serialize<T: Le + Serialize, S: Serializer>(
        v: &Option<Vec<T>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.serialize_some(&Col(v)),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, T: Le + Deserialize<'de>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Vec<T>>, D::Error> {
        Option::<Owned<T>>::deserialize(d).map(|o| o.map(|c| c.0))
    }
}

/// `Vec<Outcome>` packed: a byte per request (0 ok, 1 failed, 2 invalid), then the texts of the
/// others in order.
pub(crate) mod outcomes {
    use super::*;

    pub fn serialize<S: Serializer>(v: &[Outcome], s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            return v.serialize(s);
        }
        let tags: Vec<u8> = v
            .iter()
            .map(|o| match o {
                Outcome::Ok => 0,
                Outcome::Failed(_) => 1,
                Outcome::Invalid(_) => 2,
            })
            .collect();
        let texts: Vec<&str> = v
            .iter()
            .filter_map(|o| match o {
                Outcome::Ok => None,
                Outcome::Failed(t) | Outcome::Invalid(t) => Some(&**t),
            })
            .collect();
        (Bytes(&tags), texts).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Outcome>, D::Error> {
        if d.is_human_readable() {
            return Vec::deserialize(d);
        }
        let (tags, texts): (Owned<u8>, Vec<String>) = Deserialize::deserialize(d)?;
        let mut texts = texts.into_iter();
        tags.0
            .iter()
            .map(|&t| match t {
                0 => Ok(Outcome::Ok),
                1 | 2 => {
                    let text = texts
                        .next()
                        .ok_or_else(|| D::Error::custom("an outcome without its text"))?
                        .into_boxed_str();
                    Ok(if t == 1 {
                        Outcome::Failed(text)
                    } else {
                        Outcome::Invalid(text)
                    })
                }
                _ => Err(D::Error::custom("an unknown outcome")),
            })
            .collect()
    }

    /// Bytes written as one run, not a sequence of numbers.
    struct Bytes<'a>(&'a [u8]);

    impl Serialize for Bytes<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_bytes(self.0)
        }
    }
}
