//! JSON text arguments read with one copy. napi-rs's `String` argument asks V8 for the
//! UTF-8 length (a pass over the string), zeroes a fresh allocation, then copies (a second
//! pass). For a block's JSON, kilobytes on every encode, that is a measurable share of the
//! call; here the length comes from the UTF-16 length (known without a pass: at most three
//! UTF-8 bytes per UTF-16 unit) and the copy goes into a buffer kept per thread.

use crate::errors::Result;
use napi::sys;
use napi::{JsString, JsValue};
use std::cell::RefCell;
use std::ptr;

thread_local! {
    static TEXT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Hand the UTF-8 text of a JS string to `then`.
pub fn with_js_text<T>(text: JsString, then: impl FnOnce(&str) -> Result<T>) -> Result<T> {
    let value = text.value();
    let mut units = 0usize;
    // SAFETY: env and value come from napi-rs for this call; a null buffer asks for the length.
    let status = unsafe {
        sys::napi_get_value_string_utf16(value.env, value.value, ptr::null_mut(), 0, &mut units)
    };
    if status != sys::Status::napi_ok {
        return Err(napi::Error::new(
            "StringExpected".to_string(),
            "expected a string".to_string(),
        ));
    }
    let read = |buffer: &mut Vec<u8>| -> Result<usize> {
        let capacity = 3 * units + 1;
        if buffer.len() < capacity {
            buffer.resize(capacity, 0);
        }
        let mut written = 0usize;
        // SAFETY: the buffer holds `capacity` bytes; V8 writes at most capacity − 1 and a NUL.
        let status = unsafe {
            sys::napi_get_value_string_utf8(
                value.env,
                value.value,
                buffer.as_mut_ptr().cast(),
                capacity,
                &mut written,
            )
        };
        if status != sys::Status::napi_ok {
            return Err(napi::Error::new(
                "StringExpected".to_string(),
                "expected a string".to_string(),
            ));
        }
        Ok(written)
    };
    TEXT.with(|cell| {
        let mut own = Vec::new();
        let mut kept = cell.try_borrow_mut();
        // Reached again from inside `then` (nothing does so today): a buffer of its own.
        let buffer: &mut Vec<u8> = match kept.as_mut() {
            Ok(buffer) => buffer,
            Err(_) => &mut own,
        };
        let written = read(buffer)?;
        // V8 writes well-formed UTF-8 (lone surrogates become U+FFFD); checked all the same.
        let text = std::str::from_utf8(&buffer[..written])
            .map_err(|e| napi::Error::new("InvalidArg".to_string(), e.to_string()))?;
        let result = then(text);
        // One 300 KB text once should not pin a megabyte per thread for ever.
        if buffer.capacity() > 256 * 1024 {
            *buffer = Vec::new();
        }
        result
    })
}
