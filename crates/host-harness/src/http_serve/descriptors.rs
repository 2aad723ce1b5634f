//! The process's descriptor limit and the connection cap that fits under it. Every connection
//! holds a descriptor, every call in flight one more for its upstream request, and the upstream
//! pool keeps idle ones; a server that runs out cannot accept, connect or open a file.

use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};

/// Descriptors kept for everything but connections and upstream sockets: the listener, the
/// runtime's event and wake-up descriptors, standard streams, the compiled-artifact cache.
pub(super) const RESERVED: usize = 64;

/// The smallest connection cap used, whatever the limit: below it the server is not usable.
pub(super) const MIN_CONNECTIONS: usize = 8;

/// Raises the soft `RLIMIT_NOFILE` to the hard one (allowed without privileges) and returns
/// the soft limit in force.
pub(super) fn raise_limit() -> usize {
    let limit = getrlimit(Resource::Nofile);
    if let Some(hard) = limit.maximum
        && limit.current.is_some_and(|soft| soft < hard)
        && let Err(e) = setrlimit(
            Resource::Nofile,
            Rlimit {
                current: Some(hard),
                maximum: Some(hard),
            },
        )
    {
        crate::log_warn!("could not raise the descriptor limit to {hard}: {e}");
    }
    getrlimit(Resource::Nofile)
        .current
        .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// The configured cap lowered so that connections, one upstream socket per call in flight and
/// `upstream_idle` pooled sockets fit in `limit` with [`RESERVED`] to spare.
pub(super) fn connection_cap(
    configured: usize,
    limit: usize,
    in_flight: usize,
    upstream_idle: usize,
) -> usize {
    let budget = limit.saturating_sub(RESERVED + in_flight + upstream_idle);
    configured.min(budget).max(MIN_CONNECTIONS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_leaves_room_for_upstream_sockets_and_the_reserve() {
        assert_eq!(connection_cap(1024, 1024, 32, 32), 1024 - 64 - 32 - 32);
        assert_eq!(connection_cap(100, 20_000, 32, 32), 100);
        assert_eq!(connection_cap(1024, 50, 32, 32), MIN_CONNECTIONS);
    }

    #[test]
    fn the_soft_limit_is_raised_to_the_hard_one() {
        let before = getrlimit(Resource::Nofile);
        let in_force = raise_limit();
        assert_eq!(
            u64::try_from(in_force).ok(),
            before.maximum.or(before.current),
            "{before:?}"
        );
    }
}
