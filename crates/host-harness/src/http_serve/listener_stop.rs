//! Closing the listener without resetting connections a client already counts as open.
//!
//! Closing a listening socket resets the connections the kernel completed but the server has not
//! accepted yet, and the handshakes still under way. The client may already have sent its request
//! on one: a balancer cannot tell whether that POST ran, so it answers 502 instead of retrying it.
//! So shutdown first stops new handshakes (on Linux a socket filter drops every SYN: the client
//! sends it again after its retransmission timeout, about 1 s, finds the port closed and a
//! balancer tries another replica), gives the handshakes under way [`HANDSHAKE_SETTLE`] to
//! complete, and accepts every connection the kernel holds before the listener closes.

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};

/// How long handshakes already under way at shutdown get to complete: a round trip to a client
/// on the same network, many times over.
pub(super) const HANDSHAKE_SETTLE: Duration = Duration::from_millis(100);

/// Makes `listener` drop every SYN it receives from now on, so no new connection is queued.
///
/// # Errors
///
/// The filter cannot be attached (not Linux, or the kernel refused it).
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(super) fn refuse_new_handshakes(listener: &TcpListener) -> io::Result<()> {
    use socket2::{SockFilter, SockRef};
    // Classic BPF, run on each segment with the data at its TCP header: load the flags byte
    // (offset 13), drop the segment (keep 0 bytes) when SYN (0x02) is set, else keep all of it.
    const LOAD_BYTE_ABSOLUTE: u16 = 0x30; // BPF_LD | BPF_B | BPF_ABS
    const JUMP_IF_BITS_SET: u16 = 0x45; // BPF_JMP | BPF_JSET | BPF_K
    const RETURN: u16 = 0x06; // BPF_RET | BPF_K
    const TCP_FLAGS: u32 = 13;
    const SYN: u32 = 0x02;
    let drop_syns = [
        SockFilter::new(LOAD_BYTE_ABSOLUTE, 0, 0, TCP_FLAGS),
        SockFilter::new(JUMP_IF_BITS_SET, 0, 1, SYN),
        SockFilter::new(RETURN, 0, 0, 0),
        SockFilter::new(RETURN, 0, 0, u32::MAX),
    ];
    SockRef::from(listener).attach_filter(&drop_syns)
}

/// Without a socket filter new handshakes go on until the listener closes.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(super) fn refuse_new_handshakes(_listener: &TcpListener) -> io::Result<()> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

/// The connections the kernel has completed and queued on `listener`, accepted without waiting
/// (straight from the socket, not through the runtime's readiness, which may not have seen the
/// last of them yet).
pub(super) fn queued(listener: &TcpListener) -> Vec<(TcpStream, SocketAddr)> {
    let mut taken = Vec::new();
    loop {
        match take_one(listener) {
            Ok(Some(connection)) => taken.push(connection),
            Ok(None) => return taken,
            // A signal, or a client that reset its connection while it waited: the next one.
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::Interrupted | io::ErrorKind::ConnectionAborted
                ) => {}
            Err(e) => {
                crate::log_warn!("accepting a queued connection at shutdown failed: {e}");
                return taken;
            }
        }
    }
}

fn take_one(listener: &TcpListener) -> io::Result<Option<(TcpStream, SocketAddr)>> {
    let (socket, peer) = match socket2::SockRef::from(listener).accept() {
        Ok(accepted) => accepted,
        Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(None),
        Err(e) => return Err(e),
    };
    socket.set_nonblocking(true)?;
    let peer = peer
        .as_socket()
        .ok_or_else(|| io::Error::other("a TCP connection without an IP peer"))?;
    Ok(Some((TcpStream::from_std(socket.into())?, peer)))
}

#[cfg(test)]
mod tests;
