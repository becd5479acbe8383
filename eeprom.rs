// SPDX-License-Identifier: GPL-2.0

//! The serial EEPROM (a Microwire 93C46 or 93C66) and the bit-bang protocol that reads it.
//!
//! The EEPROM hangs off four pins in the low byte of the EEPROM control CSR: clock (EESK), chip
//! select (EECS), data to the EEPROM (EEDI) and data from it (EEDO). A read clocks out a start
//! bit, the two-bit READ opcode and the word address, most significant bit first; when the
//! EEPROM has received the whole address it pulls EEDO low (the "dummy zero") and then shifts out
//! the 16 data bits. The address width is not known in advance (6 bits on a 64-word 93C46, 8 on
//! a 256-word 93C66): reading word 0 with 8 address bits and counting how many were taken when
//! the dummy zero appears tells it.
//!
//! The words sum to 0xBABA; the last word is chosen to make that so.
//!
//! Kernel-independent (only `core`): the pins are behind [`Pins`], which the driver implements on
//! the CSR and the host tests implement on a simulated 93Cxx.

/// EEPROM control: serial clock.
pub(crate) const EESK: u8 = 0x01;
/// EEPROM control: chip select.
pub(crate) const EECS: u8 = 0x02;
/// EEPROM control: data in (to the EEPROM).
pub(crate) const EEDI: u8 = 0x04;
/// EEPROM control: data out (from the EEPROM).
pub(crate) const EEDO: u8 = 0x08;

/// READ: start bit and opcode `10`.
const OP_READ: u32 = 0b110;
/// Start bit and WRITE opcode; 16 data bits follow the address.
const OP_WRITE: u32 = 0b101;
/// Start bit and the "other" opcode: the address's top two bits say which (11 EWEN, 00 EWDS).
const OP_OTHER: u32 = 0b100;
/// Bits in a start bit plus an opcode.
const OP_BITS: u32 = 3;

/// The largest EEPROM (93C66, 8 address bits).
pub(crate) const MAX_WORDS: usize = 256;
/// The address width tried first.
const MAX_ADDR_BITS: u32 = 8;
/// The words sum to this.
pub(crate) const CHECKSUM: u16 = 0xBABA;

/// Words 0-2: the MAC address, low byte first.
const WORD_MAC: usize = 0;

/// The EEPROM pins, as the driver drives them.
pub(crate) trait Pins {
    /// Sets the pins to `ctrl` (a combination of [`EESK`], [`EECS`], [`EEDI`]) and makes the write
    /// reach the device.
    fn set(&mut self, ctrl: u8);
    /// Reads the pins; [`EEDO`] is the EEPROM's output.
    fn get(&mut self) -> u8;
    /// Waits for one half clock period (at least 4 us for a 93Cxx at 5 V).
    fn half_period(&mut self);
}

/// Clocks one bit out to the EEPROM and returns EEDO as sampled after the rising edge.
fn clock_bit<P: Pins>(p: &mut P, bit: bool) -> bool {
    let ctrl = if bit { EECS | EEDI } else { EECS };
    p.set(ctrl);
    p.half_period();
    p.set(ctrl | EESK);
    p.half_period();
    p.get() & EEDO != 0
}

/// Reads word `addr` with `addr_bits` address bits. Returns the word and the number of address
/// bits the EEPROM actually took (fewer than `addr_bits` when it is a smaller part; in that case
/// the word returned is still correct, since reading stops at the dummy zero).
pub(crate) fn read_word<P: Pins>(p: &mut P, addr_bits: u32, addr: u16) -> (u16, u32) {
    let cmd = (OP_READ << addr_bits) | (u32::from(addr) & ((1 << addr_bits) - 1));
    let total = OP_BITS + addr_bits;

    p.set(EECS);
    p.half_period();
    let mut taken = addr_bits;
    for n in (0..total).rev() {
        let dummy_zero = !clock_bit(p, cmd & (1 << n) != 0);
        let sent = total - n;
        if dummy_zero && sent > OP_BITS {
            taken = sent - OP_BITS;
            break;
        }
    }
    let mut data = 0u16;
    for _ in 0..16 {
        data = (data << 1) | u16::from(clock_bit(p, false));
    }
    p.set(0);
    p.half_period();
    (data, taken)
}

/// Clocks `n` bits of `bits` (most significant first) with chip select held, then deselects
/// and lets the part do what it was told: `wait` (10 ms, the longest write cycle of a 93Cxx).
fn command<P: Pins>(p: &mut P, bits: u32, n: u32, mut wait: impl FnMut()) {
    p.set(EECS);
    p.half_period();
    for i in (0..n).rev() {
        clock_bit(p, bits & (1 << i) != 0);
    }
    p.set(0);
    p.half_period();
    // The part starts programming at deselect; select it again while it works.
    p.set(EECS);
    wait();
    p.set(0);
    p.half_period();
}

/// Writes `data` to word `addr` of a part with `addr_bits` address bits: erase/write enable,
/// write, erase/write disable, each given the part's full write time, as e100.c does. `false`
/// (nothing sent) for a part without 6 to 8 address bits.
pub(crate) fn write_word<P: Pins>(
    p: &mut P,
    addr_bits: u32,
    addr: u16,
    data: u16,
    mut wait: impl FnMut(),
) -> bool {
    let a = addr_bits;
    // 93C46 to 93C66: 6 or 8 address bits (anything else is not a part we can write).
    if !(6..=8).contains(&a) {
        return false;
    }
    let mask = (1u32 << a) - 1;
    command(
        p,
        (OP_OTHER << a) | (0b11 << (a - 2)),
        OP_BITS + a,
        &mut wait,
    );
    command(
        p,
        (((OP_WRITE << a) | (u32::from(addr) & mask)) << 16) | u32::from(data),
        OP_BITS + a + 16,
        &mut wait,
    );
    command(p, OP_OTHER << a, OP_BITS + a, &mut wait);
    true
}

/// A copy of the whole EEPROM.
#[derive(Clone)]
pub(crate) struct Eeprom {
    words: [u16; MAX_WORDS],
    count: usize,
}

impl Eeprom {
    /// Detects the EEPROM's size and reads all of it.
    pub(crate) fn load<P: Pins>(p: &mut P) -> Eeprom {
        let (_, bits) = read_word(p, MAX_ADDR_BITS, 0);
        // A part that never pulls EEDO low (none fitted, or broken) reads as the largest.
        let bits = bits.clamp(1, MAX_ADDR_BITS);
        let count = 1usize << bits;
        let mut words = [0u16; MAX_WORDS];
        for (addr, w) in words.iter_mut().take(count).enumerate() {
            *w = read_word(p, bits, addr as u16).0;
        }
        Eeprom { words, count }
    }

    /// The words.
    pub(crate) fn words(&self) -> &[u16] {
        &self.words[..self.count]
    }

    /// The number of words (64 or 256).
    pub(crate) fn len(&self) -> usize {
        self.count
    }

    /// Word `i`, or 0 past the end (as a blank part reads).
    pub(crate) fn word(&self, i: usize) -> u16 {
        self.words().get(i).copied().unwrap_or(0)
    }

    /// The sum of all words; 0xBABA when the checksum is good.
    pub(crate) fn sum(&self) -> u16 {
        self.words().iter().fold(0u16, |s, w| s.wrapping_add(*w))
    }

    /// Whether the words sum to 0xBABA.
    pub(crate) fn checksum_ok(&self) -> bool {
        self.sum() == CHECKSUM
    }

    /// The number of address bits of the part.
    pub(crate) fn addr_bits(&self) -> u32 {
        self.count.trailing_zeros()
    }

    /// Changes bytes `offset..offset + data.len()` of the image (`ethtool -E`) and recomputes
    /// the checksum word (the last) so the words sum to [`CHECKSUM`] again. Returns the words
    /// to write to the part, the checksum word last; `None` (the image unchanged) if the bytes
    /// are not all inside the image or touch the checksum word, which is the driver's.
    pub(crate) fn update(&mut self, offset: usize, data: &[u8]) -> Option<core::ops::Range<usize>> {
        let end = offset.checked_add(data.len())?;
        let csum = self.count.checked_sub(1)?;
        if data.is_empty() || end > csum * 2 {
            return None;
        }
        for (i, b) in data.iter().enumerate() {
            let at = offset + i;
            let w = self.words.get_mut(at / 2)?;
            let mut bytes = w.to_le_bytes();
            bytes[at % 2] = *b;
            *w = u16::from_le_bytes(bytes);
        }
        let sum = self
            .words
            .iter()
            .take(csum)
            .fold(0u16, |s, w| s.wrapping_add(*w));
        *self.words.get_mut(csum)? = CHECKSUM.wrapping_sub(sum);
        Some(offset / 2..end.div_ceil(2))
    }

    /// The MAC address in words 0-2 (low byte of each word first).
    pub(crate) fn mac(&self) -> [u8; 6] {
        let mut mac = [0u8; 6];
        for (i, pair) in mac.chunks_exact_mut(2).enumerate() {
            pair.copy_from_slice(&self.word(WORD_MAC + i).to_le_bytes());
        }
        mac
    }
}
