//! A guard around third-party decoders: a malformed Parquet page can make arrow-rs panic (e.g.
//! "attempt to shift left with overflow" on corrupted bit-packed runs). The audit must answer
//! bad input with a typed error and exit code 2, never a crash, so the decoder call is run
//! under `catch_unwind` and the panic message becomes the error text. The panic hook stays
//! quiet only while a guarded call runs; any other panic (a bug of ours) still prints.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    static GUARDED: Cell<bool> = const { Cell::new(false) };
    static MESSAGE: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

fn install_hook() {
    HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if GUARDED.with(Cell::get) {
                let msg = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "the decoder panicked".into());
                MESSAGE.with(|m| *m.borrow_mut() = Some(msg));
            } else {
                default(info);
            }
        }));
    });
}

/// Runs `f`, turning a panic inside it into `Err(message)`.
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    GUARDED.with(|g| g.set(true));
    let r = panic::catch_unwind(AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(false));
    r.map_err(|_| {
        MESSAGE
            .with(|m| m.borrow_mut().take())
            .unwrap_or_else(|| "the decoder panicked".into())
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_panic_becomes_an_error_and_values_pass_through() {
        assert_eq!(super::guarded(|| 3), Ok(3));
        let r: Result<(), String> = super::guarded(|| panic!("bad page"));
        assert_eq!(r, Err("bad page".to_string()));
    }
}
