//! One projection per Ombi view model of a movie or TV show, shared by every tool that reads
//! one. A full-info (detail) projection starts from the list projection of the same title and
//! adds what only the detail route carries.

mod genres;
pub(crate) mod movie;
pub(crate) mod tv;
