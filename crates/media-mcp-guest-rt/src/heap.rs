//! The global allocator: dlmalloc, as std would bring it, whose first memory is the part of
//! the module's initial linear memory past the linker's `__heap_base` (the build reserves
//! room there with wasm-ld's `--initial-heap`). dlmalloc's own wasm system layer only ever
//! grows memory, and the host pays for each growth twice (making the pages accessible, and
//! making them inaccessible again before the next instance of the slot starts), so a call
//! whose heap fits the initial memory now grows nothing.

use core::alloc::{GlobalAlloc, Layout};
use core::arch::wasm32;
use core::cell::{Cell, UnsafeCell};
use core::ptr;

/// A wasm page.
const PAGE: usize = 64 * 1024;

unsafe extern "C" {
    /// Where the linker placed the first byte after the static data.
    static __heap_base: u8;
}

/// Where dlmalloc gets its memory: the initial heap once, then `memory.grow`.
struct System {
    /// Whether the initial heap was handed out.
    donated: Cell<bool>,
}

// SAFETY: the component is single-threaded (wasm32-wasip2 without threads).
unsafe impl Send for System {}

// SAFETY: each region is handed out once and never given back (as dlmalloc's own wasm layer).
unsafe impl dlmalloc::Allocator for System {
    fn alloc(&self, size: usize) -> (*mut u8, usize, u32) {
        // Offered once, to the first request: once memory has grown, `memory.size` no longer
        // marks the end of the initial memory, and the region would overlap a grown segment.
        if !self.donated.replace(true) {
            let base = ptr::addr_of!(__heap_base) as usize;
            let end = wasm32::memory_size(0) * PAGE;
            if end > base && end - base >= size {
                return (base as *mut u8, end - base, 0);
            }
        }
        let pages = size.div_ceil(PAGE);
        match wasm32::memory_grow(0, pages) {
            usize::MAX => (ptr::null_mut(), 0, 0),
            previous => ((previous * PAGE) as *mut u8, pages * PAGE, 0),
        }
    }

    fn remap(&self, _: *mut u8, _: usize, _: usize, _: bool) -> *mut u8 {
        ptr::null_mut()
    }

    fn free_part(&self, _: *mut u8, _: usize, _: usize) -> bool {
        false
    }

    fn free(&self, _: *mut u8, _: usize) -> bool {
        false
    }

    fn can_release_part(&self, _: u32) -> bool {
        false
    }

    fn allocates_zeros(&self) -> bool {
        // Fresh memory past the static data, or grown memory: zero either way.
        true
    }

    fn page_size(&self) -> usize {
        PAGE
    }
}

/// The global allocator.
pub struct Heap(UnsafeCell<dlmalloc::Dlmalloc<System>>);

// SAFETY: the component is single-threaded (wasm32-wasip2 without threads).
unsafe impl Sync for Heap {}

impl Heap {
    /// An allocator that has not taken any memory yet.
    pub const fn new() -> Self {
        Self(UnsafeCell::new(dlmalloc::Dlmalloc::new_with_allocator(
            System {
                donated: Cell::new(false),
            },
        )))
    }
}

// SAFETY: dlmalloc's contract, with one caller at a time (single-threaded).
unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        unsafe { (*self.0.get()).malloc(layout.size(), layout.align()) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { (*self.0.get()).free(ptr, layout.size(), layout.align()) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        unsafe { (*self.0.get()).calloc(layout.size(), layout.align()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        unsafe { (*self.0.get()).realloc(ptr, layout.size(), layout.align(), new_size) }
    }
}
