// SPDX-License-Identifier: GPL-2.0

#include <linux/io.h>

u8 rust_helper_readb(const void __iomem *addr)
{
	return readb(addr);
}

u16 rust_helper_readw(const void __iomem *addr)
{
	return readw(addr);
}

u32 rust_helper_readl(const void __iomem *addr)
{
	return readl(addr);
}

void rust_helper_writeb(u8 value, void __iomem *addr)
{
	writeb(value, addr);
}

void rust_helper_writew(u16 value, void __iomem *addr)
{
	writew(value, addr);
}

void rust_helper_writel(u32 value, void __iomem *addr)
{
	writel(value, addr);
}
