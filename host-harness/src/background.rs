//! Start-up work that runs beside the serving threads: on a thread of its own, at a lower
//! scheduling priority (nice +5), so that on busy cores it yields to the threads answering
//! `initialize` and `tools/list`.

/// How much a background thread yields to the serving threads (a nice value).
const NICE: i32 = 5;

/// Runs `work` on a new thread named `name` at nice +5, inside the current tokio runtime.
///
/// # Errors
///
/// The thread could not be started; `work` is dropped unrun.
pub fn spawn(name: &str, work: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    let runtime = tokio::runtime::Handle::current();
    std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || {
            let _runtime = runtime.enter();
            // Linux keeps a nice value per thread: this lowers only this one's.
            let _ = rustix::process::setpriority_process(None, NICE);
            work();
        })
        .map(drop)
}

#[cfg(test)]
mod tests;
