//! Thread pools for the analysis tools: as many workers as `available_parallelism` reports
//! unless the caller asks for a number.

/// Worker count: `requested` if given (at least 1), else `std::thread::available_parallelism()`.
pub fn thread_count(requested: Option<usize>) -> usize {
    requested
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// Runs `f` inside a rayon pool of [`thread_count`]`(threads)` workers (rayon's global pool if
/// a dedicated one cannot be created).
pub fn with_pool<R: Send>(threads: Option<usize>, f: impl FnOnce() -> R + Send) -> R {
    match rayon::ThreadPoolBuilder::new()
        .num_threads(thread_count(threads))
        .build()
    {
        Ok(pool) => pool.install(f),
        Err(_) => f(),
    }
}
