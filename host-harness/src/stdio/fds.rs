//! The process's stdin and stdout as streams on the runtime's own event loop when they are
//! pipes or sockets, as MCP clients spawn servers (Python's `asyncio` gives pipes, Node's
//! `child_process` gives sockets). `tokio::io::stdin()` and `stdout()` run every read, write and
//! flush as a task on the blocking thread pool, so each message in and each answer out costs
//! thread hand-offs; a non-blocking descriptor is read and written when epoll says it is ready.
//!
//! Anything else (a file, a terminal) keeps tokio's blocking streams. So does stdout when it
//! is the same pipe or socket as stderr (`2>&1`): non-blocking mode belongs to the open file,
//! and log lines written to stderr with blocking writes must not fail when the pipe is full.

use std::fs::File;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::fs::{FileTypeExt as _, MetadataExt as _};

use tokio::io::{AsyncRead, AsyncWrite};

/// The input stream [`stdin`] gives.
pub(crate) type Input = Box<dyn AsyncRead + Unpin + Send>;
/// The output stream [`stdout`] gives.
pub(crate) type Output = Box<dyn AsyncWrite + Unpin + Send>;

/// What a descriptor is, as far as choosing a stream goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Pipe,
    Socket,
    Other,
}

/// The kind of `fd` and its (device, inode).
fn describe(fd: BorrowedFd<'_>) -> Option<(Kind, (u64, u64))> {
    let file = File::from(fd.try_clone_to_owned().ok()?);
    let meta = file.metadata().ok()?;
    let kind = if meta.file_type().is_fifo() {
        Kind::Pipe
    } else if meta.file_type().is_socket() {
        Kind::Socket
    } else {
        Kind::Other
    };
    Some((kind, (meta.dev(), meta.ino())))
}

fn own(fd: BorrowedFd<'_>) -> Option<OwnedFd> {
    fd.try_clone_to_owned().ok()
}

fn socket(fd: OwnedFd) -> std::io::Result<tokio::net::UnixStream> {
    let stream = std::os::unix::net::UnixStream::from(fd);
    stream.set_nonblocking(true)?;
    tokio::net::UnixStream::from_std(stream)
}

/// The process's stdin (call inside the runtime).
pub(crate) fn stdin() -> Input {
    let input = std::io::stdin();
    let fd = input.as_fd();
    let stream: Option<Input> = match describe(fd).map(|(kind, _)| kind) {
        Some(Kind::Pipe) => own(fd)
            .and_then(|fd| tokio::net::unix::pipe::Receiver::from_owned_fd(fd).ok())
            .map(|r| Box::new(r) as Input),
        Some(Kind::Socket) => own(fd)
            .and_then(|fd| socket(fd).ok())
            .map(|s| Box::new(s) as Input),
        _ => None,
    };
    stream.unwrap_or_else(|| Box::new(tokio::io::stdin()))
}

/// The process's stdout (call inside the runtime).
pub(crate) fn stdout() -> Output {
    let output = std::io::stdout();
    let fd = output.as_fd();
    let described = describe(fd);
    let shared_with_stderr = described.is_some_and(|(_, id)| {
        describe(std::io::stderr().as_fd()).is_some_and(|(_, err)| err == id)
    });
    let stream: Option<Output> = match described.map(|(kind, _)| kind) {
        _ if shared_with_stderr => None,
        Some(Kind::Pipe) => own(fd)
            .and_then(|fd| tokio::net::unix::pipe::Sender::from_owned_fd(fd).ok())
            .map(|s| Box::new(s) as Output),
        Some(Kind::Socket) => own(fd)
            .and_then(|fd| socket(fd).ok())
            .map(|s| Box::new(s) as Output),
        _ => None,
    };
    stream.unwrap_or_else(|| Box::new(tokio::io::stdout()))
}
