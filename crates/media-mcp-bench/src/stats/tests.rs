use super::*;

#[test]
fn nearest_rank_median_and_p99() {
    let s = Summary::of_ms((1..=200).map(f64::from).collect());
    assert_eq!((s.runs, s.median_ms, s.p99_ms), (200, 100.0, 198.0));
    let s = Summary::of_ms(vec![3.0, 1.0, 2.0]);
    assert_eq!((s.median_ms, s.p99_ms), (2.0, 3.0));
}
