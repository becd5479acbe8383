//! Host build of e100_rs's kernel-independent modules, so `cargo test` covers them. The module
//! files are the driver's own (by `#[path]`), and the tests sit inside this crate because the
//! modules' items are `pub(crate)`, as the kernel build's `unreachable_pub` lint wants.

// Register constants and the like are used by the driver, not by these tests; dead code is
// policed by the kernel build, which sees every user.
#![allow(dead_code)]

#[path = "../../../eeprom.rs"]
mod eeprom;
#[path = "../../../hw.rs"]
mod hw;
#[path = "../../../phy.rs"]
mod phy;

#[path = "../../../desc.rs"]
mod desc;
#[path = "../../../diag.rs"]
mod diag;
#[cfg(test)]
#[path = "../unit/diag.rs"]
mod diag_tests;
#[cfg(test)]
#[path = "../unit/eeprom.rs"]
mod eeprom_tests;
#[cfg(test)]
#[path = "../unit/hw.rs"]
mod hw_tests;
#[cfg(test)]
#[path = "../unit/phy.rs"]
mod phy_tests;
#[path = "../../../stats.rs"]
mod stats;
#[path = "../../../ucode.rs"]
mod ucode;
#[cfg(test)]
#[path = "../unit/ucode.rs"]
mod ucode_tests;

#[cfg(test)]
#[path = "../unit/desc.rs"]
mod desc_tests;
#[cfg(test)]
#[path = "../unit/stats.rs"]
mod stats_tests;
