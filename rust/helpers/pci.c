// SPDX-License-Identifier: GPL-2.0

#include <linux/pci.h>
#include <linux/pm_wakeup.h>

void *rust_helper_pci_get_drvdata(struct pci_dev *pdev)
{
	return pci_get_drvdata(pdev);
}

void rust_helper_pci_set_drvdata(struct pci_dev *pdev, void *data)
{
	pci_set_drvdata(pdev, data);
}

resource_size_t rust_helper_pci_resource_len(struct pci_dev *pdev, int bar)
{
	return pci_resource_len(pdev, bar);
}

unsigned long rust_helper_pci_resource_flags(struct pci_dev *pdev, int bar)
{
	return pci_resource_flags(pdev, bar);
}

const char *rust_helper_dev_name(const struct device *dev)
{
	return dev_name(dev);
}

bool rust_helper_device_can_wakeup(struct device *dev)
{
	return device_can_wakeup(dev);
}

bool rust_helper_device_may_wakeup(struct device *dev)
{
	return device_may_wakeup(dev);
}

#ifndef CONFIG_PM_SLEEP
/* Only then an inline; with system sleep it is an exported function. */
int rust_helper_device_set_wakeup_enable(struct device *dev, bool enable)
{
	return device_set_wakeup_enable(dev, enable);
}
#endif
