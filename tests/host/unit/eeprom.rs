//! The EEPROM reader against a simulated Microwire 93C46/93C66.

use crate::eeprom::{self, Eeprom, Pins, EECS, EEDI, EEDO, EESK};

/// A 93Cxx as the datasheet describes it: after chip select, leading zeros are ignored, a 1 is
/// the start bit, then 2 opcode bits and `addr_bits` address bits are clocked in on rising
/// edges; after the last address bit DO goes low (dummy zero), then the word's 16 bits follow,
/// one per rising edge. DO floats high (pull-up) otherwise.
struct Sim {
    mem: Vec<u16>,
    write_enabled: bool,
    writes: Vec<(usize, u16)>,
    addr_bits: u32,
    cs: bool,
    sk: bool,
    state: State,
    do_bit: bool,
    edges: usize,
}

enum State {
    Idle,
    Command { bits: u32, n: u32 },
    Data { word: u16, left: u32 },
    WriteData { addr: usize, bits: u32, n: u32 },
    Ignore,
}

impl Sim {
    fn new(mem: Vec<u16>) -> Sim {
        let addr_bits = mem.len().trailing_zeros();
        Sim {
            mem,
            write_enabled: false,
            writes: vec![],
            addr_bits,
            cs: false,
            sk: false,
            state: State::Idle,
            do_bit: true,
            edges: 0,
        }
    }

    fn rising_edge(&mut self, di: bool) {
        self.edges += 1;
        self.state = match std::mem::replace(&mut self.state, State::Idle) {
            State::Idle if !di => State::Idle,
            State::Idle => State::Command { bits: 1, n: 1 },
            State::Command { bits, n } => {
                let bits = (bits << 1) | u32::from(di);
                let n = n + 1;
                let addr = (bits & ((1 << self.addr_bits) - 1)) as usize;
                let op = bits >> self.addr_bits;
                if n == 3 + self.addr_bits && op == 0b101 {
                    State::WriteData {
                        addr,
                        bits: 0,
                        n: 0,
                    }
                } else if n == 3 + self.addr_bits && op == 0b100 {
                    match addr >> (self.addr_bits - 2) {
                        0b11 => self.write_enabled = true,
                        0b00 => self.write_enabled = false,
                        x => panic!("ERAL/WRAL ({x:#b}) are never expected"),
                    }
                    State::Ignore
                } else if n == 3 + self.addr_bits {
                    assert_eq!(op, 0b110, "READ, WRITE, EWEN or EWDS");
                    self.do_bit = false; // dummy zero
                    State::Data {
                        word: self.mem[addr],
                        left: 16,
                    }
                } else {
                    State::Command { bits, n }
                }
            }
            State::Data { word, left } if left > 0 => {
                self.do_bit = word & (1 << (left - 1)) != 0;
                State::Data {
                    word,
                    left: left - 1,
                }
            }
            State::Data { .. } => {
                self.do_bit = true;
                State::Idle
            }
            State::WriteData { addr, bits, n } => {
                let bits = (bits << 1) | u32::from(di);
                if n + 1 == 16 {
                    if self.write_enabled {
                        self.mem[addr] = bits as u16;
                        self.writes.push((addr, bits as u16));
                    }
                    State::Ignore
                } else {
                    State::WriteData {
                        addr,
                        bits,
                        n: n + 1,
                    }
                }
            }
            State::Ignore => State::Ignore,
        };
    }
}

impl Pins for Sim {
    fn set(&mut self, ctrl: u8) {
        let cs = ctrl & EECS != 0;
        let sk = ctrl & EESK != 0;
        if !cs {
            self.state = State::Idle;
            self.do_bit = true;
        } else if sk && !self.sk {
            self.rising_edge(ctrl & EEDI != 0);
        }
        self.cs = cs;
        self.sk = sk;
    }

    fn get(&mut self) -> u8 {
        if self.do_bit {
            EEDO
        } else {
            0
        }
    }

    fn half_period(&mut self) {}
}

fn image(n: usize, mac: [u8; 6]) -> Vec<u16> {
    let mut w: Vec<u16> = (0..n as u16)
        .map(|i| i.wrapping_mul(0x1111) ^ 0x5a5a)
        .collect();
    for i in 0..3 {
        w[i] = u16::from_le_bytes([mac[2 * i], mac[2 * i + 1]]);
    }
    let sum = w[..n - 1].iter().fold(0u16, |s, x| s.wrapping_add(*x));
    w[n - 1] = 0xBABA_u16.wrapping_sub(sum);
    w
}

#[test]
fn reads_93c46_and_detects_64_words() {
    let mac = [0x52, 0x54, 0x00, 0x12, 0x34, 0x56];
    let words = image(64, mac);
    let mut sim = Sim::new(words.clone());
    let e = Eeprom::load(&mut sim);
    assert_eq!(e.len(), 64);
    assert_eq!(e.words(), &words[..]);
    assert!(e.checksum_ok());
    assert_eq!(e.mac(), mac);
}

#[test]
fn reads_93c66_and_detects_256_words() {
    let words = image(256, [0, 0xaa, 0xbb, 0xcc, 0xdd, 0xee]);
    let mut sim = Sim::new(words.clone());
    let e = Eeprom::load(&mut sim);
    assert_eq!(e.len(), 256);
    assert_eq!(e.words(), &words[..]);
    assert!(e.checksum_ok());
}

#[test]
fn every_word_of_a_small_part_reads_back() {
    let words: Vec<u16> = (0..64u16).map(|i| 0x8001 ^ (i << 7) ^ i).collect();
    let mut sim = Sim::new(words.clone());
    for (a, w) in words.iter().enumerate() {
        let (got, taken) = eeprom::read_word(&mut sim, 6, a as u16);
        assert_eq!((got, taken), (*w, 6), "word {a}");
    }
}

#[test]
fn detection_read_with_too_many_address_bits_still_returns_word_0() {
    let words = image(64, [2, 0, 0, 0, 0, 1]);
    let mut sim = Sim::new(words.clone());
    let (w0, bits) = eeprom::read_word(&mut sim, 8, 0);
    assert_eq!(bits, 6);
    assert_eq!(w0, words[0]);
}

#[test]
fn bad_checksum_is_reported() {
    let mut words = image(64, [2, 0, 0, 0, 0, 1]);
    words[10] ^= 0x0100;
    let mut sim = Sim::new(words);
    let e = Eeprom::load(&mut sim);
    assert!(!e.checksum_ok());
    assert_eq!(e.sum(), 0xBABA_u16.wrapping_add(0x0100));
}

#[test]
fn missing_eeprom_reads_as_all_ones_and_fails_checksum() {
    // Nothing drives DO: it floats high, so there is never a dummy zero.
    struct Absent;
    impl Pins for Absent {
        fn set(&mut self, _: u8) {}
        fn get(&mut self) -> u8 {
            EEDO
        }
        fn half_period(&mut self) {}
    }
    let e = Eeprom::load(&mut Absent);
    assert_eq!(e.len(), 256);
    assert!(e.words().iter().all(|w| *w == 0xffff));
    assert!(!e.checksum_ok());
}

#[test]
fn qemu_i82559er_image_checks_out() {
    // What QEMU's eepro100 builds at reset: MAC in words 0-2, word 5 = 0x4000 (device type),
    // word 6 = 1 (PHY), word 63 = checksum.
    let mac = [0x52, 0x54, 0x00, 0x12, 0x34, 0x56];
    let mut w = vec![0u16; 64];
    for i in 0..3 {
        w[i] = u16::from_le_bytes([mac[2 * i], mac[2 * i + 1]]);
    }
    w[5] = 0x4000;
    w[6] = 1;
    let sum = w[..63].iter().fold(0u16, |s, x| s.wrapping_add(*x));
    w[63] = 0xBABA_u16.wrapping_sub(sum);
    let e = Eeprom::load(&mut Sim::new(w));
    assert!(e.checksum_ok());
    assert_eq!(e.mac(), mac);
}

#[test]
fn ethtool_e_rewrites_the_checksum_and_writes_through_ewen_write_ewds() {
    let words = image(64, [0x52, 0x54, 0x00, 0x12, 0x34, 0x56]);
    let mut sim = Sim::new(words.clone());
    let mut e = Eeprom::load(&mut sim);
    // Bytes 0x41..0x43: the high byte of word 0x20 and both of 0x21.
    let range = e
        .update(0x41, &[0xab, 0xcd, 0xef])
        .expect("inside the image");
    assert_eq!(range, 0x20..0x22);
    assert_eq!(e.word(0x20), (words[0x20] & 0x00ff) | 0xab00);
    assert_eq!(e.word(0x21), 0xefcd);
    assert!(e.checksum_ok(), "checksum word recomputed");
    let mut waits = 0;
    for w in range.chain(core::iter::once(e.len() - 1)) {
        assert!(eeprom::write_word(
            &mut sim,
            e.addr_bits(),
            w as u16,
            e.word(w),
            || waits += 1
        ));
    }
    assert_eq!(
        waits, 9,
        "enable, write, disable: each waits the write time"
    );
    assert_eq!(
        sim.writes,
        [(0x20, e.word(0x20)), (0x21, 0xefcd), (63, e.word(63))]
    );
    assert!(!sim.write_enabled, "left write-protected");
    let again = Eeprom::load(&mut sim);
    assert_eq!(again.words(), e.words());
    assert!(again.checksum_ok());
}

#[test]
fn ethtool_e_outside_the_image_or_on_the_checksum_is_refused() {
    let words = image(64, [0x52, 0x54, 0x00, 0x12, 0x34, 0x56]);
    let mut e = Eeprom::load(&mut Sim::new(words.clone()));
    assert_eq!(
        e.update(126, &[0]),
        None,
        "the checksum word is the driver's"
    );
    assert_eq!(e.update(125, &[0, 0]), None);
    assert_eq!(e.update(128, &[0]), None);
    assert_eq!(e.update(usize::MAX, &[0, 0]), None);
    assert_eq!(e.update(0, &[]), None);
    assert_eq!(e.words(), &words[..], "nothing changed");
    assert_eq!(e.update(124, &[1, 2]), Some(62..63));
}
