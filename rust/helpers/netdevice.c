// SPDX-License-Identifier: GPL-2.0

#include <linux/etherdevice.h>
#include <linux/mii.h>
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

struct sk_buff *rust_helper_alloc_skb(unsigned int size, gfp_t priority)
{
	return alloc_skb(size, priority);
}

bool rust_helper_napi_schedule(struct napi_struct *n)
{
	return napi_schedule(n);
}

struct sk_buff *rust_helper_netdev_alloc_skb_ip_align(struct net_device *dev, unsigned int len)
{
	return netdev_alloc_skb_ip_align(dev, len);
}

int rust_helper_skb_put_padto(struct sk_buff *skb, unsigned int len)
{
	return skb_put_padto(skb, len);
}

unsigned int rust_helper_skb_headlen(const struct sk_buff *skb)
{
	return skb_headlen(skb);
}

unsigned int rust_helper_skb_tailroom(const struct sk_buff *skb)
{
	return skb_tailroom(skb);
}

void rust_helper_netdev_sent_queue(struct net_device *dev, unsigned int bytes)
{
	netdev_sent_queue(dev, bytes);
}

void rust_helper_netdev_completed_queue(struct net_device *dev, unsigned int pkts,
					unsigned int bytes)
{
	netdev_completed_queue(dev, pkts, bytes);
}

void rust_helper_netdev_reset_queue(struct net_device *dev)
{
	netdev_reset_queue(dev);
}

int rust_helper_netdev_mc_count(const struct net_device *dev)
{
	return netdev_mc_count(dev);
}

void rust_helper_init_delayed_work(struct delayed_work *dw, work_func_t fn)
{
	INIT_DELAYED_WORK(dw, fn);
}


void rust_helper_local_bh_disable(void)
{
	local_bh_disable();
}

void rust_helper_local_bh_enable(void)
{
	local_bh_enable();
}

void rust_helper_skb_reserve(struct sk_buff *skb, int len)
{
	skb_reserve(skb, len);
}

u32 rust_helper_netif_msg_init(int debug_value, int default_msg_enable_bits)
{
	return netif_msg_init(debug_value, default_msg_enable_bits);
}

bool rust_helper_mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork,
				  unsigned long delay)
{
	return mod_delayed_work(wq, dwork, delay);
}

struct mii_ioctl_data *rust_helper_if_mii(struct ifreq *rq)
{
	return if_mii(rq);
}

void *rust_helper_skb_put_data(struct sk_buff *skb, const void *data, unsigned int len)
{
	return skb_put_data(skb, data, len);
}

void rust_helper_netif_addr_lock_bh(struct net_device *dev)
{
	netif_addr_lock_bh(dev);
}

void rust_helper_netif_addr_unlock_bh(struct net_device *dev)
{
	netif_addr_unlock_bh(dev);
}

void rust_helper_netif_tx_disable(struct net_device *dev)
{
	netif_tx_disable(dev);
}

void rust_helper_skb_tx_timestamp(struct sk_buff *skb)
{
	skb_tx_timestamp(skb);
}

bool rust_helper_netif_device_present(const struct net_device *dev)
{
	return netif_device_present(dev);
}
