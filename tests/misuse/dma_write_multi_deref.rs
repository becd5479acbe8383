// SPDX-License-Identifier: GPL-2.0
//! Writing through a Deref impl on a device-shared structure from dma_write!'s several-field form (user code inside the macro's unsafe block, and a reference into device memory), even with the lint allowed.
//!
//! expect-error: 
//! expect-message: implicit autoref

use kernel::prelude::*;

module! {
    type: M,
    name: "dma_write_multi_deref",
    author: "e100_rs tests",
    description: "must not compile",
    license: "GPL",
}

struct M;

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}

use kernel::dma::CoherentAllocation;

kernel::dma_struct! {
    struct Desc {
        status: u16,
        size: u16,
    }
}

struct Hidden {
    secret: u32,
}

static HIDDEN: Hidden = Hidden { secret: 0 };

impl core::ops::Deref for Desc {
    type Target = Hidden;

    fn deref(&self) -> &Hidden {
        &HIDDEN
    }
}

impl core::ops::DerefMut for Desc {
    fn deref_mut(&mut self) -> &mut Hidden {
        // Never run: the build must fail first. (A leaked box stands in for a real target.)
        KBox::leak(KBox::new(Hidden { secret: 0 }, GFP_KERNEL).unwrap())
    }
}

#[allow(dead_code)]
#[allow(dangerous_implicit_autorefs)]
fn secret(ring: &CoherentAllocation<Desc>) -> Result {
    kernel::dma_write!(ring, 0, { size = 0, secret = 1 })
}
