// SPDX-License-Identifier: GPL-2.0
//! The positive control: the same APIs the misuse snippets abuse, used as intended. It must
//! build without a diagnostic, so that a misuse snippet failing means the misuse, not the setup.

use kernel::prelude::*;

module! {
    type: M,
    name: "control",
    author: "e100_rs tests",
    description: "must compile",
    license: "GPL",
}

struct M;

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}

use kernel::{
    device::{Bound, Core},
    devres::Devres,
    dma::CoherentAllocation,
    net::{dev::rtnl_lock, skbuff::RxMapping},
    pci,
    revocable::Revocable,
};

use kernel::net::{
    dev::{AddrList, Device, Operations, TxOutcome},
    napi::{Poll, PollDone},
    skbuff::{TxSkb, TxSlots},
};

#[allow(dead_code)]
struct Nic;

/// A transmit into slot `i` of the ring's slots (kept by the driver, under its lock).
#[allow(dead_code)]
fn queue<'a>(dev: &Device, slots: &mut TxSlots, i: usize, skb: TxSkb<'a>) -> TxOutcome<'a> {
    if let Err((skb, _)) = slots.map(dev.parent(), i, skb) {
        drop(skb);
    }
    TxOutcome::Ok
}

#[vtable]
impl Operations for Nic {
    type PollState = ();

    fn open(&self, _dev: &Device, _state: &mut ()) -> Result {
        Ok(())
    }

    fn stop(&self, _dev: &Device, _state: &mut ()) -> Result {
        Ok(())
    }

    fn start_xmit<'a>(&self, _dev: &Device, skb: TxSkb<'a>) -> TxOutcome<'a> {
        // A real driver queues it on its ring (see `queue`); this one has none.
        drop(skb);
        TxOutcome::Ok
    }

    fn set_rx_mode(&self, _dev: &Device, addrs: &AddrList<'_>) {
        let mut n = 0;
        addrs.for_each_mc(|_| n += 1);
        let _ = n;
    }

    fn poll<'a>(&self, _dev: &Device, mut poll: Poll<'a, ()>) -> PollDone<'a> {
        // A driver cleans its receive ring (the state) here, at most `rx.budget()` frames.
        if let Some((rx, state)) = poll.receiver_and_state() {
            let _ = rx.budget();
            *state = ();
        }
        poll.done(0, || {})
    }
}

#[vtable]
impl kernel::net::ethtool::Operations for Nic {
    const STATS: &'static [&'static str] = &["rx_packets"];

    fn get_ethtool_stats(&self, _dev: &Device, data: &mut [u64]) {
        data[0] = 0;
    }
}

kernel::dma_struct! {
    /// A descriptor.
    struct Desc {
        status: u16,
        size: u16,
        link: u32,
    }
}

#[allow(dead_code)]
fn status(ring: &CoherentAllocation<Desc>, i: usize) -> Result<u16> {
    kernel::dma_write!(ring, i, size = 1522)?;
    kernel::dma_write!(ring, i, { link = 0, size = 1522, status = 0 })?;
    kernel::dma_read!(ring, i, status)
}

#[allow(dead_code)]
fn bar_and_core(pdev: &pci::Device<Core>) -> Result {
    pdev.enable_device()?;
    let bar = pdev.iomap_region_sized::<4>(0, kernel::c_str!("control"))?;
    let bound: &kernel::device::Device<Bound> = pdev.as_ref();
    let _ = bar.access(bound)?.read8(0);
    Ok(())
}

#[allow(dead_code)]
fn peek(m: &RxMapping) -> Option<u8> {
    m.read_with(0, 16, |v| v.u8(0)).ok()
}

/// Public, as the `rx_head_*` snippets' functions are, so that it is compiled the same way.
pub fn head(m: &mut RxMapping) -> Option<u16> {
    m.update_head::<16, _>(|h| h.set_le16::<0>(0)).ok()?;
    m.read_head::<16, _>(|h| h.le16::<14>()).ok()
}

#[allow(dead_code)]
fn quiesce(pdev: &pci::Device<Core>, dev: &Device) {
    let rtnl = rtnl_lock(pdev.as_ref());
    let _ = dev.with_napi_disabled::<Nic, _>(&rtnl, |_| ());
    let _ = dev.with_napi_idle::<Nic, _>(&rtnl, |state| *state = ());
    let _ = dev.suspend_napi::<Nic, _>(&rtnl, |_| ());
    let _ = dev.resume_napi::<Nic, _>(&rtnl, |_| ());
    drop(rtnl);
    let addrs = dev.lock_addrs();
    let _ = addrs.mc_count();
}

#[allow(dead_code)]
fn peek_devres(dev: &kernel::device::Device<Bound>, d: &Devres<u32>) -> Result<u32> {
    Ok(*d.access(dev)?)
}

#[allow(dead_code)]
fn peek_revocable(r: &Revocable<u32>) -> u32 {
    // SAFETY: nothing sleeps while the guard lives.
    unsafe { r.try_access() }.map_or(0, |v| *v)
}
