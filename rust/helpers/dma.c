// SPDX-License-Identifier: GPL-2.0

#include <linux/dma-mapping.h>

int rust_helper_dma_set_mask_and_coherent(struct device *dev, u64 mask)
{
	return dma_set_mask_and_coherent(dev, mask);
}

void rust_helper_dma_wmb(void)
{
	dma_wmb();
}

void rust_helper_dma_rmb(void)
{
	dma_rmb();
}

void rust_helper_mb(void)
{
	/* Full barrier for kernel::dma::mb(), whose callers say what it orders. */
	mb();
}

/*
 * dma_map_single() of memory in an sk_buff's head buffer (from its data on), which is always in
 * the kernel's direct map (kmalloc'ed or page-fragment memory: skb_free_head() frees it with
 * kfree() or as a page fragment; never vmalloc'ed, never on a stack); the caller guarantees
 * that. The mapping is made from the data's page and offset, as dma_map_single() makes it,
 * without that inline's check, which refuses vmalloc'ed memory: its is_vmalloc_addr() call
 * would cost this helper a stack frame on every packet, for a check this memory cannot fail.
 * With the DMA-API debugging on, a bad address is still reported (debug_dma_map_single(): not
 * in the direct map, vmalloc'ed; debug_dma_map_page(): on a stack), but not refused.
 */
dma_addr_t rust_helper_dma_map_skb_data(struct device *dev, void *data, size_t size,
					enum dma_data_direction dir)
{
	debug_dma_map_single(dev, data, size);
	return dma_map_page_attrs(dev, virt_to_page(data), offset_in_page(data), size, dir, 0);
}

int rust_helper_dma_mapping_error(struct device *dev, dma_addr_t addr)
{
	return dma_mapping_error(dev, addr);
}

void rust_helper_dma_sync_single_for_cpu(struct device *dev, dma_addr_t addr, size_t size,
					 enum dma_data_direction dir)
{
	dma_sync_single_for_cpu(dev, addr, size, dir);
}

void rust_helper_dma_sync_single_for_device(struct device *dev, dma_addr_t addr, size_t size,
					    enum dma_data_direction dir)
{
	dma_sync_single_for_device(dev, addr, size, dir);
}
