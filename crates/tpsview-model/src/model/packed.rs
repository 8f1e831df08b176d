//! A per-request column as raw bytes, for the pieces a parsed file crosses from the loading worker
//! to the page in (`transfer::split`): numbers little-endian, end to end; outcomes a byte each
//! (0 ok, 1 failed, 2 invalid) followed by the texts of the others. Decoding a million requests is
//! then a few copies, not millions of calls (65 ms of the page's thread for a 1,000,000-response
//! file, element by element).

use super::Outcome;

/// A number with a fixed little-endian width.
pub trait Le: Copy {
    /// Bytes per value.
    const SIZE: usize;
    /// Appends the value's little-endian bytes.
    fn put(self, out: &mut Vec<u8>);
    /// Reads a value from its little-endian bytes.
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

/// A column's raw little-endian bytes.
pub fn to_bytes<T: Le>(v: &[T]) -> Vec<u8> {
    let mut b = Vec::with_capacity(v.len() * T::SIZE);
    for &x in v {
        x.put(&mut b);
    }
    b
}

/// A column from its raw bytes; `None` when they are not a whole number of values.
pub fn from_bytes<T: Le>(b: &[u8]) -> Option<Vec<T>> {
    (b.len() % T::SIZE == 0).then(|| b.chunks_exact(T::SIZE).map(T::get).collect())
}

/// Outcomes as bytes: their count (u32), a byte each, then the other outcomes' texts (postcard).
pub fn outcomes_to_bytes(v: &[Outcome]) -> Vec<u8> {
    let mut b = Vec::with_capacity(4 + v.len());
    (v.len() as u32).put(&mut b);
    let mut texts: Vec<&str> = Vec::new();
    for o in v {
        b.push(match o {
            Outcome::Ok => 0,
            Outcome::Failed(t) => {
                texts.push(t);
                1
            }
            Outcome::Invalid(t) => {
                texts.push(t);
                2
            }
        });
    }
    b.extend(postcard::to_allocvec(&texts).unwrap_or_default());
    b
}

/// Outcomes back from [`outcomes_to_bytes`]; `None` for anything else.
pub fn outcomes_from_bytes(b: &[u8]) -> Option<Vec<Outcome>> {
    let n = usize::try_from(u32::get(b.get(..4)?)).ok()?;
    let tags = b.get(4..4 + n)?;
    let texts: Vec<String> = postcard::from_bytes(&b[4 + n..]).ok()?;
    let mut texts = texts.into_iter();
    tags.iter()
        .map(|&t| match t {
            0 => Some(Outcome::Ok),
            1 => Some(Outcome::Failed(texts.next()?.into_boxed_str())),
            2 => Some(Outcome::Invalid(texts.next()?.into_boxed_str())),
            _ => None,
        })
        .collect()
}
