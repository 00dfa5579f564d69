//! The byte codec every fitted model's `to_bytes`/`from_bytes` is written with.
//!
//! A saved model is a 4-byte magic (`FKDC`, `FKPC`, `FKSV`, `FKGO`, `FKFP`, …), a format
//! version `u8`, then fields in a fixed order, all little-endian:
//!
//! | field                  | bytes                                              |
//! |------------------------|----------------------------------------------------|
//! | `u8` / flag / tag      | 1 (a flag is 0 or 1)                               |
//! | `u32`                  | 4                                                  |
//! | `u64` / count          | 8 (a count is a `usize` written as `u64`)          |
//! | `f64`                  | 8, the IEEE-754 bit pattern                        |
//! | `[f64]`                | a count, then 8 per value                          |
//! | string                 | a count, then that many UTF-8 bytes                |
//!
//! A matrix is written by its owner as its shape (two counts) and its values as `[f64]` in a
//! stated order (column-major for nalgebra storage), so this module needs no linear algebra.
//!
//! [`Reader`] never panics and never allocates more than the bytes it was given can hold:
//! every length is checked against the bytes that are left before anything is taken. A bad
//! input is a typed [`DecodeError`] that names the field, and for a header, what was
//! expected and what was found. Crates turn it into their own `Decode` error with `From`.
//!
//! # Examples
//! ```
//! use fair_core::bytes::{DecodeError, Reader, Writer};
//!
//! let mut w = Writer::with_header(b"FKXX", 1);
//! w.f64s(&[0.5, -2.0]);
//! w.str("group a");
//! let bytes = w.into_bytes();
//!
//! let mut r = Reader::open(&bytes, b"FKXX", 1, "example model")?;
//! assert_eq!(r.finite_f64s("the weights")?, vec![0.5, -2.0]);
//! assert_eq!(r.str("a group name")?, "group a");
//! r.finish()?;
//!
//! // Cut anywhere, the bytes are an error naming the field, never a panic.
//! let mut r = Reader::open(&bytes[..bytes.len() - 1], b"FKXX", 1, "example model")?;
//! r.finite_f64s("the weights")?;
//! assert!(matches!(r.str("a group name"), Err(DecodeError::Truncated { field: "a group name", .. })));
//! # Ok::<(), DecodeError>(())
//! ```

/// Why bytes are not a saved model: every variant names the field or the model it is about.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// The bytes do not start with the model's magic.
    #[error(
        "not a saved {what} (the bytes do not start with its magic {})",
        String::from_utf8_lossy(expected)
    )]
    BadMagic {
        /// The model the bytes were decoded as.
        what: &'static str,
        /// The magic a saved `what` starts with.
        expected: [u8; 4],
        /// The first (up to 4) bytes found.
        found: Vec<u8>,
    },
    /// The format version is not the one this build reads.
    #[error("a {what} saved with format version {found}; this build reads version {supported}")]
    UnsupportedVersion {
        /// The model the bytes were decoded as.
        what: &'static str,
        /// The version in the bytes.
        found: u8,
        /// The version this build writes and reads.
        supported: u8,
    },
    /// The bytes end inside a field.
    #[error("truncated: {field} needs {needed} bytes, {left} are left")]
    Truncated {
        /// The field being read.
        field: &'static str,
        /// Bytes the field needs.
        needed: usize,
        /// Bytes that are left.
        left: usize,
    },
    /// A count is larger than the bytes that are left could hold (or than this platform's
    /// `usize`).
    #[error("{field}: a count of {count} does not fit in the {left} bytes left")]
    TooLarge {
        /// The field whose count it is.
        field: &'static str,
        /// The count read.
        count: u64,
        /// Bytes that are left.
        left: usize,
    },
    /// A float that must be finite is NaN or infinite.
    #[error("{}", non_finite(field, *index, *value))]
    NonFinite {
        /// The field.
        field: &'static str,
        /// The position in a vector field (`None` for a single value).
        index: Option<usize>,
        /// The value read.
        value: f64,
    },
    /// A string field is not UTF-8.
    #[error("{field} is not UTF-8")]
    NotUtf8 {
        /// The field.
        field: &'static str,
    },
    /// A tag byte names no variant this build knows.
    #[error("unknown {field} tag {tag}")]
    UnknownTag {
        /// What the tag selects (a model kind, a kernel, …).
        field: &'static str,
        /// The tag read.
        tag: u8,
    },
    /// A flag byte is neither 0 nor 1.
    #[error("{field}: a flag byte is {byte}, neither 0 nor 1")]
    BadFlag {
        /// The field.
        field: &'static str,
        /// The byte read.
        byte: u8,
    },
    /// Bytes are left after the last field.
    #[error("{extra} trailing bytes after the saved {what}")]
    TrailingBytes {
        /// The model the bytes were decoded as.
        what: &'static str,
        /// How many bytes are left over.
        extra: usize,
    },
    /// The fields decode but do not make a valid model (inconsistent shapes, invalid values).
    #[error("{0}")]
    Invalid(String),
}

fn non_finite(field: &str, index: Option<usize>, value: f64) -> String {
    match index {
        Some(i) => format!("{field} has a non-finite value ({value} at index {i})"),
        None => format!("{field} is not finite ({value})"),
    }
}

/// Builds saved-model bytes field by field (little-endian; see the [module docs](self)).
///
/// # Examples
/// ```
/// use fair_core::bytes::Writer;
/// let mut w = Writer::with_header(b"FKXX", 3);
/// w.count(2);
/// w.f64(1.0);
/// assert_eq!(w.into_bytes(), [
///     b"FKXX".as_slice(), &[3], &2u64.to_le_bytes(), &1.0f64.to_bits().to_le_bytes(),
/// ].concat());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    /// An empty writer (no header).
    pub fn new() -> Self {
        Self::default()
    }

    /// A writer that starts with `magic` and the format `version`.
    pub fn with_header(magic: &[u8; 4], version: u8) -> Self {
        let mut w = Self::new();
        w.raw(magic);
        w.u8(version);
        w
    }

    /// Bytes as they are (no length).
    pub fn raw(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// One byte (a tag, a version).
    pub fn u8(&mut self, x: u8) {
        self.buf.push(x);
    }

    /// A flag: one byte, 0 or 1.
    pub fn bool(&mut self, x: bool) {
        self.u8(u8::from(x));
    }

    /// A `u32`, 4 bytes.
    pub fn u32(&mut self, x: u32) {
        self.raw(&x.to_le_bytes());
    }

    /// A `u64`, 8 bytes.
    pub fn u64(&mut self, x: u64) {
        self.raw(&x.to_le_bytes());
    }

    /// A count or length: a `usize` as `u64`.
    pub fn count(&mut self, n: usize) {
        self.u64(n as u64);
    }

    /// An `f64` as its bit pattern (NaN payloads and `-0.0` survive).
    pub fn f64(&mut self, x: f64) {
        self.u64(x.to_bits());
    }

    /// A vector of `f64`: its length, then each value.
    pub fn f64s(&mut self, xs: &[f64]) {
        self.count(xs.len());
        self.buf.reserve(8 * xs.len());
        xs.iter().for_each(|&x| self.f64(x));
    }

    /// A string: its length in bytes, then its UTF-8 bytes.
    pub fn str(&mut self, s: &str) {
        self.count(s.len());
        self.raw(s.as_bytes());
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether nothing has been written.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The bytes.
    pub fn into_bytes(self) -> Vec<u8> {
        self.buf
    }
}

/// Reads saved-model bytes field by field; every read checks the bytes that are left first,
/// so no input panics or makes it allocate more than the input's size.
///
/// Each read takes the name of the field it reads, which the [`DecodeError`] repeats.
///
/// # Examples
/// ```
/// use fair_core::bytes::{DecodeError, Reader};
/// // A count of 2⁶⁰ floats in 8 bytes: an error, not a 8·2⁶⁰-byte allocation.
/// let bytes = (1u64 << 60).to_le_bytes();
/// let mut r = Reader::new(&bytes, "example model");
/// assert_eq!(
///     r.f64s("the weights").unwrap_err().to_string(),
///     "truncated: the weights needs 9223372036854775808 bytes, 0 are left"
/// );
/// // 2⁶¹ strings of at least 8 bytes each cannot fit either: checked before allocating.
/// assert!(matches!(r.strings(1 << 61, "names"), Err(DecodeError::TooLarge { .. })));
/// ```
#[derive(Debug, Clone)]
pub struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
    what: &'static str,
}

impl<'b> Reader<'b> {
    /// A reader at the start of `bytes` (no header check); `what` names the model in errors.
    pub fn new(bytes: &'b [u8], what: &'static str) -> Self {
        Self { bytes, at: 0, what }
    }

    /// A reader past the header, once the bytes start with `magic` and `version`.
    ///
    /// # Errors
    /// [`DecodeError::BadMagic`] (also for fewer than 4 bytes) or
    /// [`DecodeError::UnsupportedVersion`]; [`DecodeError::Truncated`] with no version byte.
    pub fn open(
        bytes: &'b [u8],
        magic: &[u8; 4],
        version: u8,
        what: &'static str,
    ) -> Result<Self, DecodeError> {
        let mut r = Self::new(bytes, what);
        if !bytes.starts_with(magic) {
            return Err(DecodeError::BadMagic {
                what,
                expected: *magic,
                found: bytes[..bytes.len().min(4)].to_vec(),
            });
        }
        r.at = 4;
        let found = r.u8("the format version")?;
        if found != version {
            return Err(DecodeError::UnsupportedVersion {
                what,
                found,
                supported: version,
            });
        }
        Ok(r)
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.at
    }

    /// Bytes read so far.
    pub fn position(&self) -> usize {
        self.at
    }

    /// The next `len` bytes as they are.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`] when fewer are left.
    pub fn take(&mut self, len: usize, field: &'static str) -> Result<&'b [u8], DecodeError> {
        let left = self.remaining();
        if len > left {
            return Err(DecodeError::Truncated {
                field,
                needed: len,
                left,
            });
        }
        let out = &self.bytes[self.at..self.at + len];
        self.at += len;
        Ok(out)
    }

    fn array<const N: usize>(&mut self, field: &'static str) -> Result<[u8; N], DecodeError> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N, field)?);
        Ok(out)
    }

    /// One byte.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`].
    pub fn u8(&mut self, field: &'static str) -> Result<u8, DecodeError> {
        Ok(self.array::<1>(field)?[0])
    }

    /// A flag byte, 0 or 1.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`]; [`DecodeError::BadFlag`] for another byte.
    pub fn bool(&mut self, field: &'static str) -> Result<bool, DecodeError> {
        match self.u8(field)? {
            0 => Ok(false),
            1 => Ok(true),
            byte => Err(DecodeError::BadFlag { field, byte }),
        }
    }

    /// A `u32`.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`].
    pub fn u32(&mut self, field: &'static str) -> Result<u32, DecodeError> {
        Ok(u32::from_le_bytes(self.array(field)?))
    }

    /// A `u64`.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`].
    pub fn u64(&mut self, field: &'static str) -> Result<u64, DecodeError> {
        Ok(u64::from_le_bytes(self.array(field)?))
    }

    /// A count (a `u64` that must fit `usize`). It is *not* checked against the bytes left —
    /// a shape or a number of rows need not be — use [`Reader::room`] before allocating by it.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`]; [`DecodeError::TooLarge`] beyond `usize`.
    pub fn count(&mut self, field: &'static str) -> Result<usize, DecodeError> {
        let n = self.u64(field)?;
        usize::try_from(n).map_err(|_| DecodeError::TooLarge {
            field,
            count: n,
            left: self.remaining(),
        })
    }

    /// Checks that `items` items of at least `min_bytes` bytes each fit in the bytes left
    /// (call it before `Vec::with_capacity(items)`).
    ///
    /// # Errors
    /// [`DecodeError::TooLarge`] when they cannot.
    pub fn room(
        &self,
        items: usize,
        min_bytes: usize,
        field: &'static str,
    ) -> Result<(), DecodeError> {
        let left = self.remaining();
        match items.checked_mul(min_bytes) {
            Some(need) if need <= left => Ok(()),
            _ => Err(DecodeError::TooLarge {
                field,
                count: items as u64,
                left,
            }),
        }
    }

    /// An `f64` from its bit pattern, any value (NaN and ±inf included).
    ///
    /// # Errors
    /// [`DecodeError::Truncated`].
    pub fn f64(&mut self, field: &'static str) -> Result<f64, DecodeError> {
        Ok(f64::from_bits(self.u64(field)?))
    }

    /// A finite `f64`.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`]; [`DecodeError::NonFinite`] for NaN or ±inf.
    pub fn finite_f64(&mut self, field: &'static str) -> Result<f64, DecodeError> {
        let value = self.f64(field)?;
        if value.is_finite() {
            Ok(value)
        } else {
            Err(DecodeError::NonFinite {
                field,
                index: None,
                value,
            })
        }
    }

    /// A length-prefixed vector of `f64`, any values; the length is checked against the bytes
    /// left before anything is allocated.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`]; [`DecodeError::TooLarge`] for a length the bytes cannot hold.
    pub fn f64s(&mut self, field: &'static str) -> Result<Vec<f64>, DecodeError> {
        let n = self.count(field)?;
        let len = n.checked_mul(8).ok_or(DecodeError::TooLarge {
            field,
            count: n as u64,
            left: self.remaining(),
        })?;
        let bytes = self.take(len, field)?;
        Ok(bytes
            .chunks_exact(8)
            .map(|b| {
                let mut a = [0; 8];
                a.copy_from_slice(b);
                f64::from_bits(u64::from_le_bytes(a))
            })
            .collect())
    }

    /// A length-prefixed vector of finite `f64` (see [`Reader::f64s`]).
    ///
    /// # Errors
    /// As [`Reader::f64s`]; [`DecodeError::NonFinite`] with the first NaN/inf and its index.
    pub fn finite_f64s(&mut self, field: &'static str) -> Result<Vec<f64>, DecodeError> {
        let xs = self.f64s(field)?;
        match xs.iter().position(|x| !x.is_finite()) {
            Some(i) => Err(DecodeError::NonFinite {
                field,
                index: Some(i),
                value: xs[i],
            }),
            None => Ok(xs),
        }
    }

    /// A length-prefixed UTF-8 string, borrowed from the bytes.
    ///
    /// # Errors
    /// [`DecodeError::Truncated`]; [`DecodeError::TooLarge`]; [`DecodeError::NotUtf8`].
    pub fn str(&mut self, field: &'static str) -> Result<&'b str, DecodeError> {
        let n = self.count(field)?;
        std::str::from_utf8(self.take(n, field)?).map_err(|_| DecodeError::NotUtf8 { field })
    }

    /// A length-prefixed UTF-8 string, owned.
    ///
    /// # Errors
    /// As [`Reader::str`].
    pub fn string(&mut self, field: &'static str) -> Result<String, DecodeError> {
        self.str(field).map(str::to_owned)
    }

    /// `count` length-prefixed strings (the count is checked against the bytes left: each
    /// string takes at least its 8-byte length).
    ///
    /// # Errors
    /// As [`Reader::str`].
    pub fn strings(
        &mut self,
        count: usize,
        field: &'static str,
    ) -> Result<Vec<String>, DecodeError> {
        self.room(count, 8, field)?;
        (0..count).map(|_| self.string(field)).collect()
    }

    /// Ends the decoding: every byte must have been read.
    ///
    /// # Errors
    /// [`DecodeError::TrailingBytes`].
    pub fn finish(&self) -> Result<(), DecodeError> {
        match self.remaining() {
            0 => Ok(()),
            extra => Err(DecodeError::TrailingBytes {
                what: self.what,
                extra,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        let mut w = Writer::with_header(b"FKTT", 2);
        w.u8(7);
        w.bool(true);
        w.u32(0xdead_beef);
        w.u64(u64::MAX);
        w.count(3);
        w.f64(-0.0);
        w.f64s(&[1.5, f64::NAN]);
        w.str("né");
        w.into_bytes()
    }

    fn read(bytes: &[u8]) -> Result<(), DecodeError> {
        let mut r = Reader::open(bytes, b"FKTT", 2, "test model")?;
        assert_eq!(r.u8("tag")?, 7);
        assert!(r.bool("flag")?);
        assert_eq!(r.u32("u32")?, 0xdead_beef);
        assert_eq!(r.u64("u64")?, u64::MAX);
        assert_eq!(r.count("count")?, 3);
        assert_eq!(r.f64("zero")?.to_bits(), (-0.0f64).to_bits());
        let xs = r.f64s("xs")?;
        assert!(xs[0].to_bits() == 1.5f64.to_bits() && xs[1].is_nan());
        assert_eq!(r.str("name")?, "né");
        r.finish()
    }

    #[test]
    fn round_trip_and_layout() {
        let bytes = sample();
        assert_eq!(bytes.len(), 5 + 1 + 1 + 4 + 8 + 8 + 8 + (8 + 16) + (8 + 3));
        read(&bytes).unwrap();
    }

    #[test]
    fn every_truncation_and_every_flipped_byte_is_an_error_or_ok_never_a_panic() {
        let bytes = sample();
        for cut in 0..bytes.len() {
            assert!(read(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        // Decoding alone (no value asserts): any flipped byte gives Ok or Err.
        let decode = |b: &[u8]| -> Result<(), DecodeError> {
            let mut r = Reader::open(b, b"FKTT", 2, "test model")?;
            r.u8("a")?;
            r.bool("b")?;
            r.u32("c")?;
            r.u64("d")?;
            r.count("e")?;
            r.finite_f64("f")?;
            r.finite_f64s("g")?;
            r.string("h")?;
            r.finish()
        };
        for i in 0..bytes.len() {
            for flip in [0x01, 0x80, 0xff] {
                let mut b = bytes.clone();
                b[i] ^= flip;
                let _ = decode(&b);
            }
        }
    }

    #[test]
    fn errors_name_the_field_and_the_header() {
        let bytes = sample();
        assert_eq!(
            Reader::open(b"FKX", b"FKTT", 2, "test model").unwrap_err(),
            DecodeError::BadMagic {
                what: "test model",
                expected: *b"FKTT",
                found: b"FKX".to_vec()
            }
        );
        let e = Reader::open(&bytes, b"FKTT", 3, "test model").unwrap_err();
        assert_eq!(
            e.to_string(),
            "a test model saved with format version 2; this build reads version 3"
        );
        let mut r = Reader::open(&bytes[..6], b"FKTT", 2, "test model").unwrap();
        r.u8("tag").unwrap();
        assert_eq!(
            r.u32("the width").unwrap_err().to_string(),
            "truncated: the width needs 4 bytes, 0 are left"
        );
        let mut r = Reader::new(&[2], "m");
        assert!(matches!(
            r.bool("f"),
            Err(DecodeError::BadFlag { byte: 2, .. })
        ));
        let mut w = Writer::new();
        w.f64s(&[0.0, f64::INFINITY]);
        let b = w.into_bytes();
        assert_eq!(
            Reader::new(&b, "m")
                .finite_f64s("w")
                .unwrap_err()
                .to_string(),
            "w has a non-finite value (inf at index 1)"
        );
        assert_eq!(
            Reader::new(&[0], "m").finish().unwrap_err().to_string(),
            "1 trailing bytes after the saved m"
        );
        let huge = u64::MAX.to_le_bytes();
        assert!(matches!(
            Reader::new(&huge, "m").str("s"),
            Err(DecodeError::Truncated { .. })
        ));
        assert!(matches!(
            Reader::new(&huge, "m").f64s("s"),
            Err(DecodeError::TooLarge { .. })
        ));
        assert!(Reader::new(&huge, "m").strings(usize::MAX, "s").is_err());
    }
}
