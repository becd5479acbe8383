//! Descriptor encodings, checked byte for byte against Intel's layouts (and e100.c's values).

use crate::desc::{self, Body, CbCmd, ConfigParams};
use crate::hw::Mac;

fn bytes<const N: usize>(b: &Body<N>) -> Vec<u8> {
    b.words().iter().flat_map(|w| w.to_ne_bytes()).collect()
}

fn mac(rev: u8) -> Mac {
    Mac::from_revision(rev, false)
}

#[test]
fn configure_82559_defaults_match_e100c() {
    // e100.c's Configure for an 82559 (rev 9), interface up, MII PHY, no promisc/multicast-all:
    // byte for byte, extended TCBs included (byte 6 bit 4 clear).
    let p = ConfigParams {
        mii: true,
        ..Default::default()
    };
    let c = bytes(&desc::config_body(mac(9), &p));
    let want: [u8; 22] = [
        0x16, 0x08, 0x00, 0x01, 0x00, 0x00, 0x26, 0x07, 0x01, 0x00, 0x2e, 0x00, 0x60, 0x00, 0xf2,
        0x48, 0x00, 0x40, 0xfa, 0x86, 0x3f, 0x05,
    ];
    assert_eq!(&c[..22], &want);
    assert_eq!(c.len(), 24, "22 bytes, padded to whole words");
}

#[test]
fn configure_on_qemus_model_keeps_standard_tcbs() {
    // QEMU's model misreads extended TCBs: there byte 6 bit 4 is set on every generation, and
    // nothing else changes.
    let chip = bytes(&desc::config_body(
        mac(9),
        &ConfigParams {
            mii: true,
            ..Default::default()
        },
    ));
    let qemu = ConfigParams {
        mii: true,
        standard_tcb: true,
        ..Default::default()
    };
    let c = bytes(&desc::config_body(mac(9), &qemu));
    assert_eq!(c[6], 0x36);
    assert!(c
        .iter()
        .zip(&chip)
        .enumerate()
        .all(|(i, (a, b))| i == 6 || a == b));
    // The 82557 has standard TCBs only, on either path.
    assert_eq!(
        bytes(&desc::config_body(mac(2), &ConfigParams::default()))[6] & 0x10,
        0x10
    );
}

#[test]
fn configure_82557_uses_standard_everything_and_no_fc_bits() {
    let p = ConfigParams {
        mii: true,
        ..Default::default()
    };
    let c = bytes(&desc::config_body(mac(2), &p));
    assert_eq!(c[3] & 0x01, 0, "no MWI on the 82557");
    assert_eq!(c[6] & 0x30, 0x30, "standard TCB and statistics");
    assert_eq!(c[18] & 0x08, 0, "no long frames");
    assert_eq!(c[19] & 0x04, 0, "no flow-control bits on the 82557");
}

#[test]
fn configure_without_mii_phy_selects_the_82503_interface() {
    let with = bytes(&desc::config_body(
        mac(2),
        &ConfigParams {
            mii: true,
            ..Default::default()
        },
    ));
    let without = bytes(&desc::config_body(mac(2), &ConfigParams::default()));
    assert_eq!(with[8], 0x01, "MII mode");
    assert_eq!(without[8], 0x00, "82503 serial mode");
    assert_eq!(
        (with[..8].to_vec(), with[9..].to_vec()),
        (without[..8].to_vec(), without[9..].to_vec()),
        "nothing else changes"
    );
}

#[test]
fn configure_82558_has_extended_statistics() {
    let p = ConfigParams::default();
    let c = bytes(&desc::config_body(mac(4), &p));
    assert_eq!(c[6] & 0x20, 0, "extended statistics counters on the 82558");
    assert_eq!(c[6] & 0x04, 0, "no TCO statistics before the 82559");
    assert_eq!(c[8], 0, "82503 mode without an MII PHY");
}

#[test]
fn configure_promisc_multicast_and_loopback_bits() {
    let p = ConfigParams {
        promiscuous: true,
        multicast_all: true,
        ..Default::default()
    };
    let c = bytes(&desc::config_body(mac(9), &p));
    assert_eq!(c[15] & 0x01, 0x01, "promiscuous");
    assert_eq!(c[6] & 0x80, 0x80, "save bad frames");
    assert_eq!(c[7] & 0x01, 0, "keep short frames");
    assert_eq!(c[21] & 0x08, 0x08, "multicast all");
    let l = bytes(&desc::config_body(
        mac(9),
        &ConfigParams {
            loopback: 1,
            ..Default::default()
        },
    ));
    assert_eq!(l[10] >> 6, 1, "MAC loopback");
}

#[test]
fn configure_82551_10_is_32_bytes() {
    let c = bytes(&desc::config_body(mac(16), &ConfigParams::default()));
    assert_eq!(c[0], 0x20);
    assert_eq!(c.len(), 32);
    assert_eq!(c[22] & 0x01, 0x01);
}

#[test]
fn tx_pause_clears_fc_disable() {
    let off = bytes(&desc::config_body(mac(9), &ConfigParams::default()));
    let on = bytes(&desc::config_body(
        mac(9),
        &ConfigParams {
            tx_pause: true,
            ..Default::default()
        },
    ));
    assert_eq!(off[19] & 0x04, 0x04);
    assert_eq!(on[19] & 0x04, 0);
}

#[test]
fn tx_body_points_at_its_own_tbd() {
    let b = bytes(&desc::tx_body(0x1000_0000, 0x2345_6780, 1514, 0xe0));
    assert_eq!(b.len(), 16);
    assert_eq!(
        &b[0..4],
        &0x1000_0010u32.to_le_bytes(),
        "TBD array = CB + 16"
    );
    assert_eq!(&b[4..6], &[0, 0], "TCB byte count 0: all data in TBDs");
    assert_eq!(b[6], 0xe0, "threshold");
    assert_eq!(b[7], 1, "one TBD");
    assert_eq!(&b[8..12], &0x2345_6780u32.to_le_bytes());
    assert_eq!(u16::from_le_bytes([b[12], b[13]]), 1514);
    assert_eq!(b[14] & 1, 1, "EL on the only TBD");
}

#[test]
fn all_words_is_the_body_zero_padded() {
    // The transmit path writes all four words of its body (`all_words`): they are the whole
    // transmit body. And past a body's meaningful words, `all_words` gives zeros (`Body`'s
    // invariant), here for a command built from bytes.
    let tx = desc::tx_body(0x1000_0000, 0x2345_6780, 1514, 0xe0);
    assert_eq!(tx.words().len(), 4);
    assert_eq!(&tx.all_words()[..], tx.words());
    let ia = desc::ia_body(&[0x00, 0x1b, 0x21, 0x0a, 0x0b, 0x0c]);
    let all = ia.all_words();
    assert_eq!(ia.words().len(), 2);
    assert_eq!(&all[..2], ia.words());
    assert!(all[2..].iter().all(|&w| w == 0));
}

#[test]
fn tx_command_interrupt_bits() {
    let c = desc::tx_command(mac(9), false);
    assert_eq!(c & 0x7, CbCmd::Transmit as u16);
    assert_eq!(c & desc::CB_TX_SF, desc::CB_TX_SF);
    assert_eq!(c & desc::CB_CID, desc::CB_CID);
    assert_eq!(c & desc::CB_I, 0);
    assert_eq!(desc::tx_command(mac(9), true) & desc::CB_I, desc::CB_I);
    assert_eq!(
        desc::tx_command(mac(1), false) & desc::CB_I,
        desc::CB_I,
        "82557: always I"
    );
}

#[test]
fn ia_and_multicast_bodies() {
    let a = [0x52, 0x54, 0, 0x12, 0x34, 0x56];
    assert_eq!(&bytes(&desc::ia_body(&a))[..6], &a);
    let list: Vec<[u8; 6]> = (0..3u8).map(|i| [1, 0, 0x5e, 0, 0, i]).collect();
    let m = bytes(&desc::multicast_body(list.iter()));
    assert_eq!(u16::from_le_bytes([m[0], m[1]]), 18, "byte count");
    assert_eq!(&m[2..8], &list[0]);
    assert_eq!(&m[14..20], &list[2]);
    let many: Vec<[u8; 6]> = (0..80u8).map(|i| [1, 0, 0x5e, 0, 1, i]).collect();
    let m = bytes(&desc::multicast_body(many.iter()));
    assert_eq!(
        u16::from_le_bytes([m[0], m[1]]) as usize,
        64 * 6,
        "at most 64 addresses"
    );
    assert!(m.len() <= desc::CB_BODY_WORDS * 4);
}

/// The status part of an RFD header, decoded from its words as the receive path reads them.
fn rfd_status(h: &[u8; desc::RFD_LEN]) -> desc::RfdStatus {
    let w = |i: usize| u16::from_le_bytes([h[i], h[i + 1]]);
    desc::rfd_status_words(w(0), w(12))
}

#[test]
fn rfd_header_and_status() {
    let h = desc::rfd_header(0xdead_beef, false, 1522);
    assert_eq!(&h[0..2], &[0, 0], "status clear");
    assert_eq!(&h[4..8], &0xdead_beefu32.to_le_bytes());
    assert_eq!(&h[8..12], &[0xff; 4], "no RBD: simplified mode");
    assert_eq!(u16::from_le_bytes([h[14], h[15]]), 1522);
    let stop = desc::rfd_header(0, true, 0);
    assert_eq!(
        u16::from_le_bytes([stop[2], stop[3]]) & desc::CB_EL,
        desc::CB_EL,
        "stop point: EL set"
    );
    assert_eq!(&stop[14..16], &[0, 0], "stop point: size 0");
    assert!(!rfd_status(&stop).complete);

    let mut done = h;
    done[0..2].copy_from_slice(&(desc::CB_COMPLETE | desc::CB_OK).to_le_bytes());
    done[12..14].copy_from_slice(&(0xc000u16 | 60).to_le_bytes()); // EOF/F bits set by the RU
    let st = rfd_status(&done);
    assert!(st.complete && st.ok);
    assert_eq!(st.actual, 60, "count masked to 14 bits");
    assert_eq!(desc::RFD_BUF_LEN, 1538);
}

#[test]
fn rfd_header_words_are_the_header() {
    // The receive path writes headers a word at a time: the words, written little-endian at
    // their offsets, must be exactly the header's bytes, and the offsets the fields'.
    for (link, el, size) in [
        (0xdead_beef, false, 1522),
        (0x1234_5678, true, 0),
        (0, false, 0),
    ] {
        let words = desc::rfd_header_words(link, el, size);
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(
            bytes,
            desc::rfd_header(link, el, size),
            "{link:#x} {el} {size}"
        );
    }
    let h = desc::rfd_header(0xdead_beef, false, 1522);
    let at = |o: usize| u32::from_le_bytes([h[o], h[o + 1], h[o + 2], h[o + 3]]);
    assert_eq!(at(desc::RFD_LINK_OFFSET), 0xdead_beef);
    assert_eq!(
        u16::from_le_bytes([h[desc::RFD_STATUS_OFFSET], h[desc::RFD_STATUS_OFFSET + 1]]),
        0
    );
    let mut done = h;
    done[desc::RFD_COUNT_OFFSET..desc::RFD_COUNT_OFFSET + 2].copy_from_slice(&60u16.to_le_bytes());
    assert_eq!(
        rfd_status(&done).actual,
        60,
        "the count where the status decode reads it"
    );
}

#[test]
fn ucode_body_carries_every_word() {
    let mut w = [0u8; crate::ucode::UCODE_WORDS * 4];
    for (i, b) in w.iter_mut().enumerate() {
        *b = i as u8;
    }
    let body = crate::desc::ucode_body(&w);
    // All 134 words, in the CB's body as the blob has them (a CB body holds that many).
    assert_eq!(body.words().len(), crate::ucode::UCODE_WORDS);
    assert_eq!(crate::desc::CB_BODY_WORDS, crate::ucode::UCODE_WORDS);
    let bytes: Vec<u8> = body.words().iter().flat_map(|x| x.to_ne_bytes()).collect();
    assert_eq!(&bytes[..], &w[..]);
}

#[test]
fn tx_body_is_one_tbd_inside_the_tcb() {
    // The TCB fields after the CB header (manual: TBD array address, byte count, threshold, TBD
    // number), then the one TBD (buffer address, size with EL), placed at CB + 16 where an
    // extended TCB reads its first TBD and where the TBD array points for a standard one.
    let cb = 0x1234_5600;
    let b = bytes(&desc::tx_body(cb, 0xdead_b000, 1514, 0xe0));
    let word = |i: usize| u32::from_le_bytes(b[i * 4..i * 4 + 4].try_into().unwrap());
    assert_eq!(b.len(), 16);
    assert_eq!(
        word(0),
        cb + desc::TCB_TBD_OFFSET,
        "TBD array: the TBD inside this CB"
    );
    assert_eq!(
        &b[4..8],
        &[0, 0, 0xe0, 1],
        "TCB byte count 0, threshold, TBD number 1"
    );
    assert_eq!(word(2), 0xdead_b000, "TBD buffer address");
    assert_eq!(word(3), 1514 | 1 << 16, "TBD size, end of list");
}
