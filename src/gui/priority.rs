//! Scheduling priority of the window's background threads.
//!
//! Without a GPU the window's frames are rasterised on the CPU, by the UI thread and Mesa's
//! threads. An analysis (a regime map, a sweep) started from the window uses every core, so at
//! equal priority it takes half of the CPU the window needs and the frame rate drops. The
//! analysis thread therefore lowers its own priority (Linux nice value [`BACKGROUND_NICE`])
//! before it runs anything; the pools it spawns for a map or a sweep inherit it. The kernel then
//! gives the window what it asks for and the analysis everything else: a job that runs alone
//! loses nothing, a job beside a busy window yields to it.
//!
//! The nice value only ever goes up (an unprivileged thread cannot lower it back), so only
//! threads that stay background for their whole life use this.

/// Nice value of background threads (0 is the default, 19 the lowest priority). At 10 the
/// kernel weighs a background thread at about a tenth of the window's threads.
pub const BACKGROUND_NICE: i32 = 10;

/// Lowers the calling thread's priority to [`BACKGROUND_NICE`]; threads it spawns afterwards
/// inherit it. Returns the nice value now in force (`None` where this is not supported or the
/// system refused — the thread then runs at normal priority, which is only slower for the
/// window).
pub fn make_this_thread_background() -> Option<i32> {
    #[cfg(target_os = "linux")]
    {
        // On Linux `setpriority(PRIO_PROCESS, 0, …)` applies to the calling thread only
        // (the nice value is a per-thread attribute there). A thread already at a lower
        // priority (the whole app started with `nice`) stays there.
        let now = rustix::process::getpriority_process(None).ok()?;
        if now < BACKGROUND_NICE {
            rustix::process::setpriority_process(None, BACKGROUND_NICE).ok()?;
        }
        rustix::process::getpriority_process(None).ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    #[test]
    fn a_background_thread_and_the_threads_it_spawns_run_at_the_lower_priority() {
        let before = rustix::process::getpriority_process(None).expect("getpriority");
        let expected = before.max(super::BACKGROUND_NICE);
        let (mine, child) = std::thread::spawn(|| {
            let mine = super::make_this_thread_background();
            let child = std::thread::spawn(|| rustix::process::getpriority_process(None).ok())
                .join()
                .ok()
                .flatten();
            (mine, child)
        })
        .join()
        .expect("thread");
        assert_eq!(mine, Some(expected));
        assert_eq!(child, Some(expected));
        // The thread that spawned them (the test's) keeps its own priority.
        let here = rustix::process::getpriority_process(None).expect("getpriority");
        assert_eq!(here, before);
    }
}
