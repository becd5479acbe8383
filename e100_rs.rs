// SPDX-License-Identifier: GPL-2.0

//! e100_rs: Intel PRO/100 (8255x) Ethernet driver, in Rust.
//!
//! # Theory of Operation
//!
//! ## General
//!
//! The 8255x family (82557, 82558, 82559, 82550, 82551, and the 82562 PHYs on ICH chipsets)
//! are 10/100 Mb/s PCI Ethernet controllers with an MII PHY. Software talks to the controller
//! through a small block of Control/Status Registers (CSR) in BAR0: the System Control Block
//! (SCB), which takes commands for the Command Unit (CU, which transmits and runs configuration
//! commands) and the Receive Unit (RU), plus the PORT register (reset, self-test), the EEPROM
//! control register and the MDI control register that reaches the PHY. The generation of the
//! part ([`hw::Mac`]) comes from the PCI revision; ICH parts are treated as the 82559 D101M, as in
//! Intel's manuals and e100.c. Newer generations add features, so features are gated with
//! ordered comparisons.
//!
//! ## Driver operation
//!
//! Probe enables the PCI device (managed: the PCI core disables it at unbind) and maps BAR0,
//! which must be a memory BAR, through [`kernel::pci::Device::iomap_region_sized`]. The mapping
//! lives in a [`Devres`]: when the device is unbound the mapping is revoked, so any late access
//! finds it gone (an `ENODEV` error) instead of touching unmapped memory. Every register access
//! goes through the typed, bounds-checked accessors of [`kernel::io::Io`].
//!
//! The chip is then reset the way the manual prescribes: a selective reset (which stops any DMA
//! a previous owner left running), then a software reset through PORT, each followed by a 20 us
//! settle, and all interrupts are masked in the SCB. Only then is bus mastering enabled.
//!
//! The EEPROM is read by bit-banging its Microwire pins ([`eeprom`]): the address width, and so
//! the size (64 or 256 words), is detected from the dummy zero the part sends after the address.
//! The words must sum to 0xBABA. A bad checksum, or an invalid MAC address in words 0-2, refuses
//! the probe with `EAGAIN` unless the `eeprom_bad_csum_allow` parameter is set (then the probe
//! goes on with a warning, and a random MAC address if the stored one is unusable), exactly as
//! e100.c does.
//!
//! The PHY is found by scanning the MDI bus ([`phy`]) in the order 1, 0, 2..31; other PHYs are
//! isolated. MDI transactions wait for the ready bit (up to 2 ms each way) and are serialised by
//! `mdio_lock`.
//!
//! The net_device is registered as `eth%d` with the EEPROM's address. Its driver state, [`Nic`],
//! is shared by reference count between the PCI driver data and the net_device; removing the
//! device drops the registration first (the core stops the interface and waits out any running
//! callback), then the state, then the BAR.
//!
//! ## Link
//!
//! Link state is the PHY's BMSR link bit (read twice, since it latches low). `open` reports it as
//! the carrier; `ethtool` reads it live.

use kernel::prelude::*;
use kernel::{
    c_str, delay, dev_err, dev_warn,
    devres::Devres,
    io::Io,
    net::{
        self,
        dev::{Device as NetDevice, TxOutcome},
        skbuff::SkBuff,
    },
    new_spinlock, pci,
    revocable::RevocableGuard,
    sync::{Arc, SpinLock},
    types::ARef,
};

mod eeprom;
mod ethtool;
mod hw;
mod phy;

use eeprom::Eeprom;
use hw::Mac;
use phy::Phy;

kernel::module_param!(
    EEPROM_BAD_CSUM_ALLOW,
    eeprom_bad_csum_allow,
    bool,
    false,
    "Allow bad eeprom checksums"
);

kernel::module_pci_driver! {
    type: E100Driver,
    name: "e100_rs",
    author: "The e100_rs developers",
    description: "Intel(R) PRO/100 Network Driver, in Rust",
    license: "GPL",
}

/// The driver's name, as `ethtool -i` and sysfs show it.
const DRV_NAME: &CStr = c_str!("e100_rs");

/// Every 8255x the C driver binds: Intel's vendor ID, an Ethernet class code, and the ICH
/// generation as the per-entry information.
const IDS: [(pci::DeviceId, u8); hw::PCI_IDS.len()] = {
    let mut ids = [(pci::DeviceId::from_id(0, 0), 0u8); hw::PCI_IDS.len()];
    let mut i = 0;
    while i < ids.len() {
        let (device, ich) = hw::PCI_IDS[i];
        ids[i] = (
            pci::DeviceId::from_id(hw::INTEL_VENDOR, device)
                .with_class(hw::CLASS_ETHERNET.0, hw::CLASS_ETHERNET.1),
            ich,
        );
        i += 1;
    }
    ids
};

kernel::pci_device_table!(ID_TABLE, e100_rs, u8, IDS);

/// The mapped CSR block.
type Csr = pci::Bar<{ hw::CSR_LEN }>;

/// Per-device state, shared by the PCI driver data and the net_device.
#[pin_data]
pub(crate) struct Nic {
    pdev: ARef<pci::Device>,
    csr: Devres<Csr>,
    eeprom: Eeprom,
    phy: Phy,
    /// Serialises MDI transactions (the MDI control register holds one at a time).
    #[pin]
    mdio_lock: SpinLock<()>,
}

/// Posts the preceding CSR writes (PCI writes may be buffered) by reading back a register.
fn flush(io: &Io<{ hw::CSR_LEN }>) {
    let _ = io.read8(hw::SCB_STATUS);
}

/// Resets the chip: selective reset (stops DMA), software reset, then masks all interrupts.
fn hw_reset(io: &Io<{ hw::CSR_LEN }>) {
    io.write32(hw::PORT_SELECTIVE_RESET, hw::PORT);
    flush(io);
    delay::udelay(20);
    io.write32(hw::PORT_SOFTWARE_RESET, hw::PORT);
    flush(io);
    delay::udelay(20);
    io.write8(hw::IRQ_MASK_ALL, hw::SCB_CMD_HI);
    flush(io);
}

/// The EEPROM's pins, on the CSR.
struct EepromPins<'a>(&'a Io<{ hw::CSR_LEN }>);

impl eeprom::Pins for EepromPins<'_> {
    fn set(&mut self, ctrl: u8) {
        self.0.write8(ctrl, hw::EEPROM_CTRL_LO);
        flush(self.0);
    }

    fn get(&mut self) -> u8 {
        self.0.read8(hw::EEPROM_CTRL_LO)
    }

    fn half_period(&mut self) {
        delay::udelay(4);
    }
}

/// MDI control register fields.
const MDI_WRITE: u32 = 0x0400_0000;
const MDI_READ: u32 = 0x0800_0000;
const MDI_READY: u32 = 0x1000_0000;
/// Polls for the ready bit, 20 us apart.
const MDI_POLLS: u32 = 100;

/// The MDI bus, on the CSR. Hold `mdio_lock` while using it.
struct MdiBus<'a>(&'a Io<{ hw::CSR_LEN }>);

impl MdiBus<'_> {
    fn transact(&mut self, dir: u32, addr: u8, reg: u8, data: u16) -> Option<u16> {
        // The previous transaction must have finished before a new one is written.
        let mut ready = false;
        for _ in 0..MDI_POLLS {
            if self.0.read32(hw::MDI_CTRL) & MDI_READY != 0 {
                ready = true;
                break;
            }
            delay::udelay(20);
        }
        if !ready {
            return None;
        }
        let cmd =
            (u32::from(reg & 0x1f) << 16) | (u32::from(addr & 0x1f) << 21) | dir | u32::from(data);
        self.0.write32(cmd, hw::MDI_CTRL);
        for _ in 0..MDI_POLLS {
            delay::udelay(20);
            let v = self.0.read32(hw::MDI_CTRL);
            if v & MDI_READY != 0 {
                return Some(v as u16);
            }
        }
        None
    }
}

impl phy::Mdio for MdiBus<'_> {
    fn read(&mut self, addr: u8, reg: u8) -> Option<u16> {
        self.transact(MDI_READ, addr, reg, 0)
    }

    fn write(&mut self, addr: u8, reg: u8, val: u16) -> bool {
        self.transact(MDI_WRITE, addr, reg, val).is_some()
    }
}

impl Nic {
    /// The CSR block, or `ENODEV` once the device has been unbound.
    fn csr(&self) -> Result<RevocableGuard<'_, Csr>> {
        self.csr.try_access().ok_or(ENODEV)
    }

    /// Runs `f` on the MDI bus with `mdio_lock` held.
    fn with_mdio<R>(&self, f: impl FnOnce(&mut MdiBus<'_>) -> R) -> Result<R> {
        let csr = self.csr()?;
        let _guard = self.mdio_lock.lock();
        Ok(f(&mut MdiBus(&csr)))
    }

    /// Whether the PHY reports link.
    fn link_up(&self) -> bool {
        matches!(
            self.with_mdio(|m| phy::link_up(m, &self.phy)),
            Ok(Some(true))
        )
    }
}

/// Formats a MAC address as `aa:bb:cc:dd:ee:ff`.
struct MacFmt<'a>(&'a [u8; 6]);

impl core::fmt::Display for MacFmt<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let m = self.0;
        write!(
            f,
            "{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}",
            m[0], m[1], m[2], m[3], m[4], m[5]
        )
    }
}

/// The PCI driver's per-device data: owns the net_device registration.
struct E100Driver {
    _netdev: net::dev::Registration<Nic>,
}

impl pci::Driver for E100Driver {
    type IdInfo = u8;
    const NAME: &'static CStr = DRV_NAME;
    const ID_TABLE: pci::IdTable<u8> = ID_TABLE;

    fn probe(pdev: &pci::Device, ich: &'static u8) -> Result<Pin<KBox<Self>>> {
        pdev.enable_device()?;
        if !pdev.resource_is_mem(0) {
            dev_err!(
                pdev,
                "Cannot find proper PCI device base address, aborting\n"
            );
            return Err(ENODEV);
        }
        let csr = pdev.iomap_region_sized::<{ hw::CSR_LEN }>(0, DRV_NAME)?;
        let mac = Mac::from_revision(pdev.revision(), *ich != 0);

        let (eeprom, phy) = {
            let io = csr.try_access().ok_or(ENODEV)?;
            // Reset before enabling bus mastering: firmware may have left the chip running.
            hw_reset(&io);
            pdev.set_master();
            let eeprom = Eeprom::load(&mut EepromPins(&io));
            let phy = phy::probe(&mut MdiBus(&io));
            (eeprom, phy)
        };

        if !eeprom.checksum_ok() {
            dev_err!(
                pdev,
                "EEPROM corrupted (words sum to {:#06x}, expected {:#06x})\n",
                eeprom.sum(),
                eeprom::CHECKSUM
            );
            if !EEPROM_BAD_CSUM_ALLOW.get() {
                return Err(EAGAIN);
            }
            dev_warn!(
                pdev,
                "eeprom_bad_csum_allow set: continuing with a corrupt EEPROM\n"
            );
        }

        let mut addr = eeprom.mac();
        if !net::dev::is_valid_ether_addr(&addr) {
            if !EEPROM_BAD_CSUM_ALLOW.get() {
                dev_err!(
                    pdev,
                    "Invalid MAC address {} from EEPROM, aborting\n",
                    MacFmt(&addr)
                );
                return Err(EAGAIN);
            }
            addr = net::dev::random_ether_addr();
            dev_warn!(
                pdev,
                "Invalid MAC address from EEPROM; using random address {}\n",
                MacFmt(&addr)
            );
        }

        let Some(phy) = phy else {
            dev_err!(pdev, "No PHY answers on the MDI bus\n");
            return Err(ENODEV);
        };

        let words = eeprom.len();
        let nic = Arc::pin_init(
            pin_init!(Nic {
                pdev: pdev.into(),
                csr,
                eeprom,
                phy,
                mdio_lock <- new_spinlock!((), "e100_rs::mdio_lock"),
            }),
            GFP_KERNEL,
        )?;

        let netdev = net::dev::Registration::register(
            net::dev::Config {
                parent: pdev.as_ref(),
                mac: addr,
                watchdog_timeo: kernel::time::msecs_to_jiffies(2000) as i32,
                mtu_range: (68, 1500),
            },
            nic,
        )?;

        let ndev = netdev.device();
        kernel::netdev_info!(
            ndev,
            "{} rev {}, {} EEPROM words, PHY {} ({:#010x}) at {}, irq {}, MAC addr {}\n",
            mac.name(),
            mac.revision(),
            words,
            phy.name(),
            phy.id,
            phy.addr,
            pdev.irq(),
            MacFmt(&ndev.mac_addr())
        );
        Ok(KBox::pin(E100Driver { _netdev: netdev }, GFP_KERNEL)?)
    }
}

#[vtable]
impl net::dev::Operations for Nic {
    fn open(&self, dev: &NetDevice) -> Result {
        if self.link_up() {
            dev.carrier_on();
        } else {
            dev.carrier_off();
        }
        dev.start_queue();
        Ok(())
    }

    fn stop(&self, dev: &NetDevice) -> Result {
        dev.stop_queue();
        dev.carrier_off();
        Ok(())
    }

    fn start_xmit(&self, _dev: &NetDevice, skb: SkBuff) -> TxOutcome {
        // No transmit ring yet: the frame is dropped (freed as a drop, visible to drop monitors).
        drop(skb);
        TxOutcome::Ok
    }
}
