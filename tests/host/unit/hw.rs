use crate::hw::{after_error, wol_capable, wol_default, AfterError, Mac, EEPROM_ID_WOL, PCI_IDS};

#[test]
fn mac_generation_from_revision() {
    assert_eq!(Mac::from_revision(9, false).revision(), 9); // QEMU's i82559er: 82559 D101S
    assert_eq!(Mac::from_revision(9, false).name(), "82559");
    assert_eq!(Mac::from_revision(1, true).revision(), 8); // ICH parts act as 82559 D101M
    assert_eq!(Mac::from_revision(0xff, false), Mac::M82557_D100_A);
    assert!(Mac::from_revision(5, false) > Mac::from_revision(2, false));
    assert_eq!(Mac::from_revision(2, false).name(), "82557");
    assert_eq!(Mac::from_revision(5, false).name(), "82558");
    assert_eq!(Mac::from_revision(13, false).name(), "82550");
    assert_eq!(Mac::from_revision(16, false).name(), "82551");
}

/// e100.c's `e100_id_table` (Linux 6.12, drivers/net/ethernet/intel/e100.c), written out by
/// hand: (device ID, ICH generation), in its order.
const E100_C_ID_TABLE: [(u32, u8); 42] = [
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

#[test]
fn id_table_is_e100cs_entry_for_entry() {
    assert_eq!(PCI_IDS, E100_C_ID_TABLE);
    // Each entry matches Intel's vendor ID and the Ethernet class, as
    // INTEL_8255X_ETHERNET_DEVICE does: PCI_CLASS_NETWORK_ETHERNET << 8, mask 0xFFFF00.
    assert_eq!(crate::hw::INTEL_VENDOR, 0x8086);
    assert_eq!(crate::hw::CLASS_ETHERNET, (0x0200 << 8, 0xff_ff00));
}

#[test]
fn wake_on_lan_capability() {
    let m = |r| Mac::from_revision(r, false);
    // The 82558 and later can wake on a magic packet (the 82551IT too: it shares the
    // 82559ER's device ID, not its revision), the 82557 cannot...
    for r in [4, 5, 8, 12, 15, 16] {
        assert!(wol_capable(m(r)), "revision {r}");
    }
    assert!(!wol_capable(m(2)));
    // ...nor the 82559ER (revision 9), whatever e100.c offers there.
    assert!(!wol_capable(m(9)));
    // On by default only where the EEPROM says the board is wired for it, and the part can.
    assert!(wol_default(m(5), EEPROM_ID_WOL));
    assert!(wol_default(m(8), 0x4000 | EEPROM_ID_WOL));
    assert!(!wol_default(m(8), 0x4000));
    assert!(!wol_default(m(2), EEPROM_ID_WOL));
    assert!(!wol_default(m(9), EEPROM_ID_WOL));
}

#[test]
fn pci_error_answer() {
    // A frozen (or still working) channel: a slot reset, then the chip is brought back.
    assert_eq!(after_error(false), AfterError::Reset);
    // Gone for good: nothing to reset.
    assert_eq!(after_error(true), AfterError::Disconnect);
}

#[test]
fn asf_boards_as_e100c_tells_them() {
    use crate::hw::{asf, EEPROM_ASF, EEPROM_GCL};
    // An ICH4/ICH5 82562 with ASF on, GCL off and no 0xFE SMBus address.
    assert!(asf(0x1050, EEPROM_ASF, 0));
    assert!(asf(0x1057, EEPROM_ASF | 0x0001, 0x00a0));
    // Not one of those parts, ASF off, GCL on, or SMBus address 0xFE: none.
    assert!(!asf(0x1049, EEPROM_ASF, 0));
    assert!(!asf(0x1058, EEPROM_ASF, 0));
    assert!(!asf(0x2449, EEPROM_ASF, 0));
    assert!(!asf(0x1050, 0, 0));
    assert!(!asf(0x1050, EEPROM_ASF | EEPROM_GCL, 0));
    assert!(!asf(0x1050, EEPROM_ASF, 0x12fe));
}
