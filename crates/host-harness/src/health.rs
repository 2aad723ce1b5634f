//! `media-mcp health [URL]`: one `GET /readyz` to a `serve --http` server, for Docker's
//! `HEALTHCHECK` (exec form: a scratch image has no shell or curl). Without a URL it finds the
//! server of its own container: the one process running this same executable with
//! `serve --http ADDR` (from `/proc/<pid>/exe` and `/proc/<pid>/cmdline`, parsed by the
//! harness's own command line), so the check follows whatever address the server was given.
//! Plain HTTP/1.1 with a 3 s budget for connecting, sending and reading the status line.

use std::ffi::OsString;
use std::io::{Read as _, Write as _};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream, ToSocketAddrs as _};
use std::path::Path;
use std::time::{Duration, Instant};

use media_mcp_transport::health::READY_PATH;

use crate::cli::Command;

/// The whole check's time: connecting, sending and reading the status line.
pub const TIMEOUT: Duration = Duration::from_secs(3);

/// What a check found: ready or not, and the one line that says so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// `/readyz` answered 200.
    pub ready: bool,
    /// What happened, in one line.
    pub line: String,
}

/// Checks `url` (`http://HOST:PORT[/PATH]` or `HOST:PORT`; the path defaults to `/readyz`),
/// or, without one, the server [`discover`] finds in `/proc`.
pub fn check(url: Option<&str>) -> Outcome {
    let target = match url {
        Some(url) => parse_target(url),
        None => discover_here().map(|addr| Target {
            host: addr.to_string(),
            addrs: vec![addr],
            path: READY_PATH.to_owned(),
        }),
    };
    let target = match target {
        Ok(target) => target,
        Err(why) => {
            return Outcome {
                ready: false,
                line: format!("not ready: {why}"),
            };
        }
    };
    let shown = format!("http://{}{}", target.host, target.path);
    match get_status(&target, Instant::now() + TIMEOUT) {
        Ok(200) => Outcome {
            ready: true,
            line: format!("ready: {shown} answered 200"),
        },
        Ok(status) => Outcome {
            ready: false,
            line: format!("not ready: {shown} answered {status}"),
        },
        Err(why) => Outcome {
            ready: false,
            line: format!("not ready: {shown}: {why}"),
        },
    }
}

/// Where to send the probe.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Target {
    /// `host:port` for the Host header and the message.
    host: String,
    addrs: Vec<SocketAddr>,
    path: String,
}

fn parse_target(text: &str) -> Result<Target, String> {
    let with_scheme = if text.contains("://") {
        text.to_owned()
    } else {
        format!("http://{text}")
    };
    let url = url::Url::parse(&with_scheme).map_err(|e| format!("{text:?} is not a URL ({e})"))?;
    if url.scheme() != "http" {
        return Err(format!("{text:?}: only http:// is supported"));
    }
    let host = url
        .host_str()
        .ok_or_else(|| format!("{text:?} names no host"))?;
    let port = url.port_or_known_default().unwrap_or(80);
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<SocketAddr> = (bare, port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {host}: {e}"))?
        .collect();
    let path = match url.path() {
        "" | "/" => READY_PATH.to_owned(),
        path => path.to_owned(),
    };
    Ok(Target {
        host: format!("{host}:{port}"),
        addrs,
        path,
    })
}

/// Sends `GET path` and returns the answer's status, all before `deadline`.
fn get_status(target: &Target, deadline: Instant) -> Result<u16, String> {
    let left = || {
        deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or_else(|| format!("no answer within {} s", TIMEOUT.as_secs()))
    };
    let mut last = String::from("no address");
    let mut stream = None;
    for addr in &target.addrs {
        match TcpStream::connect_timeout(addr, left()?) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last = e.to_string(),
        }
    }
    let mut stream = stream.ok_or(last)?;
    stream
        .set_write_timeout(Some(left()?))
        .map_err(|e| e.to_string())?;
    write!(
        stream,
        "GET {} HTTP/1.1\r\nHost: {}\r\nUser-Agent: media-mcp-health\r\nConnection: close\r\n\r\n",
        target.path, target.host
    )
    .map_err(|e| e.to_string())?;
    let mut head = Vec::new();
    let mut buf = [0u8; 512];
    while !head.contains(&b'\n') && head.len() < 4096 {
        stream
            .set_read_timeout(Some(left()?))
            .map_err(|e| e.to_string())?;
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(&buf[..n]),
            Err(e)
                if e.kind() == std::io::ErrorKind::WouldBlock
                    || e.kind() == std::io::ErrorKind::TimedOut =>
            {
                return Err(format!("no answer within {} s", TIMEOUT.as_secs()));
            }
            Err(e) => return Err(e.to_string()),
        }
    }
    status_of(&head).ok_or_else(|| "the answer is not HTTP".to_owned())
}

/// The status code of an answer's first line (`HTTP/1.1 200 OK`).
fn status_of(head: &[u8]) -> Option<u16> {
    let line = head.split(|b| *b == b'\n').next()?;
    let line = std::str::from_utf8(line).ok()?;
    let mut words = line.split_whitespace();
    words.next().filter(|v| v.starts_with("HTTP/"))?;
    words.next()?.parse().ok()
}

/// [`discover`] in this process's `/proc`.
fn discover_here() -> Result<SocketAddr, String> {
    let exe = std::fs::read_link("/proc/self/exe")
        .map_err(|e| format!("cannot read /proc/self/exe ({e}); give the URL"))?;
    discover(Path::new("/proc"), std::process::id(), &exe)
}

/// The address to probe of the one other process under `proc_root` that runs `self_exe` as
/// `serve --http ADDR`: `ADDR`, with an unspecified address (`0.0.0.0`, `[::]`) replaced by
/// loopback. A process whose executable cannot be read (another user's) counts when its
/// `argv[0]` has `self_exe`'s file name.
///
/// # Errors
///
/// No such process, several, or one that listens on port 0; the message says which.
pub fn discover(proc_root: &Path, self_pid: u32, self_exe: &Path) -> Result<SocketAddr, String> {
    let entries = std::fs::read_dir(proc_root)
        .map_err(|e| format!("cannot list {} ({e}); give the URL", proc_root.display()))?;
    let mut found: Vec<(u32, SocketAddr)> = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == self_pid {
            continue;
        }
        let dir = entry.path();
        let Ok(cmdline) = std::fs::read(dir.join("cmdline")) else {
            continue;
        };
        let mut args: Vec<OsString> = cmdline
            .split(|b| *b == 0)
            .map(|a| {
                use std::os::unix::ffi::OsStrExt as _;
                std::ffi::OsStr::from_bytes(a).to_owned()
            })
            .collect();
        if args.last().is_some_and(|a| a.is_empty()) {
            args.pop();
        }
        if args.is_empty() || !same_program(&dir, &args[0], self_exe) {
            continue;
        }
        if let Ok(Command::ServeHttp { addr, .. }) = crate::cli::parse(args.into_iter().skip(1)) {
            found.push((pid, addr));
        }
    }
    found.sort_unstable();
    match found.as_slice() {
        [] => Err(format!(
            "no `serve --http` process of {} found; give the URL",
            self_exe.display()
        )),
        [(pid, addr)] if addr.port() == 0 => Err(format!(
            "process {pid} serves on port 0 (a port the system picks); give the URL"
        )),
        [(_, addr)] => Ok(loopback_for(*addr)),
        several => Err(format!(
            "{} `serve --http` processes found (pids {}); give the URL",
            several.len(),
            several
                .iter()
                .map(|(pid, _)| pid.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Whether the process in `dir` runs `self_exe`: its `exe` link says so, or, when that cannot
/// be read, its `argv[0]` has the same file name.
fn same_program(dir: &Path, argv0: &std::ffi::OsStr, self_exe: &Path) -> bool {
    match std::fs::read_link(dir.join("exe")) {
        Ok(exe) => exe == self_exe,
        Err(_) => {
            Path::new(argv0).file_name().is_some()
                && Path::new(argv0).file_name() == self_exe.file_name()
        }
    }
}

/// `addr` with an unspecified address replaced by loopback of its family.
pub fn loopback_for(addr: SocketAddr) -> SocketAddr {
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => {
            SocketAddr::new(Ipv4Addr::LOCALHOST.into(), addr.port())
        }
        IpAddr::V6(ip) if ip.is_unspecified() => {
            SocketAddr::new(Ipv6Addr::LOCALHOST.into(), addr.port())
        }
        _ => addr,
    }
}

#[cfg(test)]
mod tests;
