// SPDX-License-Identifier: GPL-2.0

//! Descriptor formats shared with the 8255x: Command Blocks (CB) for the Command Unit and
//! Receive Frame Descriptors (RFD) for the Receive Unit, and the bytes of each command's body.
//!
//! Everything here encodes or decodes plain bytes; the rings that put them in DMA memory are in
//! `rings.rs`. Kernel-independent (only `core`), covered by the host tests.
//!
//! A CB starts with a 16-bit status (written by the device), a 16-bit command and a 32-bit link
//! to the next CB; the command-specific body follows. All fields are little-endian.

use crate::hw::Mac;

/// CB status: the command completed.
pub(crate) const CB_COMPLETE: u16 = 0x8000;
/// CB status: the command completed without error.
pub(crate) const CB_OK: u16 = 0x2000;

/// CB command: end of list.
pub(crate) const CB_EL: u16 = 0x8000;
/// CB command: suspend the CU after this CB.
pub(crate) const CB_S: u16 = 0x4000;
/// CB command: interrupt (CX) when this CB completes.
pub(crate) const CB_I: u16 = 0x2000;
/// TX command: simplified/flexible mode flag (1 = flexible, TBDs used).
pub(crate) const CB_TX_SF: u16 = 0x0008;
/// TX command: no CRC insertion; the frame ends with the FCS its sender computed (e100.c's
/// `cb_tx_nc`).
pub(crate) const CB_TX_NC: u16 = 0x0010;
/// TX command: CNA interrupt delay (the CID field, maximum).
pub(crate) const CB_CID: u16 = 0x1f00;

/// The command codes in a CB's command word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u16)]
pub(crate) enum CbCmd {
    /// Individual address setup.
    IaSetup = 1,
    /// Configure.
    Configure = 2,
    /// Multicast setup.
    Multicast = 3,
    /// Transmit.
    Transmit = 4,
    /// Load microcode (the CPUSaver blob, [`crate::ucode`]).
    Ucode = 5,
    /// Dump: the chip writes its internal registers to the buffer the body names.
    Dump = 6,
}

/// The size of a CB body, in 32-bit words: enough for the largest command we issue, the
/// microcode load (134 words; a multicast setup of 64 addresses takes 98).
pub(crate) const CB_BODY_WORDS: usize = crate::ucode::UCODE_WORDS;

/// Up to this many multicast addresses are filtered exactly; more means "all multicast".
pub(crate) const MAX_MULTICAST: usize = 64;

/// A CB body as it goes to memory: `len` meaningful words of at most `N`, each holding four
/// body bytes in memory order (`from_ne_bytes`, so the bytes land in order whatever the CPU's
/// endianness). A transmit body is 4 words (built for every frame: no room for a microcode
/// load to zero and copy); the commands take up to a whole CB.
///
/// # Invariants
///
/// The words past the first `len` are zero (every constructor zero-fills or fills all `N`):
/// [`Body::all_words`] relies on it.
pub(crate) struct Body<const N: usize = CB_BODY_WORDS> {
    words: [u32; N],
    len: usize,
}

impl<const N: usize> Body<N> {
    fn from_bytes(bytes: &[u8]) -> Self {
        let mut words = [0u32; N];
        let mut len = 0;
        for (w, chunk) in words.iter_mut().zip(bytes.chunks(4)) {
            let mut b = [0u8; 4];
            b[..chunk.len()].copy_from_slice(chunk);
            *w = u32::from_ne_bytes(b);
            len += 1;
        }
        // INVARIANT: the words past `len` keep the zeros they were made with.
        Body { words, len }
    }

    /// The words to write.
    pub(crate) fn words(&self) -> &[u32] {
        &self.words[..self.len]
    }

    /// All `N` words, those past the meaningful ones zero.
    pub(crate) fn all_words(&self) -> [u32; N] {
        self.words
    }
}

/// Settings that go into a Configure command.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ConfigParams {
    /// Accept every frame (and keep bad and short ones).
    pub(crate) promiscuous: bool,
    /// Accept every multicast frame.
    pub(crate) multicast_all: bool,
    /// Loopback mode (0 none, 1 MAC, 3 PHY), for the offline self-test.
    pub(crate) loopback: u8,
    /// Force full duplex (forced 100/10 full).
    pub(crate) full_duplex_force: bool,
    /// The adaptive IFS value (0 when not adapting).
    pub(crate) adaptive_ifs: u8,
    /// Whether the PHY is an MII PHY (not an 82503 serial interface).
    pub(crate) mii: bool,
    /// Keep frames with errors (NETIF_F_RXALL).
    pub(crate) rx_all: bool,
    /// Keep the FCS at the end of received frames (NETIF_F_RXFCS): CRC transfer.
    pub(crate) rx_fcs: bool,
    /// Leave Wake-on-LAN magic packet detection on (only while the interface is down).
    pub(crate) wol_magic: bool,
    /// Let the chip send PAUSE frames when its receive FIFO fills (82558 and later).
    pub(crate) tx_pause: bool,
    /// Standard TCBs on an 82558 or later too (QEMU's model, [`crate::qemu`]); the 82557 has
    /// only those.
    pub(crate) standard_tcb: bool,
}

/// The Configure command's body: 22 bytes, or 32 on the 82551-10. Bit for bit what Intel's
/// manual lays out and e100.c programs, plus the flow-control bits e100.c leaves fixed.
pub(crate) fn config_body(mac: Mac, p: &ConfigParams) -> Body {
    let mut c = [0u8; 32];
    let ext = mac >= Mac::M82558_D101_A4;
    c[0] = 0x16; // byte count
    c[1] = 0x08; // RX FIFO limit
    c[2] = p.adaptive_ifs;
    c[6] = 0x02 // direct RX DMA (reserved, must be 1)
        | 0x20; // standard statistics counters
    if !ext || p.standard_tcb {
        c[6] |= 0x10; // standard TCB
    }
    c[7] = 0x01 // discard short frames
        | (3 << 1); // TX underrun retries
    if p.mii {
        c[8] = 0x01;
    }
    c[10] = 0x06 // reserved bits
        | 0x08 // no source address insertion
        | (2 << 4) // 7-byte preamble
        | ((p.loopback & 3) << 6);
    c[12] = 6 << 4; // inter-frame spacing
    c[13] = 0x00;
    c[14] = 0xf2; // ARP filter IP address (unused)
    c[15] = 0x08 | 0x40; // reserved bits; CRS only
    c[16] = 0x00; // flow-control delay (low)
    c[17] = 0x40; // flow-control delay (high)
    c[18] = 0x02 // pad short frames
        | (7 << 4) // priority flow control off
        | 0x80; // reserved
    c[19] = 0x80; // examine the FDX# pin
    if !p.wol_magic {
        c[19] |= 0x02; // magic packet wake-up off
    }
    if p.full_duplex_force {
        c[19] |= 0x40;
    }
    c[20] = 0x1f | 0x20; // reserved; priority FC field at byte 31
    c[21] = 0x05; // reserved
    if p.promiscuous || p.loopback != 0 {
        c[6] |= 0x80; // save bad frames
        c[7] &= !0x01; // keep short frames
        c[15] |= 0x01; // promiscuous
    }
    if p.multicast_all {
        c[21] |= 0x08;
    }
    if ext {
        // Memory write and invalidate.
        c[3] |= 0x01;
        // Byte 6 bit 4 clear (above): extended TCBs, as e100.c has them from the 82558 on,
        // unless `standard_tcb` (QEMU's model, which misreads them). See `tx_body`.
        //
        // Long (VLAN) frames OK.
        c[18] |= 0x08;
        // Flow control: byte 19 bit 2 disables sending PAUSE frames.
        if !p.tx_pause {
            c[19] |= 0x04;
        }
        if mac >= Mac::M82559_D101M {
            c[6] |= 0x04; // TCO statistics
            if mac >= Mac::M82551_10 {
                c[0] = 0x20;
                c[22] |= 0x01; // 82551-10: GMRC for TCO
            }
        } else {
            c[6] &= !0x20; // extended statistics counters
        }
    }
    if p.rx_all {
        c[6] |= 0x40 | 0x80; // save overruns and bad frames
        c[7] &= !0x01; // keep short frames
    }
    if p.rx_fcs {
        c[18] |= 0x04; // CRC transfer
    }
    let len = usize::from(c[0]);
    Body::from_bytes(&c[..len])
}

/// The microcode load body: the patched words ([`crate::ucode::patch`]), as they are.
pub(crate) fn ucode_body(words: &[u8; crate::ucode::UCODE_WORDS * 4]) -> Body {
    Body::from_bytes(words)
}

/// The Dump body: the bus address of the buffer (596 bytes) the chip writes.
pub(crate) fn dump_body(buf: u32) -> Body {
    Body::from_bytes(&buf.to_le_bytes())
}

/// The Individual Address setup body: the station address.
pub(crate) fn ia_body(addr: &[u8; 6]) -> Body {
    Body::from_bytes(addr)
}

/// The Multicast setup body: a byte count, then the addresses. With more than
/// [`MAX_MULTICAST`] addresses none are listed (the caller sets "multicast all" instead).
pub(crate) fn multicast_body<'a>(addrs: impl Iterator<Item = &'a [u8; 6]>) -> Body {
    let mut b = [0u8; 2 + MAX_MULTICAST * 6];
    let mut n = 0;
    for a in addrs.take(MAX_MULTICAST) {
        b[2 + n * 6..2 + n * 6 + 6].copy_from_slice(a);
        n += 1;
    }
    b[..2].copy_from_slice(&((n * 6) as u16).to_le_bytes());
    Body::from_bytes(&b[..2 + n * 6])
}

/// Offset of the first TBD inside a TCB's CB (8-byte CB header, 8-byte TCB fields).
pub(crate) const TCB_TBD_OFFSET: u32 = 16;
/// TBD size word: end of the TBD list.
const TBD_EL: u32 = 1 << 16;

/// The transmit body for one buffer at bus address `buf` of `len` bytes, in a CB at bus address
/// `cb`: a TCB in flexible mode with a TBD count of 1, its one TBD placed inside this CB right
/// after the TCB fields, marked end-of-list, and the TBD array address pointing at it. So it is
/// read the same whichever TCB Configure chose: an extended TCB (82558 and later, e100.c's
/// layout) takes its first TBD from that place inside the TCB and, the count being 1, no other;
/// a standard TCB (the 82557, and QEMU's model, whose extended TCB reads the second in-TCB TBD
/// whatever the count says: [`crate::qemu`]) takes it from the TBD array, which is that TBD.
///
/// Built word by word (no byte copies): it is built for every frame sent.
pub(crate) fn tx_body(cb: u32, buf: u32, len: u16, threshold: u8) -> Body<4> {
    // Each word holds its four bytes in memory order (see [`Body`]): little-endian values are
    // stored as `to_le()`, so their bytes are in memory order on either endianness.
    let tbd_array = cb.wrapping_add(TCB_TBD_OFFSET).to_le();
    // Bytes 4-5: TCB byte count 0 (all data is in TBDs); byte 6 the threshold; byte 7 the TBD
    // count, 1.
    let counts = u32::from_ne_bytes([0, 0, threshold, 1]);
    let size = (u32::from(len & 0x3fff) | TBD_EL).to_le();
    // INVARIANT: all four words are meaningful.
    Body {
        words: [tbd_array, counts, buf.to_le(), size],
        len: 4,
    }
}

/// The command word of a transmit CB.
pub(crate) fn tx_command(mac: Mac, interrupt: bool) -> u16 {
    let mut c = CbCmd::Transmit as u16 | CB_TX_SF;
    // The 82557 has no CNA interrupt delay; it is interrupted on every TX instead.
    if mac < Mac::M82558_D101_A4 || interrupt {
        c |= CB_I;
    } else {
        c |= CB_CID;
    }
    c
}

/// Length of an RFD header (simplified mode: the frame follows it).
pub(crate) const RFD_LEN: usize = 16;
/// Receive buffer: RFD header plus a VLAN-tagged maximum frame.
pub(crate) const RFD_BUF_LEN: usize = RFD_LEN + 1522;
/// The RBD pointer of a simplified-mode RFD: none.
const RFD_NO_RBD: u32 = 0xffff_ffff;
/// Offset of the RFD status word.
pub(crate) const RFD_STATUS_OFFSET: usize = 0;
/// Offset of the RFD link.
pub(crate) const RFD_LINK_OFFSET: usize = 4;
/// Offset of the RFD actual count (written by the RU).
pub(crate) const RFD_COUNT_OFFSET: usize = 12;
/// Offset of the RFD size (room for data).
pub(crate) const RFD_SIZE_OFFSET: usize = 14;

/// An RFD header to arm a receive buffer: status 0, `el` marks the end of the list, `size` the
/// room for data (0 makes this a stop point the RU will not write a frame into).
///
/// Built as one array expression (no slice copies): it is written for every received frame.
pub(crate) fn rfd_header(link: u32, el: bool, size: u16) -> [u8; RFD_LEN] {
    let command: u16 = if el { CB_EL } else { 0 };
    let [c0, c1] = command.to_le_bytes();
    let [l0, l1, l2, l3] = link.to_le_bytes();
    let [r0, r1, r2, r3] = RFD_NO_RBD.to_le_bytes();
    let [s0, s1] = size.to_le_bytes();
    // Status 0; bytes 12-13, the actual count, are written by the RU.
    [0, 0, c0, c1, l0, l1, l2, l3, r0, r1, r2, r3, 0, 0, s0, s1]
}

/// [`rfd_header`] as its four 32-bit words in CPU order (written little-endian): status and
/// command, link, RBD pointer, actual count and size. The receive path writes headers a word
/// at a time, in the order the device must see them.
pub(crate) fn rfd_header_words(link: u32, el: bool, size: u16) -> [u32; 4] {
    let command: u16 = if el { CB_EL } else { 0 };
    [
        u32::from(command) << 16,
        link,
        RFD_NO_RBD,
        u32::from(size) << 16,
    ]
}

/// What the RU wrote into an RFD (the default: an RFD it has not completed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RfdStatus {
    /// The RU is done with this RFD.
    pub(crate) complete: bool,
    /// The frame was received without error.
    pub(crate) ok: bool,
    /// Bytes of frame data after the header.
    pub(crate) actual: u16,
}

/// Decodes the status part of an RFD header from its status and actual-count words (bytes 0
/// and 12, in CPU order): the receive path reads just those.
pub(crate) fn rfd_status_words(status: u16, count: u16) -> RfdStatus {
    RfdStatus {
        complete: status & CB_COMPLETE != 0,
        ok: status & CB_OK != 0,
        actual: count & 0x3fff,
    }
}
