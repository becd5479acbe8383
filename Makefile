# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of e100_rs against a 6.12 kernel tree that carries our rust/ additions.
#   make                  # against the harness kernel (scripts/build-kernel.sh builds it)
#   make KDIR=/path       # against any such tree
#   make clean

KDIR ?= $(or $(E100_RS_KDIR),$(HOME)/.cache/e100_rs/linux)

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) LLVM=1 modules

clippy:
	$(MAKE) -C $(KDIR) M=$(CURDIR) LLVM=1 CLIPPY=1 modules

fmt:
	rustfmt --edition 2021 --config-path $(KDIR)/.rustfmt.toml e100_rs.rs

fmtcheck:
	rustfmt --edition 2021 --check --config-path $(KDIR)/.rustfmt.toml e100_rs.rs

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

.PHONY: all modules clippy fmt fmtcheck clean
