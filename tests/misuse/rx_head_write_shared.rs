// SPDX-License-Identifier: GPL-2.0
//! Writing a descriptor field through the reading view, which a shared borrow of the mapping gives.
//!
//! expect-error: E0596
//! expect-message: cannot borrow `*h` as mutable

use kernel::prelude::*;

module! {
    type: M,
    name: "rx_head_write_shared",
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

use kernel::net::skbuff::RxMapping;

/// Public, so that it is compiled whether or not anything calls it.
pub fn clear(m: &RxMapping) -> Option<()> {
    m.read_head::<16, _>(|h| h.set_le16::<0>(0)).ok()
}
