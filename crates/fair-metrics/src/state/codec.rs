//! The small versioned binary encoding of the states: a 4-byte magic, a version byte, then
//! little-endian fixed-width fields and length-prefixed UTF-8 strings. Decoding checks every
//! length against the bytes left, so truncated or hostile input is an error, never a panic or a
//! huge allocation.

use super::exact_sum::ExactSum;
use crate::error::{MetricError, Result};

pub(crate) struct Writer {
    out: Vec<u8>,
}

impl Writer {
    pub(crate) fn new(magic: &[u8; 4], version: u8) -> Self {
        let mut out = magic.to_vec();
        out.push(version);
        Self { out }
    }
    pub(crate) fn u8(&mut self, v: u8) {
        self.out.push(v);
    }
    pub(crate) fn u64(&mut self, v: u64) {
        self.out.extend_from_slice(&v.to_le_bytes());
    }
    pub(crate) fn f64(&mut self, v: f64) {
        self.out.extend_from_slice(&v.to_bits().to_le_bytes());
    }
    pub(crate) fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.out.extend_from_slice(s.as_bytes());
    }
    pub(crate) fn bytes(&mut self, b: &[u8]) {
        self.out.extend_from_slice(b);
    }
    pub(crate) fn finish(self) -> Vec<u8> {
        self.out
    }
}

pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    what: &'static str,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(
        bytes: &'a [u8],
        magic: &[u8; 4],
        version: u8,
        what: &'static str,
    ) -> Result<Self> {
        let mut r = Self { bytes, at: 0, what };
        if r.take(4)? != magic {
            return Err(r.error("wrong magic bytes: not an encoded state of this kind".into()));
        }
        let v = r.u8()?;
        if v != version {
            return Err(r.error(format!("version {v}, this build reads version {version}")));
        }
        Ok(r)
    }

    pub(crate) fn error(&self, reason: String) -> MetricError {
        MetricError::Decode {
            what: self.what,
            offset: self.at,
            reason,
        }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        match self.bytes.get(self.at..self.at.saturating_add(n)) {
            Some(s) if self.at.checked_add(n).is_some() => {
                self.at += n;
                Ok(s)
            }
            _ => Err(self.error(format!(
                "truncated: {n} more bytes needed, {} left",
                self.bytes.len().saturating_sub(self.at)
            ))),
        }
    }

    pub(crate) fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }
    pub(crate) fn u64(&mut self) -> Result<u64> {
        let b = self.take(8)?;
        Ok(u64::from_le_bytes(b.try_into().expect("8 bytes")))
    }
    pub(crate) fn f64(&mut self) -> Result<f64> {
        Ok(f64::from_bits(self.u64()?))
    }
    /// A count of items that follow: never more than the bytes left (each item takes >= 1 byte).
    pub(crate) fn len(&mut self) -> Result<usize> {
        let n = self.u64()?;
        let left = (self.bytes.len() - self.at) as u64;
        if n > left {
            return Err(self.error(format!("count {n} exceeds the {left} bytes left")));
        }
        Ok(n as usize)
    }
    /// Bytes not read yet.
    pub(crate) fn left(&self) -> usize {
        self.bytes.len() - self.at
    }
    pub(crate) fn str(&mut self) -> Result<String> {
        let n = self.len()?;
        let b = self.take(n)?;
        String::from_utf8(b.to_vec()).map_err(|_| self.error("a group name is not UTF-8".into()))
    }
    pub(crate) fn exact_sum(&mut self) -> Result<ExactSum> {
        let b = self.take(bitrep::SumF64::BYTES)?;
        let arr: &[u8; bitrep::SumF64::BYTES] = b.try_into().expect("exact length");
        ExactSum::from_bytes(arr).ok_or_else(|| self.error("corrupt exact sum".into()))
    }
    pub(crate) fn finish(self) -> Result<()> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(self.error(format!("{} trailing bytes", self.bytes.len() - self.at)))
        }
    }
}
