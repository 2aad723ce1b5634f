//! JSON numbers read as JSON Schema integers: `3.0` is an integer too.

/// An integer from a JSON number with no fractional part.
pub fn as_int(v: &serde_json::Value) -> Option<i64> {
    v.as_i64().or_else(|| {
        v.as_f64()
            .filter(|f| is_whole(*f) && f.abs() < 9.0e15)
            .map(|f| f as i64)
    })
}

/// Whether `f` has no fractional part (`f64::fract` needs std).
pub fn is_whole(f: f64) -> bool {
    f.is_finite() && f.abs() < 9.0e15 && f == (f as i64) as f64
}
