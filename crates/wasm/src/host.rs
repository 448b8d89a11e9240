//! The bridge between the module and its JavaScript host: memory for text going in, the
//! `poolshark_emit` import for text coming out, and panics reported before the module traps.

/// Where a text that the module emits goes; the number is what the host receives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Channel {
    /// A line for standard output (bench's result).
    Out = 1,
    /// A line for standard error: progress, warnings, a panic's message.
    Err = 2,
    /// A search job's event, JSON, from the search worker to the board's.
    Event = 3,
    /// A reply for the page (one docs/BOARD.md message, JSON).
    Reply = 4,
    /// A search job to start, JSON, from the board's worker to the search worker.
    Start = 5,
    /// The id of the search job to stop.
    Stop = 6,
}

#[cfg(target_arch = "wasm32")]
#[link(wasm_import_module = "env")]
extern "C" {
    fn poolshark_emit(channel: u32, ptr: *const u8, len: usize);
}

/// Send `text` to the host on `channel`.
pub fn emit(channel: Channel, text: &str) {
    #[cfg(target_arch = "wasm32")]
    // SAFETY: the host reads `len` bytes at `ptr` before the call returns; the text lives
    // until then.
    unsafe {
        poolshark_emit(channel as u32, text.as_ptr(), text.len())
    }
    #[cfg(not(target_arch = "wasm32"))]
    captured::push(channel, text);
}

/// Natively (the crate's own tests) what the module emits is kept here to be read back.
#[cfg(not(target_arch = "wasm32"))]
pub mod captured {
    use super::Channel;
    use std::cell::RefCell;

    thread_local! {
        static EMITTED: RefCell<Vec<(Channel, String)>> = const { RefCell::new(Vec::new()) };
    }

    pub(super) fn push(channel: Channel, text: &str) {
        EMITTED.with(|e| e.borrow_mut().push((channel, text.to_string())));
    }

    /// Everything emitted on this thread since the last call.
    pub fn take() -> Vec<(Channel, String)> {
        EMITTED.with(|e| std::mem::take(&mut *e.borrow_mut()))
    }
}

/// `len` bytes for the host to write a text into before passing it to an exported function,
/// which takes them back (`take`).
#[no_mangle]
pub extern "C" fn poolshark_alloc(len: usize) -> *mut u8 {
    let mut bytes = Vec::<u8>::with_capacity(len.max(1));
    let ptr = bytes.as_mut_ptr();
    std::mem::forget(bytes);
    ptr
}

/// The text the host wrote at `ptr` (from `poolshark_alloc(len)`), its memory given back.
/// Bytes that are not UTF-8 are replaced, so that the request is refused with a message
/// rather than dropped.
///
/// # Safety
/// `ptr` is what `poolshark_alloc(len)` returned, with `len` bytes written, and is not used
/// again.
pub unsafe fn take(ptr: *mut u8, len: usize) -> String {
    // SAFETY: by the contract above the allocation is a `Vec<u8>` of capacity `len.max(1)`
    // with `len` bytes written.
    let bytes = unsafe { Vec::from_raw_parts(ptr, len, len.max(1)) };
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// Report a panic's message on `Channel::Err` before the module traps, once per module.
pub fn report_panics() {
    use std::sync::Once;
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            emit(Channel::Err, &format!("panic: {info}"))
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_goes_in_through_the_modules_memory() {
        let text = "{\"type\":\"ping\"} ü";
        let ptr = poolshark_alloc(text.len());
        // SAFETY: `ptr` has room for the text's bytes, as the host would write them.
        let back = unsafe {
            std::ptr::copy_nonoverlapping(text.as_ptr(), ptr, text.len());
            take(ptr, text.len())
        };
        assert_eq!(back, text);
        // SAFETY: an empty text still gets memory, and comes back empty.
        let empty = unsafe { take(poolshark_alloc(0), 0) };
        assert_eq!(empty, "");
    }

    #[test]
    fn emitted_text_keeps_its_channel() {
        captured::take();
        emit(Channel::Reply, "a");
        emit(Channel::Err, "b");
        assert_eq!(
            captured::take(),
            vec![(Channel::Reply, "a".into()), (Channel::Err, "b".into())]
        );
    }
}
