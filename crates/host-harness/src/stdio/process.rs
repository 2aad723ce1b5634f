//! The process's stdin and stdout as the event loop's streams.
//!
//! MCP clients start a stdio server with pipes or socket pairs. Those are made non-blocking and
//! driven by epoll, so each message is read and written on the worker that handles it; tokio's
//! `stdin()` and `stdout()` run every read, write and flush as a task on the blocking thread
//! pool, a hand-off to another thread and back each time. A terminal or a file keeps tokio's
//! streams. Non-blocking mode belongs to the open file, which other processes may share, so
//! [`Restore`] puts each descriptor's flags back when it is dropped.

use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

use rustix::fs::{FileType, OFlags};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::unix::pipe;

/// Stdin as a byte stream.
pub(super) type Input = Box<dyn AsyncRead + Unpin + Send>;
/// Stdout as a byte stream.
pub(super) type Output = Box<dyn AsyncWrite + Unpin + Send>;

/// The flags stdin's and stdout's open files had before they were made non-blocking, put back
/// on drop.
pub(super) struct Restore {
    stdin: Option<OFlags>,
    stdout: Option<OFlags>,
}

impl Drop for Restore {
    fn drop(&mut self) {
        if let Some(flags) = self.stdin {
            let _ = rustix::fs::fcntl_setfl(io::stdin(), flags);
        }
        if let Some(flags) = self.stdout {
            let _ = rustix::fs::fcntl_setfl(io::stdout(), flags);
        }
    }
}

/// Stdin and stdout, and what puts their flags back. Must be called within the tokio runtime
/// (the streams register with its reactor). tokio refuses a pipe opened for the wrong
/// direction; that side then keeps tokio's stream too.
pub(super) fn process_stdio() -> (Input, Output, Restore) {
    let (stdin, stdout) = (io::stdin(), io::stdout());
    let restore = Restore {
        stdin: rustix::fs::fcntl_getfl(&stdin).ok(),
        stdout: rustix::fs::fcntl_getfl(&stdout).ok(),
    };
    let input: Input = match driven(stdin.as_fd()) {
        Some((FileType::Fifo, fd)) => pipe::Receiver::from_owned_fd(fd)
            .ok()
            .map(|p| Box::new(p) as Input),
        Some((_, fd)) => socket(fd).map(|s| Box::new(s) as Input),
        None => None,
    }
    .unwrap_or_else(|| Box::new(tokio::io::stdin()));
    let output: Output = match driven(stdout.as_fd()) {
        Some((FileType::Fifo, fd)) => {
            widen(&fd);
            pipe::Sender::from_owned_fd(fd)
                .ok()
                .map(|p| Box::new(p) as Output)
        }
        Some((_, fd)) => socket(fd).map(|s| Box::new(s) as Output),
        None => None,
    }
    .unwrap_or_else(|| Box::new(tokio::io::stdout()));
    (input, output, restore)
}

/// What stdout's pipe is asked to hold (Linux's default is 64 KiB, and the most an
/// unprivileged process may ask for is 1 MiB).
const STDOUT_PIPE_BYTES: usize = 1 << 20;

/// Asks for a pipe that holds a whole `tools/list` answer (137 KB for the Ombi tools), so it
/// is written in one go instead of a wake-up of the writer each time the client has read 64 KiB.
/// The kernel allots the pages only as they fill; where it refuses, the pipe keeps its size.
fn widen(pipe: &OwnedFd) {
    let _ = rustix::pipe::fcntl_setpipe_size(pipe, STDOUT_PIPE_BYTES);
}

/// A copy of `fd` when it is a pipe or a socket, which the reactor can drive, with its type.
fn driven(fd: BorrowedFd<'_>) -> Option<(FileType, OwnedFd)> {
    let kind = FileType::from_raw_mode(rustix::fs::fstat(fd).ok()?.st_mode);
    if !matches!(kind, FileType::Fifo | FileType::Socket) {
        return None;
    }
    Some((kind, fd.try_clone_to_owned().ok()?))
}

/// A stream socket (a socket pair, as Node's `child_process` makes) for either side.
fn socket(fd: OwnedFd) -> Option<tokio::net::UnixStream> {
    let stream = std::os::unix::net::UnixStream::from(fd);
    stream.set_nonblocking(true).ok()?;
    tokio::net::UnixStream::from_std(stream).ok()
}
