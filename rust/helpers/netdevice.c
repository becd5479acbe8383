// SPDX-License-Identifier: GPL-2.0

#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/mii.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/busy_poll.h>
#include <net/gro.h>
#include <net/udp.h>

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

/*
 * A received frame's buffer made ready for the stack: the frame starts @offset bytes into the
 * empty buffer and is @len bytes long (skb_reserve(), __skb_put()); eth_type_trans() sets its
 * protocol and pulls the Ethernet header. Returns the pkt_type eth_type_trans() chose. One
 * helper for what C inlines around a receive; used on 32-bit kernels (on 64-bit ones, where
 * tail is an offset, Rust makes the field updates itself and calls eth_type_trans()). The
 * caller has checked that @offset + @len bytes fit in the buffer's room: __skb_put(), without
 * skb_put()'s call and its check of the same.
 */
u8 rust_helper_skb_rx_frame(struct sk_buff *skb, unsigned int offset, unsigned int len,
			    struct net_device *dev)
{
	skb_reserve(skb, offset);
	__skb_put(skb, len);
	skb->protocol = eth_type_trans(skb, dev);
	return skb->pkt_type;
}

/*
 * Whether GRO could do nothing with @skb, a received frame, but pass it on: a UDP datagram (over
 * IPv4, or over IPv6 with no extension header; not VLAN-tagged) that udp_gro_receive() would not
 * merge, as the UDP GRO socket lookup of its IP version is off (the static key
 * udp4_gro_receive() and udp6_gro_receive() test: on while any UDP tunnel, UDP_GRO or other
 * encapsulation socket is open, in any namespace) and neither UDP GRO feature of the device
 * (rx-gro-list, rx-udp-gro-forwarding) is on. On the way GRO would verify its checksum, in
 * software where the device gave none, and walk its layers for nothing. @skb is linear (see
 * below): its length is its head's.
 */
static bool skb_rx_gro_futile(const struct sk_buff *skb)
{
	switch (skb->protocol) {
#if IS_ENABLED(CONFIG_INET)
	case htons(ETH_P_IP):
		if (skb->len < sizeof(struct iphdr) ||
		    ((const struct iphdr *)skb->data)->protocol != IPPROTO_UDP ||
		    static_branch_unlikely(&udp_encap_needed_key))
			return false;
		break;
#endif
#if IS_ENABLED(CONFIG_IPV6)
	case htons(ETH_P_IPV6):
		if (skb->len < sizeof(struct ipv6hdr) ||
		    ((const struct ipv6hdr *)skb->data)->nexthdr != IPPROTO_UDP ||
		    static_branch_unlikely(&udpv6_encap_needed_key))
			return false;
		break;
#endif
	default:
		return false;
	}
	return !(skb->dev->features & (NETIF_F_GRO_FRAGLIST | NETIF_F_GRO_UDP_FWD));
}

/*
 * A datagram straight up behind what GRO holds unmerged: out of line, so that the usual path
 * (nothing held) saves no registers.
 */
static noinline void napi_rx_straight_up(struct napi_struct *napi, struct sk_buff *skb)
{
	gro_normal_list(napi);
	netif_receive_skb(skb);
}

/*
 * Hands a received frame (protocol set, data at its network header; linear) to the stack from a
 * NAPI poll with a budget: through GRO, but for a UDP datagram GRO could not merge (above), which
 * goes straight up (netif_receive_skb(), as drivers without GRO hand frames up), marked with
 * the NAPI context for busy polling as GRO would have marked it. What GRO passed on unmerged
 * and still holds for the list receive goes up first, so a flow's earlier frames (an IPv6
 * fragment, which GRO takes) stay ahead of its later ones. GRO checksums a datagram before its
 * socket may drop it; past GRO, the stack sums one when it must (a short one at once, one a
 * socket filter or conntrack looks at, one the socket keeps as it is copied), not one that a
 * full socket buffer drops. Under a UDP flood on a device without receive checksums those are
 * most of them.
 */
void rust_helper_napi_receive_frame(struct napi_struct *napi, struct sk_buff *skb)
{
	if (!skb_rx_gro_futile(skb)) {
		napi_gro_receive(napi, skb);
		return;
	}
	skb_mark_napi_id(skb, napi);
	if (unlikely(napi->rx_count))
		napi_rx_straight_up(napi, skb);
	else
		netif_receive_skb(skb);
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
