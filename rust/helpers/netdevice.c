// SPDX-License-Identifier: GPL-2.0

#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>

void *rust_helper_netdev_priv(const struct net_device *dev)
{
	return netdev_priv(dev);
}

void rust_helper_eth_hw_addr_set(struct net_device *dev, const u8 *addr)
{
	eth_hw_addr_set(dev, addr);
}

bool rust_helper_netif_carrier_ok(const struct net_device *dev)
{
	return netif_carrier_ok(dev);
}

bool rust_helper_netif_running(const struct net_device *dev)
{
	return netif_running(dev);
}

void rust_helper_netif_start_queue(struct net_device *dev)
{
	netif_start_queue(dev);
}

void rust_helper_netif_stop_queue(struct net_device *dev)
{
	netif_stop_queue(dev);
}

void rust_helper_netif_wake_queue(struct net_device *dev)
{
	netif_wake_queue(dev);
}

bool rust_helper_netif_queue_stopped(const struct net_device *dev)
{
	return netif_queue_stopped(dev);
}

bool rust_helper_is_valid_ether_addr(const u8 *addr)
{
	return is_valid_ether_addr(addr);
}

void rust_helper_dev_kfree_skb_any(struct sk_buff *skb)
{
	dev_kfree_skb_any(skb);
}

void rust_helper_dev_consume_skb_any(struct sk_buff *skb)
{
	dev_consume_skb_any(skb);
}

void rust_helper_eth_random_addr(u8 *addr)
{
	eth_random_addr(addr);
}
