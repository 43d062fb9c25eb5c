//! Memory hints for the hot loops: prefetching a value before it is needed, and asking for huge
//! pages behind large tables that are read at random. Both are hints; neither changes a result.

/// Asks the processor to bring the cache line holding `value` in now, so a later read finds it
/// there (the searches issue these for every child before examining any).
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it never faults and changes no memory, and SSE is part
    // of every x86_64 processor. The pointer comes from a reference.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(value as *const T as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// A vector of the items of `items` (exactly `len` of them), its memory advised for huge pages
/// before it is written ([`advise_huge_pages_for_load`]): for tables of a few megabytes and more
/// that a search reads at random (only the whole 2 MiB pages inside the allocation can be huge).
pub(crate) fn huge_vec<T>(len: usize, items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut v = Vec::with_capacity(len);
    advise_huge_pages_for_load(v.as_mut_ptr() as *mut u8, len * std::mem::size_of::<T>());
    v.extend(items);
    v
}

/// [`advise_huge_pages`] for tables a search loads, except where the kernel backs every large
/// anonymous region with huge pages already (`/sys/kernel/mm/transparent_hugepage/enabled` is
/// `always`): there the advice only makes a page fault compact memory for a huge page when none
/// is free (its `defrag` setting, `madvise` by default), which on a 2-core VM stalled loading
/// the 24-puzzle's tables for up to 2.75 s of kernel time, against 0.1 s without the advice,
/// with no faster search after. (A build, minutes of random writes, keeps the advice.)
pub(crate) fn advise_huge_pages_for_load(ptr: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    if huge_pages_always() {
        return;
    }
    advise_huge_pages(ptr, len);
}

/// Asks the kernel to back `len` bytes at `ptr` with transparent huge pages, where it can (random
/// reads and writes over gigabytes then miss the TLB far less).
pub(crate) fn advise_huge_pages(ptr: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = (ptr as usize).div_ceil(HUGE) * HUGE;
        let end = (ptr as usize + len) / HUGE * HUGE;
        if end > start {
            // SAFETY: madvise only reads the range's page tables; the range lies inside one live
            // allocation owned by the caller. A failure only means no huge pages.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (ptr, len);
}

/// Whether the kernel's transparent huge pages are on for every anonymous region (read once).
#[cfg(target_os = "linux")]
fn huge_pages_always() -> bool {
    static ALWAYS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ALWAYS.get_or_init(|| {
        std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").is_ok_and(|s| s.contains("[always]"))
    })
}
