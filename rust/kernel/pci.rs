// SPDX-License-Identifier: GPL-2.0

//! PCI devices and drivers.
//!
//! C header: [`include/linux/pci.h`](srctree/include/linux/pci.h)
//!
//! A driver implements [`Driver`], names its devices with [`pci_device_table!`] and is declared
//! with [`module_pci_driver!`]. `probe` gets the [`Device`] in the [`Core`] context and the
//! table entry's information, and returns an initialiser of the driver's per-device state,
//! which the PCI core owns (pinned) until the device is unbound, when it is dropped. The other
//! bus callbacks (shutdown, system sleep, error recovery) are optional trait methods; the
//! tables the C side wants are built only for those a driver implements.
//!
//! Register windows come from [`Device::iomap_region_sized`] as a [`Bar`] inside a [`Devres`],
//! so they are unmapped when the device is unbound even if a reference survives; the legacy
//! interrupt line comes from [`Device::irq_request`]. Both need a [`Bound`] device. The DMA
//! mask a driver declares in [`Driver::DMA_MASK`] is set before its `probe` runs, when nothing
//! can have allocated or mapped DMA memory for the device yet, which is what makes setting it
//! sound (see [`dma::set_mask_and_coherent`]).
//!
//! # Compared with upstream
//!
//! Like Linux 6.18's `pci.rs`: `Device<Ctx>` with the `Normal`/`Bound`/`Core` contexts,
//! `probe` returning `impl PinInit<Self, Error>`, the driver data pinned in the PCI core,
//! `Bar` in a `Devres`, device-ID tables exported to modpost. Differences: the driver's
//! `IdInfo` table is a `[(DeviceId, Info)]` constant rather than upstream's `IdArray`; there
//! is no `unbind` hook (the driver data's `Drop` is the remove path); `shutdown`, the system
//! sleep callbacks and the AER error handlers are `#[vtable]` methods here (upstream 6.18 has
//! none of them yet); the DMA mask is a trait constant applied by the abstraction, because
//! this project's drivers hold no `unsafe` and upstream's setter is `unsafe`; and only the
//! legacy INTx line is offered (no MSI vectors: the 8255x has none).
//!
//! [`Core`]: device::Core
//! [`Bound`]: device::Bound
//! [`dma::set_mask_and_coherent`]: crate::dma::set_mask_and_coherent

use crate::alloc::{flags::GFP_KERNEL, KBox};
use crate::device::{self, Bound, Core, DeviceContext, Normal};
use crate::devres::Devres;
use crate::dma::DmaMask;
use crate::error::{code::*, from_result, to_result, Error, Result};
use crate::init::{InPlaceInit, PinInit};
use crate::io::{Io, IoRaw};
use crate::irq::IrqRequest;
use crate::str::CStr;
use crate::types::{ARef, AlwaysRefCounted, Opaque};
use crate::{bindings, macros::vtable, ThisModule};
use core::ffi::c_int;
use core::marker::PhantomData;
use core::ops::Deref;
use core::pin::Pin;
use core::ptr::NonNull;

/// Matches any vendor, device, subvendor or subdevice.
pub const ANY_ID: u32 = !0;

/// One entry of a PCI device-ID table (`struct pci_device_id` without its `driver_data`, which
/// [`pci_device_table!`] fills in).
///
/// # Examples
///
/// ```
/// use kernel::pci::DeviceId;
///
/// // Intel 82559ER, matched only when its class is Ethernet (0x0200xx), as e100 does.
/// let id = DeviceId::from_id(0x8086, 0x1209).with_class(0x02_00_00, 0xff_00_00);
/// assert_eq!(id.vendor(), 0x8086);
/// assert_eq!(id.device(), 0x1209);
/// ```
#[derive(Clone, Copy)]
pub struct DeviceId {
    vendor: u32,
    device: u32,
    subvendor: u32,
    subdevice: u32,
    class: u32,
    class_mask: u32,
}

impl DeviceId {
    /// Matches `vendor:device`, any subsystem, any class.
    pub const fn from_id(vendor: u32, device: u32) -> Self {
        Self {
            vendor,
            device,
            subvendor: ANY_ID,
            subdevice: ANY_ID,
            class: 0,
            class_mask: 0,
        }
    }

    /// Also requires `(class_code & mask) == class`.
    pub const fn with_class(self, class: u32, mask: u32) -> Self {
        Self {
            class,
            class_mask: mask,
            ..self
        }
    }

    /// The vendor ID matched.
    pub const fn vendor(&self) -> u32 {
        self.vendor
    }

    /// The device ID matched.
    pub const fn device(&self) -> u32 {
        self.device
    }

    const fn to_raw(self, index: usize) -> bindings::pci_device_id {
        bindings::pci_device_id {
            vendor: self.vendor,
            device: self.device,
            subvendor: self.subvendor,
            subdevice: self.subdevice,
            class: self.class,
            class_mask: self.class_mask,
            driver_data: index as _,
            override_only: 0,
        }
    }
}

/// A zero-terminated `struct pci_device_id` array, as the PCI core and modpost want it.
///
/// `N` counts the terminator. Built by [`pci_device_table!`].
#[repr(transparent)]
pub struct RawIdArray<const N: usize>([bindings::pci_device_id; N]);

impl<const N: usize> RawIdArray<N> {
    /// Lays out `ids` (`M == N - 1` of them) with `driver_data` set to each entry's index, then
    /// the all-zero terminator. Fails the build if the sizes disagree.
    pub const fn new<const M: usize>(ids: [DeviceId; M]) -> Self {
        assert!(
            M + 1 == N,
            "RawIdArray needs exactly one slot for the terminator"
        );
        let mut raw = [DeviceId {
            vendor: 0,
            device: 0,
            subvendor: 0,
            subdevice: 0,
            class: 0,
            class_mask: 0,
        }
        .to_raw(0); N];
        let mut i = 0;
        while i < M {
            raw[i] = ids[i].to_raw(i);
            i += 1;
        }
        Self(raw)
    }

    /// Like [`RawIdArray::new`], from `(id, info)` pairs.
    pub const fn from_pairs<I: Copy, const M: usize>(pairs: &[(DeviceId, I); M]) -> Self {
        let mut ids = [DeviceId::from_id(0, 0); M];
        let mut i = 0;
        while i < M {
            ids[i] = pairs[i].0;
            i += 1;
        }
        Self::new(ids)
    }

    /// The entries, terminator included.
    pub const fn as_slice(&'static self) -> &'static [bindings::pci_device_id] {
        &self.0
    }
}

/// The information half of `(id, info)` pairs, for [`pci_device_table!`].
#[doc(hidden)]
pub const fn infos<I: Copy, const M: usize>(pairs: &[(DeviceId, I); M]) -> [I; M] {
    assert!(M > 0, "an empty device table binds nothing");
    let mut out = [pairs[0].1; M];
    let mut i = 0;
    while i < M {
        out[i] = pairs[i].1;
        i += 1;
    }
    out
}

/// A driver's device table: the C array and, per entry, the driver's own information.
///
/// # Invariants
///
/// `raw` has one more entry than `info`, and its last entry is the all-zero terminator the PCI
/// core's matching loop stops at (checked by [`IdTable::new`]).
pub struct IdTable<I: 'static> {
    raw: &'static [bindings::pci_device_id],
    info: &'static [I],
}

impl<I: 'static> IdTable<I> {
    /// Pairs a terminated C array with its per-entry information (one fewer element). Fails
    /// the build (or panics, if called outside a constant) unless the array ends with an
    /// all-zero terminator, which the PCI core's matching loop relies on.
    pub const fn new(raw: &'static [bindings::pci_device_id], info: &'static [I]) -> Self {
        assert!(raw.len() == info.len() + 1);
        let last = &raw[raw.len() - 1];
        assert!(
            last.vendor == 0 && last.subvendor == 0 && last.class_mask == 0,
            "a PCI device-ID table ends with an all-zero entry"
        );
        Self { raw, info }
    }

    /// The information of entry `index` (a `driver_data` value), if there is one.
    pub fn info(&self, index: usize) -> Option<&'static I> {
        self.info.get(index)
    }

    /// The number of entries, terminator excluded.
    pub const fn len(&self) -> usize {
        self.info.len()
    }

    /// Whether the table has no entries.
    pub const fn is_empty(&self) -> bool {
        self.info.is_empty()
    }

    fn as_ptr(&self) -> *const bindings::pci_device_id {
        self.raw.as_ptr()
    }
}

/// Declares a PCI device table `$table` of type [`IdTable<$info>`] and exports the C array to
/// modpost as the module's device table (so the module gets `pci:` aliases and autoloads).
///
/// # Examples
///
/// ```
/// use kernel::pci::DeviceId;
///
/// kernel::pci_device_table!(TABLE, doctest_pci, u8, [
///     (DeviceId::from_id(0x8086, 0x1229), 1),
///     (DeviceId::from_id(0x8086, 0x1209), 9),
/// ]);
///
/// assert_eq!(TABLE.len(), 2);
/// assert_eq!(TABLE.info(1), Some(&9));
/// assert_eq!(TABLE.info(2), None);
/// ```
///
/// A table can also be given as a constant array of `(DeviceId, info)` pairs:
///
/// ```
/// use kernel::pci::DeviceId;
///
/// const IDS: [(DeviceId, u8); 2] =
///     [(DeviceId::from_id(0x8086, 0x1229), 0), (DeviceId::from_id(0x8086, 0x27dc), 7)];
/// kernel::pci_device_table!(TABLE2, doctest_pci2, u8, IDS);
/// assert_eq!(TABLE2.info(1), Some(&7));
/// ```
#[macro_export]
macro_rules! pci_device_table {
    ($table:ident, $module:ident, $info:ty, $pairs:ident) => {
        const $table: $crate::pci::IdTable<$info> = {
            const N: usize = $pairs.len();
            #[export_name = concat!("__mod_pci__", stringify!($module), "_device_table")]
            static RAW: $crate::pci::RawIdArray<{ N + 1 }> =
                $crate::pci::RawIdArray::from_pairs(&$pairs);
            static INFO: [$info; N] = $crate::pci::infos(&$pairs);
            $crate::pci::IdTable::new(RAW.as_slice(), &INFO)
        };
    };
    ($table:ident, $module:ident, $info:ty, [ $( ($id:expr, $data:expr) ),* $(,)? ]) => {
        const $table: $crate::pci::IdTable<$info> = {
            const N: usize = [$( stringify!($id) ),*].len();
            #[export_name = concat!("__mod_pci__", stringify!($module), "_device_table")]
            static RAW: $crate::pci::RawIdArray<{ N + 1 }> =
                $crate::pci::RawIdArray::new([$( $id ),*]);
            static INFO: [$info; N] = [$( $data ),*];
            $crate::pci::IdTable::new(RAW.as_slice(), &INFO)
        };
    };
}

/// The state of a device's PCI channel, as error recovery reports it (`pci_channel_state_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelState {
    /// I/O works.
    Normal,
    /// I/O to the device is blocked until a reset.
    Frozen,
    /// The device is gone for good.
    PermanentFailure,
}

impl ChannelState {
    #[inline]
    fn from_raw(s: bindings::pci_channel_state_t) -> Self {
        match s {
            1 => Self::Normal,
            2 => Self::Frozen,
            _ => Self::PermanentFailure,
        }
    }
}

/// What a driver's error-recovery callback asks for (`pci_ers_result_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErsResult {
    /// No opinion.
    None,
    /// The driver can recover without a slot reset.
    CanRecover,
    /// The driver needs the slot reset.
    NeedReset,
    /// The device cannot be recovered.
    Disconnect,
    /// The driver has recovered the device.
    Recovered,
}

impl ErsResult {
    fn into_raw(self) -> bindings::pci_ers_result_t {
        match self {
            Self::None => bindings::pci_ers_result_PCI_ERS_RESULT_NONE,
            Self::CanRecover => bindings::pci_ers_result_PCI_ERS_RESULT_CAN_RECOVER,
            Self::NeedReset => bindings::pci_ers_result_PCI_ERS_RESULT_NEED_RESET,
            Self::Disconnect => bindings::pci_ers_result_PCI_ERS_RESULT_DISCONNECT,
            Self::Recovered => bindings::pci_ers_result_PCI_ERS_RESULT_RECOVERED,
        }
    }
}

/// A PCI driver.
///
/// The value `probe` initialises is the driver's per-device state. It is dropped when the
/// device is unbound (driver removal, device removal or module unload), which is where a driver
/// undoes what `probe` did: implement [`Drop`] on it. Every bus callback gets the device in the
/// [`Core`](device::Core) context (the device lock is held) and the state by shared reference.
///
/// # Examples
///
/// ```
/// use kernel::device::Core;
/// use kernel::pci::{self, DeviceId};
///
/// struct Dummy;
///
/// const IDS: [(DeviceId, ()); 1] = [(DeviceId::from_id(0xffff, 0xfffe), ())];
/// kernel::pci_device_table!(DUMMY_IDS, doctest_pci_driver, (), IDS);
///
/// #[vtable]
/// impl pci::Driver for Dummy {
///     type IdInfo = ();
///     const NAME: &'static CStr = kernel::c_str!("doctest_pci_driver");
///     const ID_TABLE: pci::IdTable<()> = DUMMY_IDS;
///
///     fn probe(_pdev: &pci::Device<Core>, _info: &'static ()) -> impl PinInit<Self, Error> {
///         Dummy
///     }
///
///     fn shutdown(&self, _pdev: &pci::Device<Core>) {}
/// }
///
/// // Doctests are built into the kernel, where the owning module is none, as for built-in
/// // drivers.
/// // SAFETY: for built-in code `THIS_MODULE` is null.
/// static BUILT_IN: kernel::ThisModule =
///     unsafe { kernel::ThisModule::from_ptr(core::ptr::null_mut()) };
///
/// // Registering binds nothing (no such device) and unregistering undoes it.
/// let reg = pci::Registration::<Dummy>::new(&BUILT_IN)?;
/// drop(reg);
/// # Ok::<(), Error>(())
/// ```
#[vtable]
pub trait Driver: Send + Sync + Sized + 'static {
    /// Per-entry information in [`Driver::ID_TABLE`].
    type IdInfo: 'static + Sync;

    /// The driver's name in sysfs and in the PCI core.
    const NAME: &'static CStr;

    /// The devices this driver binds.
    const ID_TABLE: IdTable<Self::IdInfo>;

    /// The streaming and coherent DMA mask to set before `probe`, if not the PCI default (32
    /// bits). If the platform cannot do it, the device is not probed.
    const DMA_MASK: Option<DmaMask> = None;

    /// Binds `pdev`, matched by the table entry whose information is `info`.
    fn probe(pdev: &Device<Core>, info: &'static Self::IdInfo) -> impl PinInit<Self, Error>;

    /// The system is going down (reboot, power off, kexec): quiesce the device, and arm it for
    /// wake-up if it should.
    fn shutdown(&self, _pdev: &Device<Core>) {}

    /// System sleep: save what resume needs and quiesce the device. Also used for hibernation's
    /// freeze and power-off, as C's `SIMPLE_DEV_PM_OPS` does.
    fn suspend(&self, _pdev: &Device<Core>) -> Result {
        Ok(())
    }

    /// Wake from system sleep (and hibernation's thaw and restore).
    fn resume(&self, _pdev: &Device<Core>) -> Result {
        Ok(())
    }

    /// AER: an error was detected on the device's channel.
    fn error_detected(&self, _pdev: &Device<Core>, _state: ChannelState) -> ErsResult {
        ErsResult::None
    }

    /// AER: the slot was reset; bring the hardware back.
    fn slot_reset(&self, _pdev: &Device<Core>) -> ErsResult {
        ErsResult::None
    }

    /// AER: recovery is over; resume normal operation.
    fn error_resume(&self, _pdev: &Device<Core>) {}
}

/// A registered PCI driver; unregistered when dropped.
///
/// # Invariants
///
/// `drv` was registered with `__pci_register_driver` and stays registered until `drop`; it is
/// heap-allocated, so it does not move while registered.
pub struct Registration<T: Driver> {
    drv: KBox<Opaque<bindings::pci_driver>>,
    _p: PhantomData<T>,
}

// SAFETY: the registration is only touched at creation and drop, and the PCI core's own locking
// protects the driver structure in between.
unsafe impl<T: Driver> Send for Registration<T> {}
// SAFETY: `&Registration` exposes nothing.
unsafe impl<T: Driver> Sync for Registration<T> {}

impl<T: Driver> Registration<T> {
    const PM_OPS: bindings::dev_pm_ops = bindings::dev_pm_ops {
        suspend: Some(Self::suspend_callback),
        resume: Some(Self::resume_callback),
        freeze: Some(Self::suspend_callback),
        thaw: Some(Self::resume_callback),
        poweroff: Some(Self::suspend_callback),
        restore: Some(Self::resume_callback),
        // SAFETY: all-zero is a valid `dev_pm_ops`: every other callback `None`.
        ..unsafe { core::mem::zeroed() }
    };

    const ERR_HANDLERS: bindings::pci_error_handlers = bindings::pci_error_handlers {
        error_detected: if T::HAS_ERROR_DETECTED {
            Some(Self::error_detected_callback)
        } else {
            None
        },
        slot_reset: if T::HAS_SLOT_RESET {
            Some(Self::slot_reset_callback)
        } else {
            None
        },
        resume: if T::HAS_ERROR_RESUME {
            Some(Self::error_resume_callback)
        } else {
            None
        },
        // SAFETY: all-zero is a valid `pci_error_handlers`: every other callback `None`.
        ..unsafe { core::mem::zeroed() }
    };

    /// Registers `T` with the PCI core on behalf of `module`.
    pub fn new(module: &'static ThisModule) -> Result<Self> {
        let drv = KBox::new(Opaque::<bindings::pci_driver>::uninit(), GFP_KERNEL)?;
        let raw = drv.get();
        // SAFETY: all-zero is a valid `struct pci_driver` (integers, pointers and optional
        // callbacks); `raw` points to memory we own.
        unsafe { raw.write(core::mem::zeroed()) };
        // SAFETY: `raw` was just initialised and nothing else references it yet; the tables
        // are constants promoted to `'static`.
        unsafe {
            (*raw).name = T::NAME.as_char_ptr();
            (*raw).id_table = T::ID_TABLE.as_ptr();
            (*raw).probe = Some(Self::probe_callback);
            (*raw).remove = Some(Self::remove_callback);
            if T::HAS_SHUTDOWN {
                (*raw).shutdown = Some(Self::shutdown_callback);
            }
            if T::HAS_SUSPEND || T::HAS_RESUME {
                (*raw).driver.pm = &Self::PM_OPS;
            }
            if T::HAS_ERROR_DETECTED || T::HAS_SLOT_RESET || T::HAS_ERROR_RESUME {
                (*raw).err_handler = &Self::ERR_HANDLERS;
            }
        }
        // SAFETY: `raw` is a fully initialised driver whose name and tables are `'static`; it
        // is unregistered in `drop` before the box is freed.
        to_result(unsafe {
            bindings::__pci_register_driver(raw, module.as_ptr(), T::NAME.as_char_ptr())
        })?;
        // INVARIANT: registered just above; the box keeps it in place.
        Ok(Self {
            drv,
            _p: PhantomData,
        })
    }

    /// The driver state of a bound device.
    ///
    /// # Safety
    ///
    /// `pdev` must be bound to this driver (between a successful probe and remove), and the
    /// reference must not outlive the binding.
    unsafe fn data<'a>(pdev: *mut bindings::pci_dev) -> Option<&'a T> {
        // SAFETY: `pdev` is valid (caller); a bound device's drvdata is the pointer
        // `probe_callback` stored, to a pinned `T` that lives until `remove_callback`.
        unsafe { bindings::pci_get_drvdata(pdev).cast::<T>().as_ref() }
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn probe_callback(
        pdev: *mut bindings::pci_dev,
        id: *const bindings::pci_device_id,
    ) -> c_int {
        // SAFETY: the PCI core passes a valid device and calls `probe` with its lock held.
        let dev = unsafe { Device::<Core>::from_raw(pdev) };
        from_result(|| {
            // SAFETY: `id` points to an entry of our table or to a dynamic ID whose
            // `driver_data` the core checked against our table.
            let index = unsafe { (*id).driver_data };
            let info = T::ID_TABLE.info(index).ok_or(EINVAL)?;
            let d: &device::Device<Core> = dev.as_ref();
            if let Some(mask) = T::DMA_MASK {
                // SAFETY: the driver's `probe` has not run yet and it is the device's only
                // driver, so nothing allocates or maps DMA memory for the device concurrently;
                // a previous binding's allocations were released at its unbind.
                unsafe { crate::dma::set_mask_and_coherent(d, mask) }?;
            }
            // Class registrations (network interfaces, ...) the driver makes are withdrawn in
            // `remove_callback`, or below if the probe fails, before anything else of the
            // binding is released.
            d.open_class_list()?;
            let data = match KBox::pin_init(T::probe(dev, info), GFP_KERNEL) {
                Ok(data) => data,
                Err(e) => {
                    d.revoke_class_registrations();
                    return Err(e);
                }
            };
            // SAFETY: the state is never moved out of the box; it is turned back into a
            // `Pin<KBox<T>>` in `remove_callback`.
            let raw = KBox::into_raw(unsafe { Pin::into_inner_unchecked(data) });
            // SAFETY: `pdev` is valid (see above).
            unsafe { bindings::pci_set_drvdata(pdev, raw.cast()) };
            Ok(0)
        })
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn remove_callback(pdev: *mut bindings::pci_dev) {
        // SAFETY: `pdev` is the valid, still-bound device, and `remove` runs with its lock held.
        let dev = unsafe { Device::<Core>::from_raw(pdev) };
        // First withdraw what the driver offers the rest of the kernel, while the driver state
        // and every managed resource are still there.
        let d: &device::Device<Core> = dev.as_ref();
        d.revoke_class_registrations();
        // SAFETY: `pdev` is the valid, still-bound device.
        let raw = unsafe { bindings::pci_get_drvdata(pdev) }.cast::<T>();
        if raw.is_null() {
            return;
        }
        // SAFETY: `pdev` is valid; the pointer is about to dangle.
        unsafe { bindings::pci_set_drvdata(pdev, core::ptr::null_mut()) };
        // SAFETY: a non-null drvdata was set by `probe_callback` from `KBox::into_raw` of a
        // pinned box, and `remove` runs once per successful `probe`.
        drop(unsafe { Pin::new_unchecked(KBox::from_raw(raw)) });
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn shutdown_callback(pdev: *mut bindings::pci_dev) {
        // SAFETY: shutdown runs with the device lock held, on a device that may be bound.
        let (dev, data) = unsafe { (Device::<Core>::from_raw(pdev), Self::data(pdev)) };
        if let Some(t) = data {
            t.shutdown(dev);
        }
    }

    /// The PCI device and driver state behind a `struct device` of ours.
    ///
    /// # Safety
    ///
    /// `dev` must be the `struct device` of a PCI device in a PM callback of this driver (lock
    /// held, device bound).
    unsafe fn from_dev<'a>(dev: *mut bindings::device) -> (&'a Device<Core>, Option<&'a T>) {
        // SAFETY: our PM callbacks are only installed on PCI drivers, so `dev` is embedded in
        // a `pci_dev`.
        let pdev = unsafe { crate::container_of!(dev, bindings::pci_dev, dev) }.cast_mut();
        // SAFETY: see above; the callback holds the device lock on a bound device.
        unsafe { (Device::<Core>::from_raw(pdev), Self::data(pdev)) }
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn suspend_callback(dev: *mut bindings::device) -> c_int {
        // SAFETY: a system-sleep callback of our driver.
        let (pdev, data) = unsafe { Self::from_dev(dev) };
        from_result(|| {
            if let Some(t) = data {
                t.suspend(pdev)?;
            }
            Ok(0)
        })
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn resume_callback(dev: *mut bindings::device) -> c_int {
        // SAFETY: a system-sleep callback of our driver.
        let (pdev, data) = unsafe { Self::from_dev(dev) };
        from_result(|| {
            if let Some(t) = data {
                t.resume(pdev)?;
            }
            Ok(0)
        })
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn error_detected_callback(
        pdev: *mut bindings::pci_dev,
        state: bindings::pci_channel_state_t,
    ) -> bindings::pci_ers_result_t {
        // SAFETY: error recovery calls this with the device lock held.
        let (dev, data) = unsafe { (Device::<Core>::from_raw(pdev), Self::data(pdev)) };
        data.map_or(ErsResult::None, |t| {
            t.error_detected(dev, ChannelState::from_raw(state))
        })
        .into_raw()
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn slot_reset_callback(
        pdev: *mut bindings::pci_dev,
    ) -> bindings::pci_ers_result_t {
        // SAFETY: as in `error_detected_callback`.
        let (dev, data) = unsafe { (Device::<Core>::from_raw(pdev), Self::data(pdev)) };
        data.map_or(ErsResult::None, |t| t.slot_reset(dev))
            .into_raw()
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn error_resume_callback(pdev: *mut bindings::pci_dev) {
        // SAFETY: as in `error_detected_callback`.
        let (dev, data) = unsafe { (Device::<Core>::from_raw(pdev), Self::data(pdev)) };
        if let Some(t) = data {
            t.error_resume(dev);
        }
    }
}

impl<T: Driver> Drop for Registration<T> {
    fn drop(&mut self) {
        // SAFETY: by the type invariant the driver is registered; this unbinds every device,
        // running `remove_callback` for each, before it returns.
        unsafe { bindings::pci_unregister_driver(self.drv.get()) };
    }
}

/// The module type behind [`module_pci_driver!`]: registers `T` on load and unregisters it on
/// unload.
pub struct Module<T: Driver> {
    _reg: Registration<T>,
}

impl<T: Driver> crate::Module for Module<T> {
    fn init(module: &'static ThisModule) -> Result<Self> {
        Ok(Self {
            _reg: Registration::new(module)?,
        })
    }
}

/// Declares a kernel module whose whole job is one PCI driver.
///
/// Takes the same keys as [`module!`](crate::prelude::module), with `type` naming the
/// [`Driver`].
#[macro_export]
macro_rules! module_pci_driver {
    (type: $type:ty, $($rest:tt)*) => {
        type __ModulePciDriver = $crate::pci::Module<$type>;
        $crate::prelude::module! {
            type: __ModulePciDriver,
            $($rest)*
        }
    };
}

/// A PCI device, in context `Ctx` (see [`device`]).
///
/// # Invariants
///
/// The wrapped `struct pci_dev` is valid for as long as the reference to this `Device` is, and
/// what `Ctx` claims holds for that long: either the PCI core keeps it so across a callback, or
/// an [`ARef<Device>`] holds a reference count (`Normal` only).
#[repr(transparent)]
pub struct Device<Ctx: DeviceContext = Normal>(Opaque<bindings::pci_dev>, PhantomData<Ctx>);

impl<Ctx: DeviceContext> Device<Ctx> {
    /// Borrows a C `struct pci_dev` in context `Ctx`.
    ///
    /// # Safety
    ///
    /// `ptr` must be valid for `'a`, and what `Ctx` claims must hold for `'a`.
    #[inline]
    unsafe fn from_raw<'a>(ptr: *mut bindings::pci_dev) -> &'a Self {
        // SAFETY: transparent wrapper; the caller vouches for the lifetime and context.
        unsafe { &*ptr.cast() }
    }

    /// The C `struct pci_dev`.
    #[inline]
    pub(crate) fn as_raw(&self) -> *mut bindings::pci_dev {
        // Transparent wrapper of `Opaque<bindings::pci_dev>`: as `device::Device::as_raw`.
        core::ptr::from_ref(self).cast_mut().cast()
    }

    /// The device's name on the bus (`0000:00:03.0`).
    pub fn name(&self) -> &CStr {
        // SAFETY: the device is valid; `dev_name` returns its NUL-terminated name, set at
        // enumeration and unchanged while the device exists.
        unsafe {
            CStr::from_char_ptr(bindings::dev_name(core::ptr::addr_of!(
                (*self.as_raw()).dev
            )))
        }
    }

    /// The legacy (INTx) interrupt line's number (0 if none).
    pub fn irq(&self) -> u32 {
        // SAFETY: the device is valid; `irq` is set at enumeration.
        unsafe { (*self.as_raw()).irq }
    }

    /// The PCI vendor ID.
    pub fn vendor_id(&self) -> u16 {
        // SAFETY: the device is valid (type invariant) and `vendor` never changes after
        // enumeration.
        unsafe { (*self.as_raw()).vendor }
    }

    /// The PCI device ID.
    pub fn device_id(&self) -> u16 {
        // SAFETY: as for `vendor_id`.
        unsafe { (*self.as_raw()).device }
    }

    /// The PCI revision ID.
    pub fn revision(&self) -> u8 {
        // SAFETY: as for `vendor_id`.
        unsafe { (*self.as_raw()).revision }
    }

    /// The function number (`PCI_FUNC(devfn)`, 0-7): which function of a multi-function card.
    pub fn function(&self) -> u8 {
        // SAFETY: as for `vendor_id`; `devfn` is fixed while the device exists.
        (unsafe { (*self.as_raw()).devfn } & 7) as u8
    }

    /// The length of BAR `bar`, or [`EINVAL`] for a BAR number that does not exist.
    pub fn resource_len(&self, bar: u32) -> Result<u64> {
        if bar as usize >= bindings::PCI_STD_NUM_BARS as usize {
            return Err(EINVAL);
        }
        // SAFETY: the device is valid and `bar` is a standard BAR index.
        Ok(unsafe { bindings::pci_resource_len(self.as_raw(), bar as c_int) } as u64)
    }

    /// Whether BAR `bar` is a memory (not I/O port) BAR.
    pub fn resource_is_mem(&self, bar: u32) -> bool {
        if bar as usize >= bindings::PCI_STD_NUM_BARS as usize {
            return false;
        }
        // SAFETY: the device is valid and `bar` is a standard BAR index.
        let flags = unsafe { bindings::pci_resource_flags(self.as_raw(), bar as c_int) };
        flags & (bindings::IORESOURCE_MEM as usize) != 0
    }
}

impl Device<Core> {
    /// Enables the device (I/O and memory decoding). Managed: the device is disabled again when
    /// it is unbound from the driver.
    pub fn enable_device(&self) -> Result {
        // SAFETY: the device is valid; `pcim_enable_device` registers its own undo with devres.
        to_result(unsafe { bindings::pcim_enable_device(self.as_raw()) })
    }

    /// Lets the device master the bus (do DMA).
    pub fn set_master(&self) {
        // SAFETY: the device is valid; bus callbacks may change its command register.
        unsafe { bindings::pci_set_master(self.as_raw()) };
    }

    /// Saves the device's configuration space (`pci_save_state`) for [`Device::restore_state`].
    /// The PCI core saves it once when it adds the device, before any driver enables it; a
    /// driver saves it again once the device is enabled and mastering, so a restore brings
    /// that back. Fails (`ENOMEM`) only for a PCIe or PCI-X capability the core has no buffer for.
    pub fn save_state(&self) -> Result {
        // SAFETY: the device is valid; the call reads its configuration space into the
        // `pci_dev`, which the bus callbacks' device lock serialises.
        to_result(unsafe { bindings::pci_save_state(self.as_raw()) })
    }

    /// Writes the last saved configuration space back (`pci_restore_state`; there is always
    /// one, the core's from when it added the device, `pci_bus_add_device` in the 6.12.118
    /// this crate is built for; on a release without that save, only once a driver saved one):
    /// after a reset that cleared it, as a fatal error's secondary bus reset does (BARs,
    /// command register). The copy is marked used: save again before the next restore.
    pub fn restore_state(&self) {
        // SAFETY: as for `save_state`; the call writes the copy kept in the `pci_dev` to the
        // device's configuration space.
        unsafe { bindings::pci_restore_state(self.as_raw()) };
    }

    /// Stops the device mastering the bus.
    pub fn clear_master(&self) {
        // SAFETY: as for `set_master`.
        unsafe { bindings::pci_clear_master(self.as_raw()) };
    }

    /// Turns the device's PME# signalling on or off and clears a pending PME status (a driver
    /// calls it with `false` at probe, so a wake event left from before does not linger).
    pub fn pme_active(&self, enable: bool) {
        // SAFETY: the device is valid; bus callbacks may change its PM registers.
        unsafe { bindings::pci_pme_active(self.as_raw(), enable) };
    }

    /// Enables or disables the device's wake-up from D3 (PME#) for the coming power-down; the
    /// platform's error if it cannot arrange it (`ENODEV` without platform power management
    /// for a device that needs it).
    pub fn wake_from_d3(&self, enable: bool) -> Result {
        // SAFETY: as for `pme_active`.
        to_result(unsafe { bindings::pci_wake_from_d3(self.as_raw(), enable) })
    }

    /// Puts the device into the low-power state the platform picks for system sleep, with
    /// wake-up armed if the device [may wake](device::Device::may_wakeup) the system. For a
    /// driver that powers the device down itself ([`Driver::shutdown`] at power-off); for
    /// suspend the PCI core does it after [`Driver::suspend`].
    pub fn prepare_to_sleep(&self) -> Result {
        // SAFETY: as for `pme_active`.
        to_result(unsafe { bindings::pci_prepare_to_sleep(self.as_raw()) })
    }

    /// Puts the device into D3hot (wake-up as set by [`Device::wake_from_d3`]).
    pub fn set_power_d3hot(&self) -> Result {
        // SAFETY: as for `pme_active`; 3 is `PCI_D3hot` (`include/linux/pci.h`), which bindgen
        // cannot translate (a cast in a macro).
        to_result(unsafe { bindings::pci_set_power_state(self.as_raw(), 3) })
    }
}

/// Whether the system is powering off (rather than rebooting or halting): in
/// [`Driver::shutdown`], whether to arm wake-up and power the device down, as `e100_shutdown`
/// and other network drivers do.
pub fn system_powering_off() -> bool {
    // SAFETY: `system_state` is a word-sized global that the kernel sets before it calls the
    // shutdown callbacks; a volatile read of it is C's `READ_ONCE`.
    let state = unsafe { core::ptr::addr_of!(bindings::system_state).read_volatile() };
    state == bindings::system_states_SYSTEM_POWER_OFF
}

impl Device<Bound> {
    /// Requests BAR `bar` for `name` and maps it; the mapping must be at least `SIZE` bytes.
    ///
    /// The returned [`Devres`] revokes (unmaps and releases) the BAR when the device is unbound
    /// or when it is dropped, whichever is first.
    pub fn iomap_region_sized<const SIZE: usize>(
        &self,
        bar: u32,
        name: &'static CStr,
    ) -> Result<Devres<Bar<SIZE>>> {
        let b = Bar::<SIZE>::new(self.into(), bar, name)?;
        let d: &device::Device<Bound> = self.as_ref();
        Devres::new(d, b, GFP_KERNEL)
    }

    /// The legacy (INTx) interrupt line, for [`irq::Registration`](crate::irq::Registration);
    /// [`ENODEV`] if the device has none.
    pub fn irq_request(&self) -> Result<IrqRequest<'_>> {
        let irq = self.irq();
        if irq == 0 {
            return Err(ENODEV);
        }
        let d: &device::Device<Bound> = self.as_ref();
        // SAFETY: `irq` is the device's own INTx line, set up by the PCI core.
        Ok(unsafe { IrqRequest::new(d, irq) })
    }
}

impl Deref for Device<Core> {
    type Target = Device<Bound>;

    #[inline]
    fn deref(&self) -> &Device<Bound> {
        // SAFETY: a device in a bus callback holding its lock is bound for the borrow; same
        // layout.
        unsafe { &*(self as *const Self).cast() }
    }
}

impl Deref for Device<Bound> {
    type Target = Device;

    #[inline]
    fn deref(&self) -> &Device {
        // SAFETY: every context claims at least what `Normal` does; same layout.
        unsafe { &*(self as *const Self).cast() }
    }
}

impl<Ctx: DeviceContext> AsRef<device::Device<Ctx>> for Device<Ctx> {
    #[inline]
    fn as_ref(&self) -> &device::Device<Ctx> {
        // SAFETY: the `struct device` embedded in a valid `pci_dev` is valid for as long as the
        // `pci_dev` is, in the same context.
        unsafe { device::Device::<Ctx>::from_raw(core::ptr::addr_of_mut!((*self.as_raw()).dev)) }
    }
}

impl AsRef<device::Device<Bound>> for Device<Core> {
    #[inline]
    fn as_ref(&self) -> &device::Device<Bound> {
        let d: &device::Device<Core> = self.as_ref();
        d
    }
}

impl AsRef<device::Device> for Device<Core> {
    #[inline]
    fn as_ref(&self) -> &device::Device {
        let d: &device::Device<Core> = self.as_ref();
        d.as_ref()
    }
}

impl AsRef<device::Device> for Device<Bound> {
    #[inline]
    fn as_ref(&self) -> &device::Device {
        let d: &device::Device<Bound> = self.as_ref();
        d.as_ref()
    }
}

// (`Normal` has the blanket `From<&T> for ARef<T>`.)
impl From<&Device<Core>> for ARef<Device> {
    fn from(dev: &Device<Core>) -> Self {
        let d: &Device = dev;
        ARef::from(d)
    }
}

impl From<&Device<Bound>> for ARef<Device> {
    fn from(dev: &Device<Bound>) -> Self {
        let d: &Device = dev;
        ARef::from(d)
    }
}

// SAFETY: `pci_dev_get`/`pci_dev_put` manage the reference count of the embedded device.
unsafe impl AlwaysRefCounted for Device {
    fn inc_ref(&self) {
        // SAFETY: `&self` proves the count is non-zero.
        unsafe { bindings::pci_dev_get(self.as_raw()) };
    }

    unsafe fn dec_ref(obj: NonNull<Self>) {
        // SAFETY: the caller owns a reference to release.
        unsafe { bindings::pci_dev_put(obj.cast().as_ptr()) }
    }
}

// SAFETY: a `pci_dev` may be used and released from any thread; only the `Normal` context may
// be owned.
unsafe impl Send for Device {}
// SAFETY: the methods taking `&self` read fields fixed at enumeration or call into C functions
// that do their own locking; sharing a context reference does not extend it.
unsafe impl<Ctx: DeviceContext> Sync for Device<Ctx> {}

/// A requested and mapped PCI BAR, at least `SIZE` bytes long.
///
/// # Invariants
///
/// `io` describes the live `pci_iomap` mapping of BAR `num` of `pdev`, whose region is requested;
/// both are undone in `drop`.
pub struct Bar<const SIZE: usize = 0> {
    pdev: ARef<Device>,
    io: IoRaw<SIZE>,
    num: c_int,
}

impl<const SIZE: usize> Bar<SIZE> {
    fn new(pdev: ARef<Device>, num: u32, name: &'static CStr) -> Result<Self> {
        let len = pdev.resource_len(num)?;
        if !pdev.resource_is_mem(num) || len == 0 {
            return Err(ENODEV);
        }
        let num = num as c_int;
        // SAFETY: the device is valid and `num` a standard BAR; `name` outlives the request.
        to_result(unsafe { bindings::pci_request_region(pdev.as_raw(), num, name.as_char_ptr()) })?;
        // SAFETY: the region was just requested for us.
        let addr = unsafe { bindings::pci_iomap(pdev.as_raw(), num, 0) };
        if addr.is_null() {
            // SAFETY: undo the request above.
            unsafe { bindings::pci_release_region(pdev.as_raw(), num) };
            return Err(ENOMEM);
        }
        let io = match IoRaw::new(addr as usize, len as usize) {
            Ok(io) => io,
            Err(e) => {
                // SAFETY: undo the mapping and request above.
                unsafe {
                    bindings::pci_iounmap(pdev.as_raw(), addr);
                    bindings::pci_release_region(pdev.as_raw(), num);
                }
                return Err(e);
            }
        };
        // INVARIANT: mapped and requested above.
        Ok(Self { pdev, io, num })
    }
}

impl<const SIZE: usize> Deref for Bar<SIZE> {
    type Target = Io<SIZE>;

    #[inline]
    fn deref(&self) -> &Io<SIZE> {
        // SAFETY: by the type invariant `io` is a live mapping of at least `SIZE` bytes, valid
        // until `self` is dropped.
        unsafe { Io::from_raw(&self.io) }
    }
}

impl<const SIZE: usize> Drop for Bar<SIZE> {
    fn drop(&mut self) {
        // SAFETY: by the type invariant the BAR is mapped and requested; undo both once.
        unsafe {
            bindings::pci_iounmap(self.pdev.as_raw(), self.io.addr() as _);
            bindings::pci_release_region(self.pdev.as_raw(), self.num);
        }
    }
}
