// SPDX-License-Identifier: GPL-2.0

//! CPUSaver microcode: which blob a part takes, how the blob is checked, and the interrupt
//! bundling parameters patched into it before the load command carries it to the chip.
//!
//! Intel's microcode for the 82559 D101M/D101S and the 82551 (D102E) bundles received frames:
//! the chip interrupts once per `bundle_max` frames, or when `int_delay` has passed since the
//! first, instead of once per frame. For the 82551 F and 82551-10 the D102E blob also carries
//! receive fixes for the B-step parts, so e100.c will not open one without it. The blobs ship
//! in linux-firmware (Debian: `firmware-misc-nonfree`), as `e100/d101m_ucode.bin`,
//! `e100/d101s_ucode.bin` and `e100/d102e_ucode.bin`: 134 little-endian 32-bit words of
//! microcode, then three bytes giving the word offsets of the timer (interrupt delay), the bundle
//! limit and the minimum frame size (bundle small frames), whose low 16 bits the driver sets.
//!
//! Kernel-independent (only `core`), so the host tests in `tests/host` build it too.

use crate::hw::Mac;

/// Words of microcode the load command carries.
pub(crate) const UCODE_WORDS: usize = 134;
/// Bytes of a blob file: the words, then the three offsets.
pub(crate) const BLOB_LEN: usize = UCODE_WORDS * 4 + 3;

/// The interrupt delay patched in by default, in the microcode's timer units (e100.c's
/// `INTDELAY`).
pub(crate) const INT_DELAY_DEFAULT: u16 = 1536;
/// The most frames bundled into one interrupt by default (e100.c's `BUNDLEMAX`).
pub(crate) const BUNDLE_MAX_DEFAULT: u16 = 6;
/// The interrupt delays e100.c's comments allow: its "experiments show that the value should
/// probably stay within the 0x200 - 0x1000", and 1, its setting for CPUSaver off with the
/// microcode's other fixes kept ("INTDELAY 1"). 0, or a delay past 0x1000 (up to 65535 timer
/// units, a receive interrupt held back for many milliseconds), is refused.
pub(crate) const INT_DELAY_RANGE: (u16, u16) = (0x200, 0x1000);
/// e100.c's value for "no bundling" (an interrupt a frame).
pub(crate) const INT_DELAY_OFF: u16 = 1;
/// The bundle limits accepted: 1 (an interrupt a frame) to 0xFFFF (no limit, e100.c's value
/// for that); a bundle of 0 frames means nothing.
pub(crate) const BUNDLE_MAX_RANGE: (u16, u16) = (1, 0xffff);

/// Whether `v` is an interrupt delay to patch in ([`INT_DELAY_RANGE`], or [`INT_DELAY_OFF`]).
pub(crate) fn int_delay_ok(v: u32) -> bool {
    v == u32::from(INT_DELAY_OFF)
        || (u32::from(INT_DELAY_RANGE.0)..=u32::from(INT_DELAY_RANGE.1)).contains(&v)
}

/// Whether `v` is a bundle limit to patch in ([`BUNDLE_MAX_RANGE`]).
pub(crate) fn bundle_max_ok(v: u32) -> bool {
    (u32::from(BUNDLE_MAX_RANGE.0)..=u32::from(BUNDLE_MAX_RANGE.1)).contains(&v)
}
/// What the minimum-size word's low half is set to: bundle small frames too (e100.c's
/// `BUNDLESMALL` is 1, giving 0xFFFF; 0xFF80 would leave frames under 128 bytes out).
const BUNDLE_SMALL: u16 = 0xffff;

/// The blob a part takes, and whether it may go without.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Blob {
    /// The firmware file, as `request_firmware` takes it, NUL-terminated.
    pub(crate) file: &'static [u8],
    /// Without it the part is not opened (the D102E's receive fixes).
    pub(crate) required: bool,
}

impl Blob {
    /// The file name, for messages.
    pub(crate) fn name(&self) -> &'static str {
        let n = self.file.strip_suffix(b"\0").unwrap_or(self.file);
        core::str::from_utf8(n).unwrap_or("?")
    }
}

/// Where the blobs come from, for the message that says one is missing.
pub(crate) const PACKAGE: &str = "linux-firmware (Debian: firmware-misc-nonfree)";

/// The blob for `mac` (e100.c's table): none for ICH parts, the 82557, the 82558 and the
/// 82550.
pub(crate) fn blob_for(mac: Mac, ich: bool) -> Option<Blob> {
    if ich {
        return None;
    }
    match mac.revision() {
        8 => Some(Blob {
            file: b"e100/d101m_ucode.bin\0",
            required: false,
        }),
        9 => Some(Blob {
            file: b"e100/d101s_ucode.bin\0",
            required: false,
        }),
        15 | 16 => Some(Blob {
            file: b"e100/d102e_ucode.bin\0",
            required: true,
        }),
        _ => None,
    }
}

/// Why a blob was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BlobError {
    /// Not [`BLOB_LEN`] bytes long.
    Size(usize),
    /// An offset points past the microcode.
    Offsets(u8, u8, u8),
}

/// Checks `blob` and returns its microcode with the timer, bundle limit and minimum-size
/// words' low halves set to `int_delay`, `bundle_max` and "bundle small frames" (the high
/// halves kept), as the load command's body: little-endian words, as the file has them.
pub(crate) fn patch(
    blob: &[u8],
    int_delay: u16,
    bundle_max: u16,
) -> Result<[u8; UCODE_WORDS * 4], BlobError> {
    if blob.len() != BLOB_LEN {
        return Err(BlobError::Size(blob.len()));
    }
    let (words, offs) = blob.split_at(UCODE_WORDS * 4);
    let (timer, bundle, min_size) = match offs {
        [t, b, m] => (*t, *b, *m),
        _ => return Err(BlobError::Size(blob.len())),
    };
    let ok = |o: u8| usize::from(o) < UCODE_WORDS;
    if !(ok(timer) && ok(bundle) && ok(min_size)) {
        return Err(BlobError::Offsets(timer, bundle, min_size));
    }
    let mut out = [0u8; UCODE_WORDS * 4];
    out.copy_from_slice(words);
    for (off, low) in [
        (timer, int_delay),
        (bundle, bundle_max),
        (min_size, BUNDLE_SMALL),
    ] {
        let at = usize::from(off) * 4;
        // The low half of a little-endian word is its first two bytes.
        if let Some(w) = out.get_mut(at..at + 2) {
            w.copy_from_slice(&low.to_le_bytes());
        }
    }
    Ok(out)
}
