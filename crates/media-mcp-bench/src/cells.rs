//! Table cells shared by the report's sections: durations, verdicts and server labels.

/// Milliseconds as a short cell (`–` for NaN).
pub(crate) fn ms(v: f64) -> String {
    if v.is_nan() {
        "–".into()
    } else if v >= 100.0 {
        format!("{v:.0} ms")
    } else if v >= 1.0 {
        format!("{v:.2} ms")
    } else {
        format!("{:.0} µs", v * 1000.0)
    }
}

/// A target's verdict cell.
pub(crate) fn verdict(met: bool) -> &'static str {
    if met { "**met**" } else { "**missed**" }
}

/// A server's name as the report shows it.
pub(crate) fn label(name: &str) -> String {
    match name {
        "floor" => "floor (native)".into(),
        "python" => "Python SDK peer".into(),
        "typescript" => "TypeScript SDK peer".into(),
        other => other.into(),
    }
}
