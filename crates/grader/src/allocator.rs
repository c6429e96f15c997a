//! The global allocator: mimalloc, asked for plain `mi_malloc` blocks whenever
//! their natural alignment is enough.
//!
//! Grading allocates many small, short-lived buffers (steps, cuts, per-slice
//! totals); mimalloc serves them markedly faster than the system allocator. The
//! `mimalloc` crate's own `GlobalAlloc` passes every request to
//! `mi_malloc_aligned`, whose fast path only holds while the size class has a free
//! block at hand: when it has none (a fresh page, or one just emptied and given
//! back when the previous puzzle's buffers were freed), a request whose rounded
//! size is not a power of two, such as 24 bytes aligned to 8, is over-allocated
//! (`size + align - 1`, one size class up) through the slow generic path.
//! Measured on a 4×4 of the reference file graded 20 times: its 85 or so
//! allocations per puzzle cost 5 500 instructions in the allocator that way and
//! 4 100 with plain blocks; and the reference file's 3×3 on line 1193, whose first
//! sight enumerates a cage table, went from 12.5 to 3.7 µs in the batch.
//!
//! Like the standard library's `System` allocator on top of C's `malloc`, this one
//! asks for a plain block when the alignment is at most mimalloc's guaranteed
//! minimum (16 bytes, `MI_MAX_ALIGN_SIZE`, for any block of 16 bytes or more) and
//! at most the size (a block smaller than 16 bytes is aligned to its size rounded
//! up to a word); larger alignments still go through `mi_malloc_aligned`.
//!
//! [`no_huge_pages`] keeps mimalloc's heap on small pages (see there). The
//! `target_ratios` example of `kenken-benches` includes this module, so that it
//! times puzzles with the binary's allocator and heap.

use libmimalloc_sys as mi;
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// The alignment every mimalloc block of at least this many bytes has.
const GUARANTEED_ALIGN: usize = 16;

/// mimalloc behind Rust's allocator interface (see the module documentation).
pub struct Mimalloc;

/// Whether a plain block of `size` bytes is aligned enough for `align`.
#[inline]
fn plain_block_fits(size: usize, align: usize) -> bool {
    align <= GUARANTEED_ALIGN && align <= size
}

// SAFETY: every pointer handed out comes from mimalloc with at least the layout's
// size and alignment (a plain block only when `plain_block_fits`, see the module
// documentation), and is given back to mimalloc's `mi_free`/`mi_realloc*`, which
// accept blocks from any of its allocation functions.
unsafe impl GlobalAlloc for Mimalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if plain_block_fits(layout.size(), layout.align()) {
            mi::mi_malloc(layout.size()).cast()
        } else {
            mi::mi_malloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if plain_block_fits(layout.size(), layout.align()) {
            mi::mi_zalloc(layout.size()).cast()
        } else {
            mi::mi_zalloc_aligned(layout.size(), layout.align()).cast()
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        mi::mi_free(ptr.cast::<c_void>());
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if plain_block_fits(new_size, layout.align()) {
            mi::mi_realloc(ptr.cast::<c_void>(), new_size).cast()
        } else {
            mi::mi_realloc_aligned(ptr.cast::<c_void>(), new_size, layout.align()).cast()
        }
    }
}

/// Turns transparent huge pages off for this process (Linux).
///
/// mimalloc asks for them on its heap, and the first touch of a fresh 2 MiB page
/// costs from a fifth of a millisecond (zeroing it) to several milliseconds on a
/// virtual machine, charged to whichever puzzle happens to grow the heap. Measured
/// on the reference file, 15 runs each: a 9×9 the grader takes 0.16 ms for took
/// 0.35–5.4 ms with them (5 ms in 5 runs of 15), and 7 puzzles had such spikes
/// against 1 without; the medians, the whole file's time and the peak memory are
/// no worse without them. A kernel without the setting (before 3.15) keeps them.
pub fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) only sets a flag of this process;
    // it reads and writes none of our memory.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of every small size and alignment come back aligned, keep their
    /// contents through growing and shrinking, and are zeroed when asked.
    #[test]
    fn blocks_are_aligned_and_keep_their_contents() {
        let allocator = Mimalloc;
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in (0..=80).chain([1000, 1024, 5000, 70_000]) {
                let size = size.max(align);
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: a non-zero-sized layout; each block is written within its
                // size and freed once with the layout it was made with.
                unsafe {
                    let zeroed = allocator.alloc_zeroed(layout);
                    assert!(!zeroed.is_null());
                    assert_eq!(zeroed as usize % align, 0, "zeroed {size}/{align}");
                    assert!((0..size).all(|i| *zeroed.add(i) == 0));
                    allocator.dealloc(zeroed, layout);

                    let p = allocator.alloc(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "alloc {size}/{align}");
                    for i in 0..size {
                        *p.add(i) = i as u8;
                    }
                    // grow, then shrink below the original size, keeping the bytes
                    let grown = (size * 3 + 7).div_ceil(align) * align;
                    let q = allocator.realloc(p, layout, grown);
                    assert_eq!(q as usize % align, 0, "grow {size}->{grown}/{align}");
                    assert!((0..size).all(|i| *q.add(i) == i as u8));
                    let shrunk = (size / 2).max(align).div_ceil(align) * align;
                    let grown_layout = Layout::from_size_align(grown, align).unwrap();
                    let r = allocator.realloc(q, grown_layout, shrunk);
                    assert_eq!(r as usize % align, 0, "shrink {grown}->{shrunk}/{align}");
                    assert!((0..shrunk.min(size)).all(|i| *r.add(i) == i as u8));
                    allocator.dealloc(r, Layout::from_size_align(shrunk, align).unwrap());
                }
            }
        }
    }
}
