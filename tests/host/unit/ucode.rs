use crate::hw::Mac;
use crate::ucode::{blob_for, patch, BlobError, BLOB_LEN, UCODE_WORDS};

/// A blob of the right shape: word i is 0xAB00_0000 | i, offsets 10, 20, 30.
fn blob(offsets: [u8; 3]) -> [u8; BLOB_LEN] {
    let mut b = [0u8; BLOB_LEN];
    for i in 0..UCODE_WORDS {
        b[i * 4..i * 4 + 4].copy_from_slice(&(0xab00_0000u32 | i as u32).to_le_bytes());
    }
    b[UCODE_WORDS * 4..].copy_from_slice(&offsets);
    b
}

fn word(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i * 4], b[i * 4 + 1], b[i * 4 + 2], b[i * 4 + 3]])
}

#[test]
fn which_blob() {
    let m = |r| Mac::from_revision(r, false);
    assert_eq!(
        blob_for(m(8), false).map(|b| b.name()),
        Some("e100/d101m_ucode.bin")
    );
    // QEMU's i82559er is revision 9: the D101S blob, optional.
    let s = blob_for(m(9), false).unwrap();
    assert_eq!((s.name(), s.required), ("e100/d101s_ucode.bin", false));
    // The 82551 F and 82551-10 cannot go without the D102E blob.
    for r in [15, 16] {
        let b = blob_for(m(r), false).unwrap();
        assert_eq!((b.name(), b.required), ("e100/d102e_ucode.bin", true));
    }
    // None for the 82557, 82558, 82550, the 82551 E, or any ICH part.
    for r in [0, 2, 4, 5, 12, 13, 14] {
        assert_eq!(blob_for(m(r), false), None, "revision {r}");
    }
    assert_eq!(blob_for(Mac::from_revision(1, true), true), None);
}

#[test]
fn patching_sets_the_low_halves_only() {
    let out = patch(&blob([10, 20, 30]), 1536, 6).unwrap();
    assert_eq!(word(&out, 10), 0xab00_0000 | 1536);
    assert_eq!(word(&out, 20), 0xab00_0000 | 6);
    assert_eq!(word(&out, 30), 0xab00_ffff);
    // Every other word as the file has it.
    for i in (0..UCODE_WORDS).filter(|i| ![10, 20, 30].contains(i)) {
        assert_eq!(word(&out, i), 0xab00_0000 | i as u32, "word {i}");
    }
    // The module parameters go where e100.c's constants go.
    let out = patch(&blob([0, 133, 1]), 300, 65535).unwrap();
    assert_eq!(
        (word(&out, 0), word(&out, 133), word(&out, 1)),
        (0xab00_012c, 0xab00_ffff, 0xab00_ffff)
    );
}

#[test]
fn bad_blobs_refused() {
    let b = blob([10, 20, 30]);
    assert_eq!(
        patch(&b[..BLOB_LEN - 1], 1, 1),
        Err(BlobError::Size(BLOB_LEN - 1))
    );
    assert_eq!(patch(&[], 1, 1), Err(BlobError::Size(0)));
    let mut long = [0u8; BLOB_LEN + 1];
    long[..BLOB_LEN].copy_from_slice(&b);
    assert_eq!(patch(&long, 1, 1), Err(BlobError::Size(BLOB_LEN + 1)));
    assert_eq!(
        patch(&blob([10, 134, 30]), 1, 1),
        Err(BlobError::Offsets(10, 134, 30))
    );
    assert_eq!(
        patch(&blob([255, 0, 0]), 1, 1),
        Err(BlobError::Offsets(255, 0, 0))
    );
}

#[test]
fn blob_files_are_nul_terminated() {
    for r in [8, 9, 15, 16] {
        let b = blob_for(Mac::from_revision(r, false), false).unwrap();
        assert_eq!(b.file.last(), Some(&0));
        assert_eq!(b.file.iter().filter(|c| **c == 0).count(), 1);
        assert!(b.name().starts_with("e100/") && b.name().ends_with("_ucode.bin"));
    }
}

#[test]
fn parameters_within_e100cs_advice() {
    use crate::ucode::{bundle_max_ok, int_delay_ok, BUNDLE_MAX_DEFAULT, INT_DELAY_DEFAULT};
    // e100.c: "the value should probably stay within the 0x200 - 0x1000", and 1 for no
    // bundling ("INTDELAY 1").
    for ok in [1, 0x200, u32::from(INT_DELAY_DEFAULT), 0x1000] {
        assert!(int_delay_ok(ok), "{ok}");
    }
    for bad in [0, 2, 0x1ff, 0x1001, 0xffff, 0x10000, u32::MAX] {
        assert!(!int_delay_ok(bad), "{bad}");
    }
    for ok in [1, u32::from(BUNDLE_MAX_DEFAULT), 0xffff] {
        assert!(bundle_max_ok(ok), "{ok}");
    }
    for bad in [0, 0x10000] {
        assert!(!bundle_max_ok(bad), "{bad}");
    }
}
