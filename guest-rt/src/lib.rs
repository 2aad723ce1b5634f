//! What `std` would bring to a `no_std` wasm32 component: the global allocator, a trapping
//! panic handler, the canonical-ABI `cabi_realloc` export, and `memcmp`/`bcmp` for
//! compiler-generated comparisons. Both guests (the plugin, `component/`, and the HTTP
//! transport, `transport/`) link it with `extern crate media_mcp_guest_rt;` in their wasm32
//! glue. Native builds get an empty crate.

#![no_std]
#![cfg(target_arch = "wasm32")]
#![allow(
    unsafe_code,
    reason = "the runtime's exports are unsafe by nature: an allocator, the canonical ABI, libc symbols"
)]

extern crate alloc;

mod heap;

/// The allocator std would have brought (the same dlmalloc), started on the initial memory.
#[global_allocator]
static ALLOCATOR: heap::Heap = heap::Heap::new();

/// A panic is a bug: trap, and let the host turn it into `INTERNAL_ERROR`.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}

/// The canonical-ABI allocator export (std provides it when linked; `no_std` must).
///
/// # Safety
/// Called by the component runtime per the canonical ABI.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cabi_realloc(
    old_ptr: *mut u8,
    old_len: usize,
    align: usize,
    new_len: usize,
) -> *mut u8 {
    use alloc::alloc::{Layout, alloc, realloc};
    if new_len == 0 {
        return align as *mut u8;
    }
    // SAFETY: the canonical ABI passes a valid power-of-two alignment and, for a reallocation,
    // the pointer and size of an earlier allocation made here.
    let ptr = unsafe {
        if old_len == 0 {
            alloc(Layout::from_size_align_unchecked(new_len, align))
        } else {
            realloc(
                old_ptr,
                Layout::from_size_align_unchecked(old_len, align),
                new_len,
            )
        }
    };
    if ptr.is_null() {
        core::arch::wasm32::unreachable()
    }
    ptr
}

/// `memcmp` for compiler-generated comparisons (libc is not linked in `no_std`).
///
/// # Safety
/// `a` and `b` must be valid for `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    for i in 0..n {
        // SAFETY: the caller guarantees both ranges are readable.
        let (x, y) = unsafe { (*a.add(i), *b.add(i)) };
        if x != y {
            return i32::from(x) - i32::from(y);
        }
    }
    0
}

/// `bcmp`, which LLVM emits for equality-only comparisons.
///
/// # Safety
/// As [`memcmp`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: forwarded unchanged.
    unsafe { memcmp(a, b, n) }
}
