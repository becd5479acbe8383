// SPDX-License-Identifier: GPL-2.0

//! QEMU's eepro100 model, told from a chip once, at probe.
//!
//! The driver does what Intel's manual, e100.c and FreeBSD's fxp do on a chip. QEMU's model of
//! the 8255x differs from the chip in four ways the driver must work around (the
//! `e100-qemu-facts` notes and `patches/qemu/README.md` say how), and only there:
//!
//! - it ignores Configure's padding bit and sends short frames short: transmits are padded to
//!   60 bytes in software;
//! - in extended-TCB mode it reads the second TBD inside the TCB whatever the TBD count says,
//!   sending stale bytes after the frame: TCBs are standard (flexible mode, the TBD array one
//!   TBD inside the CB), where a chip from the 82558 on gets e100.c's extended TCBs;
//! - it drops a frame sent with the NC bit (the FCS supplied by its sender): `SO_NOFCS` is not
//!   offered (`IFF_SUPP_NOFCS`), where a chip gets it, as in e100.c;
//! - it completes RFDs with no frame in them (status written before count and data, a stop
//!   point it raced with, an old stop point read half restored) and then may hold every later
//!   frame until an RU Start: the receive pass reads such an RFD again, restarts an RU that
//!   reads ready ([`crate::rings::RxRing::clean`]). On a chip an empty RFD is counted and
//!   re-armed.
//!
//! The model is known by the firmware's DMI identity, the usual kernel way to tell a platform:
//! QEMU's SMBIOS tables give the system manufacturer "QEMU" unless told otherwise (`-smbios
//! type=1,manufacturer=...`), and no board's firmware does. The test harness boots both ways,
//! so the chip's path runs on QEMU too, against its harness model made to behave as the chip
//! where that path depends on it. (A real 8255x passed through to a QEMU guest would take the
//! model's path: every workaround above is harmless on a chip, only not what e100.c does.)

use kernel::{c_str, dmi};

/// The workarounds in force for a device (the same for every device of the system).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Quirks {
    qemu: bool,
}

impl Quirks {
    /// The firmware's word: QEMU's model, or a chip.
    pub(crate) fn detect() -> Self {
        Self {
            qemu: dmi::matches(dmi::Field::SysVendor, c_str!("QEMU")),
        }
    }

    /// Short frames are padded in software (QEMU's model ignores Configure's padding bit).
    #[inline(always)]
    pub(crate) fn pad_short(self) -> bool {
        self.qemu
    }

    /// TCBs are standard on every generation (QEMU's model misreads extended ones).
    pub(crate) fn standard_tcb(self) -> bool {
        self.qemu
    }

    /// The model drops a frame sent with the NC bit (no CRC insertion), so `SO_NOFCS` is not
    /// offered there.
    pub(crate) fn qemu_drops_nofcs(self) -> bool {
        self.qemu
    }

    /// RFDs may complete empty, and the receive pass works around it.
    #[inline(always)]
    pub(crate) fn empty_rfds(self) -> bool {
        self.qemu
    }

    /// What the probe line says of them.
    pub(crate) fn describe(self) -> &'static str {
        if self.qemu {
            "QEMU's model (DMI): its workarounds on"
        } else {
            "chip path"
        }
    }
}
