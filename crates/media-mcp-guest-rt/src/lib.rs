//! What `std` would bring to a `no_std` wasm32 component: the global allocator, a trapping
//! panic handler, the canonical-ABI `cabi_realloc` export, and `memcmp`/`bcmp` for
//! compiler-generated comparisons. Both guests (the plugin, `crates/media-mcp/`, and the HTTP
//! transport, `crates/media-mcp-transport/`) link it with `extern crate media_mcp_guest_rt;` in their wasm32
//! glue. Native builds get an empty crate, except that native tests check `memcmp`.

#![cfg_attr(not(test), no_std)]
#![cfg(any(target_arch = "wasm32", test))]
#![allow(
    unsafe_code,
    reason = "the runtime's exports are unsafe by nature: an allocator, the canonical ABI, libc symbols"
)]

extern crate alloc;

#[cfg(target_arch = "wasm32")]
mod heap;

/// The allocator std would have brought (the same dlmalloc), started on the initial memory.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: heap::Heap = heap::Heap::new();

/// A panic is a bug: trap, and let the host turn it into `INTERNAL_ERROR`.
#[cfg(target_arch = "wasm32")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}

/// The canonical-ABI allocator export (std provides it when linked; `no_std` must).
///
/// # Safety
/// Called by the component runtime per the canonical ABI.
#[cfg(target_arch = "wasm32")]
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

/// `memcmp` for compiler-generated comparisons (libc is not linked in `no_std`): skips eight
/// bytes at a time while they agree, then compares byte by byte from the first word that
/// differs.
///
/// # Safety
/// `a` and `b` must be valid for `n` bytes.
#[cfg_attr(target_arch = "wasm32", unsafe(no_mangle))]
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    const WORD: usize = 8;
    let mut i = 0;
    // SAFETY: the caller guarantees both ranges are readable; unaligned reads are allowed.
    while i + WORD <= n
        && unsafe {
            a.add(i).cast::<u64>().read_unaligned() == b.add(i).cast::<u64>().read_unaligned()
        }
    {
        i += WORD;
    }
    while i < n {
        // SAFETY: as above.
        let (x, y) = unsafe { (*a.add(i), *b.add(i)) };
        if x != y {
            return i32::from(x) - i32::from(y);
        }
        i += 1;
    }
    0
}

/// `bcmp`, which LLVM emits for equality-only comparisons.
///
/// # Safety
/// As [`memcmp`].
#[cfg(target_arch = "wasm32")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: forwarded unchanged.
    unsafe { memcmp(a, b, n) }
}

#[cfg(test)]
mod tests;
