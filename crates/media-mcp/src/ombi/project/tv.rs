//! TV view models. Ombi has two families: the v2 routes (TMDB-keyed: `id` = `theMovieDbId` =
//! TMDB, `seriesId` echoes TMDB or is 0 and is never TVMaze) and the v1 TVMaze-backed routes
//! (`theMovieDbId` and `id` hold the TVDB id, `seriesId` the TVMaze id).

use super::genres::genre_names;
use crate::ombi::ids::{Ns, TargetKind};
use crate::ombi::media::{MediaItem, safe_artwork_uri};
use serde_json::{Value, json};

/// What the v2 TV list item and full-info view model share: TMDB/TVDB/IMDb ids, text, request
/// state with the TV parent request as target. Artwork differs: the list item carries
/// `posterPath`, the full-info view model `images.original` and `banner`.
fn v2_common(v: &Value) -> MediaItem {
    let mut m = MediaItem::new("tv");
    m.ids
        .add(Ns::Tmdb, v.get("theMovieDbId"))
        .add(Ns::Tmdb, v.get("id"))
        .add(Ns::Tvdb, v.get("theTvDbId"))
        .add(Ns::Imdb, v.get("imdbId"));
    m.text("title", v.get("title"))
        .text("overview", v.get("overview"))
        .year_from(v.get("firstAired"))
        .flag("available", v.get("available"))
        .flag("requested", v.get("requested"))
        .request_target(TargetKind::TvParent, v.get("requestId"));
    m
}

/// v2 TV browse item (`SearchTvShowViewModel` mapped from TMDB). Its `rating` is a
/// culture-formatted string and is left out (docs/ombi-behaviours.md#culture-formatted-numbers).
pub(crate) fn list_item(row: &Value) -> MediaItem {
    let mut m = v2_common(row);
    m.artwork(safe_artwork_uri(row.get("posterPath")));
    m
}

/// v2 `SearchFullInfoTvShowViewModel`: the shared v2 fields plus the IMDb id under
/// `externalIds`, genres, artwork and the TMDB vote average when `rating` is a plain decimal.
pub(crate) fn full_info(v: &Value) -> MediaItem {
    let mut m = v2_common(v);
    m.ids.add(Ns::Imdb, v.pointer("/externalIds/imdbId"));
    m.list("genres", genre_names(v))
        .artwork(safe_artwork_uri(v.pointer("/images/original")))
        .artwork(safe_artwork_uri(v.get("banner")));
    // `rating` is TMDB's vote average as a culture-formatted string: only plain decimals are read.
    if let Some(r) = v
        .get("rating")
        .and_then(Value::as_str)
        .filter(|s| s.chars().all(|c| c.is_ascii_digit() || c == '.'))
        && let Ok(n) = r.parse::<f64>()
    {
        m.rating("tmdb_vote_average", Some(&json!(n)));
    }
    m
}

/// v1 `SearchTvShowViewModel` from TVMaze (v1 TV search and the TVDB detail route):
/// `theMovieDbId`/`id` = TVDB, `seriesId` = TVMaze. Request state is left out (unreliable on
/// these routes).
pub(crate) fn tvmaze(row: &Value) -> MediaItem {
    let mut m = MediaItem::new("tv");
    m.ids
        .add(Ns::Tvdb, row.get("theMovieDbId"))
        .add(Ns::Tvdb, row.get("id"))
        .add(Ns::Tvmaze, row.get("seriesId"))
        .add(Ns::Imdb, row.get("imdbId"));
    m.text("title", row.get("title"))
        .text("overview", row.get("overview"))
        .year_from(row.get("firstAired"))
        .flag("available", row.get("available"))
        .artwork(safe_artwork_uri(row.get("banner")));
    m
}

#[cfg(test)]
mod tests;
