use crate::hw::{Mac, PCI_IDS};

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

#[test]
fn id_table_matches_e100() {
    assert_eq!(PCI_IDS.len(), 42);
    let mut ids: Vec<u32> = PCI_IDS.iter().map(|(d, _)| *d).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 42, "no duplicates");
    assert!(PCI_IDS.contains(&(0x1209, 0)));
    assert!(PCI_IDS.contains(&(0x1229, 0)));
    assert!(PCI_IDS.iter().all(|(_, ich)| *ich <= 7 && *ich != 1));
}
