use super::*;

#[test]
fn crc32_matches_the_check_value() {
    // The standard CRC-32 check value (IEEE 802.3).
    assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
}

#[test]
fn gzip_frames_stored_blocks() {
    let z = gzip(b"abc");
    assert_eq!(&z[..3], &[0x1f, 0x8b, 8]);
    assert_eq!(&z[10..15], &[1, 3, 0, 0xfc, 0xff]);
    assert_eq!(&z[15..18], b"abc");
    assert_eq!(z.len(), 18 + 8);
}

#[test]
fn every_fault_has_a_distinct_name() {
    let all = Fault::all(Duration::from_secs(1), "http://127.0.0.1:1/");
    let mut names: Vec<String> = all.iter().map(Fault::name).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), all.len());
}
