// SPDX-License-Identifier: GPL-2.0

//! 8255x register map and chip identification: the Control/Status Registers (CSR), the System
//! Control Block (SCB) commands, the PORT commands, and the MAC generations.
//!
//! Kernel-independent (only `core`), so the host tests in `tests/host` build it too.

/// SCB status byte: CU and RU state.
pub(crate) const SCB_STATUS: usize = 0x00;
/// SCB interrupt-control byte: mask bits and software interrupt.
pub(crate) const SCB_CMD_HI: usize = 0x03;
/// SCB STAT/ACK byte: interrupt causes, written back to acknowledge.
pub(crate) const SCB_STAT_ACK: usize = 0x01;
/// STAT/ACK: the RU left the ready state ("receive not ready").
pub(crate) const STAT_ACK_RNR: u8 = 0x10;
/// STAT/ACK: a frame was received (FR).
pub(crate) const STAT_ACK_FR: u8 = 0x40;
/// STAT/ACK: a CB asking for an interrupt completed (CX), or the CU left the active state
/// (CNA: suspended at the end of the chain, or idle).
pub(crate) const STAT_ACK_CX: u8 = 0x80;
pub(crate) const STAT_ACK_CNA: u8 = 0x20;
/// SCB status byte: the RU status field (bits 2-5) and its "ready" value (receiving).
pub(crate) const RUS_MASK: u8 = 0x3c;
pub(crate) const RUS_READY: u8 = 0x10;
/// SCB command byte: CU and RU commands.
pub(crate) const SCB_CMD_LO: usize = 0x02;
/// SCB general pointer: the argument of a CU/RU command.
pub(crate) const SCB_GEN_PTR: usize = 0x04;
/// PORT: reset, self-test, dump.
pub(crate) const PORT: usize = 0x08;
/// EEPROM control, low byte: the 93Cxx bit-bang pins.
pub(crate) const EEPROM_CTRL_LO: usize = 0x0e;
/// EEPROM word 3 (compatibility), bit 7: the board enables automatic MDI/MDI-X switching
/// (ICH parts; e100.c's `eeprom_cnfg_mdix` and `eeprom_mdix_enabled`).
pub(crate) const EEPROM_CNFG_MDIX: usize = 3;
pub(crate) const EEPROM_MDIX_ENABLED: u16 = 1 << 7;
/// EEPROM word 6: the PHY's interface type in bits 8-11 (e100.c's `eeprom_phy_iface`).
pub(crate) const EEPROM_PHY_IFACE: usize = 6;
/// EEPROM word 0x0A (ID), bit 5: the board is wired for wake-on-LAN (auxiliary power, PME#)
/// and wake-up is on by default (e100.c's `eeprom_id` and `eeprom_id_wol`).
pub(crate) const EEPROM_ID: usize = 0x0a;
pub(crate) const EEPROM_ID_WOL: u16 = 1 << 5;
/// MDI control: management access to the PHY.
pub(crate) const MDI_CTRL: usize = 0x10;
/// Length of the CSR block every 8255x has (the C driver's `struct csr`).
pub(crate) const CSR_LEN: usize = 0x18;

/// SCB_CMD_HI: mask all interrupts.
pub(crate) const IRQ_MASK_ALL: u8 = 0x01;
/// SCB_CMD_HI: unmask all interrupts.
pub(crate) const IRQ_MASK_NONE: u8 = 0x00;

/// PORT: software reset (the whole chip).
pub(crate) const PORT_SOFTWARE_RESET: u32 = 0x0000;
/// PORT: self-test, results written to the 16-byte aligned address given with it.
pub(crate) const PORT_SELFTEST: u32 = 0x0001;
/// PORT: selective reset (stops DMA, keeps configuration).
pub(crate) const PORT_SELECTIVE_RESET: u32 = 0x0002;

/// The 82559ER's revision (Intel's 82559S A-step; e100.c's `mac_82559_D101S`), which QEMU's
/// i82559er presents too.
pub(crate) const REV_82559ER: u8 = 9;

/// Whether the part can wake the system on a magic packet: the 82558 and later have the
/// wake-up logic (e100.c's rule), except the 82559ER (revision 9), which can wake on a link
/// change only. e100.c offers magic-packet wake-up there all the same, and `ethtool` then shows
/// a wake-up that never comes; FreeBSD's fxp leaves revision 9 out, and so do we: a user sees
/// "Supports Wake-on: d", which is the truth. (By revision, as fxp does, not by device ID: the
/// 82551IT shares the 82559ER's ID 0x1209.)
pub(crate) fn wol_capable(mac: Mac) -> bool {
    mac >= Mac::M82558_D101_A4 && mac.revision() != REV_82559ER
}

/// Whether wake-on-LAN starts on: the part can, and the EEPROM's ID word says the board is
/// wired for it (e100.c's default).
pub(crate) fn wol_default(mac: Mac, eeprom_id: u16) -> bool {
    wol_capable(mac) && eeprom_id & EEPROM_ID_WOL != 0
}

/// The EEPROM's ASF configuration word, its bits, and the word of the SMBus address (e100.c's
/// `eeprom_config_asf`, `eeprom_asf`, `eeprom_gcl`, `eeprom_smbus_addr`).
pub(crate) const EEPROM_CONFIG_ASF: usize = 0x0d;
pub(crate) const EEPROM_ASF: u16 = 0x8000;
pub(crate) const EEPROM_GCL: u16 = 0x4000;
pub(crate) const EEPROM_SMBUS_ADDR: usize = 0x90;
/// The ICH parts that may carry ASF management (82562 on ICH4/ICH5: 0x1050-0x1057).
pub(crate) const ASF_DEVICES: (u16, u16) = (0x1050, 0x1057);

/// Whether the board runs ASF (remote management over SMBus), which needs wake-up armed at a
/// power-off whatever wake-on-LAN says: one of the ICH parts that can, with ASF on and GCL off
/// in the EEPROM's ASF word and an SMBus address other than 0xFE (e100.c's `e100_asf`; on a
/// 64-word EEPROM the address word is past the end and reads 0, as in e100.c's zeroed array).
pub(crate) fn asf(device: u16, config_asf: u16, smbus_addr: u16) -> bool {
    (ASF_DEVICES.0..=ASF_DEVICES.1).contains(&device)
        && config_asf & EEPROM_ASF != 0
        && config_asf & EEPROM_GCL == 0
        && smbus_addr & 0xff != 0xfe
}

/// What PCI error recovery asks for once an error was detected and the device quiesced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AfterError {
    /// A slot reset (`PCI_ERS_RESULT_NEED_RESET`), after which the chip is reset again.
    Reset,
    /// Nothing to do: the device is gone for good (`PCI_ERS_RESULT_DISCONNECT`).
    Disconnect,
}

/// The answer to an error report: a slot reset, unless the channel failed for good (e100.c's
/// `e100_io_error_detected`).
pub(crate) fn after_error(permanent_failure: bool) -> AfterError {
    if permanent_failure {
        AfterError::Disconnect
    } else {
        AfterError::Reset
    }
}

/// PCI vendor ID of every 8255x.
pub(crate) const INTEL_VENDOR: u32 = 0x8086;
/// PCI class code of an Ethernet controller, and the mask that matches it.
pub(crate) const CLASS_ETHERNET: (u32, u32) = (0x02_00_00, 0xff_ff_00);

/// Every PCI device ID the C driver binds, with its ICH generation (0 = not an ICH part).
pub(crate) const PCI_IDS: [(u32, u8); 42] = [
    (0x1029, 0),
    (0x1030, 0),
    (0x1031, 3),
    (0x1032, 3),
    (0x1033, 3),
    (0x1034, 3),
    (0x1038, 3),
    (0x1039, 4),
    (0x103A, 4),
    (0x103B, 4),
    (0x103C, 4),
    (0x103D, 4),
    (0x103E, 4),
    (0x1050, 5),
    (0x1051, 5),
    (0x1052, 5),
    (0x1053, 5),
    (0x1054, 5),
    (0x1055, 5),
    (0x1056, 5),
    (0x1057, 5),
    (0x1059, 0),
    (0x1064, 6),
    (0x1065, 6),
    (0x1066, 6),
    (0x1067, 6),
    (0x1068, 6),
    (0x1069, 6),
    (0x106A, 6),
    (0x106B, 6),
    (0x1091, 7),
    (0x1092, 7),
    (0x1093, 7),
    (0x1094, 7),
    (0x1095, 7),
    (0x10fe, 7),
    (0x1209, 0),
    (0x1229, 0),
    (0x2449, 2),
    (0x2459, 2),
    (0x245D, 2),
    (0x27DC, 7),
];

/// The MAC generation. The 8255x encodes it in the PCI revision ID; later parts are supersets of
/// earlier ones, so features are tested with ordered comparisons ([`Mac::at_least`]), as in
/// Intel's manual and e100.c.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Mac(u8);

impl Mac {
    /// 82557 D100 A-step (the oldest).
    pub(crate) const M82557_D100_A: Mac = Mac(0);
    /// 82557 D100 C-step, the last 82557: up to it, the multicast lock-up workaround applies.
    pub(crate) const M82557_D100_C: Mac = Mac(2);
    /// 82558 D101 A4-step: the first with extended TCBs, flow control and MWI.
    pub(crate) const M82558_D101_A4: Mac = Mac(4);
    /// 82559 D101M (also what every ICH part is treated as): adds TCO statistics.
    pub(crate) const M82559_D101M: Mac = Mac(8);
    /// 82550 D102: the first with automatic MDI/MDI-X switching on every board.
    pub(crate) const M82550_D102: Mac = Mac(12);
    /// 82551-10: the last, with a 32-byte Configure.
    pub(crate) const M82551_10: Mac = Mac(16);

    /// The generation of a part from its PCI revision and its ICH flag. ICH parts report other
    /// revisions but behave as the 82559 D101M; revision 0xff (unreadable) is taken as the oldest.
    pub(crate) const fn from_revision(revision: u8, ich: bool) -> Mac {
        if ich {
            Mac::M82559_D101M
        } else if revision == 0xff {
            Mac::M82557_D100_A
        } else {
            Mac(revision)
        }
    }

    /// The revision value.
    pub(crate) const fn revision(self) -> u8 {
        self.0
    }

    /// The chip's name, for logs.
    pub(crate) const fn name(self) -> &'static str {
        match self.0 {
            0..=3 => "82557",
            4..=7 => "82558",
            8..=11 => "82559",
            12 | 13 => "82550",
            _ => "82551",
        }
    }
}
