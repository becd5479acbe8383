// SPDX-License-Identifier: GPL-2.0

//! The two descriptor rings: the Command Block List (CBL) that the Command Unit (CU) walks for
//! transmits and configuration commands, and the Receive Frame Area (RFA) of Receive Frame
//! Descriptors (RFD) that the Receive Unit (RU) fills.
//!
//! # CB list
//!
//! A ring of CBs in coherent DMA memory, each linked to the next. The driver fills the CB at
//! `to_use` and sets its S (suspend) bit, then (after a write barrier) clears the S bit of the
//! CB before it, and kicks the CU: CU_START with the CB's address the first time after a reset,
//! CU_RESUME after that. The CU runs until it completes a CB whose S bit is set and suspends
//! there, so the device never runs into a CB that is being filled. One command carries the CU
//! through every CB queued since the last: a kick sends none when the SCB still holds our
//! START or RESUME or the newest CB has completed, since a second RESUME would move a CU
//! suspended at the newest CB on into a free one. If the SCB will not take a command (the
//! previous one not yet accepted), the CBs stay queued from `to_send` and the next kick sends
//! them. `clean` returns completed CBs, in order, to the free pool, and with them the
//! transmit buffers they carried.
//!
//! # RFA
//!
//! Simplified mode: each RFD's 16-byte header is at the start of its receive buffer, followed
//! by the frame, in one socket buffer mapped bidirectionally (the CPU writes headers, the device
//! writes frames). The ring has one "stop point": an RFD with EL set and size 0, which the RU
//! does not receive into; reaching it, the RU goes to "no resources" (RNR). Cleaning refills
//! (or re-arms) each RFD it consumes as a stop point, and turns the one refilled before it into
//! an ordinary RFD; after the pass the old stop point, which the RU could not pass meanwhile,
//! is restored (its link first, then EL cleared, then its size, each published to the device
//! on its own: a write barrier, and a sync where the mapping needs one), so the newest RFD is
//! the stop point and the RU can never run past it. If the RU stopped, it is restarted at the
//! first RFD not yet cleaned, but only once that RFD is empty, so a frame the RU wrote is never
//! overwritten before it is delivered.

use crate::desc::{self, RfdStatus, CB_COMPLETE, CB_EL, CB_S, RFD_BUF_LEN, RFD_LEN};
use crate::hw;
use crate::stats;
use kernel::device::{Bound, Device};
use kernel::dma::{self, CoherentAllocation};
use kernel::io::Io;
use kernel::net::dev::Device as NetDevice;
use kernel::net::napi::{Poll, Receiver};
use kernel::net::skbuff::{RxBuf, RxMapping, SkBuff, SkbBatch, TxSkb, TxSlots};
use kernel::prelude::*;
use kernel::vec_ext::VecExt;
use kernel::{delay, dma_read, dma_write};

/// Default, minimum and maximum numbers of CBs (e100.c's).
pub(crate) const CBS: (u32, u32, u32) = (128, 64, 256);
/// Default, minimum and maximum numbers of RFDs (e100.c's).
pub(crate) const RFDS: (u32, u32, u32) = (256, 16, 256);

/// SCB commands (CU in bits 4-7, RU in bits 0-2).
///
/// No RU Resume: the receive ring's stop points have link 0 (see `rfd_buf`), and upstream
/// QEMU's model takes an RU Resume in any state, the RU then following that link.
pub(crate) mod scb {
    /// RU start at the general pointer.
    pub(crate) const RUC_START: u8 = 0x01;
    /// RU base address.
    pub(crate) const RUC_LOAD_BASE: u8 = 0x06;
    /// The CU command's bits.
    pub(crate) const CUC_MASK: u8 = 0xf0;
    /// CU: no operation (the ICH 10 Mb/half-duplex workaround).
    pub(crate) const CUC_NOP: u8 = 0x00;
    /// CU start at the general pointer.
    pub(crate) const CUC_START: u8 = 0x10;
    /// CU resume after a suspend.
    pub(crate) const CUC_RESUME: u8 = 0x20;
    /// Set the statistics dump address.
    pub(crate) const CUC_DUMP_ADDR: u8 = 0x40;
    /// CU base address.
    pub(crate) const CUC_LOAD_BASE: u8 = 0x60;
    /// Dump statistics and reset the counters.
    pub(crate) const CUC_DUMP_RESET: u8 = 0x70;
}

/// The index after `i` in a ring of `count` (no division: `count` is never 0, but the compiler
/// need not prove it).
fn ring_next(i: usize, count: usize) -> usize {
    let n = i.wrapping_add(1);
    if n >= count {
        0
    } else {
        n
    }
}

/// The index before `i` in a ring of `count`.
fn ring_prev(i: usize, count: usize) -> usize {
    if i == 0 {
        count.saturating_sub(1)
    } else {
        i - 1
    }
}

/// The CSR block type.
pub(crate) type Csr = Io<{ hw::CSR_LEN }>;

/// Polls allowed for the SCB to accept a command on the data path, where the CU lock keeps
/// interrupts off: 20 fast, then 5 us apart (about 10 ms). A command not taken by then stays
/// queued for the next kick.
const SCB_POLLS: u32 = 2000;

/// How long a caller that may sleep waits for the SCB to take a command: 100 ms, e100.c's
/// `E100_WAIT_SCB_TIMEOUT` ("we might have to wait 100ms!!!"), which real boards needed at
/// bring-up (Linux 2.5.44's "hw init failed").
const SCB_SLEEP_MS: i64 = 100;

/// Whether the SCB has taken every command (its command byte reads 0).
fn scb_idle(io: &Csr) -> bool {
    io.read8(hw::SCB_CMD_LO) == 0
}

/// Waits, sleeping, until the SCB has taken the last command: a few fast polls, then 20-40 us
/// sleeps, for up to [`SCB_SLEEP_MS`]. `EBUSY` if it has not by then. Process context, no
/// spinlock held: the bring-up's commands (the base addresses, microcode, Configure, the
/// statistics address, RU Start) go through here, outside the CU lock, so a slow chip never
/// keeps interrupts off while it is waited for.
pub(crate) fn wait_scb_sleeping(io: &Csr) -> Result {
    for _ in 0..20 {
        if scb_idle(io) {
            return Ok(());
        }
    }
    let start = kernel::time::Ktime::ktime_get();
    loop {
        if scb_idle(io) {
            return Ok(());
        }
        if kernel::time::ktime_ms_delta(kernel::time::Ktime::ktime_get(), start) > SCB_SLEEP_MS {
            return if scb_idle(io) { Ok(()) } else { Err(EBUSY) };
        }
        delay::usleep_range(20, 40);
    }
}

/// [`exec_cmd`] after [`wait_scb_sleeping`]: for callers that may sleep.
pub(crate) fn exec_cmd_sleeping(io: &Csr, cmd: u8, ptr: Option<u32>) -> Result {
    wait_scb_sleeping(io)?;
    exec_cmd(io, cmd, ptr)
}

/// Issues SCB command `cmd` (with `ptr` in the general pointer if given). Fails with `EBUSY` if
/// the SCB has not accepted the previous command within [`SCB_POLLS`]. Serialised by the caller
/// (the CU lock, or a bring-up that owns the hardware).
pub(crate) fn exec_cmd(io: &Csr, cmd: u8, ptr: Option<u32>) -> Result {
    let mut accepted = false;
    for i in 0..SCB_POLLS {
        if scb_idle(io) {
            accepted = true;
            break;
        }
        if i > 20 {
            delay::udelay(5);
        }
    }
    if !accepted {
        return Err(EBUSY);
    }
    if let Some(p) = ptr {
        io.write32(p, hw::SCB_GEN_PTR);
    }
    io.write8(cmd, hw::SCB_CMD_LO);
    Ok(())
}

/// Words of a CB body in its first part: a whole transmit body (the TCB fields and the TBD),
/// written in one go for every frame.
const CB_HEAD_WORDS: usize = 4;

kernel::dma_struct! {
    /// A Command Block: status, command, link, and the command's body, whose first
    /// [`CB_HEAD_WORDS`] words are fields of their own (written one by one from registers: a
    /// volatile write of an array goes through a copy on the stack).
    pub(crate) struct Cb {
        status: u16,
        command: u16,
        link: u32,
        head0: u32,
        head1: u32,
        head2: u32,
        head3: u32,
        rest: [u32; desc::CB_BODY_WORDS - CB_HEAD_WORDS],
    }
}

/// What a clean pass returned.
#[derive(Default)]
pub(crate) struct Cleaned {
    /// Transmit frames completed, and their bytes, sent or not (for BQL).
    pub(crate) pkts: u32,
    pub(crate) bytes: u32,
    /// Of those, the frames sent well and their bytes (for the statistics). A frame the CU
    /// gave up on (16 collisions, a late collision, an underrun) is counted by the hardware
    /// statistics as an error, once, and not as a packet.
    pub(crate) sent_pkts: u32,
    pub(crate) sent_bytes: u32,
    /// Command CBs (no transmit buffer) that completed without OK.
    pub(crate) cmd_failed: u32,
}

/// The CB ring.
///
/// # Invariants
///
/// `to_clean`, `to_send` and `to_use` follow each other in ring order: `sent` CBs from
/// `to_clean` were handed to the CU and not yet cleaned, the `unsent` after them are queued but
/// not yet handed over, and the `avail` from `to_use` on are free; `sent + unsent + avail ==
/// count` (counts, not index comparisons, so a full ring, where all three indices meet, is
/// told from an empty one). Slot `i` of `tx` holds a frame only for a transmit CB not yet
/// cleaned. `avail` grows only in [`CbRing::clean`] (the driver's queue wake-up relies on it).
pub(crate) struct CbRing {
    mem: CoherentAllocation<Cb>,
    tx: TxSlots,
    count: usize,
    to_use: usize,
    to_send: usize,
    to_clean: usize,
    avail: usize,
    sent: usize,
    unsent: usize,
    /// The next kick is a CU_START (first after a reset) rather than a CU_RESUME.
    cu_start: bool,
}

impl CbRing {
    /// Allocates room for the largest ring, [`CBS`]'s maximum (one coherent block of 256 CBs,
    /// order 6, and the transmit slots), kept by the driver from its first bring-up to its
    /// removal and re-armed by [`CbRing::reset`] at every bring-up after: as e100.c's DMA pool
    /// (created at probe, its block allocated at the first open and reused), no resume, reset
    /// or resize needs a high-order allocation again. Returns it linked as a ring of `count`.
    pub(crate) fn new(dev: &Device<Bound>, count: usize) -> Result<Self> {
        let cap = CBS.2 as usize;
        let mut ring = Self {
            mem: CoherentAllocation::<Cb>::alloc_coherent(dev, cap, GFP_KERNEL)?,
            tx: TxSlots::new(dev, cap)?,
            count: cap,
            to_use: 0,
            to_send: 0,
            to_clean: 0,
            avail: cap,
            sent: 0,
            unsent: 0,
            cu_start: true,
        };
        ring.reset(count)?;
        Ok(ring)
    }

    /// Makes this a fresh ring of `count` CBs (at most [`CBS`]'s maximum, the room allocated):
    /// every transmit buffer still held is unmapped and freed, the first `count` CBs are
    /// linked in a circle, all free, and the next kick is a CU_START. The chip must have been
    /// reset first (its CU may hold an address in the block). `EINVAL` for a bad `count`.
    pub(crate) fn reset(&mut self, count: usize) -> Result {
        if count < 2 || count > self.mem.count() || count > self.tx.count() {
            return Err(EINVAL);
        }
        for i in 0..self.tx.count() {
            // Never sent as far as the stack knows: freed as drops.
            drop(self.tx.unmap(i));
        }
        for i in 0..count {
            let next = self.mem.dma_handle_at(ring_next(i, count))?;
            dma_write!(self.mem, i, { status = 0, command = 0, link = (next as u32).to_le() })?;
        }
        // INVARIANT: every CB free, no slot filled.
        self.count = count;
        self.to_use = 0;
        self.to_send = 0;
        self.to_clean = 0;
        self.avail = count;
        self.sent = 0;
        self.unsent = 0;
        self.cu_start = true;
        Ok(())
    }

    /// Frees every transmit buffer the ring holds (the chip reset, or about to be dropped with
    /// it): what `down` does before it keeps the ring for the next bring-up.
    pub(crate) fn release(&mut self) {
        for i in 0..self.tx.count() {
            drop(self.tx.unmap(i));
        }
        self.sent = 0;
        self.unsent = 0;
        self.avail = self.count;
        self.to_send = self.to_use;
        self.to_clean = self.to_use;
    }

    /// Free CBs.
    pub(crate) fn avail(&self) -> usize {
        self.avail
    }

    /// The bus address of the CB the next `issue` fills (a transmit body points into it).
    pub(crate) fn next_cb_addr(&self) -> u32 {
        self.addr(self.to_use)
    }

    fn next(&self, i: usize) -> usize {
        ring_next(i, self.count)
    }

    fn prev(&self, i: usize) -> usize {
        ring_prev(i, self.count)
    }

    /// Queues a command: fills the CB at `to_use` with `command` and `body` (a
    /// [`desc::Body`]'s words), hands it to the CU and kicks it. `ENOSPC` if no CB is free.
    pub(crate) fn issue(&mut self, io: &Csr, command: u16, body: &[u32]) -> Result {
        if self.avail == 0 {
            return Err(ENOSPC);
        }
        // Its slot is empty: `clean` empties every slot it passes.
        self.fill(self.to_use, command | CB_S, body)?;
        self.queued(io);
        Ok(())
    }

    /// [`CbRing::issue`] for a command the CU ends idle at: the CB has EL set instead of S. The
    /// microcode load is sent so, as e100.c (`e100_setup_ucode`) and fxp (`fxp_load_ucode`)
    /// send it: loading microcode changes what the CU runs, and neither lets a CU Resume carry
    /// the CU on from it. Once it has completed, [`CbRing::cu_idle`] makes the next kick a
    /// CU_START ("must restart cuc", e100.c).
    pub(crate) fn issue_last(&mut self, io: &Csr, command: u16, body: &[u32]) -> Result {
        if self.avail == 0 {
            return Err(ENOSPC);
        }
        self.fill(self.to_use, command | CB_EL, body)?;
        self.queued(io);
        Ok(())
    }

    /// The CU went idle at a completed EL CB ([`CbRing::issue_last`]) and everything queued is
    /// complete: the next kick starts it again with CU_START at the first CB not yet sent.
    pub(crate) fn cu_idle(&mut self) {
        self.cu_start = true;
    }

    /// Queues a transmit: maps `skb` into the slot of the CB at `to_use` for `dev`, fills the CB
    /// with `command` and the body `body` makes of the CB's and the frame's bus addresses (the
    /// mapping takes the frame's timestamp), hands the CB to the CU and kicks it. On failure the
    /// frame is handed back, not mapped (`ENOSPC`: no CB is free; a mapping error), or, in the
    /// unlikely case the CB could not be written after it was mapped, freed (`None`), its
    /// timestamp already taken.
    pub(crate) fn issue_tx<'a>(
        &mut self,
        io: &Csr,
        dev: &Device<Bound>,
        command: u16,
        skb: TxSkb<'a>,
        body: impl FnOnce(u32, u32) -> desc::Body<CB_HEAD_WORDS>,
    ) -> core::result::Result<(), (Error, Option<TxSkb<'a>>)> {
        if self.avail == 0 {
            return Err((ENOSPC, Some(skb)));
        }
        let i = self.to_use;
        let addr = match self.tx.map(dev, i, skb) {
            Ok(a) => a,
            Err((skb, e)) => return Err((e, Some(skb))),
        };
        let head = body(self.addr(i), addr as u32).all_words();
        if let Err(e) = self.fill_head(i, command | CB_S, head) {
            drop(self.tx.unmap(i));
            return Err((e, None));
        }
        self.queued(io);
        Ok(())
    }

    /// Hands the CB just filled at `to_use` to the CU, and kicks it. Called only with a CB
    /// free (`avail > 0`, both callers check before filling it).
    #[inline(always)]
    fn queued(&mut self, io: &Csr) {
        let i = self.to_use;
        self.to_use = self.next(i);
        // Neither wraps: `avail > 0` (above), and `unsent < count` since `avail` was not 0
        // (invariant: `sent + unsent + avail == count`). Wrapping spares the overflow checks
        // the compiler cannot drop (the counts are reloaded after the CB's volatile writes).
        self.avail = self.avail.wrapping_sub(1);
        self.unsent = self.unsent.wrapping_add(1);
        // Order matters: the new CB's S bit is set (in `fill_head`), then the previous CB's is
        // cleared, so the CU always has a suspend point ahead of it.
        dma::wmb();
        let p = self.prev(i);
        if let Ok(c) = dma_read!(self.mem, p, command) {
            let _ = dma_write!(self.mem, p, command = (u16::from_le(c) & !CB_S).to_le());
        }
        // `i` is the newest CB: known here, not worked out again from `to_use` (which the
        // barriers make the compiler reload).
        self.kick_at(io, i);
    }

    /// Writes CB `i` with `command` (its S or EL bit included) and `body`, status clear.
    fn fill(&mut self, i: usize, command: u16, body: &[u32]) -> Result {
        // The first words in one element access (past a short body's end, zeros the device
        // ignores); the rest, for the commands that have more, word by word.
        let mut head = [0u32; CB_HEAD_WORDS];
        for (h, w) in head.iter_mut().zip(body) {
            *h = *w;
        }
        if body.len() <= CB_HEAD_WORDS {
            // Most commands': one element access for all of it.
            return self.fill_head(i, command, head);
        }
        let [h0, h1, h2, h3] = head;
        dma_write!(self.mem, i, { head0 = h0, head1 = h1, head2 = h2, head3 = h3 })?;
        for (k, w) in body
            .iter()
            .skip(CB_HEAD_WORDS)
            .enumerate()
            .take(desc::CB_BODY_WORDS - CB_HEAD_WORDS)
        {
            dma_write!(self.mem, i, rest[k] = *w)?;
        }
        dma_write!(self.mem, i, { status = 0, command = command.to_le() })
    }

    /// Writes CB `i` with a body of at most [`CB_HEAD_WORDS`] words (a transmit's: one element
    /// access for all of it, each word written from a register), `command` (its S or EL bit
    /// included), status clear.
    #[inline(always)]
    fn fill_head(&mut self, i: usize, command: u16, head: [u32; CB_HEAD_WORDS]) -> Result {
        let [h0, h1, h2, h3] = head;
        dma_write!(self.mem, i, {
            head0 = h0,
            head1 = h1,
            head2 = h2,
            head3 = h3,
            status = 0,
            command = command.to_le()
        })
    }

    /// Bus address of CB `i` (32-bit: the DMA mask is 32 bits).
    fn addr(&self, i: usize) -> u32 {
        self.mem.dma_handle_at(i).map_or(0, |a| a as u32)
    }

    /// Hands the CU the CBs queued since the last kick, with one command at most.
    ///
    /// Queued CBs are chained (each one's S bit was cleared when the next was queued), so one
    /// CU_START or CU_RESUME runs the CU through all of them to the newest, where it suspends.
    /// A second command for the same CBs would find the CU suspended at the newest CB, whose
    /// link leads to a free CB holding a stale transmit: no command is sent when one already
    /// covers them, that is when the SCB still holds our START or RESUME (the CU has not taken
    /// it yet, and will find the S bits cleared when it does), or when the newest CB is already
    /// complete (an earlier command carried the CU through it). If the SCB will not take the
    /// command, the CBs stay unsent and the next kick (from `issue` or `poll`) tries again.
    #[inline(always)]
    pub(crate) fn kick(&mut self, io: &Csr) {
        if self.unsent == 0 {
            return;
        }
        self.kick_at(io, self.prev(self.to_use));
    }

    /// [`CbRing::kick`] with CBs unsent (`unsent > 0`), given the newest of them, `newest` (the
    /// CB before `to_use`).
    #[inline(always)]
    fn kick_at(&mut self, io: &Csr, newest: usize) {
        if self.cu_start {
            // CU_START takes the first unsent CB's address.
            if exec_cmd(io, scb::CUC_START, Some(self.addr(self.to_send))).is_ok() {
                self.cu_start = false;
                self.handed_over();
            }
            return;
        }
        // The window's address held across the barrier, the SCB read and (when the command
        // goes in at once) the write.
        let regs = io.base();
        // The cleared S bit must be visible to the device before the SCB is read: a pending
        // RESUME is relied on only if the CU will see it when it takes the command.
        dma::mb();
        // The command byte: 0 means the SCB has taken every command.
        let byte = regs.read8(hw::SCB_CMD_LO);
        let pending = byte & scb::CUC_MASK;
        if pending == scb::CUC_RESUME || pending == scb::CUC_START || self.complete(newest) {
            self.handed_over();
            return;
        }
        // CU_RESUME continues from the suspended CB's link and ignores the pointer, so it is
        // not written (one MMIO write less a frame). With no command pending, nobody else
        // issues one (the CU lock), so it goes in at once (one MMIO read less a frame, as
        // e100.c's resume).
        let sent = if byte == 0 {
            regs.write8(scb::CUC_RESUME, hw::SCB_CMD_LO);
            Ok(())
        } else {
            exec_cmd(io, scb::CUC_RESUME, None)
        };
        if sent.is_ok() {
            self.handed_over();
        }
    }

    /// Every queued CB now belongs to the CU.
    fn handed_over(&mut self) {
        self.to_send = self.to_use;
        // `sent + unsent <= count` (invariant): no wrap.
        self.sent = self.sent.wrapping_add(self.unsent);
        self.unsent = 0;
    }

    /// Whether CB `i` has its C (complete) bit set.
    fn complete(&self, i: usize) -> bool {
        dma_read!(self.mem, i, status).is_ok_and(|s| u16::from_le(s) & CB_COMPLETE != 0)
    }

    /// Whether CBs are queued that the SCB has not accepted yet.
    pub(crate) fn has_unsent(&self) -> bool {
        self.unsent > 0
    }

    /// Whether any CB is queued, or handed to the CU and not yet cleaned.
    pub(crate) fn busy(&self) -> bool {
        self.sent != 0 || self.unsent != 0
    }

    /// Returns completed CBs to the pool, moving their transmit buffers into `freed`; stops
    /// when `freed` is full (the caller frees those and calls again).
    #[inline(always)]
    pub(crate) fn clean(&mut self, freed: &mut Reclaimed) -> Cleaned {
        // The sums wrap rather than check: one pass adds at most a batch of frames, far from
        // `u32`'s range, so they never do.
        let mut done = Cleaned::default();
        while !freed.is_full() {
            let Some(sent) = self.sent.checked_sub(1) else {
                break;
            };
            let i = self.to_clean;
            let status = match dma_read!(self.mem, i, status) {
                Ok(s) => u16::from_le(s),
                Err(_) => break,
            };
            if status & CB_COMPLETE == 0 {
                break;
            }
            // The frame, unmapped (the CU is done with it), goes into the batch.
            match self.tx.unmap(i).map(|skb| freed.push(skb)) {
                Some(len) => {
                    if status & desc::CB_OK != 0 {
                        done.sent_pkts = done.sent_pkts.wrapping_add(1);
                        done.sent_bytes = done.sent_bytes.wrapping_add(len);
                    }
                    done.pkts = done.pkts.wrapping_add(1);
                    done.bytes = done.bytes.wrapping_add(len);
                }
                None if status & desc::CB_OK == 0 => {
                    done.cmd_failed = done.cmd_failed.wrapping_add(1);
                }
                None => {}
            }
            self.to_clean = self.next(i);
            self.sent = sent;
            // At most `count` (invariant: `sent + unsent + avail == count`).
            self.avail = self.avail.wrapping_add(1);
        }
        done
    }
}

/// How many transmit buffers one clean pass takes off the ring at most.
pub(crate) const RECLAIM_BATCH: usize = 16;

/// Transmit buffers taken off the CB ring (unmapped) by [`CbRing::clean`], to be freed once the
/// CU lock (which keeps interrupts disabled) is dropped.
pub(crate) struct Reclaimed(SkbBatch<RECLAIM_BATCH>);

impl Reclaimed {
    /// An empty batch (nothing written: made for every poll's transmit clean).
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Self(SkbBatch::new())
    }

    /// Whether the batch has no room left.
    #[inline(always)]
    pub(crate) fn is_full(&self) -> bool {
        self.0.is_full()
    }

    /// Adds `skb` to the batch and returns its length. The caller checks there is room
    /// (`is_full`); a full batch frees the buffer at once rather than lose it.
    #[inline]
    fn push(&mut self, skb: SkBuff) -> u32 {
        let len = skb.len();
        if let Err(skb) = self.0.push(skb) {
            skb.consume();
        }
        len
    }

    /// Frees the buffers, the NAPI way.
    #[inline(always)]
    pub(crate) fn free<S>(&mut self, poll: &Poll<'_, S>) {
        self.0.drain(|skb| poll.consume(skb));
    }
}

impl Cleaned {
    /// Adds another pass's figures.
    pub(crate) fn add(&mut self, o: &Cleaned) {
        // Wrapping, as in `CbRing::clean`: a poll's passes clean at most a ring's worth each.
        self.pkts = self.pkts.wrapping_add(o.pkts);
        self.bytes = self.bytes.wrapping_add(o.bytes);
        self.sent_pkts = self.sent_pkts.wrapping_add(o.sent_pkts);
        self.sent_bytes = self.sent_bytes.wrapping_add(o.sent_bytes);
    }
}

/// One armed receive buffer.
pub(crate) struct Rx {
    buf: RxMapping<RFD_LEN>,
}

/// The RFA's array of slots while no ring is built: empty, with room for the largest ring
/// ([`RFDS`]'s maximum; 256 slots are more than a page). Allocated at the first bring-up and
/// kept: later bring-ups (resume, reset, resize) build their ring in it.
pub(crate) struct RxStore(KVec<Rx>);

impl RxStore {
    /// An empty array with room for the largest ring.
    pub(crate) fn new() -> Result<Self> {
        Ok(Self(KVec::with_capacity(RFDS.2 as usize, GFP_KERNEL)?))
    }
}

/// The RFA.
///
/// # Invariants
///
/// There are at least two slots (`bufs`, whose length is the ring's: indices wrap at it);
/// `clean` and `stop` are slot indices. Every slot holds a mapped buffer with an RFD header
/// (the slot type, `RxMapping<RFD_LEN>`, guarantees the header); `stop` is the one RFD with EL
/// set and size 0; the RFDs from `clean` up to `stop` (ring order) belong to the RU. Between
/// cleaning passes `stop` is the RFD just before `clean` (a pass's first [`RxRing::advance`]
/// relies on it: the RFD before the first one it consumes is the stop point, not one the RU
/// owns).
pub(crate) struct RxRing {
    bufs: KVec<Rx>,
    clean: usize,
    stop: usize,
}

/// Room for frame data in an RFD.
const RFD_SIZE: u16 = (RFD_BUF_LEN - RFD_LEN) as u16;

/// What the receive path keeps (the `rx-fcs` and `rx-all` features), and where it counts the
/// frames it does not deliver as such.
pub(crate) struct RxOpts<'a> {
    /// Frames end with their FCS (Configure's CRC transfer is on).
    pub(crate) fcs: bool,
    /// Frames with errors are passed up too (Configure saves them).
    pub(crate) all: bool,
    /// RFDs may complete with no frame in them: QEMU's model ([`crate::qemu`]), whose ways of
    /// doing it the pass works around. A chip never does: on one, such an RFD is counted as a
    /// drop and re-armed.
    pub(crate) empty_rfds: bool,
    /// Dropped and over-length frames are counted here as they happen (rare: one locked add
    /// each); multicast (and broadcast) frames once a pass.
    pub(crate) counters: &'a stats::DataCounters,
}

/// What a receive pass did.
#[derive(Default)]
pub(crate) struct Received {
    /// RFDs consumed (the NAPI work done), whatever became of their frames.
    pub(crate) work: usize,
    /// The pass reached the stop point: every RFD the RU had was complete, so the RU may
    /// have run out of them (RNR).
    pub(crate) at_stop: bool,
    /// An RFD was completed empty with the RU still ready and receiving nothing after it:
    /// QEMU's model, whose net layer then holds every frame until an RU Start (the chip never
    /// completes an RFD empty).
    pub(crate) held: bool,
    /// Frames delivered to the stack, and their bytes. (The other counts go to
    /// [`RxOpts::counters`] from the pass itself: a poll's result carries only what its
    /// caller needs.)
    pub(crate) pkts: u32,
    pub(crate) bytes: u64,
}

/// A fresh receive buffer with its RFD header written, link 0 (before it is mapped: no sync
/// needed).
fn fresh_rx(ndev: &NetDevice, el: bool) -> Result<RxBuf> {
    rfd_buf(RxBuf::alloc_rx(ndev, RFD_BUF_LEN as u32), el)
}

/// `buf` (a receive buffer of `RFD_BUF_LEN` bytes just allocated, or `None` if that failed)
/// with its RFD header written (before it is mapped: no sync needed), a stop point with `el`.
///
/// The link is 0: the poll's refills are stop points, and the RU never follows a stop point's
/// link. Reaching an RFD with EL set it goes to No Resources, which only an RU Start (with the
/// address in the SCB's pointer) leaves (8255x manual, the RU commands: RU Resume is ignored
/// unless the RU is suspended; this driver sends none, see [`scb`]). An RFD stops being a stop
/// point either with its link published first ([`RxRing::move_stop`]) or while the RU cannot
/// reach it, behind the stop point ([`RxRing::advance`], which rewrites the whole header; a new
/// ring, linked whole before the RU is started). Leaving the next RFD's address out saves the
/// receive path 7 instructions a frame (measured 2026-12-06). Nor was it a safer address: it
/// was the buffer the next refill handed to the stack.
#[inline(always)]
fn rfd_buf(buf: Option<RxBuf>, el: bool) -> Result<RxBuf> {
    let mut buf = buf.ok_or(ENOMEM)?;
    let size = if el { 0 } else { RFD_SIZE };
    buf.write_head(0, &desc::rfd_header(0, el, size))?;
    Ok(buf)
}

/// A fresh receive buffer with its RFD header written (link 0), mapped; with `clear`, the rest
/// of it zeroed first, so that the CPU can read the frame received into it.
fn new_rx(
    ndev: &NetDevice,
    dev: &Device<Bound>,
    el: bool,
    clear: bool,
) -> Result<RxMapping<RFD_LEN>> {
    let mut buf = fresh_rx(ndev, el)?;
    if clear {
        buf.clear_to(RFD_BUF_LEN as u32)?;
    }
    buf.map(dev, RFD_BUF_LEN as u32).map_err(|(_, e)| e)
}

impl RxRing {
    /// Allocates and arms `count` receive buffers in `store`, the last one the stop point;
    /// `clear` zeroes them whole (a self-test's ring, for [`RxRing::holds_frame`]). On failure
    /// the buffers are freed and the store handed back, empty.
    pub(crate) fn new(
        ndev: &NetDevice,
        dev: &Device<Bound>,
        count: usize,
        clear: bool,
        store: RxStore,
    ) -> core::result::Result<Self, (Error, RxStore)> {
        let mut bufs = store.0;
        match Self::arm(ndev, dev, count, clear, &mut bufs) {
            Ok(()) => {
                let mut ring = Self {
                    bufs,
                    clean: 0,
                    stop: count - 1,
                };
                for i in 0..count {
                    if let Err(e) = ring.link(i) {
                        return Err((e, ring.into_store()));
                    }
                }
                Ok(ring)
            }
            Err(e) => {
                bufs.clear();
                Err((e, RxStore(bufs)))
            }
        }
    }

    /// Fills the empty `bufs` with `count` armed buffers, within its capacity (no allocation of
    /// the array itself).
    fn arm(
        ndev: &NetDevice,
        dev: &Device<Bound>,
        count: usize,
        clear: bool,
        bufs: &mut KVec<Rx>,
    ) -> Result {
        if count < 2 || count > bufs.capacity() || !bufs.is_empty() {
            return Err(EINVAL);
        }
        for i in 0..count {
            let buf = new_rx(ndev, dev, i == count - 1, clear)?;
            // Within the capacity: no allocation.
            bufs.push(Rx { buf }, GFP_KERNEL)?;
        }
        Ok(())
    }

    /// Frees every buffer (unmapping it; the chip must have been reset) and keeps the array.
    pub(crate) fn into_store(mut self) -> RxStore {
        self.bufs.clear();
        RxStore(self.bufs)
    }

    fn addr(&self, i: usize) -> u32 {
        self.bufs.get(i).map_or(0, |r| r.buf.dma_addr() as u32)
    }

    /// Points RFD `i`'s link at RFD `i + 1`.
    #[inline]
    fn link(&mut self, i: usize) -> Result {
        let next = self.addr(ring_next(i, self.bufs.len()));
        let r = self.bufs.get_mut(i).ok_or(EINVAL)?;
        r.buf
            .update_head::<RFD_LEN, _>(|h| h.set_le32::<{ desc::RFD_LINK_OFFSET }>(next))
    }

    /// Writes RFD `i`'s whole header, a word at a time in ascending order.
    #[inline(always)]
    fn write_header(&mut self, i: usize, link: u32, el: bool, size: u16) -> Result {
        let [w0, w1, w2, w3] = desc::rfd_header_words(link, el, size);
        self.bufs
            .get_mut(i)
            .ok_or(EINVAL)?
            .buf
            .update_head::<RFD_LEN, _>(|h| {
                h.set_le32::<0>(w0);
                h.set_le32::<4>(w1);
                h.set_le32::<8>(w2);
                h.set_le32::<12>(w3);
            })
    }

    /// The bus address the RU should start at.
    pub(crate) fn start_addr(&self) -> u32 {
        self.addr(self.clean)
    }

    /// RFD `i`'s status once the RU has completed it; `None` before (or for an index out of
    /// range, which the ring's invariant rules out; the header itself is always readable: the
    /// slots' type, `RxMapping<RFD_LEN>`, holds it).
    #[inline(always)]
    fn status(&self, i: usize) -> Option<RfdStatus> {
        // The status and count words come out of the view together, the count read after the
        // status, behind a read barrier (the chip writes the status last; QEMU's model may
        // not, see `clean`): it is the frame's when the status read was complete, and is not
        // looked at otherwise. One test of the status, after the view, decides.
        let (status, count) = self
            .bufs
            .get(i)?
            .buf
            .read_head::<RFD_LEN, _>(|h| {
                let status = h.le16::<{ desc::RFD_STATUS_OFFSET }>();
                dma::rmb();
                (status, h.le16::<{ desc::RFD_COUNT_OFFSET }>())
            })
            .ok()?;
        (status & CB_COMPLETE != 0).then(|| desc::rfd_status_words(status, count))
    }

    /// Delivers up to the poll's budget of received frames to the stack through `rx`, refills
    /// their slots (with buffers from NAPI's cache) and moves the stop point; counts multicast
    /// (and broadcast), dropped and over-length frames in `opts.counters`. Returns what else it
    /// did. `ru_stopped` reads whether the RU is out of the ready state; it is asked only about
    /// an RFD completed with no frame in it.
    pub(crate) fn clean(
        &mut self,
        rx: Receiver<'_>,
        dev: &Device<Bound>,
        opts: RxOpts<'_>,
        mut ru_stopped: impl FnMut() -> bool,
    ) -> Received {
        let mut got = Received::default();
        let mut multicast = 0u32;
        let budget = rx.budget();
        while got.work < budget && self.clean != self.stop {
            let i = self.clean;
            let Some(mut st) = self.status(i) else {
                break;
            };
            if st.actual == 0 {
                if !opts.empty_rfds {
                    // A chip completes no RFD empty but one it reads between `move_stop`'s
                    // last two writes (EL clear, size still 0): counted, and re-armed in place.
                    if self.rearm(i).is_err() {
                        break;
                    }
                    stats::add(&opts.counters.rx_dropped, 1);
                    self.advance(i);
                    got.work = got.work.wrapping_add(1);
                    continue;
                }
                // Complete with no frame in it: the chip never does this, QEMU's model does
                // in three ways. It writes an RFD's status before its count and data, so a poll
                // can see the status of a frame whose count is still to come: the RU is then
                // receiving, and the frame's own FR interrupt brings the poll back for it.
                // When the stop point moves just after its RU read it (EL, size 0), the model
                // completes the old stop point with 0 bytes and goes to No Resources, the frame
                // waiting in QEMU for the RU's restart. And an RFD it reads between the two
                // writes that restore an old stop point (EL clear, size still 0) it completes
                // with 0 bytes and goes on, the RU still ready (and upstream's model then holds
                // every later frame until an RU Start: `settle_held`, after the loop). Either
                // way, once the RU has stopped or completed the next RFD the count is final,
                // and an empty RFD is re-armed where it is, with no buffer asked for and
                // nothing counted.
                let moved_on = self.status(ring_next(i, self.bufs.len())).is_some();
                if !moved_on && !ru_stopped() {
                    got.held = true;
                    break;
                }
                // Whatever the model was writing here is written now: it finished this RFD
                // before it completed the next one (read first, with a read barrier after),
                // and it answers the SCB read only between frames (the RU may have stopped
                // after it). Look again.
                st = match self.status(i) {
                    Some(st) => st,
                    None => break,
                };
                if st.actual == 0 {
                    if self.rearm(i).is_err() {
                        break;
                    }
                    self.advance(i);
                    got.work = got.work.wrapping_add(1);
                    continue;
                }
            }
            // The sums below cannot wrap (at most `budget` frames a pass); wrapping adds
            // spare the per-frame overflow checks.
            got.work = got.work.wrapping_add(1);
            // A fresh buffer first, a stop point (see `rfd_buf`), mapped in the slot
            // in place of the frame's (which comes back unmapped): without one, the frame is
            // dropped and its buffer re-armed (as a stop point too).
            let Some(slot) = self.bufs.get_mut(i) else {
                break;
            };
            let refilled = rfd_buf(RxBuf::alloc_rx_napi(rx, RFD_BUF_LEN as u32), true)
                .and_then(|b| slot.buf.replace(dev, b).map_err(|(_, e)| e));
            let frame = match refilled {
                Ok(old) => old,
                Err(_) => {
                    if self.rearm(i).is_err() {
                        break;
                    }
                    stats::add(&opts.counters.rx_dropped, 1);
                    self.advance(i);
                    continue;
                }
            };
            self.advance(i);

            if !st.ok && !opts.all {
                // Counted by the hardware statistics (CRC, alignment, ...). A refused buffer
                // is dropped as the `SkBuff` it holds (the same `dev_kfree_skb_any`), here and
                // below: the `RxBuf`'s own drop glue would keep the buffer in a stack slot on
                // the good frame's path too (see the README's 2026-12-04 night count).
                drop(frame.into_skb());
                continue;
            }
            // A VLAN-tagged maximum frame, and its FCS when that is kept.
            let max = RFD_BUF_LEN - RFD_LEN - if opts.fcs { 0 } else { 4 };
            if usize::from(st.actual) > max {
                stats::add(&opts.counters.rx_over_length_errors, 1);
                // `rx-all` keeps it anyway, as e100.c does.
                if !opts.all {
                    drop(frame.into_skb());
                    continue;
                }
            }
            let Ok(group) = rx.receive(frame, RFD_LEN as u32, u32::from(st.actual)) else {
                stats::add(&opts.counters.rx_dropped, 1);
                continue;
            };
            if group {
                multicast = multicast.wrapping_add(1);
            }
            got.pkts = got.pkts.wrapping_add(1);
            // Bytes of the frame, not of its FCS (as e100.c counts them).
            let fcs = if opts.fcs { 4 } else { 0 };
            got.bytes = got
                .bytes
                .wrapping_add(u64::from(st.actual.saturating_sub(fcs)));
        }
        if got.held && self.settle_held() {
            got.work = got.work.wrapping_add(1);
        } else {
            got.held = false;
        }
        got.at_stop = self.clean == self.stop;
        self.move_stop();
        stats::add(&opts.counters.multicast, multicast.into());
        got
    }

    /// Whether a frame equal to `want` has been received, good, into one of the RFDs the RU
    /// holds (from `clean` on), without consuming any: the offline loopback test's check,
    /// made while NAPI is off, on a ring made with `clear` (the frame's bytes cannot be read
    /// otherwise: it is never found).
    pub(crate) fn holds_frame(&self, want: &[u8]) -> bool {
        let mut i = self.clean;
        while i != self.stop {
            match self.status(i) {
                Some(st) => {
                    let same = st.ok
                        && usize::from(st.actual) == want.len()
                        && self.bufs.get(i).is_some_and(|r| {
                            r.buf
                                .read_with(RFD_LEN, want.len(), |v| {
                                    want.iter().enumerate().all(|(k, b)| v.u8(k) == *b)
                                })
                                .unwrap_or(false)
                        });
                    if same {
                        return true;
                    }
                }
                _ => return false,
            }
            i = ring_next(i, self.bufs.len());
        }
        false
    }

    fn prev(&self, i: usize) -> usize {
        ring_prev(i, self.bufs.len())
    }

    /// The pass stopped at an RFD completed empty with the RU reading ready and the next RFD
    /// not complete. The SCB has answered since, and QEMU's model answers it only between
    /// frames: if the RFD now has a count, it was a frame still being written, left for the
    /// poll its own interrupt brings; if it is still empty and so is the next RFD, the model
    /// completed it empty, went on and took no frame since: upstream's net layer now holds
    /// every frame until an RU Start. The RFD is then re-armed in place and passed (nothing
    /// counted), and `true` says the RU is to be started where the model stands, at the next
    /// RFD to clean. Out of line and cold: the receive loop's registers are laid out for
    /// frames (inline, this cost it 19 instructions a frame).
    #[cold]
    #[inline(never)]
    fn settle_held(&mut self) -> bool {
        let i = self.clean;
        let after = ring_next(i, self.bufs.len());
        let empty = self.status(i).is_some_and(|st| st.actual == 0);
        if !empty || self.status(after).is_some() {
            return false;
        }
        if self.rearm(i).is_err() {
            return false;
        }
        self.advance(i);
        true
    }

    /// Re-arms slot `i`'s buffer in place as a stop point (EL, size 0, link 0: see `rfd_buf`):
    /// its refill failed (the frame is dropped), or it held no frame.
    #[inline]
    fn rearm(&mut self, i: usize) -> Result {
        self.write_header(i, 0, true, 0)
    }

    /// Slot `i`, refilled or re-armed as a stop point by this pass, becomes the newest RFD:
    /// the RFD before it, refilled or re-armed just before it, becomes an ordinary RFD leading
    /// to its (possibly new) buffer, its whole header rewritten; not the stop point, which
    /// [`Self::move_stop`] rewrites after the pass (the RU does not leave it by its link
    /// meanwhile: its EL is set). `clean` moves past `i`. Between passes the newest RFD so is
    /// the only one with EL set, without a write of its own to mark it.
    #[inline(always)]
    fn advance(&mut self, i: usize) {
        let prev = self.prev(i);
        if prev != self.stop {
            let to = self.addr(i);
            let _ = self.write_header(prev, to, false, RFD_SIZE);
        }
        self.clean = ring_next(i, self.bufs.len());
    }

    /// Moves the stop point to just before `clean`, the last RFD this pass refilled or
    /// re-armed, already a stop point ([`Self::advance`]): the old one becomes an ordinary RFD
    /// leading to the first of them. Its link is written first, while its EL still holds the
    /// RU; then its status and command (status 0, EL cleared), and then its size (e100.c's
    /// order), each write published to the device on its own
    /// ([`Head::publish`](kernel::net::skbuff::Head::publish)).
    /// A device reading the header meanwhile never finds EL clear beside the link to the
    /// buffer this pass took away, nor room in an RFD that is still a stop point (a frame
    /// received there would be overwritten by the restore). One that reads it between the
    /// last two writes finds EL clear and no room, and completes it empty (QEMU's model:
    /// `clean` re-arms it once the RU has gone past it).
    #[inline(always)]
    fn move_stop(&mut self) {
        let new = self.prev(self.clean);
        if new == self.stop {
            return;
        }
        let old = self.stop;
        let to = self.addr(ring_next(old, self.bufs.len()));
        let Some(r) = self.bufs.get_mut(old) else {
            return;
        };
        // Status 0 and the command word with EL cleared.
        let [w0, ..] = desc::rfd_header_words(to, false, RFD_SIZE);
        // Three writes, each published on its own (a write barrier, and, on a device that is
        // not coherent or whose mappings are bounced, a sync: one sync at the end would show
        // it all three at once, in no order). The size is written alone: the count is read
        // only from an RFD the RU has completed again.
        let written = r.buf.update_head::<RFD_LEN, _>(|h| {
            h.set_le32::<{ desc::RFD_LINK_OFFSET }>(to);
            h.publish();
            h.set_le32::<{ desc::RFD_STATUS_OFFSET }>(w0);
            h.publish();
            h.set_le16::<{ desc::RFD_SIZE_OFFSET }>(RFD_SIZE);
        });
        if written.is_err() {
            return;
        }
        self.stop = new;
    }

    /// Whether the RU may be restarted now: the RFD it would start at holds no frame.
    pub(crate) fn can_restart(&self) -> bool {
        self.clean != self.stop
            && self.bufs.get(self.clean).is_some_and(|r| {
                r.buf
                    .read_head::<RFD_LEN, _>(|h| {
                        h.le16::<{ desc::RFD_STATUS_OFFSET }>() & CB_COMPLETE == 0
                    })
                    .unwrap_or(false)
            })
    }
}
