use super::memcmp;
use proptest::prelude::*;

fn sign(x: i32) -> core::cmp::Ordering {
    x.cmp(&0)
}

#[test]
fn memcmp_orders_as_bytes_do() {
    let cases: [(&[u8], &[u8]); 5] = [
        (b"", b""),
        (b"abcdefgh", b"abcdefgh"),
        (b"abcdefghX", b"abcdefghY"),
        (b"\xffbcdefgh", b"\x01bcdefgh"),
        (b"abcdefg\x01zzzzzzzz", b"abcdefg\xffaaaaaaaa"),
    ];
    for (a, b) in cases {
        let got = unsafe { memcmp(a.as_ptr(), b.as_ptr(), a.len()) };
        assert_eq!(sign(got), a.cmp(b), "{a:?} {b:?}");
    }
}

proptest! {
    #[test]
    fn memcmp_agrees_with_slice_order(
        a in prop::collection::vec(any::<u8>(), 0..40),
        flip in any::<usize>(),
        to in any::<u8>(),
        offset in 0usize..8,
    ) {
        let mut b = a.clone();
        if !b.is_empty() {
            let i = flip % b.len();
            b[i] = to;
        }
        // Unaligned starts too.
        let mut pa = vec![0u8; offset];
        pa.extend(&a);
        let got = unsafe { memcmp(pa[offset..].as_ptr(), b.as_ptr(), a.len()) };
        prop_assert_eq!(sign(got), a.cmp(&b));
    }
}
