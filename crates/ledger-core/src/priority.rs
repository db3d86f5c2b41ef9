//! Background threads that yield to every other thread of the node: the miner's, and the
//! store's signature checks ahead of the white flag. Their work is useful only when a core
//! would otherwise be idle; under load it must not slow the threads that answer.

/// Make the calling thread (and the threads it starts) yield to every normal thread.
#[cfg(target_os = "linux")]
pub fn lower_this_thread() {
    // On Linux the nice value belongs to the thread, and PRIO_PROCESS with `who` 0 names the
    // calling thread. Raising one's own nice value needs no privilege; if it fails anyway,
    // the thread works at normal priority.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}

/// Elsewhere the nice value is per process: lowering it would slow the whole node.
#[cfg(not(target_os = "linux"))]
pub fn lower_this_thread() {}
