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

dma_addr_t rust_helper_dma_map_single(struct device *dev, void *ptr, size_t size,
				      enum dma_data_direction dir)
{
	return dma_map_single(dev, ptr, size, dir);
}

void rust_helper_dma_unmap_single(struct device *dev, dma_addr_t addr, size_t size,
				  enum dma_data_direction dir)
{
	dma_unmap_single(dev, addr, size, dir);
}

bool rust_helper_dma_need_sync(struct device *dev, dma_addr_t addr)
{
	return dma_need_sync(dev, addr);
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
