//! The backends the configuration enables, in listing order (the request server's tools
//! first, Ombi's or Seerr's, then MoviePilot's). The only module that names every backend.

use crate::config::Config;
use crate::host_cache::HostCache;
use crate::moviepilot::MoviePilotBackend;
use crate::ombi::OmbiBackend;
use crate::prelude::*;
use crate::seerr::SeerrBackend;
use crate::tool::Backend;
use alloc::rc::Rc;

/// Each configured backend; MoviePilot's keeps what it learns in `cache`.
pub(crate) fn enabled(config: &Config, cache: Rc<dyn HostCache>) -> Vec<Box<dyn Backend>> {
    let mut backends: Vec<Box<dyn Backend>> = Vec::new();
    if let Some(ombi) = OmbiBackend::configured(
        config.ombi.as_ref(),
        &config.problems,
        config.call_deadline_ms,
    ) {
        backends.push(Box::new(ombi));
    }
    if let Some(seerr) = SeerrBackend::configured(
        config.seerr.as_ref(),
        &config.problems,
        config.call_deadline_ms,
    ) {
        backends.push(Box::new(seerr));
    }
    if let Some(mp) = &config.moviepilot {
        backends.push(Box::new(MoviePilotBackend::new(
            mp.clone(),
            config.call_deadline_ms,
            cache,
        )));
    }
    backends
}

#[cfg(test)]
mod tests;
