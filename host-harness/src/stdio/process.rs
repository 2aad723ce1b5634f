//! The process's stdin and stdout as the event loop's streams.
//!
//! MCP clients start a stdio server with pipes or socket pairs. Those are made non-blocking and
//! driven by epoll, so each message is read and written on the worker that handles it; tokio's
//! `stdin()` and `stdout()` run every read, write and flush as a task on the blocking thread
//! pool, a hand-off to another thread and back each time. A terminal or a file keeps tokio's
//! streams. Non-blocking mode belongs to the open file, which other processes may share, so
//! [`Restore`] puts each descriptor's flags back when it is dropped.

use std::io;
use std::os::fd::{AsFd, OwnedFd};

use rustix::fs::{FileType, OFlags};
use tokio::io::{AsyncRead, AsyncWrite};

/// Stdin as a byte stream.
pub(super) type Input = Box<dyn AsyncRead + Unpin + Send>;
/// Stdout as a byte stream.
pub(super) type Output = Box<dyn AsyncWrite + Unpin + Send>;

/// The flags stdin's and stdout's open files had before they were made non-blocking, put back
/// on drop.
pub(super) struct Restore(Vec<(OwnedFd, OFlags)>);

impl Drop for Restore {
    fn drop(&mut self) {
        for (fd, flags) in &self.0 {
            let _ = rustix::fs::fcntl_setfl(fd, *flags);
        }
    }
}

/// Stdin and stdout, and what puts their flags back. Must be called within the tokio runtime
/// (the streams register with its reactor).
pub(super) fn process_stdio() -> (Input, Output, Restore) {
    let mut restore = Vec::new();
    let input: Input = match driven(io::stdin().as_fd(), &mut restore, Side::Read) {
        Some(Driven::Pipe(fd)) => pipe_reader(fd),
        Some(Driven::Socket(fd)) => socket(fd).map(|s| Box::new(s) as Input),
        None => None,
    }
    .unwrap_or_else(|| Box::new(tokio::io::stdin()));
    let output: Output = match driven(io::stdout().as_fd(), &mut restore, Side::Write) {
        Some(Driven::Pipe(fd)) => pipe_writer(fd),
        Some(Driven::Socket(fd)) => socket(fd).map(|s| Box::new(s) as Output),
        None => None,
    }
    .unwrap_or_else(|| Box::new(tokio::io::stdout()));
    (input, output, Restore(restore))
}

#[derive(Clone, Copy)]
enum Side {
    Read,
    Write,
}

/// A descriptor the reactor can drive: a copy of it, with its flags noted in `restore`.
enum Driven {
    Pipe(OwnedFd),
    Socket(OwnedFd),
}

fn driven(
    fd: std::os::fd::BorrowedFd<'_>,
    restore: &mut Vec<(OwnedFd, OFlags)>,
    side: Side,
) -> Option<Driven> {
    let kind = FileType::from_raw_mode(rustix::fs::fstat(fd).ok()?.st_mode);
    if !matches!(kind, FileType::Fifo | FileType::Socket) {
        return None;
    }
    let flags = rustix::fs::fcntl_getfl(fd).ok()?;
    let access = flags & OFlags::ACCMODE;
    let usable = match side {
        Side::Read => access != OFlags::WRONLY,
        Side::Write => access != OFlags::RDONLY,
    };
    if !usable {
        return None;
    }
    let copy = fd.try_clone_to_owned().ok()?;
    restore.push((fd.try_clone_to_owned().ok()?, flags));
    Some(if kind == FileType::Fifo {
        Driven::Pipe(copy)
    } else {
        Driven::Socket(copy)
    })
}

fn pipe_reader(fd: OwnedFd) -> Option<Input> {
    let pipe = tokio::net::unix::pipe::Receiver::from_owned_fd(fd).ok()?;
    Some(Box::new(pipe))
}

fn pipe_writer(fd: OwnedFd) -> Option<Output> {
    let pipe = tokio::net::unix::pipe::Sender::from_owned_fd(fd).ok()?;
    Some(Box::new(pipe))
}

/// A stream socket (a socket pair, as Node's `child_process` makes) for either side.
fn socket(fd: OwnedFd) -> Option<tokio::net::UnixStream> {
    let stream = std::os::unix::net::UnixStream::from(fd);
    stream.set_nonblocking(true).ok()?;
    tokio::net::UnixStream::from_std(stream).ok()
}
