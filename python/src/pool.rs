//! The thread pool the extension's parallel work runs on, made anew in a forked child.
//!
//! rayon's global pool is made once per process, and its threads do not survive a `fork`: a child
//! forked after the parent used the pool (a `multiprocessing` fork-context worker, Gymnasium's
//! `AsyncVectorEnv`, a PyTorch `DataLoader`) inherits a pool whose workers are gone, and its first
//! parallel call waits for them forever. So the extension never uses the global pool: every call
//! runs inside [`install`], on a pool that belongs to the current process, found by its id, and
//! made at the first call in each process. A parent's pool seen in a child is left alone (its
//! threads are not there to be stopped; its memory is a copy the child never frees).

use std::sync::atomic::{AtomicPtr, Ordering};

use rayon::ThreadPool;

/// A process's pool, with the id of the process that made it.
struct Owned {
    pid: u32,
    pool: ThreadPool,
}

/// The current pool. Written with a compare-and-swap, not under a lock: a lock held by another
/// thread at the moment of a fork would stay held in the child for ever.
static CURRENT: AtomicPtr<Owned> = AtomicPtr::new(std::ptr::null_mut());

/// This process's pool, made on first use (as many threads as rayon's default: the
/// `RAYON_NUM_THREADS` variable, or the CPUs this process may use).
fn current() -> &'static ThreadPool {
    let pid = std::process::id();
    loop {
        let seen = CURRENT.load(Ordering::Acquire);
        // SAFETY: a non-null pointer in CURRENT came from `Box::into_raw` below and is never
        // freed, so it is valid for the rest of the process (and in a forked child, whose memory
        // is a copy of the parent's).
        if let Some(owned) = unsafe { seen.as_ref() } {
            if owned.pid == pid {
                return &owned.pool;
            }
        }
        // as `std::thread::spawn` does, a process that cannot start a thread panics (pyo3 makes
        // that a Python exception): there is no pool to give, and the global one would do no better
        let pool = match rayon::ThreadPoolBuilder::new().thread_name(|i| format!("slidetable-{i}")).build() {
            Ok(pool) => pool,
            Err(e) => panic!("cannot start slidetable's worker threads: {e}"),
        };
        let fresh = Box::into_raw(Box::new(Owned { pid, pool }));
        match CURRENT.compare_exchange(seen, fresh, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => {
                // the pointer is kept in CURRENT for ever (the old one, a parent's, is left)
                // SAFETY: `fresh` came from `Box::into_raw` just above and is never freed.
                return &unsafe { &*fresh }.pool;
            }
            Err(_) => {
                // another thread of this process made one first: use that one
                // SAFETY: `fresh` came from `Box::into_raw` above and was not published.
                drop(unsafe { Box::from_raw(fresh) });
            }
        }
    }
}

/// Runs `work` on this process's pool: rayon's parallel iterators inside it use that pool.
pub(crate) fn install<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    current().install(work)
}

/// The number of threads of this process's pool.
pub(crate) fn threads() -> usize {
    current().current_num_threads()
}
