//! The image hosts an artwork address may point at: the plugin's one artwork rule accepts
//! no other host, and the MCP Apps views declare exactly these as their CSP resource domains.

/// Hosts Ombi's (and Seerr's) image routes point at, lower case.
pub const HOSTS: &[&str] = &[
    "assets.fanart.tv",
    "image.tmdb.org",
    "coverartarchive.org",
    "static.tvmaze.com",
];
