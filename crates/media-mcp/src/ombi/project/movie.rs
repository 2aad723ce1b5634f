//! Movie view models.

use super::genres::genre_names;
use crate::ombi::ids::{Ns, TargetKind};
use crate::ombi::media::{MediaItem, safe_artwork_uri};
use serde_json::Value;

/// `SearchMovieViewModel`, the list item of v1 movie search and v2 movie discovery
/// (`theMovieDbId` = `id` = TMDB).
pub(crate) fn list_item(row: &Value) -> MediaItem {
    let mut m = MediaItem::new("movie");
    m.ids
        .add(Ns::Tmdb, row.get("theMovieDbId"))
        .add(Ns::Tmdb, row.get("id"))
        .add(Ns::Imdb, row.get("imdbId"));
    m.text("title", row.get("title"))
        .text("overview", row.get("overview"))
        .year_from(row.get("releaseDate"))
        .flag("available", row.get("available"))
        .flag("requested", row.get("requested"))
        .request_target(TargetKind::Movie, row.get("requestId"))
        .rating("tmdb_vote_average", row.get("voteAverage"))
        .artwork(safe_artwork_uri(row.get("posterPath")));
    m
}

/// `MovieFullInfoViewModel`: the list item plus the IMDb id under `externalIds`, genres and the
/// backdrop. `theMovieDbId` is never set on this view model, so `id` is the TMDB id.
pub(crate) fn full_info(v: &Value) -> MediaItem {
    let mut m = list_item(v);
    m.ids.add(Ns::Imdb, v.pointer("/externalIds/imdbId"));
    m.list("genres", genre_names(v))
        .artwork(safe_artwork_uri(v.get("backdropPath")));
    m
}

#[cfg(test)]
mod tests;
