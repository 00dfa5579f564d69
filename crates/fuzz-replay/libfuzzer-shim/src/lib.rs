//! Stand-in for `libfuzzer-sys` when the fuzz targets of `fuzz/fuzz_targets/` are compiled on
//! stable by the `fairkit-fuzz-replay` tests (which depend on this crate under the name
//! `libfuzzer-sys`, so the targets' own `use libfuzzer_sys::fuzz_target;` resolves here).
//!
//! [`fuzz_target!`] keeps the target's body untouched but, instead of libFuzzer's
//! `rust_fuzzer_test_input` entry point, defines in the target's module
//!
//! ```text
//! pub fn replay(bytes: &[u8]) -> Option<Corpus>
//! ```
//!
//! which turns `bytes` into the target's input exactly as libfuzzer-sys 0.4.13 does, so a file
//! saved by the fuzzer replays the very input the fuzzer ran:
//!
//! - raw targets (`|data: &[u8]|`) get the bytes as they are;
//! - typed targets (`|input: T|`) return early when `bytes.len() < T::size_hint(0).0`, then decode
//!   with `T::arbitrary_take_rest(Unstructured::new(bytes))`, returning early on a decoding error.
//!
//! `replay` returns `None` where libFuzzer returns before running the body (too few bytes, or
//! bytes that do not decode), else the body's verdict as a [`Corpus`] (`()` counts as
//! [`Corpus::Keep`], like libfuzzer-sys). An `init:` block runs once per process before the first
//! body, as libFuzzer runs it once before fuzzing. A panic in the body propagates to the caller.
//!
//! ```
//! mod target {
//!     use fairkit_libfuzzer_shim::fuzz_target;
//!     fuzz_target!(|pair: (u8, bool)| {
//!         assert!(pair.0 < 200 || pair.1, "the bug");
//!     });
//! }
//! use fairkit_libfuzzer_shim::Corpus;
//! assert_eq!(target::replay(&[7, 0]), Some(Corpus::Keep));
//! assert!(std::panic::catch_unwind(|| target::replay(&[250, 0])).is_err());
//! ```

pub use arbitrary;

/// What the fuzzer should do with an input the body ran on (libfuzzer-sys's `Corpus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Corpus {
    /// Keep the input in the corpus (also what a body returning `()` means).
    Keep,
    /// Reject the input: the body declared it uninteresting.
    Reject,
}

impl From<()> for Corpus {
    fn from(_: ()) -> Self {
        Self::Keep
    }
}

/// Defines `pub fn replay(bytes: &[u8]) -> Option<Corpus>` running the fuzz target's body on
/// `bytes` as libfuzzer-sys 0.4.13 would (see the crate docs). Accepts the same forms as
/// libfuzzer-sys's `fuzz_target!`: raw or typed input, optional `-> Corpus` return type,
/// optional `init:` block.
#[macro_export]
macro_rules! fuzz_target {
    // Raw bytes (these arms come first, as in libfuzzer-sys, so `&[u8]` is not taken as a type
    // to decode).
    (|$bytes:ident| $body:expr) => {
        $crate::fuzz_target!(init: (), |$bytes: &[u8]| -> () { $body });
    };
    (|$bytes:ident: &[u8]| $body:expr) => {
        $crate::fuzz_target!(init: (), |$bytes: &[u8]| -> () { $body });
    };
    (|$bytes:ident: &[u8]| -> $rty:ty $body:block) => {
        $crate::fuzz_target!(init: (), |$bytes: &[u8]| -> $rty { $body });
    };
    (init: $init:expr, |$bytes:ident| $body:expr) => {
        $crate::fuzz_target!(init: $init, |$bytes: &[u8]| -> () { $body });
    };
    (init: $init:expr, |$bytes:ident: &[u8]| $body:expr) => {
        $crate::fuzz_target!(init: $init, |$bytes: &[u8]| -> () { $body });
    };
    (init: $init:expr, |$bytes:ident: &[u8]| -> $rty:ty $body:block) => {
        /// Runs this fuzz target's body on `bytes`, as libFuzzer does (raw input).
        pub fn replay(bytes: &[u8]) -> Option<$crate::Corpus> {
            static INIT: std::sync::Once = std::sync::Once::new();
            INIT.call_once(|| {
                $init;
            });
            Some($crate::Corpus::from(__libfuzzer_sys_run(bytes)))
        }

        #[inline(never)]
        fn __libfuzzer_sys_run($bytes: &[u8]) -> $rty {
            $body
        }
    };

    // Structured input decoded with `arbitrary`.
    (|$data:ident: $dty:ty| $body:expr) => {
        $crate::fuzz_target!(init: (), |$data: $dty| -> () { $body });
    };
    (|$data:ident: $dty:ty| -> $rty:ty $body:block) => {
        $crate::fuzz_target!(init: (), |$data: $dty| -> $rty { $body });
    };
    (init: $init:expr, |$data:ident: $dty:ty| $body:expr) => {
        $crate::fuzz_target!(init: $init, |$data: $dty| -> () { $body });
    };
    (init: $init:expr, |$data:ident: $dty:ty| -> $rty:ty $body:block) => {
        /// Runs this fuzz target's body on the input libFuzzer decodes from `bytes`; `None` when
        /// libFuzzer would not run the body (too few bytes, or bytes that do not decode).
        pub fn replay(bytes: &[u8]) -> Option<$crate::Corpus> {
            use $crate::arbitrary::{Arbitrary, Unstructured};

            static INIT: std::sync::Once = std::sync::Once::new();
            INIT.call_once(|| {
                $init;
            });
            // libfuzzer-sys 0.4.13, `rust_fuzzer_test_input`: the same early exit and decoding.
            if bytes.len() < <$dty as Arbitrary>::size_hint(0).0 {
                return None;
            }
            let u = Unstructured::new(bytes);
            let data = <$dty as Arbitrary>::arbitrary_take_rest(u).ok()?;
            Some($crate::Corpus::from(__libfuzzer_sys_run(data)))
        }

        #[inline(never)]
        fn __libfuzzer_sys_run($data: $dty) -> $rty {
            $body
        }
    };
}

#[cfg(test)]
mod tests {
    use super::Corpus;

    mod raw {
        fuzz_target!(|data: &[u8]| {
            assert_ne!(data, b"boom");
        });
    }

    mod raw_reject {
        use crate::Corpus;
        fuzz_target!(|data: &[u8]| -> Corpus {
            if data.is_empty() {
                Corpus::Reject
            } else {
                Corpus::Keep
            }
        });
    }

    mod typed {
        fuzz_target!(|v: (u32, u8)| {
            assert!(v.0 != 0x0403_0201 || v.1 != 5);
        });
    }

    mod counted_init {
        use std::sync::atomic::{AtomicUsize, Ordering};
        pub static INITS: AtomicUsize = AtomicUsize::new(0);
        fuzz_target!(init: INITS.fetch_add(1, Ordering::SeqCst), |v: u8| {
            assert!(v < 255);
        });
    }

    #[test]
    fn raw_bytes_reach_the_body_unchanged() {
        assert_eq!(raw::replay(b"fine"), Some(Corpus::Keep));
        assert!(std::panic::catch_unwind(|| raw::replay(b"boom")).is_err());
        assert_eq!(raw_reject::replay(b""), Some(Corpus::Reject));
        assert_eq!(raw_reject::replay(b"x"), Some(Corpus::Keep));
    }

    #[test]
    fn typed_inputs_decode_as_libfuzzer_does() {
        // (u32, u8) needs 5 bytes (size_hint lower bound): fewer never reach the body.
        assert_eq!(typed::replay(&[1, 2, 3, 4]), None);
        assert_eq!(typed::replay(&[1, 2, 3, 4, 6]), Some(Corpus::Keep));
        // Little-endian u32 from the first 4 bytes, then the u8: the exact input the body sees.
        assert!(std::panic::catch_unwind(|| typed::replay(&[1, 2, 3, 4, 5])).is_err());
        // Trailing bytes are taken by `arbitrary_take_rest` and ignored by a tuple of integers.
        assert_eq!(typed::replay(&[1, 2, 3, 4, 6, 9, 9]), Some(Corpus::Keep));
    }

    #[test]
    fn init_runs_once() {
        use std::sync::atomic::Ordering;
        assert_eq!(counted_init::replay(&[1]), Some(Corpus::Keep));
        assert_eq!(counted_init::replay(&[2]), Some(Corpus::Keep));
        assert_eq!(counted_init::INITS.load(Ordering::SeqCst), 1);
    }
}
