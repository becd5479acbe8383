// SPDX-License-Identifier: GPL-2.0

//! e100_rs: Intel PRO/100 (8255x) Ethernet driver, in Rust.
//!
//! # Theory of Operation
//!
//! ## General
//!
//! The 8255x family (82557, 82558, 82559, 82550, 82551, and the 82562 PHYs on ICH chipsets)
//! are 10/100 Mb/s PCI Ethernet controllers with an MII PHY. Software talks to the controller
//! through a small block of Control/Status Registers (CSR) in BAR0: the System Control Block
//! (SCB), which takes commands for the Command Unit (CU, which transmits and runs configuration
//! commands) and the Receive Unit (RU), plus the PORT register (reset, self-test), the EEPROM
//! control register and the MDI control register that reaches the PHY. Both units work from
//! lists in host memory that they reach by bus-master DMA. The generation of the part
//! ([`hw::Mac`]) comes from the PCI revision; ICH parts are treated as the 82559 D101M, as in
//! Intel's manuals and e100.c. Newer generations add features, so features are gated with
//! ordered comparisons.
//!
//! ## Driver operation
//!
//! Before probe runs, the PCI abstraction sets the 32-bit DMA mask the driver declares. Probe
//! enables the PCI device (managed: the PCI core disables it at unbind) and maps BAR0, which
//! must be a memory BAR. The mapping lives in a [`Devres`], revoked when the device is unbound;
//! code that shows a bound device ([`kernel::device::Bound`]) reaches it without an RCU section
//! (every net_device callback can: the registration lives only while the PCI device is bound),
//! and nothing can reach it after unbind. Register access goes through the bounds-checked
//! accessors of [`kernel::io::Io`]. The chip is reset as the manual prescribes (selective reset to
//! stop any
//! DMA a previous owner left running, software reset, 20 us each, all interrupts masked) before
//! bus mastering is enabled. The EEPROM is bit-banged ([`eeprom`]); its size comes from the dummy
//! zero after the address; the words must sum to 0xBABA, and a bad sum or an invalid MAC address
//! refuses the probe with `EAGAIN` unless `eeprom_bad_csum_allow` is set (then a bad address is
//! replaced by a random one). The PHY is found on the MDI bus ([`phy`]), scanning 1, 0, 2..31;
//! every other address is then isolated and the PHY un-isolated, last (the 82552 answers on
//! every address, so the isolation reaches it too), here and again on every bring-up. When no
//! address answers and the EEPROM says the board has no MII PHY (word 6: none, 82503, 80C24),
//! the PHY registers are emulated ([`phy::EmulatedMii`]: a link always up at 10 Mb/s, reported
//! half duplex since nothing negotiates) and Configure selects the 82503 serial interface, as
//! e100.c does; such a board has no link or flow-control settings and no duplex diagnosis.
//! Otherwise the probe fails with `ENODEV`. One
//! coherent block, [`Mem`], receives the self-test result and the statistics dumps. The
//! net_device is registered as `eth%d` with the EEPROM's address; probe is written as ordinary
//! fallible code ([`E100Driver::setup`]) wrapped into the initialiser the PCI core expects.
//!
//! The per-device state, [`Nic`], belongs to the net_device registration, which the PCI driver
//! data holds inside a [`Devres`] of the PCI device: dropped at remove, or at the latest when
//! the device is unbound. The registration owns the interrupt line, the NAPI context and the
//! service work item: it requests the (shared) IRQ, named after the interface, before calling
//! our `open` and enables NAPI after it (scheduling one poll, which unmasks the interrupt), and
//! it disables NAPI before our `stop` and afterwards frees the IRQ and cancels the service
//! work, waiting for each. Remove drops the registration: the core closes the interface,
//! nothing runs any more, then the state and, last, the BAR go.
//!
//! `open` takes the rings ([`Nic::spare`]: allocated at the first bring-up, for the largest
//! sizes, and kept until remove, as e100.c's DMA pool keeps its CB block, so no later bring-up
//! needs a high-order allocation), runs the PORT self-test, selects the PHY, loads the
//! microcode (its CB ends the list, and the CU is started afresh after it, as e100.c and fxp
//! do), loads the CU and RU base addresses (0), queues Configure, the multicast filter and the
//! Individual Address, points the statistics dump at [`Mem`] and starts the RU: each SCB command
//! waits for the SCB sleeping, up to e100.c's 100 ms, on rings not yet handed to the CU lock.
//! Then the rings go to the data path, the queue is woken and interrupts unmasked; the service
//! task reports the link and configures the MAC for it. `stop` resets the chip (which stops both
//! units and masks interrupts), frees every buffer and keeps the rings.
//!
//! The chip's path is e100.c's; QEMU's model, known by the firmware's DMI identity at probe
//! ([`qemu`], said in the probe line), gets the few workarounds it needs: software padding,
//! standard TCBs, no `SO_NOFCS`, and the empty-RFD handling below.
//!
//! ## Transmit
//!
//! The Command Block List ([`rings::CbRing`]) is a ring of 128 CBs (64 to 256) in coherent memory,
//! linked in a circle, shared by transmits and configuration commands. A new CB gets its S
//! (suspend) bit set; after a write barrier the previous CB's S bit is cleared and the CU is
//! kicked: CU_START with the CB's address the first time after a reset, CU_RESUME after that.
//! The CU thus always has a suspend point ahead of it and never runs into a CB being filled.
//! Chained CBs need one command between them: a kick sends nothing while the SCB still holds
//! our START or RESUME (the CU will find the S bits cleared when it takes it) or when the
//! newest CB has already completed. e100.c sends one RESUME per CB; a second one for the same
//! chain finds the CU suspended at the newest CB, and a chip that then follows the link (QEMU's
//! model does) runs the free CB after it, a stale transmit. If the SCB has not yet accepted the
//! previous command, the CBs stay queued and the next kick (or the next poll) sends them.
//!
//! On QEMU's model a transmit pads a short frame to 60 bytes (the model ignores Configure's
//! padding bit, which the chip obeys); it maps
//! the (linear) skb for the device into the slot of its CB (`TxSlots`: one device reference for the
//! ring; the mapping also takes the frame's transmit timestamp if the socket asked for one,
//! `skb_tx_timestamp`, before the device can have the frame), and describes it with one Transmit
//! Buffer Descriptor placed inside the CB, with a TBD count of 1 and the TBD array pointing at
//! it: on a chip from the 82558 on the TCB is extended, as in e100.c, and the chip takes that TBD
//! from inside the TCB; on the 82557, and on QEMU's model (whose extended TCB reads a second,
//! stale in-TCB TBD and sends junk after the frame), the TCB is standard and takes it from the
//! TBD array ([`desc::tx_body`]). Frames leave with nothing appended. Every 16th CB asks
//! for a completion interrupt; the others rely on the CU-not-active interrupt when the CU suspends.
//! When the last free CB is used the queue is stopped; the transmit path and the cleaner both run
//! under the CU lock, so a wake can never be lost between "ring full" and "stop queue". Byte Queue
//! Limits are fed on both sides.
//!
//! ## Receive
//!
//! The Receive Frame Area ([`rings::RxRing`], 256 RFDs, 16 to 256) is in simplified mode: each
//! socket buffer holds a 16-byte RFD header followed by room for a VLAN-tagged maximum frame,
//! mapped bidirectionally since the CPU writes headers and the device writes frames. One RFD, the
//! stop point, has EL set and size 0, so the RU never receives into it: reaching it, the RU goes to
//! "no resources" (RNR). Poll hands each completed frame up after replacing its buffer: a fresh one
//! from NAPI's per-CPU cache (`napi_alloc_skb`, through the poll's `Receiver`, which exists only in
//! a poll with a budget), its header written before it is mapped, is mapped into the slot in the
//! frame's place (`RxMapping::replace`: the slot keeps its device reference); buffers are not
//! cleared, as in e100.c (the CPU reads back only the header it wrote). If no buffer can be had,
//! the frame is dropped and the old buffer re-armed, so the ring never shrinks. Every RFD a poll
//! refills or re-arms is written as a stop point (its link 0: the RU never follows a stop point's
//! link, and an RFD loses EL only with its link published first or while the RU cannot reach it),
//! and the one refilled before it in the same poll becomes an ordinary RFD in the write that links
//! it to the new buffer; the old stop point, which the RU cannot pass meanwhile, is restored last:
//! its link, then its status and command with EL cleared, then its size, each published to the
//! device on its own (a write barrier, and a sync where the mapping needs one: `Head::publish`). A
//! device reading it meanwhile never sees EL clear beside the link to a buffer the poll took away,
//! nor room in an RFD that still ends the list; one that reads it between the last two writes
//! completes it empty, and the poll re-arms it (below). The newest RFD is then the only stop point
//! again, with no write of its own. If the RU is not ready after that, it is restarted at the next
//! RFD to clean, but only once that RFD holds no frame, so nothing the RU wrote is overwritten
//! before it is delivered. Whether the RU stopped is learnt from the RNR interrupt cause and from
//! the SCB's RU status. One flag, "stopped", says the RU may be out of the ready state: an RNR, the
//! watchdog's request (a poll every period, as e100.c's software interrupt, the safety net), an
//! RU_START just issued, or a pass that reached the stop point. The SCB is read for it only by a
//! poll that could restart the RU, one whose next RFD to clean holds no frame (as e100.c reads it
//! only at its stop point): such a poll takes the flag, reads the RU status, and sets the flag
//! again unless the RU is ready, and looks at that RFD again after the read (a ready RU may fill it
//! and stop in between; a stopped one writes nothing). Any other poll leaves the flag set and reads
//! nothing: while the backlog an overflow left is cleaned, a budget a poll, no register is read.
//! The flag stays set through an RU_START, whether the SCB takes it or not: an RNR that comes
//! meanwhile is not lost, and a start the chip did not act on, which leaves that RFD empty, is
//! found by the next poll. A lost RNR, or a lost start with no poll after it, is found within a
//! watchdog period, so receive-only traffic cannot stay dead. The data path's other polls read no
//! register (but one that meets an empty RFD, below). On a chip an RFD completed with no frame in
//! it is counted as dropped and re-armed. On QEMU's model it comes in three ways. The model writes
//! the status before the count and data, completes a stop point it raced with empty before stopping
//! (the RU then not ready, the frame queued in QEMU for the restart), and completes empty an old
//! stop point it reads between the restore's last two writes and goes on, the RU still ready;
//! upstream then returns the 0 bytes it took, which QEMU's net layer reads as "cannot receive now":
//! it holds that frame and every later one until an RU Start. The poll meeting an empty RFD looks
//! at the next one and, if that is not complete, reads the SCB (the model finishes a frame before
//! it answers). With the next RFD complete or the RU stopped it reads the RFD again: a count now is
//! a frame to deliver; still none, the RFD is re-armed in place, nothing counted. With the RU ready
//! the pass stops there, and after it the RFD is read again: a count is a frame still being
//! written, left for the poll its own interrupt brings; still none and the next RFD still empty,
//! the model went on and took nothing since, so the RFD is re-armed in place and the RU started at
//! the next RFD to clean, where the model stands (its queue then flows again; e100.c never starts a
//! ready RU, and receives nothing more for the rest of the boot). A second flag, "held", keeps that
//! up, every receive poll and the watchdog's starting the RU again, until a poll's pass takes an
//! RFD (the model's queue moves again): a start the SCB refused or the model did not act on is
//! tried again, though the RU reads ready. The same write order leaves a window no driver can
//! close: a count already written over data still to come. Frames without the OK bit are dropped
//! (the hardware counters count them); frames longer than 1518 bytes count as
//! `rx_over_length_errors`. The 82557 cannot receive a frame longer than 1518 bytes at all
//! (Configure's long-frame bit came with the 82558), so its net_device is VLAN-challenged, as in
//! e100.c: the stack refuses VLANs on it.
//!
//! Frames go up with `netif_receive_skb` (`Receiver::receive`), as e100.c hands them up. Not
//! GRO: the 8255x gives no receive checksum, so GRO would verify every frame in software before
//! a socket could drop it, CPU time a reader loses under a flood.
//!
//! ## Interrupts and NAPI
//!
//! The handler reads STAT/ACK: 0 means the shared line was not ours, 0xFF that the device is gone.
//! Otherwise it acknowledges the causes, keeps them for the poll, masks the device's interrupts and
//! schedules NAPI. The mask, the SCB command word's high byte, is written under the CU lock here
//! and when a poll unmasks, as e100.c does under its `cmd_lock`, so never at once with a data-path
//! command in the low byte (the bring-up's commands, issued outside that lock, still can meet the
//! handler's mask write: e100.c takes `cmd_lock` for those too). A poll with nothing for the RFA
//! (some cause, none of them FR or RNR, the RU not flagged as possibly stopped, the last receive
//! poll not out of budget), and netpoll's, cleans the CB ring only (if a CB may be in flight),
//! without touching the RFA. Otherwise poll cleans at most `budget` received frames, restarts the
//! RU if it stopped, completes transmitted CBs and wakes the queue (the skbs are unmapped and taken
//! off the ring in batches of 16 under the CU lock, and freed with `napi_consume_skb` after it is
//! dropped), and ends with `Poll::done` and the work done: when that is less than the budget, NAPI
//! is completed and, if NAPI agrees it is done, the device unmasked through the register block the
//! poll already holds (not while suspended: the hardware is the PM callbacks' then). A poll that
//! finds the BAR gone does no work, so NAPI is completed all the same. netpoll runs the same
//! handler and poll, with interrupts disabled and from any context.
//!
//! A poll does only the work its causes call for, where e100.c always does both halves. The RFA:
//! when a frame was received (FR), the RU is flagged as possibly stopped (RNR, the watchdog, an
//! RU_START), the last poll used its whole budget, or no cause was gathered at all (a busy-polling
//! socket, the watchdog's poll). The CB ring: when a CB completed (CX, CNA), may be in flight (a
//! flag set under the CU lock before a CB is queued, and by poll to what its clean left), an RU is
//! to be restarted, or for netpoll. Work that comes after a poll took its causes raises an
//! interrupt of its own once NAPI unmasks the device: the chip latches STAT/ACK while masked.
//! Measured on one-way UDP, one frame per interrupt: 75 instructions less per transmitted frame, 77
//! less per received one (scripts/bench.sh's instruction counts).
//!
//! NAPI polls in softirq context, as e100.c's; `/sys/class/net/ethN/threaded` moves it to a
//! kernel thread of its own (`napi/ethN-<id>`) at run time. Measured on one emulated CPU (the
//! benchmark, 5 alternating rounds each way, 2026-12-05): in a thread, sending suffers, since
//! returning ACKs and completed CBs wait for the thread to get the CPU from the sender (TCP
//! guest to host 0.84 times e100.c's rate, UDP sent at 0.58-0.67 times, one interrupt per
//! 5,000 frames sent); in softirq context TCP guest to host is level with e100.c (0.99, 95%
//! interval 0.93-1.07). Under a receive flood (2.24 Gbit/s of UDP offered; both drivers are
//! lossless up to 480 Mbit/s, the top of the benchmark's sweep) softirq context delivers about
//! what the thread does to the application: 545 (436-603) and 642 (599-661) Mbit/s in two
//! runs, the thread 611 (605-680); e100.c 794 and 848 (medians). An earlier version of this
//! driver, at twice today's instructions per frame, delivered only 142-168 Mbit/s in softirq
//! context (1.4 Gbit/s offered), which is why it used to poll in a thread on one CPU.
//!
//! ## Link, duplex and flow control
//!
//! What the user asked for (`ethtool -s`, `ethtool -A`) is a [`phy::LinkConfig`]: autonegotiate
//! with an advertisement (10/100, half/full, symmetric and asymmetric PAUSE as IEEE 802.3
//! table 28B-2 encodes the rx/tx wish), or force a speed and duplex. A request is checked
//! against the PHY's abilities (BMSR, read at probe) and the MAC's (PAUSE needs an 82558 or
//! later) before anything is written, so a refused one (`EINVAL`, `EOPNOTSUPP`) changes
//! nothing. An accepted `-s` resets the PHY (as e100.c does; the reset is polled sleeping, with
//! the MDI bus released) and an accepted `-A` does not; both then write ADVERTISE and BMCR
//! (through the 82552's hook, which adds the 100/full bits it needs on an autonegotiation
//! restart), drop the carrier and let the service task find the new link. Every bring-up
//! makes sure the PHY advertises what the configuration says (the default one advertises
//! PAUSE where the MAC has flow control), restarting autonegotiation only if it did not. The
//! per-PHY quirks of e100.c
//! (NSC congestion control off, MDI-X auto-switch on the 82550 and later or an ICH whose
//! EEPROM and PHY allow it, off for a forced link) are applied at probe, on every bring-up and
//! after a PHY reset.
//!
//! The service task reads the link from the PHY ([`phy::LinkState`]): BMSR's latched-low
//! link bit (a drop between two looks is reported as a drop), BMCR, and for an autonegotiated
//! link both ends' pages resolved as annex 28B does, highest common technology first; a
//! partner that sends no pages (ANER's "partner can autonegotiate" clear) is parallel-detected,
//! half duplex and no PAUSE. When the link comes up the MAC is reconfigured to match: Configure
//! forces full duplex for a forced full-duplex link (otherwise the FDX# pin tells the MAC) and
//! enables sending PAUSE only if the resolution (and the user) allow it; the MAC always obeys
//! received PAUSE frames on an 82558 or later. The link is reported in the usual Linux form,
//! `Link is Up - 100Mbps/Full - flow control rx/tx`, and `Link is Down`, both gated by
//! `netif_msg_link` (the `debug` parameter and `ethtool -s msglvl`).
//!
//! On a half-duplex link the service task also runs e100.c's adaptive IFS
//! ([`diag::adaptive_ifs`]): while more than one frame in 32 collides it lengthens Configure's
//! inter-frame spacing by 5 a period (to 60), and shortens it again when traffic falls off. An
//! ICH part on a 10 Mb/s half-duplex link precedes each transmit with a CU NOP and 1 us, e100.c's
//! workaround for the ICH's transmit hang there.
//!
//! ## Diagnosis
//!
//! Every statistics dump counts since the previous one, so each is one 2 s period of the link's
//! life (dumps that cover less, made by an extra service run, are folded into the counters but
//! not judged). [`diag::Diagnosis`] reads it with the link as resolved: CRC and alignment errors
//! and runts while we are full duplex on a link the two ends did not negotiate say the partner
//! is half (we were forced to full; a full-duplex MAC sees no collision); late collisions while
//! we are half duplex
//! say the partner is full (it was forced and we fell back to half by parallel detection);
//! errors on a link both ends negotiated are noise; more PAUSE frames received than frames sent
//! is a flow-control stall; receive-buffer drops while we send no PAUSE is an overload that flow
//! control would cure. Each is an episode: one warning when it starts, naming the likely cause
//! and the fix, one line when it clears (two clean periods, with traffic for the error
//! signatures, or a link change), its
//! state in `ethtool -S` (`diag_*`) meanwhile; `netif_msg_link` silences the messages, never
//! the state. The logic is `core`-only and host-tested.
//!
//! ## ethtool
//!
//! [`ethtool`] has e100.c's whole surface, with its conventions where a user or a script may
//! rely on them: the 31 `-S` names in its order (ours follow), the `-d` layout and version word
//! (SCB status and command, PHY registers 0x1c to 0, the Dump command's buffer), the EEPROM
//! magic 0x1234 (a write rewrites the checksum word and is read back from the part), the ring
//! limits (16..256 receive, 64..256 transmit, below the minimum taken as the minimum; a resize
//! takes the interface down and up under RTNL with NAPI off, and goes back to the old sizes if
//! the new rings cannot be had), the five `-t` tests (the offline ones take the interface down,
//! run the PORT self-test, then a MAC and a PHY loopback: one frame sent with Configure, or the
//! PHY, looping it back, and looked for byte for byte in the receive ring; the user's link
//! settings are restored after), and the LED values of `-p`. Beyond e100.c: pause settings and
//! statistics (`-a`, `-A`, `-I -a`), the standard eth-mac and eth-ctrl groups, and the
//! diagnosis state.
//!
//! ## Watchdog, statistics and recovery
//!
//! The service task (process context, every 2 s while up) polls the PHY for link changes and
//! handles them as above, asks for the period's statistics (dump-and-reset, so each dump
//! counts since the previous one) and folds them in as soon as the chip has written them
//! (diagnosis and adaptive IFS read them), and retries a receive-mode update that found the CB
//! ring full. Transmit errors come from the dumps only, each problem once (`tx_errors` is the
//! sum of aborted, late-collision, lost-carrier and underrun frames, as `rtnl_link_stats64`
//! defines it, where e100.c leaves the second and fourth out); a frame the CU gave up on
//! completes its CB without OK and is not counted as a packet sent (BQL still sees it go).
//! The task runs under the `link` mutex and does nothing while ethtool rebuilds the hardware
//! (offline self-test, ring resize: the flag is set under the same mutex) or once `stop` has
//! begun (which drops the carrier under it). The completion word of the dump lands after
//! 16, 19 or 20 counters depending on the part and its configuration; QEMU's i82559er puts it
//! after 16 although it presents an 82559, which is why e100.c's counters never update there.
//! The completion is expected where the generation puts it; until a dump has completed there,
//! the other places are looked at too, and a completion found elsewhere is taken, kept, and
//! warned about once ([`stats`]). The completion word is read before the counters, with a read
//! barrier between. A dump that completes only after the task stopped waiting is folded in at
//! the next run, before the block is cleared, so no counts are lost. On an 82557 (up to the
//! C-step) every run also queues Configure and the multicast list again, e100.c's workaround for
//! that chip's multicast lock-up. The transmit watchdog (2 s) asks the abstraction for a reset
//! ([`net::dev::Device::schedule_reset`]), whose work item takes RTNL, as e100.c's
//! `tx_timeout_task` does, and, if the interface is still up, calls our `reset`, which takes
//! the interface down and up with NAPI off. (`stop` cancels only the service task: the reset
//! work waits for the RTNL `stop` holds, finds the interface down and does nothing.)
//! `down` stops the queue with `netif_tx_disable` (which waits for a transmit in flight on
//! another CPU, so none is inside the SCB while the chip is reset) and drops the carrier
//! before resetting, as e100.c's does; the watchdog raises it again and reconfigures the MAC.
//!
//! ## Power management and wake-on-LAN
//!
//! Suspend (and hibernation's freeze and power-off) takes RTNL, marks the driver `suspended` under
//! `link` (the service task and the reset work then leave the hardware alone: resume starts
//! afresh), detaches the device from the stack (no transmit, no transmit watchdog, no netpoll),
//! takes the hardware down as `stop` does if the interface is up, with NAPI kept off and the
//! interrupt line released until resume (`suspend_napi`, as e100.c's e100_down frees its IRQ), arms
//! wake-on-LAN if it is on, and stops bus mastering. The PCI core then saves the configuration
//! space and puts the device into D3hot, with PME# enabled if the device may wake the system.
//! Resume reverses it: bus mastering, then, if the interface is up, the interrupt requested again
//! and the whole bring-up on the kept rings (reset, self-test, PHY selected and its settings
//! applied again, Configure, address, filter, RU start), then the device attached to the stack
//! again; the watchdog raises the carrier once the PHY reports link. The shutdown hook quiesces the
//! same way and, when the system powers off, puts the device into D3hot itself, PME# armed for a
//! magic packet if wake-on-LAN is on (e100.c's `e100_shutdown`). PME is cleared at probe. PCI error
//! recovery follows e100.c: an error report quiesces as suspend does (without arming wake-up) and
//! asks for a slot reset unless the channel failed for good; after the reset, function 0 resets the
//! chip and selects its PHY again; on resume PME is cleared and the device revived as after a
//! sleep. (QEMU's `-M pc` has no way to inject a PCI error, so this path runs only on real
//! hardware; its parts are the suspend path's.)
//!
//! Wake-on-LAN is the magic packet only, on the 82558 and later when the EEPROM says the board
//! is wired for it (which also turns it on by default), and never on the 82559ER, which
//! cannot wake on one ([`hw::wol_capable`]). The running MAC keeps magic-packet wake-up
//! off (Configure byte 19, as e100.c has it); arming it for a sleep resets the chip and gives it
//! its address and a Configure with magic packets on, from a small CB ring that stays allocated
//! until resume takes the hardware down again. The same callbacks serve hibernation's freeze
//! and thaw (where arming is harmless), as C's `SIMPLE_DEV_PM_OPS` does; the shutdown hook arms
//! only when the system powers off. If the bring-up at resume fails, the interface keeps no
//! carrier and the service task retries it as a reset.
//!
//! ## CPUSaver microcode
//!
//! The 82559 D101M and D101S and the 82551 F and 82551-10 take Intel's microcode from the
//! firmware loader ([`ucode`]): at the first bring-up the blob is read, checked (size, word
//! offsets) and patched (interrupt delay and bundle limit from the module parameters, small
//! frames bundled), and kept; every bring-up then loads it, before Configure as in e100.c, on
//! the fresh CB ring that nothing else sees yet, so its completion is waited for sleeping. An
//! optional blob that is missing or malformed is said once and done without; the 82551's D102E
//! blob is required (it carries receive fixes), so without it `open` fails with a message that
//! names the file and the package, and the next `open` asks again. A load the chip refuses or
//! does not complete fails the bring-up, as in e100.c.
//!
//! ## Locking
//!
//! Nothing prints while holding `cu`: a message can reach netconsole, whose netpoll transmit
//! takes `cu` again. netpoll also means transmit and poll can run in hard-interrupt context
//! (a `printk` in an interrupt handler): every lock they take is taken with interrupts disabled
//! by everyone (`SpinLockIrq`).
//!
//! - The address list (the net_device's): held by the core around `set_rx_mode`, taken with
//!   `lock_addrs` by `open` and the service task to rebuild the receive filter. First in order.
//! - `cu`: the CB ring, the SCB command register, statistics state. Taken by transmit and poll,
//!   which netpoll may run in hard-interrupt context, so always with interrupts disabled
//!   (`spin_lock_irqsave`, as e100.c's `cb_lock`). Completed transmit buffers are freed after
//!   it is dropped; what an error path drops under it goes the any-context way
//!   (`dev_kfree_skb_any`).
//! - The RFA ([`Rfa`]) is not under a lock: it is the NAPI poll's state
//!   (`Operations::PollState`), which a poll with a budget borrows from its `Poll` until
//!   `Poll::done` (such a poll owns NAPI's scheduled bit until then; netpoll's, budget 0,
//!   never gets it), and which `open`, `stop` and the resets (`with_napi_disabled`, or
//!   `with_napi_idle` while down) get while NAPI is disabled. e100.c relies on the same: its
//!   RFA has no lock either.
//! - `link`: the link configuration, last state and diagnosis (a mutex: ethtool under RTNL,
//!   the service task, and the PM callbacks under RTNL to set `suspended`, all process
//!   context; held across PHY accesses that sleep). Taken before the address list and `cu`
//!   when the link change reconfigures the MAC.
//! - `ucode`: the microcode blob once read (a mutex; bring-ups only, process context).
//! - `eeprom`: the EEPROM image (a mutex; ethtool only).
//! - `mdio_lock`: one MDI sequence at a time (a transaction, or a short run of them: a
//!   configuration, the register dump); the PHY isolation at bring-up takes it per transaction
//!   and a PHY reset is polled without it.
//! - `counters`: not a lock: the software counters are atomics, added to with relaxed
//!   read-modify-writes ([`stats::DataCounters`]).
//!
//! Rules this driver used to keep by hand are now the abstractions' types: the multicast list can
//! only be read through the `AddrList` that the held address-list lock gives; handing frames up,
//! NAPI completion and `napi_consume_skb` exist only on the `Poll` a poll gets, and a poll can only
//! end by giving it up to `Poll::done`, which completes NAPI (never twice) and only then runs the
//! unmask; NAPI can be disabled for a reset only with an RTNL proof, for one closure
//! (`with_napi_disabled`), after which it comes back, or from suspend to resume; RTNL can be taken
//! only where a bus callback's `Core` device proves sleeping is allowed (there is no try-lock for a
//! poll to reach), and the RFA is reachable only from the poll (until `Poll::done`), from such a
//! closure or `with_napi_idle`'s while down, or from `open`/`stop`; the buffer a transmit returns
//! as busy can only be the one it was given (`TxSkb` is branded with the call); receive buffers,
//! the only ones written into, are a type of their own (`RxBuf`); mapped bytes are read only
//! between the sync calls (`RxMapping::read_with`, and `read_head`/`update_head` for an RFD header,
//! whose fields' offsets are checked at compile time and whose presence is the slot's type,
//! `RxMapping<RFD_LEN>`: no length is checked on the data path); the BAR, DMA memory and the
//! interrupt line need a bound device; the `ethtool -S` names, count and values come from one
//! table.
//!
//! e100.c lists races it lives with. "Several entry points race with dev->close": here the rings
//! are `Option`s (the CB ring inside `cu`, the RFA the poll's), emptied by `stop`, so a late
//! caller (rx-mode update, ethtool, the service task) finds nothing to touch; the abstraction
//! frees the IRQ, disables NAPI and cancels the service task around `stop` and waits for each.
//! "tx-no-resources/stop Q races with tx clean/wake Q": ring space, the stop and the wake are
//! decided under the same lock.

// `pin_init!` expands a few levels per field of `Nic` (it has over 40).
#![recursion_limit = "512"]

use core::sync::atomic::{AtomicBool, AtomicU32, AtomicU8, Ordering};
use kernel::prelude::*;
use kernel::{
    c_str, delay, dev_err, dev_info, dev_warn,
    device::{self, Bound, Core},
    devres::{ClassDevres, Devres},
    dma::{CoherentAllocation, DmaMask},
    dma_read, dma_write,
    firmware::Firmware,
    init_ext::pin_init_scope,
    io::{Io, IoBase},
    irq::IrqReturn,
    net::{
        self,
        dev::{AddrList, Device as NetDevice, TxOutcome},
        napi::{Poll, PollDone, Receiver},
        skbuff::TxSkb,
    },
    netdev_err, netdev_info, netdev_warn, new_mutex, new_spinlock, new_spinlock_irq, pci,
    sync::{bh, Arc, Mutex, SpinLock, SpinLockIrq},
    types::ARef,
};

mod desc;
mod diag;
mod eeprom;
mod ethtool;
mod hw;
mod phy;
mod qemu;
mod rings;
mod stats;
mod ucode;

use desc::ConfigParams;
use eeprom::Eeprom;
use hw::Mac;
use phy::Phy;
use rings::{scb, CbRing, RxRing, RxStore};

/// The Receive Frame Area: the RFD ring while the interface is up (`None` while down). It is
/// the NAPI poll's ([`net::dev::Operations::PollState`]): the poll has it while NAPI runs, and
/// `open`, `stop` and the resets while NAPI is disabled, so it needs no lock.
pub(crate) type Rfa = Option<RxRing>;

kernel::module_param!(
    EEPROM_BAD_CSUM_ALLOW,
    eeprom_bad_csum_allow,
    bool,
    false,
    "Allow bad eeprom checksums"
);

kernel::module_param!(DEBUG, debug, int, 3, "Debug level (0=none,...,16=all)");

kernel::module_param!(
    UCODE_INT_DELAY,
    ucode_int_delay,
    uint,
    ucode::INT_DELAY_DEFAULT as u32,
    "CPUSaver microcode: receive interrupt delay, in the microcode's timer units (512-4096, or 1 for no bundling; default 1536)"
);

kernel::module_param!(
    UCODE_BUNDLE_MAX,
    ucode_bundle_max,
    uint,
    ucode::BUNDLE_MAX_DEFAULT as u32,
    "CPUSaver microcode: most received frames per interrupt (1-65535, default 6)"
);

kernel::module_pci_driver! {
    type: E100Driver,
    name: "e100_rs",
    author: "The e100_rs developers",
    description: "Intel(R) PRO/100 Network Driver, in Rust",
    license: "GPL",
    // What `ucode::blob_for` may ask the firmware loader for (e100.c's MODULE_FIRMWARE lines).
    firmware: ["e100/d101m_ucode.bin", "e100/d101s_ucode.bin", "e100/d102e_ucode.bin"],
}

kernel::module_info!(version, "1.0");

/// The driver's name, as `ethtool -i` and sysfs show it.
const DRV_NAME: &CStr = c_str!("e100_rs");

/// Every 8255x the C driver binds: Intel's vendor ID, an Ethernet class code, and the ICH
/// generation as the per-entry information.
const IDS: [(pci::DeviceId, u8); hw::PCI_IDS.len()] = {
    let mut ids = [(pci::DeviceId::from_id(0, 0), 0u8); hw::PCI_IDS.len()];
    let mut i = 0;
    while i < ids.len() {
        let (device, ich) = hw::PCI_IDS[i];
        ids[i] = (
            pci::DeviceId::from_id(hw::INTEL_VENDOR, device)
                .with_class(hw::CLASS_ETHERNET.0, hw::CLASS_ETHERNET.1),
            ich,
        );
        i += 1;
    }
    ids
};

kernel::pci_device_table!(ID_TABLE, e100_rs, u8, IDS);

/// The mapped CSR block.
type Csr = pci::Bar<{ hw::CSR_LEN }>;

/// NAPI weight (e100.c's).
const NAPI_WEIGHT: i32 = 16;
/// The watchdog period.
const WATCHDOG_MS: u32 = 2000;

/// `Nic::irq_cause`'s interrupt causes: the SCB's STAT/ACK byte.
const CAUSE_HW: u32 = 0xff;
/// `Nic::irq_cause`: the last receive poll used its whole budget, so the next one looks at
/// the RFA whatever the causes say (set by NAPI poll only).
const CAUSE_RX_MORE: u32 = 1 << 8;
/// The shortest Ethernet frame, without the FCS.
const ETH_ZLEN: u32 = 60;
/// TX threshold: bytes in the FIFO before transmission starts, in units of 8 (e100.c's 0xE0).
pub(crate) const TX_THRESHOLD: u8 = 0xe0;

kernel::dma_struct! {
    /// Memory the chip writes outside the rings: the self-test result and the statistics.
    struct Mem {
        selftest_signature: u32,
        selftest_result: u32,
        stats: [u32; stats::STATS_WORDS],
        dump_buf: [u32; DUMP_WORDS],
        lb_frame: [u32; LB_WORDS],
    }
}

/// The offline loopback test's frame, in words (256 bytes).
pub(crate) const LB_WORDS: usize = 64;

/// The Dump command's buffer, in words (596 bytes, as e100.c sizes it).
const DUMP_WORDS: usize = 149;

/// The Command Unit side, under one lock: the CB ring (transmits and commands), the SCB
/// command register, and the statistics state.
struct Cu {
    ring: Option<CbRing>,
    /// Where the statistics dump's completion word lands (in words): the generation's, until
    /// a dump shows otherwise.
    stats_layout: usize,
    /// A dump has completed at `stats_layout`: no other place is looked at any more.
    stats_confirmed: bool,
    totals: stats::Totals,
}

/// The link as the user configured it and the driver last saw it.
pub(crate) struct LinkCtl {
    /// What `ethtool -s` and `ethtool -A` asked for.
    cfg: phy::LinkConfig,
    /// The PHY's technologies (ADVERTISE bits), from BMSR at probe.
    abilities: u16,
    /// When the statistics were last reset (bring-up or a dump): the diagnosis and adaptive
    /// IFS judge only dumps that cover a whole watchdog period, not the short ones an extra
    /// service run (a link change, a receive-mode update) makes.
    last_dump: Option<kernel::time::Ktime>,
    /// The link the last time carrier came up, as the diagnosis sees it.
    link: diag::Link,
    /// The diagnosis of the link's health.
    diag: diag::Diagnosis,
}

/// The message level for the `debug` parameter: its low `debug` bits, as e100.c computes it;
/// out of range (which e100.c does not check) the default, driver, probe and link messages.
fn msg_level(debug: i32) -> u32 {
    use net::dev::msg;
    msg::init(debug, msg::DRV | msg::PROBE | msg::LINK)
}

/// A microcode module parameter: `value` if `ok` takes it, else (with a warning that names
/// what is accepted, `allowed`) `default`.
fn ucode_param(
    pdev: &pci::Device<Core>,
    name: &str,
    value: u32,
    (ok, allowed): (fn(u32) -> bool, &str),
    default: u16,
) -> u16 {
    match u16::try_from(value) {
        Ok(v) if ok(value) => v,
        _ => {
            dev_warn!(
                pdev,
                "{}={} is not accepted ({}): using {}\n",
                name,
                value,
                allowed,
                default
            );
            default
        }
    }
}

/// Per-device state, shared by the PCI driver data and the net_device.
#[pin_data]
pub(crate) struct Nic {
    pdev: ARef<pci::Device>,
    csr: Devres<Csr>,
    mac: Mac,
    /// The EEPROM image; `ethtool -E` changes it.
    #[pin]
    eeprom: Mutex<Eeprom>,
    /// Automatic MDI/MDI-X switching is turned on at every PHY set-up.
    mdix: phy::Mdix,
    /// The ring sizes for the next bring-up (`ethtool -G`).
    rx_count: AtomicU32,
    tx_count: AtomicU32,
    phy: Phy,
    /// A board without an MII PHY: its MDI registers are emulated ([`phy::EmulatedMii`]) and
    /// the MAC talks to the 82503 serial interface.
    non_mii: Option<phy::NonMii>,
    mem: CoherentAllocation<Mem>,
    /// Serialises MDI transactions (the MDI control register holds one at a time).
    #[pin]
    mdio_lock: SpinLock<()>,
    /// The CU, the CB ring and the SCB command register. Taken with interrupts disabled:
    /// netpoll (netconsole) transmits and polls from any context, a hard interrupt included.
    #[pin]
    cu: SpinLockIrq<Cu>,
    /// Software counters of the data path (relaxed atomics, no lock).
    counters: stats::DataCounters,
    /// The interface is to be brought down and up again: a bring-up after a resume, a resize or
    /// a reset found no memory, and the service task asks for a reset at every watchdog period
    /// until one works or the interface goes down.
    reset_pending: AtomicBool,
    /// The service task is retrying a bring-up that found no memory: said once, when it starts
    /// and when it ends, not at every attempt.
    retrying: AtomicBool,
    /// A receive-mode update is owed: it found the CB ring full (the service task retries), or
    /// came while no ring was handed to the CU (the bring-up's `publish` applies it).
    rx_mode_pending: AtomicBool,
    /// The RU may be out of the ready state: it reported "no resources" (RNR), or the
    /// watchdog's safety net asks, or an RU_START (accepted or refused) was just issued, or a
    /// receive pass reached the stop point. A receive poll that finds the RFD at the ring's
    /// `clean` empty takes it, reads the SCB's RU status and sets it again unless the RU is
    /// ready, restarting the RU there; one whose RFD at `clean` still holds a frame sets it
    /// and reads nothing.
    ru_stopped: AtomicBool,
    /// QEMU's model may be holding its receive queue until an RU Start: it completed an RFD
    /// empty with the RU reading ready and took no frame after it (`Received::held`). Set by
    /// that poll; cleared by the first poll whose pass consumed an RFD. While it is set, every
    /// receive poll, the watchdog's included, starts the RU where it stands: a start the SCB
    /// refused or the chip did not act on is tried again, the RU reading ready all along.
    ru_held: AtomicBool,
    /// CBs may be in flight (queued, or with the CU and not yet cleaned): set under `cu` by
    /// whatever queues one, and by poll to what its clean left. A poll that finds it clear
    /// leaves the CB ring and its lock alone: a CB queued after the flag was read completes
    /// with an interrupt (CX or CNA), and that interrupt's poll finds the flag set.
    tx_busy: AtomicBool,
    /// What the next NAPI poll is asked to look at: the interrupt causes (STAT/ACK bits, the
    /// low byte) acknowledged since a poll last took them, and [`CAUSE_RX_MORE`]. One word, so
    /// a poll takes them all with one atomic swap.
    irq_cause: AtomicU32,
    /// An ICH part (MDI-X and the 10 Mb/half transmit workaround depend on it).
    ich: bool,
    /// The link configuration, last state and diagnosis. Process context only (ethtool under
    /// RTNL, the service task): it may sleep on the PHY.
    #[pin]
    link: Mutex<LinkCtl>,
    /// Configure's duplex and flow-control settings for the current link, read by every
    /// Configure (also from atomic context, through `set_rx_mode`).
    mac_fdx_force: AtomicBool,
    mac_tx_pause: AtomicBool,
    /// The `netif_msg` level.
    msg_enable: AtomicU32,
    /// The PHY's link went down since the watchdog last looked.
    link_flapped: AtomicBool,
    /// Configure's loopback mode (0 none, 1 MAC, 3 PHY), set only by the offline self-test.
    loopback: AtomicU8,
    /// ethtool is rebuilding the hardware (offline self-test, ring resize): the watchdog leaves
    /// it and the carrier alone. Set and read under `link`, so a watchdog run is either wholly
    /// before the rebuild or sees the flag.
    rebuilding: AtomicBool,
    /// Configure's adaptive IFS (byte 2), tuned by the watchdog on a half-duplex link.
    adaptive_ifs: AtomicU8,
    /// An ICH part on a 10 Mb/s half-duplex link: each transmit is preceded by a CU NOP and
    /// 1 us, e100.c's workaround for the ICH's transmit hang there.
    ich_10h: AtomicBool,
    /// `rx-fcs` and `rx-all` (`ethtool -K`), as Configure and the receive path apply them.
    rx_fcs: AtomicBool,
    rx_all: AtomicBool,
    /// The part and board can wake the system on a magic packet ([`hw::wol_capable`]).
    wol_capable: bool,
    /// Magic-packet wake-up is on (`ethtool -s wol g`; the EEPROM's default at probe).
    wol: AtomicBool,
    /// Suspended (or shut down): the hardware belongs to the PM callbacks, not to the
    /// watchdog or a deferred reset. Set and cleared under RTNL and `link`.
    suspended: AtomicBool,
    /// The CPUSaver microcode, read from the firmware loader at the first bring-up.
    #[pin]
    ucode: Mutex<Ucode>,
    /// The interrupt delay and bundle limit patched into it (module parameters).
    ucode_params: (u16, u16),
    /// QEMU's model or a chip ([`qemu::Quirks`]), known at probe.
    quirks: qemu::Quirks,
    /// An ASF board (ICH 0x1050-0x1057 with ASF on in its EEPROM, [`hw::asf`]): its management
    /// needs wake-up kept armed at a power-off, whatever wake-on-LAN says (e100.c's rule).
    asf: bool,
    /// The CB ring's memory and the RFA's array while no ring is built: allocated at the first
    /// bring-up (or wake-up arming, for the CB ring), for the largest rings, and reused by
    /// every bring-up after it (resume, reset, resize), so none of those needs a high-order
    /// allocation. Process context only.
    #[pin]
    spare: Mutex<Spare>,
}

/// What a ring keeps between bring-ups (see [`Nic::spare`]).
#[derive(Default)]
struct Spare {
    cb: Option<CbRing>,
    rx: Option<RxStore>,
}

/// What the CPUSaver microcode of this part is, once asked for.
enum Ucode {
    /// Not asked for yet (or a required blob was missing: asked again at the next bring-up,
    /// so installing the package is enough).
    Unknown,
    /// None to load: the part takes none, or its optional blob is missing or unusable (said
    /// once).
    Without,
    /// The patched words, loaded at every bring-up.
    Words(KBox<[u8; ucode::UCODE_WORDS * 4]>),
}

/// Posts the preceding CSR writes (PCI writes may be buffered) by reading back a register.
fn flush(io: &Io<{ hw::CSR_LEN }>) {
    flush_at(io.base());
}

/// [`flush`] through a window address already held.
#[inline(always)]
fn flush_at(io: IoBase<'_, { hw::CSR_LEN }>) {
    let _ = io.read8(hw::SCB_STATUS);
}

/// Resets the chip: selective reset (stops DMA), software reset, then masks all interrupts.
fn hw_reset(io: &Io<{ hw::CSR_LEN }>) {
    io.write32(hw::PORT_SELECTIVE_RESET, hw::PORT);
    flush(io);
    delay::udelay(20);
    io.write32(hw::PORT_SOFTWARE_RESET, hw::PORT);
    flush(io);
    delay::udelay(20);
    io.write8(hw::IRQ_MASK_ALL, hw::SCB_CMD_HI);
    flush(io);
}

/// The EEPROM's pins, on the CSR.
struct EepromPins<'a>(&'a Io<{ hw::CSR_LEN }>);

impl eeprom::Pins for EepromPins<'_> {
    fn set(&mut self, ctrl: u8) {
        self.0.write8(ctrl, hw::EEPROM_CTRL_LO);
        flush(self.0);
    }

    fn get(&mut self) -> u8 {
        self.0.read8(hw::EEPROM_CTRL_LO)
    }

    fn half_period(&mut self) {
        delay::udelay(4);
    }
}

/// MDI control register fields.
const MDI_WRITE: u32 = 0x0400_0000;
const MDI_READ: u32 = 0x0800_0000;
const MDI_READY: u32 = 0x1000_0000;
/// Polls for the ready bit, 20 us apart.
const MDI_POLLS: u32 = 100;

/// The MDI bus: the management interface on the CSR or, on a board without an MII PHY, the
/// emulated registers of [`phy::EmulatedMii`]. Hold `mdio_lock` while using it.
enum MdiBus<'a> {
    Hw(&'a Io<{ hw::CSR_LEN }>),
    Emulated,
}

impl<'a> MdiBus<'a> {
    /// The bus of a board with (`non_mii` false) or without an MII PHY.
    fn new(io: &'a Io<{ hw::CSR_LEN }>, non_mii: bool) -> Self {
        if non_mii {
            MdiBus::Emulated
        } else {
            MdiBus::Hw(io)
        }
    }
}

/// One MDI cycle on the CSR; `None` if the interface did not finish it in time.
fn mdi_transact(io: &Io<{ hw::CSR_LEN }>, dir: u32, addr: u8, reg: u8, data: u16) -> Option<u16> {
    // The previous transaction must have finished before a new one is written.
    let mut ready = false;
    for _ in 0..MDI_POLLS {
        if io.read32(hw::MDI_CTRL) & MDI_READY != 0 {
            ready = true;
            break;
        }
        delay::udelay(20);
    }
    if !ready {
        return None;
    }
    let cmd =
        (u32::from(reg & 0x1f) << 16) | (u32::from(addr & 0x1f) << 21) | dir | u32::from(data);
    io.write32(cmd, hw::MDI_CTRL);
    for _ in 0..MDI_POLLS {
        delay::udelay(20);
        let v = io.read32(hw::MDI_CTRL);
        if v & MDI_READY != 0 {
            return Some(v as u16);
        }
    }
    None
}

impl phy::Mdio for MdiBus<'_> {
    fn read(&mut self, addr: u8, reg: u8) -> Option<u16> {
        match self {
            MdiBus::Hw(io) => mdi_transact(io, MDI_READ, addr, reg, 0),
            MdiBus::Emulated => phy::EmulatedMii.read(addr, reg),
        }
    }

    fn write(&mut self, addr: u8, reg: u8, val: u16) -> bool {
        match self {
            MdiBus::Hw(io) => mdi_transact(io, MDI_WRITE, addr, reg, val).is_some(),
            MdiBus::Emulated => phy::EmulatedMii.write(addr, reg, val),
        }
    }
}

/// The MDI bus with `mdio_lock` taken for each transaction alone, as e100.c's mdio_ctrl_hw
/// takes its lock: for long runs (the PHY isolation of [`phy::select`], 32 transactions of up to
/// 4 ms each), which one lock hold would make a long time with preemption off.
struct MdiEach<'a> {
    lock: &'a SpinLock<()>,
    bus: MdiBus<'a>,
}

impl phy::Mdio for MdiEach<'_> {
    fn read(&mut self, addr: u8, reg: u8) -> Option<u16> {
        let _guard = self.lock.lock();
        self.bus.read(addr, reg)
    }

    fn write(&mut self, addr: u8, reg: u8, val: u16) -> bool {
        let _guard = self.lock.lock();
        self.bus.write(addr, reg, val)
    }
}

impl Nic {
    /// Whether the link can use 802.3x flow control: an 82558 or later, with an MII PHY to
    /// negotiate it (without one the duplex is the adapter's and unknown).
    pub(crate) fn mac_pause(&self) -> bool {
        self.mac >= Mac::M82558_D101_A4 && self.non_mii.is_none()
    }

    /// The CSR block, given proof that the device is bound: no RCU section, just a pointer
    /// comparison (the block is unmapped only at unbind).
    fn csr<'a>(&'a self, dev: &'a device::Device<Bound>) -> Result<&'a Csr> {
        self.csr.access(dev)
    }

    /// Whether QEMU's model still holds its receive queue after this pass (`ru_held`): it
    /// began to (`began`: `Received::held`), or it had and the RU took nothing (`work`, the
    /// RFDs this pass consumed: a frame refused or dropped still shows the queue moving; an
    /// accepted RU Start has the model flush its queue into the RFDs at once).
    #[inline]
    fn still_held(&self, began: bool, work: usize) -> bool {
        let held = began || work == 0;
        self.ru_held.store(held, Ordering::Relaxed);
        held
    }

    /// The receive half of a poll: cleans the RFA's `ring` through `receiver` and says whether
    /// the RU is to be restarted (at the address given). (A function of its own, inlined: the
    /// same code written inside `poll` measured 2 instructions more a received frame, from
    /// register allocation alone, on 2026-12-05.)
    #[inline(always)]
    fn receive(
        &self,
        io: &Csr,
        bound: &device::Device<Bound>,
        receiver: Receiver<'_>,
        ring: &mut RxRing,
    ) -> (rings::Received, Option<u32>) {
        let opts = rings::RxOpts {
            fcs: self.rx_fcs.load(Ordering::Relaxed),
            all: self.rx_all.load(Ordering::Relaxed),
            empty_rfds: self.quirks.empty_rfds(),
            counters: &self.counters,
        };
        let got = ring.clean(receiver, bound, opts, || {
            io.read8(hw::SCB_STATUS) & hw::RUS_MASK != hw::RUS_READY
        });
        // The usual pass (no RFD held, the stop point not reached, neither flag set) makes
        // one test of the four together, the rest out of line.
        let unusual = got.held
            | got.at_stop
            | self.ru_held.load(Ordering::Relaxed)
            | self.ru_stopped.load(Ordering::Acquire);
        let restart = if unusual {
            self.ru_check(io, ring, &got)
        } else {
            None
        };
        (got, restart)
    }

    /// The rest of [`Self::receive`] after a pass that was not the usual one: whether, and
    /// where, the RU is to be restarted. Out of line and cold.
    #[cold]
    #[inline(never)]
    fn ru_check(&self, io: &Csr, ring: &RxRing, got: &rings::Received) -> Option<u32> {
        // Whether the RU stopped: when its RNR was seen, when this pass reached the
        // stop point (e100.c looks at the RU there), in the poll after an RU_START, or
        // in the watchdog's poll (the safety net, for an RU stopped with nothing
        // noticed), the SCB's RU status decides, once the RFD the RU would start at is
        // empty; the data path's other polls read no register (but for an empty RFD, see
        // `RxRing::clean`). The flag is taken before the read (a locked swap, on these
        // rare polls only), so an RNR or a watchdog request that comes after the read
        // stays for the next poll. A ready RU is left alone (an RNR from before the last
        // restart is stale); one that is not receiving is restarted. Until then the
        // flag is set again and the next poll looks again.
        // QEMU's model completed an RFD empty and went on, its RU ready but its receive queue
        // held until an RU Start (upstream's answer to an old stop point it reads half
        // restored): started where it stands, at the next RFD to clean (which held no frame
        // when the pass stopped there), by this poll and by every receive poll after it until
        // a pass takes an RFD (`still_held`). Without this receive stays dead for good, the RU
        // reading ready, as e100.c's does.
        let held = (got.held || self.ru_held.load(Ordering::Relaxed))
            && self.still_held(got.held, got.work);
        if held {
            ring.can_restart().then(|| ring.start_addr())
        } else if self.ru_stopped.load(Ordering::Acquire) || got.at_stop {
            if !ring.can_restart() {
                // No RFD to start at yet: the one the RU would start at still holds a frame
                // (a backlog the RU left, cleaned a budget at a time) or the stop point could
                // not be moved. The register is read once there is one, not on every poll of
                // the backlog (e100.c reads it only at its stop point): flagged, the next poll
                // looks.
                self.ru_stopped.store(true, Ordering::Release);
                return None;
            }
            self.ru_stopped.swap(false, Ordering::AcqRel);
            if io.read8(hw::SCB_STATUS) & hw::RUS_MASK == hw::RUS_READY {
                None
            } else {
                self.ru_stopped.store(true, Ordering::Release);
                // Looked at again: a ready RU may have filled that RFD and stopped between
                // the look above and the read; a stopped one writes no RFD after it.
                ring.can_restart().then(|| ring.start_addr())
            }
        } else {
            None
        }
    }

    /// NAPI poll's transmit clean: returns completed CBs to the ring in batches of `freed`,
    /// each freed once the CU lock is dropped (freeing runs destructors that must not run with
    /// interrupts disabled), kicks CBs the SCB has not taken yet, and completes them for BQL,
    /// waking the queue when a clean found the ring full (the one state `start_xmit` stops it
    /// in) and made room. With `restart`, the RU is first started at that address (an SCB
    /// command: under the CU lock). At most a ring's worth of batches: on an emulated chip CBs
    /// complete as fast as another CPU queues them, and a softirq must not chase them for ever.
    /// Returns what was sent.
    #[inline(always)]
    fn reclaim(
        &self,
        dev: &NetDevice,
        io: &Csr,
        poll: &Poll<'_, Rfa>,
        freed: &mut rings::Reclaimed,
        mut restart: Option<u32>,
    ) -> rings::Cleaned {
        let mut cleaned = rings::Cleaned::default();
        for _ in 0..rings::CBS.2 as usize / rings::RECLAIM_BATCH + 1 {
            let more = {
                let mut cu = self.cu.lock();
                if let Some(addr) = restart.take() {
                    // `ru_stopped` stays set (the poll that asks for the restart just set it):
                    // refused, the next poll tries again; accepted, the next poll that finds
                    // the RFD at `clean` empty reads the RU status (a start the chip took but
                    // did not act on leaves that RFD empty), so such a start is found then, not
                    // a watchdog period later. A start for QEMU's held queue (`ru_held`) is
                    // retried the same way by the next receive poll, which, no frame coming
                    // while the queue is held, is the watchdog's: up to a period later.
                    let _ = rings::exec_cmd(io, scb::RUC_START, Some(addr));
                }
                match cu.ring.as_mut() {
                    Some(ring) => {
                        // `start_xmit` stops the queue only with the ring full, under `cu`,
                        // and only a clean frees a CB: the queue is looked at (a call) only
                        // when this clean may have made the first room since.
                        let was_full = ring.avail() == 0;
                        let c = ring.clean(freed);
                        if ring.has_unsent() {
                            ring.kick(io);
                        }
                        if c.pkts > 0 {
                            dev.completed_queue(c.pkts, c.bytes);
                        }
                        if was_full && ring.avail() > 0 && dev.queue_stopped() {
                            dev.wake_queue();
                        }
                        cleaned.add(&c);
                        self.tx_busy.store(ring.busy(), Ordering::Relaxed);
                        freed.is_full()
                    }
                    None => false,
                }
            };
            freed.free(poll);
            if !more {
                break;
            }
        }
        cleaned
    }

    /// Counts frames the CU sent, as NAPI poll's transmit clean found them.
    #[inline(always)]
    fn count_sent(&self, sent: &rings::Cleaned) {
        stats::add(&self.counters.tx_packets, sent.sent_pkts.into());
        stats::add(&self.counters.tx_bytes, sent.sent_bytes.into());
    }

    /// Runs `f` on the MDI bus taking `mdio_lock` for each transaction ([`MdiEach`]).
    fn with_mdio_each<R>(
        &self,
        dev: &device::Device<Bound>,
        f: impl FnOnce(&mut MdiEach<'_>) -> R,
    ) -> Result<R> {
        let csr = self.csr(dev)?;
        let bus = MdiBus::new(csr, self.non_mii.is_some());
        Ok(f(&mut MdiEach {
            lock: &self.mdio_lock,
            bus,
        }))
    }

    /// Runs `f` on the MDI bus with `mdio_lock` held.
    fn with_mdio<R>(
        &self,
        dev: &device::Device<Bound>,
        f: impl FnOnce(&mut MdiBus<'_>) -> R,
    ) -> Result<R> {
        let csr = self.csr(dev)?;
        let _guard = self.mdio_lock.lock();
        Ok(f(&mut MdiBus::new(csr, self.non_mii.is_some())))
    }

    /// The PHY's link state. A link that went down since the last look (BMSR's link bit
    /// latches low, and whoever reads it clears the latch) is recorded for the watchdog, which
    /// then reports the renegotiated link even if it never saw it down.
    fn phy_state(&self, dev: &device::Device<Bound>) -> Option<phy::LinkState> {
        let st = self
            .with_mdio(dev, |m| phy::link_state(m, &self.phy))
            .ok()
            .flatten()?;
        if st.was_down {
            self.link_flapped.store(true, Ordering::Relaxed);
        }
        Some(st)
    }

    /// Whether the PHY reports link.
    fn link_up(&self, dev: &device::Device<Bound>) -> bool {
        self.phy_state(dev).is_some_and(|s| s.up)
    }

    /// The 32-bit bus address of a field of `mem` (the DMA mask is 32 bits).
    fn mem_addr(&self, offset: usize) -> u32 {
        (self.mem.dma_handle() as u32).wrapping_add(offset as u32)
    }

    /// Runs the PORT self-test: the chip checks itself and writes a signature and a result.
    /// Sleeps; process context only.
    fn self_test(&self, dev: &device::Device<Bound>) -> Result {
        dma_write!(self.mem, 0, selftest_signature = 0)?;
        dma_write!(self.mem, 0, selftest_result = 0xffff_ffff)?;
        let io = self.csr(dev)?;
        io.write32(self.mem_addr(0) | hw::PORT_SELFTEST, hw::PORT);
        flush(io);
        delay::msleep(10);
        let sig = dma_read!(self.mem, 0, selftest_signature)?;
        let res = dma_read!(self.mem, 0, selftest_result)?;
        // The self-test leaves the chip in an unknown state: reset it again.
        hw_reset(io);
        if sig == 0 || res != 0 {
            dev_err!(
                &*self.pdev,
                "Self-test failed: signature {:#010x}, result {:#010x}\n",
                u32::from_le(sig),
                u32::from_le(res)
            );
            return Err(ETIMEDOUT);
        }
        Ok(())
    }

    /// The Configure parameters for the interface's current flags and multicast list.
    fn config_params(&self, dev: &NetDevice, addrs: &AddrList<'_>) -> ConfigParams {
        let flags = dev.flags();
        let lb = self.loopback.load(Ordering::Relaxed);
        ConfigParams {
            promiscuous: flags & kernel::bindings::net_device_flags_IFF_PROMISC != 0,
            multicast_all: flags & kernel::bindings::net_device_flags_IFF_ALLMULTI != 0
                || addrs.mc_count() > desc::MAX_MULTICAST,
            mii: self.non_mii.is_none(),
            full_duplex_force: self.mac_fdx_force.load(Ordering::Relaxed),
            tx_pause: self.mac_tx_pause.load(Ordering::Relaxed),
            loopback: lb,
            adaptive_ifs: self.adaptive_ifs.load(Ordering::Relaxed),
            // The loopback test looks for its frame as sent: no FCS after it.
            rx_fcs: self.rx_fcs.load(Ordering::Relaxed) && lb == 0,
            rx_all: self.rx_all.load(Ordering::Relaxed) && lb == 0,
            standard_tcb: self.quirks.standard_tcb(),
            ..ConfigParams::default()
        }
    }

    /// Suspend and shutdown: the device leaves the stack ([`NetDevice::detach`]: no transmit,
    /// no transmit watchdog, no netpoll) and, if the interface is up, its hardware goes down
    /// as in `stop` (the interface stays up, to be brought back by [`Nic::revive`]). Then, with
    /// `arm` and wake-on-LAN on, the MAC is armed for it ([`Nic::arm_wake`]). Error recovery
    /// uses it too, without arming.
    fn quiesce(&self, dev: &NetDevice, rtnl: &net::dev::Rtnl, arm: bool) {
        {
            // Under `link`: a watchdog run is wholly before this, or finds the flag.
            let _ctl = self.link.lock();
            self.suspended.store(true, Ordering::Relaxed);
        }
        dev.detach();
        // NAPI off and the interrupt released until `revive` (e100.c's e100_down frees the IRQ).
        let _ = dev.suspend_napi::<Nic, _>(rtnl, |rfa| self.down(dev, rfa));
        let wol = self.wol.load(Ordering::Relaxed);
        if arm && wol {
            if let Err(e) = self.arm_wake(dev) {
                netdev_warn!(dev, "cannot arm wake-on-LAN: {:?}\n", e);
            }
        }
        if arm && (wol || self.asf) {
            // The 82552 renegotiates to its lowest speed while it waits (e100.c).
            let _ = self.with_mdio(dev.parent(), |m| phy::sleep_mode(m, &self.phy, true));
        }
    }

    /// Tells the MAC its address and, by Configure, to watch for magic packets (Configure byte
    /// 19's "magic packet disable" bit clear, which the running interface keeps set, as e100.c
    /// does): what the wake-up logic needs while the system sleeps. No receive unit runs and
    /// no interrupt is unmasked; the CB ring stays allocated until [`Nic::revive`] takes the
    /// hardware down again, so the CU never holds a stale address.
    fn arm_wake(&self, dev: &NetDevice) -> Result {
        let bound = dev.parent();
        let io = self.csr(bound)?;
        hw_reset(io);
        // On the kept ring ([`Nic::spare`]; new only if the interface was never up), not yet
        // the CU lock's, so the waits for the chip can sleep.
        let kept = self.spare.lock().cb.take();
        let mut ring = match kept {
            Some(mut r) => match r.reset(rings::CBS.1 as usize) {
                Ok(()) => r,
                Err(e) => {
                    self.spare.lock().cb = Some(r);
                    return Err(e);
                }
            },
            None => CbRing::new(bound, rings::CBS.1 as usize)?,
        };
        let params = ConfigParams {
            mii: self.non_mii.is_none(),
            wol_magic: true,
            standard_tcb: self.quirks.standard_tcb(),
            ..ConfigParams::default()
        };
        let mut arm = || -> Result {
            rings::exec_cmd_sleeping(io, scb::CUC_LOAD_BASE, Some(0))?;
            for (cmd, body) in [
                (desc::CbCmd::IaSetup, desc::ia_body(&dev.mac_addr())),
                (desc::CbCmd::Configure, desc::config_body(self.mac, &params)),
            ] {
                rings::wait_scb_sleeping(io)?;
                ring.issue(io, cmd as u16, body.words())?;
            }
            // Done within microseconds; the device must not be powered down before.
            let mut freed = rings::Reclaimed::new();
            for _ in 0..20 {
                let _ = ring.clean(&mut freed);
                if !ring.busy() {
                    return Ok(());
                }
                delay::msleep(1);
            }
            Err(ETIMEDOUT)
        };
        let res = arm();
        // Kept, whatever happened, where `down` takes it back at resume (after resetting the
        // chip, whose CU may hold an address in it). A ring already there (never, but for a
        // second arming with no bring-up between) is freed outside the lock: coherent memory
        // is not freed with interrupts off.
        let old = self.cu.lock().ring.replace(ring);
        drop(old);
        res
    }

    /// After a slot reset: the chip reset and our PHY selected again (e100.c's hardware reset and
    /// PHY init there); `EIO` if the BAR or the PHY does not answer.
    fn reset_chip(&self, dev: &NetDevice) -> Result {
        let bound = dev.parent();
        hw_reset(self.csr(bound)?);
        self.with_mdio_each(bound, |m| phy::select(m, &self.phy))?
            .ok_or(EIO)
    }

    /// Loads the CPUSaver microcode, if the part takes one and it is at hand, through `ring`
    /// (not yet the CU lock's), and waits for the chip to take it. The load's CB ends
    /// the list (EL, not S), and the CU is started afresh for what follows (`CbRing::cu_idle`),
    /// as e100.c and fxp do: loading microcode changes what the CU runs, and neither carries
    /// it on from the load with a CU Resume. `ENOENT` if a required blob is missing, `EIO` if
    /// the chip refused or did not complete the load (as e100.c, which then fails the bring-up
    /// too).
    fn load_ucode(&self, dev: &NetDevice, io: &rings::Csr, ring: &mut CbRing) -> Result {
        let Some(blob) = ucode::blob_for(self.mac, self.ich) else {
            return Ok(());
        };
        let body = {
            let mut st = self.ucode.lock();
            if matches!(*st, Ucode::Unknown) {
                *st = self.request_ucode(dev, &blob)?;
            }
            match &*st {
                Ucode::Words(w) => desc::ucode_body(w),
                _ => return Ok(()),
            }
        };
        rings::exec_cmd_sleeping(io, scb::CUC_LOAD_BASE, Some(0))?;
        rings::wait_scb_sleeping(io)?;
        ring.issue_last(io, desc::CbCmd::Ucode as u16, body.words())?;
        let mut freed = rings::Reclaimed::new();
        let mut failed = 0;
        // Up to 500 ms, as e100.c allows it; a chip takes it in microseconds.
        for _ in 0..100 {
            failed += ring.clean(&mut freed).cmd_failed;
            if !ring.busy() {
                break;
            }
            delay::msleep(5);
        }
        if ring.busy() || failed > 0 {
            netdev_err!(
                dev,
                "microcode {} not loaded: the chip {}\n",
                blob.name(),
                if failed > 0 {
                    "refused it"
                } else {
                    "did not complete the command"
                }
            );
            return Err(EIO);
        }
        // Idle at the EL: only a CU_START moves it on ("must restart cuc", e100.c).
        ring.cu_idle();
        Ok(())
    }

    /// Reads and patches the microcode blob (the first bring-up). A missing or unusable
    /// optional blob is said once and done without; a missing required one fails (and is
    /// asked for again next time); a malformed required one fails.
    fn request_ucode(&self, dev: &NetDevice, blob: &ucode::Blob) -> Result<Ucode> {
        let name = CStr::from_bytes_with_nul(blob.file)?;
        let fw = if blob.required {
            Firmware::request(name, dev.parent())
        } else {
            Firmware::request_nowarn(name, dev.parent())
        };
        let fw = match fw {
            Ok(fw) => fw,
            Err(e) if blob.required => {
                netdev_err!(
                    dev,
                    "the {} needs microcode \"{}\" (error {}), from {}: not opened\n",
                    self.mac.name(),
                    blob.name(),
                    e.to_errno(),
                    ucode::PACKAGE
                );
                return Err(e);
            }
            Err(_) => {
                netdev_info!(
                    dev,
                    "CPUSaver disabled: no \"{}\" (from {})\n",
                    blob.name(),
                    ucode::PACKAGE
                );
                return Ok(Ucode::Without);
            }
        };
        let (delay, bundle) = self.ucode_params;
        match ucode::patch(fw.data(), delay, bundle) {
            Ok(words) => {
                netdev_info!(
                    dev,
                    "CPUSaver microcode \"{}\": interrupt delay {}, bundle max {}\n",
                    blob.name(),
                    delay,
                    bundle
                );
                Ok(Ucode::Words(KBox::new(words, GFP_KERNEL)?))
            }
            Err(e) => {
                netdev_err!(
                    dev,
                    "microcode \"{}\" is malformed ({:?}; {} bytes expected){}\n",
                    blob.name(),
                    e,
                    ucode::BLOB_LEN,
                    if blob.required {
                        ""
                    } else {
                        ": CPUSaver disabled"
                    }
                );
                if blob.required {
                    Err(EINVAL)
                } else {
                    Ok(Ucode::Without)
                }
            }
        }
    }

    /// Resume: the hardware back (rings re-armed, PHY set up again, Configure with the link's
    /// settings) if the interface is up, then the device back in the stack.
    fn revive(&self, dev: &NetDevice, rtnl: &net::dev::Rtnl) -> Result {
        // The hardware stays the PM callbacks' (`suspended`: no watchdog run, no interrupt
        // unmasked by a poll) until it is back.
        let resumed = || {
            let _ctl = self.link.lock();
            self.suspended.store(false, Ordering::Relaxed);
        };
        // A transmit timeout from before the suspend is moot.
        self.reset_pending.store(false, Ordering::Relaxed);
        // No reverse autonegotiation on the 82552 any more (set by `quiesce`).
        let _ = self.with_mdio(dev.parent(), |m| phy::sleep_mode(m, &self.phy, false));
        // The interrupt requested again, then NAPI on (`None`: the interface was down; an
        // error: no interrupt line, NAPI stays off and the hardware down).
        let res = dev
            .resume_napi::<Nic, _>(rtnl, |rfa| {
                self.down(dev, rfa);
                let r = self.up(dev, rfa);
                if r.is_err() {
                    self.down(dev, rfa);
                }
                resumed();
                r
            })
            .map(|r| r.and_then(|r| r));
        match res {
            None => {
                // Down: only the wake-up arming to undo.
                let _ = dev.with_napi_idle::<Nic, _>(rtnl, |rfa| self.down(dev, rfa));
                resumed();
            }
            // No interrupt line: the closure did not run. The hardware goes down as `stop` takes
            // it (the wake-up ring parked, the chip reset; the RFA stays the poll state's, for
            // the reset, which requests the line again and brings the hardware back).
            Some(Err(_)) => {
                self.down(dev, &mut None);
                resumed();
            }
            Some(Ok(())) => {}
        }
        // Attached: the queue woken (`up` left it to this while detached). The watchdog raises
        // the carrier when the PHY reports link.
        dev.attach();
        if dev.is_running() {
            if let Some(Err(e)) = res {
                self.retry_up(dev, e);
            }
            dev.schedule_service(0);
        }
        res.unwrap_or(Ok(()))
    }

    /// Queues a command CB (no transmit buffer).
    fn command(&self, cu: &mut Cu, io: &rings::Csr, cmd: desc::CbCmd, body: &desc::Body) -> Result {
        let ring = cu.ring.as_mut().ok_or(ENODEV)?;
        // Before the CU can complete it: a poll that reads the flag after the completion's
        // interrupt must find it set. Left set if the command is refused: harmless.
        self.tx_busy.store(true, Ordering::Relaxed);
        ring.issue(io, cmd as u16, body.words())
    }

    /// Configure's parameters and the multicast list for `dev`'s flags and addresses.
    fn rx_mode(
        &self,
        dev: &NetDevice,
        addrs: &AddrList<'_>,
    ) -> Result<(ConfigParams, KVec<[u8; 6]>)> {
        let p = self.config_params(dev, addrs);
        let mut list: KVec<[u8; 6]> = KVec::new();
        if !p.multicast_all {
            let mut err = Ok(());
            addrs.for_each_mc(|a| {
                if err.is_ok() {
                    err = list.push(*a, GFP_ATOMIC).map_err(Error::from);
                }
            });
            err?;
        }
        Ok((p, list))
    }

    /// Queues Configure and Multicast setup for `dev`'s flags and multicast list.
    fn apply_rx_mode(
        &self,
        dev: &NetDevice,
        addrs: &AddrList<'_>,
        cu: &mut Cu,
        io: &rings::Csr,
    ) -> Result {
        let (p, list) = self.rx_mode(dev, addrs)?;
        if cu.ring.as_ref().map_or(0, |r| r.avail()) < 2 {
            return Err(EBUSY);
        }
        self.command(
            cu,
            io,
            desc::CbCmd::Configure,
            &desc::config_body(self.mac, &p),
        )?;
        self.command(
            cu,
            io,
            desc::CbCmd::Multicast,
            &desc::multicast_body(list.iter()),
        )
    }

    /// Brings the hardware up with re-armed rings ([`Nic::spare`]): reset, self-test, base
    /// addresses, Configure, address, receive filter, statistics address, RU start, then
    /// interrupts on.
    fn up(&self, dev: &NetDevice, rfa: &mut Rfa) -> Result {
        self.up_with(dev, rfa, false)?;
        // Whoever brought it up (a reset, a resize, a resume, an open), a retry is over.
        self.retrying.store(false, Ordering::Relaxed);
        Ok(())
    }

    /// [`Nic::up`], or with `test` the same bring-up for the offline self-test: the queue
    /// stays stopped (no frame of the stack's may reach the loopback) and interrupts masked
    /// (NAPI is off, or the interrupt not even requested). The rings come from [`Nic::spare`]
    /// and go back there if the bring-up fails, the chip reset.
    fn up_with(&self, dev: &NetDevice, rfa: &mut Rfa, test: bool) -> Result {
        let (rx, mut cb) = self.take_rings(dev, test)?;
        if let Err(e) = self.start_hw(dev, &rx, &mut cb, test) {
            if let Ok(io) = self.csr(dev.parent()) {
                hw_reset(io);
            }
            self.park(Some(cb), Some(rx));
            return Err(e);
        }
        self.publish(dev, rfa, rx, cb, test);
        Ok(())
    }

    /// The rings for a bring-up, of the sizes `ethtool -G` set: the kept ones ([`Nic::spare`])
    /// re-armed, or (the first time) new ones with room for the largest. On failure what was
    /// kept stays kept.
    fn take_rings(&self, dev: &NetDevice, test: bool) -> Result<(RxRing, CbRing)> {
        let bound = dev.parent();
        let (rfds, cbs) = (
            self.rx_count.load(Ordering::Relaxed) as usize,
            self.tx_count.load(Ordering::Relaxed) as usize,
        );
        let mut sp = self.spare.lock();
        let cb = match sp.cb.take() {
            Some(mut cb) => match cb.reset(cbs) {
                Ok(()) => cb,
                Err(e) => {
                    sp.cb = Some(cb);
                    return Err(e);
                }
            },
            None => CbRing::new(bound, cbs)?,
        };
        let store = match sp.rx.take().map_or_else(RxStore::new, Ok) {
            Ok(store) => store,
            Err(e) => {
                sp.cb = Some(cb);
                return Err(e);
            }
        };
        // A self-test reads the looped-back frame out of its buffer: cleared for it.
        match RxRing::new(dev, bound, rfds, test, store) {
            Ok(rx) => Ok((rx, cb)),
            Err((e, store)) => {
                sp.cb = Some(cb);
                sp.rx = Some(store);
                Err(e)
            }
        }
    }

    /// Keeps the rings of a bring-up that failed or a `down` for the next bring-up, their
    /// buffers freed (the chip reset: nothing of theirs is the device's any more).
    fn park(&self, cb: Option<CbRing>, rx: Option<RxRing>) {
        let mut sp = self.spare.lock();
        if let Some(mut cb) = cb {
            cb.release();
            sp.cb = Some(cb);
        }
        if let Some(rx) = rx {
            sp.rx = Some(rx.into_store());
        }
    }

    /// The bring-up's hardware part, on rings nobody else sees yet: self-test, PHY, microcode,
    /// base addresses, Configure, receive filter, address, statistics address, RU Start. Every
    /// SCB command waits for the SCB sleeping, up to 100 ms ([`rings::wait_scb_sleeping`]), with
    /// no lock held.
    fn start_hw(&self, dev: &NetDevice, rx: &RxRing, cb: &mut CbRing, test: bool) -> Result {
        let bound = dev.parent();
        self.self_test(bound)?;
        // The PHY is selected again on every bring-up, as e100.c's hardware init does.
        self.with_mdio_each(bound, |m| phy::select(m, &self.phy))?
            .ok_or(EIO)?;
        let cfg = {
            let mut ctl = self.link.lock();
            // The statistics start from here (the dump-and-reset below).
            ctl.last_dump = Some(kernel::time::Ktime::ktime_get());
            ctl.cfg
        };
        let _ = self.with_mdio(bound, |m| {
            phy::quirks(m, &self.phy, self.mdix, !cfg.autoneg)?;
            // What the driver reports is what the PHY does (not for the self-test, which
            // sets the PHY up itself).
            if !test {
                phy::ensure(m, &self.phy, &cfg)?;
            }
            Some(())
        });
        let io = self.csr(bound)?;
        // The microcode first, as e100.c's hardware init.
        self.load_ucode(dev, io, cb)?;
        // The receive mode as it is now; one set meanwhile is applied at `publish`.
        self.rx_mode_pending.store(false, Ordering::Relaxed);
        let (params, list) = {
            let addrs = dev.lock_addrs();
            self.rx_mode(dev, &addrs)?
        };
        dma_write!(self.mem, 0, stats = [0; stats::STATS_WORDS])?;
        rings::exec_cmd_sleeping(io, scb::CUC_LOAD_BASE, Some(0))?;
        rings::exec_cmd_sleeping(io, scb::RUC_LOAD_BASE, Some(0))?;
        for (cmd, body) in [
            (desc::CbCmd::Configure, desc::config_body(self.mac, &params)),
            (desc::CbCmd::Multicast, desc::multicast_body(list.iter())),
            (desc::CbCmd::IaSetup, desc::ia_body(&dev.mac_addr())),
        ] {
            rings::wait_scb_sleeping(io)?;
            cb.issue(io, cmd as u16, body.words())?;
        }
        rings::exec_cmd_sleeping(io, scb::CUC_DUMP_ADDR, Some(self.mem_addr(8)))?;
        rings::exec_cmd_sleeping(io, scb::CUC_DUMP_RESET, None)?;
        rings::exec_cmd_sleeping(io, scb::RUC_START, Some(rx.start_addr()))
    }

    /// Hands the brought-up rings to the data path: the RFA to NAPI's state, the CB ring to the
    /// CU lock, a receive mode set during the bring-up queued, and (but for a self-test) the
    /// queue started and interrupts unmasked.
    fn publish(&self, dev: &NetDevice, rfa: &mut Rfa, rx: RxRing, cb: CbRing, test: bool) {
        *rfa = Some(rx);
        {
            // Lock order: the address list (which disables bottom halves), then `cu`.
            let addrs = dev.lock_addrs();
            let mut cu = self.cu.lock();
            cu.ring = Some(cb);
            // Its commands may still be with the CU.
            self.tx_busy.store(true, Ordering::Relaxed);
            if let Ok(io) = self.csr(dev.parent()) {
                if self.rx_mode_pending.swap(false, Ordering::Relaxed)
                    && self.apply_rx_mode(dev, &addrs, &mut cu, io).is_err()
                {
                    self.rx_mode_pending.store(true, Ordering::Relaxed);
                }
            }
            self.ru_stopped.store(false, Ordering::Release);
            self.ru_held.store(false, Ordering::Relaxed);
            // Causes a shared line's handler gathered while the interface was down mean
            // nothing now.
            self.irq_cause.store(0, Ordering::Relaxed);
        }
        dev.reset_queue();
        if let Ok(io) = self.csr(dev.parent()) {
            if !test {
                // Woken, not only started: after a reset the stack may hold frames for it
                // (e100.c's e100_up wakes it too). Not while detached (a resume): attaching
                // wakes it then.
                if dev.is_present() {
                    dev.wake_queue();
                }
                self.set_irq_mask(io.base(), hw::IRQ_MASK_NONE);
            }
            flush(io);
        }
    }

    /// Writes the SCB interrupt mask (the command word's high byte) under the CU lock, as
    /// e100.c's e100_enable_irq and e100_disable_irq do under its `cmd_lock`: never at once with
    /// a data-path command (which the CU lock serialises) written to the low byte on another CPU.
    #[inline(always)]
    fn set_irq_mask(&self, io: IoBase<'_, { hw::CSR_LEN }>, mask: u8) {
        let _cu = self.cu.lock();
        io.write8(mask, hw::SCB_CMD_HI);
        flush_at(io);
    }

    /// Stops the hardware, frees every buffer in the rings and keeps the rings ([`Nic::spare`]).
    fn down(&self, dev: &NetDevice, rfa: &mut Rfa) {
        // No transmit may be inside `start_xmit` (about to hand a CB to the CU) while the chip
        // is reset and the ring freed: stop the queue and wait for one in flight. As e100.c's
        // down, no carrier without rings: dropped first, so the stack's transmit watchdog does
        // not fire on the stopped queue meanwhile. The watchdog raises it again (and configures
        // the MAC for the link) once the interface is up and the PHY has link.
        dev.tx_disable();
        dev.carrier_off();
        if let Ok(io) = self.csr(dev.parent()) {
            hw_reset(io);
        }
        let cb;
        {
            let _bh = bh::disable();
            // The guard is released at the end of its statement, inside the section.
            cb = self.cu.lock().ring.take();
        }
        // Their buffers freed with bottom halves enabled, the rings kept for the next
        // bring-up.
        self.park(cb, rfa.take());
        dev.reset_queue();
    }

    /// Whether link messages (and the diagnosis) are printed.
    fn msg_link(&self) -> bool {
        self.msg_enable.load(Ordering::Relaxed) & net::dev::msg::LINK != 0
    }

    /// The MAC side of a link that came up: duplex from the PHY, flow control as negotiated
    /// (or as forced with `ethtool -A autoneg off`). Only a full-duplex link on an 82558 or
    /// later pauses; the MAC then always obeys the PAUSE frames it receives, so receive pause
    /// is on whenever pause is possible at all.
    fn mac_link(&self, cfg: &phy::LinkConfig, st: &phy::LinkState) -> (diag::Link, phy::Pause) {
        let mac_pause = self.mac_pause();
        let full = st.mode.full_duplex;
        let pause = if !mac_pause || !full {
            phy::Pause::default()
        } else if cfg.pause_autoneg && st.autoneg {
            // Negotiated, but never sending when the user said not to (a symmetric partner
            // resolves to both ways even when we advertised receive only).
            phy::Pause {
                rx: st.pause.rx,
                tx: st.pause.tx && cfg.pause.tx,
            }
        } else {
            phy::Pause {
                rx: true,
                tx: cfg.pause.tx,
            }
        };
        let link = diag::Link {
            speed: st.mode.speed,
            full_duplex: full,
            autoneg: st.autoneg,
            lp_autoneg: st.lp_autoneg,
            tx_pause: pause.tx,
            mac_pause,
        };
        (link, pause)
    }

    /// Queues Configure (and the multicast list) again, for a new duplex or flow-control
    /// setting; if the CB ring is full the watchdog retries.
    fn reconfigure(&self, dev: &NetDevice) {
        let Ok(io) = self.csr(dev.parent()) else {
            return;
        };
        let addrs = dev.lock_addrs();
        let mut cu = self.cu.lock();
        if cu.ring.is_some() && self.apply_rx_mode(dev, &addrs, &mut cu, io).is_err() {
            self.rx_mode_pending.store(true, Ordering::Relaxed);
        }
    }

    /// The link was changed by the user: drop carrier (the watchdog reports the new link when
    /// it comes up) and end the diagnosis of the old one.
    fn link_reset(&self, dev: &NetDevice, ctl: &mut LinkCtl) {
        let msg = self.msg_link();
        ctl.diag.link_changed(|e| {
            if msg {
                netdev_info!(dev, "{}\n", e);
            }
        });
        if dev.carrier_ok() {
            dev.carrier_off();
            if msg {
                netdev_info!(dev, "Link is Down\n");
            }
        }
        dev.schedule_service(WATCHDOG_MS / 4);
    }

    /// Watchdog: link state, statistics, diagnosis, deferred receive-mode update.
    fn watchdog(&self, dev: &NetDevice) {
        // Everything under `link`: an ethtool change of the link, a rebuild or `stop` is
        // either wholly before this run or wholly after it (`stop` drops the carrier under it
        // too, so a run cannot raise the carrier of a closed interface).
        let mut ctl = self.link.lock();
        if self.rebuilding.load(Ordering::Relaxed)
            || self.suspended.load(Ordering::Relaxed)
            || !dev.is_running()
        {
            return;
        }
        let bound = dev.parent();
        let state = self.phy_state(bound);
        let msg = self.msg_link();
        if self.link_flapped.swap(false, Ordering::Relaxed)
            && dev.carrier_ok()
            && state.is_some_and(|s| s.up)
        {
            // Down and up again between two looks (the partner renegotiated): report it, and
            // take the new link as if it had just come up.
            if msg {
                netdev_info!(dev, "Link is Down\n");
            }
            ctl.diag.link_changed(|e| {
                if msg {
                    netdev_info!(dev, "{}\n", e);
                }
            });
            dev.carrier_off();
        }
        match state {
            // No carrier without the rings: after a bring-up that failed (a resume, a reset),
            // the queue must stay stopped until the retry has them.
            Some(st) if st.up && !dev.carrier_ok() && self.cu.lock().ring.is_some() => {
                let (link, pause) = self.mac_link(&ctl.cfg, &st);
                ctl.link = link;
                ctl.diag.link_changed(|_| {});
                self.mac_fdx_force
                    .store(!st.autoneg && st.mode.full_duplex, Ordering::Relaxed);
                self.mac_tx_pause.store(pause.tx, Ordering::Relaxed);
                // A new link starts without extra spacing.
                self.adaptive_ifs.store(0, Ordering::Relaxed);
                self.ich_10h.store(
                    self.ich && st.mode.speed == 10 && !st.mode.full_duplex,
                    Ordering::Relaxed,
                );
                self.reconfigure(dev);
                if msg {
                    netdev_info!(
                        dev,
                        "Link is Up - {}Mbps/{} - flow control {}\n",
                        st.mode.speed,
                        if st.mode.full_duplex { "Full" } else { "Half" },
                        match (pause.rx, pause.tx) {
                            (true, true) => "rx/tx",
                            (true, false) => "rx",
                            (false, true) => "tx",
                            (false, false) => "off",
                        }
                    );
                }
                dev.carrier_on();
            }
            Some(st) if !st.up && dev.carrier_ok() => {
                if msg {
                    netdev_info!(dev, "Link is Down\n");
                }
                ctl.diag.link_changed(|e| {
                    if msg {
                        netdev_info!(dev, "{}\n", e);
                    }
                });
                self.ich_10h.store(false, Ordering::Relaxed);
                dev.carrier_off();
            }
            _ => {}
        }

        let Ok(io) = self.csr(bound) else { return };
        // This period's counters: dump-and-reset now, then read them once the chip has written
        // them (microseconds). The diagnosis thus sees a period as it ends, not a period later.
        // A dump that completed only after the last period's wait is taken first, then the
        // block is cleared, so an old completion cannot be taken for this one and no counts
        // are lost. (One still being written at this point, more than a period after it was
        // asked for, would be cleared under the chip and its counts partly lost; a chip that
        // slow to write 84 bytes is not working.)
        let mut late = None;
        {
            let mut cu = self.cu.lock();
            if cu.ring.is_none() {
                return;
            }
            late = self.update_stats(&mut cu).or(late);
            let _ = dma_write!(self.mem, 0, stats = [0; stats::STATS_WORDS]);
            let _ = rings::exec_cmd(io, scb::CUC_DUMP_RESET, None);
        }
        for _ in 0..10 {
            let (layout, confirmed) = {
                // A statement of its own: the guard must go before the sleep.
                let cu = self.cu.lock();
                (cu.stats_layout, cu.stats_confirmed)
            };
            if stats::locate(layout, confirmed, |n| self.stats_done(n)).is_some() {
                break;
            }
            delay::msleep(1);
        }
        let (moved, dump) = {
            let addrs = dev.lock_addrs();
            let mut cu = self.cu.lock();
            if cu.ring.is_none() {
                return;
            }
            let first = self.update_stats(&mut cu);
            if self.rx_mode_pending.swap(false, Ordering::Relaxed)
                && self.apply_rx_mode(dev, &addrs, &mut cu, io).is_err()
            {
                self.rx_mode_pending.store(true, Ordering::Relaxed);
            }
            match first {
                Some((moved, d)) => (moved, Some(d)),
                None => (None, None),
            }
        };
        let moved = moved.or(late.and_then(|(m, _)| m));
        let now = kernel::time::Ktime::ktime_get();
        let whole = ctl.last_dump.is_some_and(|t| {
            kernel::time::ktime_ms_delta(now, t) >= i64::from(WATCHDOG_MS * 3 / 4)
        });
        if dump.is_some() {
            ctl.last_dump = Some(now);
        }
        if let (Some(d), true, true) = (dump, dev.carrier_ok(), whole) {
            let ifs = self.adaptive_ifs.load(Ordering::Relaxed);
            let new = diag::adaptive_ifs(
                ifs,
                &ctl.link,
                u64::from(d.tx_good_frames),
                u64::from(d.tx_total_collisions),
            );
            if new != ifs {
                self.adaptive_ifs.store(new, Ordering::Relaxed);
                self.reconfigure(dev);
            }
            // Without an MII PHY the duplex is not known: nothing to judge the counters by.
            let LinkCtl { link, diag, .. } = &mut *ctl;
            if self.non_mii.is_none() {
                diag.period(link, &diag::Figures::from_dump(&d), |e| {
                    if msg {
                        match e {
                            diag::Event::Raised(..) => netdev_warn!(dev, "{}\n", e),
                            diag::Event::Cleared(..) => netdev_info!(dev, "{}\n", e),
                        }
                    }
                });
            }
        }
        // The 82557's multicast lock-up workaround (e100.c's): Configure and the multicast
        // list again, every period (under `link`, as every reconfiguration of this task).
        if self.mac <= hw::Mac::M82557_D100_C {
            self.reconfigure(dev);
        }
        drop(ctl);
        if let Some((want, n)) = moved {
            netdev_warn!(
                dev,
                "statistics dump completes at byte {}, not at byte {} as the {}'s does: \
                 reading {} counters\n",
                n * 4,
                want * 4,
                self.mac.name(),
                n
            );
        }
        // The receive safety net: a poll every period, which restarts an RU that stopped with
        // nothing noticed (a lost RNR, an RU_START the SCB refused). e100.c raises a software
        // interrupt for this; scheduling NAPI does the same without a read-modify-write of the
        // interrupt mask register that the interrupt handler also writes.
        self.ru_stopped.store(true, Ordering::Release);
        let _bh = bh::disable();
        dev.napi_schedule();
    }

    /// Whether word `n` of the statistics block holds the dump-and-reset completion.
    fn stats_done(&self, n: usize) -> bool {
        n < stats::STATS_WORDS
            && dma_read!(self.mem, 0, stats[n])
                .is_ok_and(|w| u32::from_le(w) == stats::DUMP_RESET_COMPLETE)
    }

    /// Folds a completed statistics dump (the watchdog asked for it) into the totals and clears
    /// its completion word. Returns the dump, and, the first time a dump completes somewhere
    /// other than the generation's place, that place and the new one, for the caller to warn
    /// once it has dropped the CU lock (printing under it could recurse into our own transmit
    /// through netconsole).
    #[allow(clippy::type_complexity)]
    fn update_stats(&self, cu: &mut Cu) -> Option<(Option<(usize, usize)>, stats::Dump)> {
        let n = stats::locate(cu.stats_layout, cu.stats_confirmed, |n| self.stats_done(n))?;
        // The counters only after the completion word: the chip writes it last.
        kernel::dma::rmb();
        let words = dma_read!(self.mem, 0, stats).ok()?;
        let moved = (n != cu.stats_layout).then_some((cu.stats_layout, n));
        cu.stats_layout = n;
        cu.stats_confirmed = true;
        let d = stats::parse(&words, n);
        cu.totals.add(&d);
        let _ = dma_write!(self.mem, 0, stats[n] = 0);
        Some((moved, d))
    }

    /// Recovers from a transmit hang: the whole interface down and up, under RTNL, with NAPI
    /// off (the abstraction enables it again afterwards and schedules one poll, so an interrupt
    /// that came while it was off is not lost). Run by the abstraction's reset work
    /// ([`net::dev::Operations::reset`]) while the interface is up.
    fn recover(&self, dev: &NetDevice, rtnl: &net::dev::Rtnl) {
        if self.suspended.load(Ordering::Relaxed) {
            // Resume brings the hardware up afresh.
            return;
        }
        let retrying = self.retrying.load(Ordering::Relaxed);
        let again = |rfa: &mut Rfa| {
            if !retrying {
                netdev_warn!(dev, "resetting: the interface down and up\n");
            }
            self.down(dev, rfa);
            if let Err(e) = self.up(dev, rfa) {
                // Nothing half built left for the poll that follows.
                self.down(dev, rfa);
                self.retry_up(dev, e);
            } else if retrying {
                netdev_info!(dev, "rings allocated again: up\n");
            }
        };
        // As an ethtool rebuild: a watchdog run in flight finishes first, and none runs until
        // the hardware is back (it would raise the carrier of rings being torn down).
        self.rebuild(true);
        // NAPI on: the usual reset. Otherwise NAPI may still be suspended by a resume whose
        // interrupt request failed: this one requests it again.
        if dev.with_napi_disabled::<Nic, _>(rtnl, again).is_none() {
            if let Some(Err(e)) = dev.resume_napi::<Nic, _>(rtnl, again) {
                self.retry_up(dev, e);
            }
        }
        self.rebuild(false);
    }

    /// After a bring-up that failed on an interface that stays up (a reset, a resize, a
    /// resume): no rings and no carrier, so the stack's transmit watchdog cannot fire. The
    /// service task tries again at its next run, and at every run after until it works or
    /// the interface goes down.
    fn retry_up(&self, dev: &NetDevice, e: Error) {
        self.reset_pending.store(true, Ordering::Relaxed);
        if !self.retrying.swap(true, Ordering::Relaxed) {
            netdev_warn!(
                dev,
                "no rings ({:?}): trying again every {} ms\n",
                e,
                WATCHDOG_MS
            );
        }
    }
}

/// Formats a MAC address as `aa:bb:cc:dd:ee:ff`.
struct MacFmt<'a>(&'a [u8; 6]);

impl core::fmt::Display for MacFmt<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let m = self.0;
        write!(
            f,
            "{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}",
            m[0], m[1], m[2], m[3], m[4], m[5]
        )
    }
}

/// The PCI driver's per-device data: owns the net_device registration (which owns the rest).
struct E100Driver {
    netdev: ClassDevres<net::dev::Registration<Nic>>,
}

/// Wake-on-LAN at probe: whether the part can wake on a magic packet and whether it starts on.
fn wake_setup(pdev: &pci::Device<Core>, mac: Mac, eeprom: &Eeprom) -> (bool, bool) {
    let bound: &device::Device<Bound> = pdev.as_ref();
    // Wake-on-LAN: offered if the part can and the PCI core found the means (PME), on by
    // default where the EEPROM says the board is wired for it. The device's wake-up
    // setting (`power/wakeup`, which a previous binding or the user may have left on) is
    // put in step; failing that is not worth failing the probe. A wake event left from
    // before is cleared and PME# kept off until a suspend arms it, as e100.c does.
    let wol_capable = hw::wol_capable(mac) && bound.can_wakeup();
    let wol_on = wol_capable && hw::wol_default(mac, eeprom.word(hw::EEPROM_ID));
    if wol_capable && bound.may_wakeup() != wol_on {
        if let Err(e) = bound.set_wakeup_enable(wol_on) {
            dev_warn!(pdev, "cannot set the wake-up of the device: {:?}\n", e);
        }
    }
    pdev.pme_active(false);
    (wol_capable, wol_on)
}

/// The EEPROM's checksum and MAC address, judged as e100.c does: a corrupt EEPROM or an
/// invalid address fails the probe (`EAGAIN`) unless `eeprom_bad_csum_allow` is set, which
/// goes on (with a random address for an invalid one).
fn eeprom_mac(pdev: &pci::Device<Core>, eeprom: &Eeprom) -> Result<[u8; 6]> {
    if !eeprom.checksum_ok() {
        dev_err!(
            pdev,
            "EEPROM corrupted (words sum to {:#06x}, expected {:#06x})\n",
            eeprom.sum(),
            eeprom::CHECKSUM
        );
        if !EEPROM_BAD_CSUM_ALLOW.get() {
            return Err(EAGAIN);
        }
        dev_warn!(
            pdev,
            "eeprom_bad_csum_allow set: continuing with a corrupt EEPROM\n"
        );
    }

    let mut addr = eeprom.mac();
    if !net::dev::is_valid_ether_addr(&addr) {
        if !EEPROM_BAD_CSUM_ALLOW.get() {
            dev_err!(
                pdev,
                "Invalid MAC address {} from EEPROM, aborting\n",
                MacFmt(&addr)
            );
            return Err(EAGAIN);
        }
        addr = net::dev::random_ether_addr();
        dev_warn!(
            pdev,
            "Invalid MAC address from EEPROM; using random address {}\n",
            MacFmt(&addr)
        );
    }
    Ok(addr)
}

/// The PHY the probe scan `found` (none answering: an MII-less board, if the EEPROM names
/// one), selected, with e100.c's MDI-X rule and the PHY's quirks applied. Returns it, the
/// MII-less interface if any, the MDI-X rule and the PHY's BMSR.
fn phy_setup(
    pdev: &pci::Device<Core>,
    io: &Io<{ hw::CSR_LEN }>,
    found: Option<phy::Phy>,
    eeprom: &Eeprom,
    mac: Mac,
    ich: u8,
) -> Result<(phy::Phy, Option<phy::NonMii>, phy::Mdix, u16)> {
    // No PHY answers: a board the EEPROM says has no MII PHY goes on with emulated
    // registers (e100.c's rule, after the scan since EEPROM contents are less reliable).
    let (phy, non_mii) = match found {
        Some(phy) => (phy, None),
        None => {
            let Some(kind) = phy::NonMii::from_eeprom(eeprom.word(hw::EEPROM_PHY_IFACE)) else {
                dev_err!(pdev, "No PHY answers on the MDI bus, aborting\n");
                return Err(ENODEV);
            };
            dev_info!(
                pdev,
                "No MII PHY ({} per the EEPROM): 82503 serial interface, link reported up at 10 Mb/s\n",
                kind.name()
            );
            (phy::EmulatedMii::PHY, Some(kind))
        }
    };
    let emulated = non_mii.is_some();
    if phy::select(&mut MdiBus::new(io, emulated), &phy).is_none() {
        dev_err!(
            pdev,
            "PHY at address {} did not take its selection (MDI timeout)\n",
            phy.addr
        );
        return Err(EIO);
    }

    // Automatic MDI/MDI-X switching: the 82550 and later, or an ICH part whose EEPROM asks
    // for it (e100.c's rule).
    let mdix = if emulated {
        phy::Mdix::Off
    } else if mac >= Mac::M82550_D102 {
        phy::Mdix::Always
    } else if ich != 0 && eeprom.word(hw::EEPROM_CNFG_MDIX) & hw::EEPROM_MDIX_ENABLED != 0 {
        phy::Mdix::IfCapable
    } else {
        phy::Mdix::Off
    };
    let bmsr = {
        let mut bus = MdiBus::new(io, emulated);
        if phy::quirks(&mut bus, &phy, mdix, false).is_none() {
            dev_warn!(pdev, "PHY set-up (MDI-X, congestion control) timed out\n");
        }
        phy::Mdio::read(&mut bus, phy.addr, phy::MII_BMSR).ok_or(EIO)?
    };
    Ok((phy, non_mii, mdix, bmsr))
}

impl E100Driver {
    /// Probes the device; `pin_init_scope` makes it the initialiser `probe` returns.
    fn setup(pdev: &pci::Device<Core>, ich: u8) -> Result<Self> {
        pdev.enable_device()?;
        if !pdev.resource_is_mem(0) {
            dev_err!(
                pdev,
                "Cannot find proper PCI device base address, aborting\n"
            );
            return Err(ENODEV);
        }
        let csr = pdev.iomap_region_sized::<{ hw::CSR_LEN }>(0, DRV_NAME)?;
        let mac = Mac::from_revision(pdev.revision(), ich != 0);
        let bound: &device::Device<Bound> = pdev.as_ref();

        let (eeprom, found) = {
            let io = csr.access(bound)?;
            // Reset before enabling bus mastering: firmware may have left the chip running.
            hw_reset(io);
            pdev.set_master();
            // Enabled and mastering: what a fatal PCI error's recovery restores
            // (`slot_reset`).
            pdev.save_state()?;
            let eeprom = Eeprom::load(&mut EepromPins(io));
            let found = phy::probe(&mut MdiBus::Hw(io));
            (eeprom, found)
        };

        let addr = eeprom_mac(pdev, &eeprom)?;
        let (phy, non_mii, mdix, bmsr) =
            phy_setup(pdev, csr.access(bound)?, found, &eeprom, mac, ich)?;
        let emulated = non_mii.is_some();
        let abilities = phy::abilities(bmsr);
        // No flow control without a PHY to negotiate it and a known full-duplex link.
        let cfg = phy::LinkConfig::new(abilities, mac >= Mac::M82558_D101_A4 && !emulated);

        let link_ctl = LinkCtl {
            cfg,
            abilities,
            link: diag::Link::default(),
            diag: diag::Diagnosis::default(),
            last_dump: None,
        };
        let (wol_capable, wol_on) = wake_setup(pdev, mac, &eeprom);

        let ucode_params = (
            ucode_param(
                pdev,
                "ucode_int_delay",
                UCODE_INT_DELAY.get(),
                (ucode::int_delay_ok, "512-4096, or 1"),
                ucode::INT_DELAY_DEFAULT,
            ),
            ucode_param(
                pdev,
                "ucode_bundle_max",
                UCODE_BUNDLE_MAX.get(),
                (ucode::bundle_max_ok, "1-65535"),
                ucode::BUNDLE_MAX_DEFAULT,
            ),
        );

        let asf = hw::asf(
            pdev.device_id(),
            eeprom.word(hw::EEPROM_CONFIG_ASF),
            eeprom.word(hw::EEPROM_SMBUS_ADDR),
        );
        let quirks = qemu::Quirks::detect();
        let mem = CoherentAllocation::<Mem>::alloc_coherent(bound, 1, GFP_KERNEL)?;
        let words = eeprom.len();
        let nic = Arc::pin_init(
            pin_init!(Nic {
                pdev: pdev.into(),
                csr,
                mac,
                eeprom <- new_mutex!(eeprom, "e100_rs::eeprom"),
                mdix,
                rx_count: AtomicU32::new(rings::RFDS.0),
                tx_count: AtomicU32::new(rings::CBS.0),
                phy,
                non_mii,
                mem,
                mdio_lock <- new_spinlock!((), "e100_rs::mdio_lock"),
                cu <- new_spinlock_irq!(
                    Cu {
                        ring: None,
                        stats_layout: stats::layout_of(*mac),
                        stats_confirmed: false,
                        totals: stats::Totals::default(),
                    },
                    "e100_rs::cu"
                ),
                counters: stats::DataCounters::default(),
                reset_pending: AtomicBool::new(false),
                retrying: AtomicBool::new(false),
                rx_mode_pending: AtomicBool::new(false),
                ru_stopped: AtomicBool::new(false),
                ru_held: AtomicBool::new(false),
                tx_busy: AtomicBool::new(false),
                irq_cause: AtomicU32::new(0),
                ich: ich != 0,
                link <- new_mutex!(link_ctl, "e100_rs::link"),
                mac_fdx_force: AtomicBool::new(false),
                mac_tx_pause: AtomicBool::new(false),
                msg_enable: AtomicU32::new(msg_level(DEBUG.get())),
                link_flapped: AtomicBool::new(false),
                loopback: AtomicU8::new(0),
                rebuilding: AtomicBool::new(false),
                adaptive_ifs: AtomicU8::new(0),
                ich_10h: AtomicBool::new(false),
                rx_fcs: AtomicBool::new(false),
                rx_all: AtomicBool::new(false),
                wol_capable,
                wol: AtomicBool::new(wol_on),
                suspended: AtomicBool::new(false),
                ucode <- new_mutex!(Ucode::Unknown, "e100_rs::ucode"),
                ucode_params,
                quirks,
                asf,
                spare <- new_mutex!(Spare::default(), "e100_rs::spare"),
            }),
            GFP_KERNEL,
        )?;

        let netdev = net::dev::Registration::register(
            bound,
            net::dev::Config {
                mac: addr,
                watchdog_timeo: kernel::time::msecs_to_jiffies(2000) as i32,
                mtu_range: (68, 1500),
                irq: Some(pdev.irq_request()?),
                napi_weight: NAPI_WEIGHT,
                hw_features: net::dev::Features::RXFCS | net::dev::Features::RXALL,
                // The 82557 cannot receive a frame longer than 1518 bytes (Configure has no
                // long-frame bit before the 82558), so no VLANs on it, as e100.c says too.
                fixed_features: if mac < hw::Mac::M82558_D101_A4 {
                    net::dev::Features::VLAN_CHALLENGED
                } else {
                    net::dev::Features::NONE
                },
                // The chip sends a frame with its own FCS on the NC bit (e100.c); QEMU's model
                // drops such a frame ("CmdTx: NC = 0"), so there it is not offered.
                supp_nofcs: !quirks.qemu_drops_nofcs(),
            },
            nic,
        )?;

        let reg = netdev.access(pdev.as_ref())?;
        let ndev = reg.device();
        netdev_info!(
            ndev,
            "{} rev {}, {} EEPROM words, PHY {} ({:#010x}) at {}, irq {}, MAC addr {}{}; {}\n",
            mac.name(),
            mac.revision(),
            words,
            non_mii.map_or(phy.name(), |k| k.name()),
            phy.id,
            phy.addr,
            pdev.irq(),
            MacFmt(&ndev.mac_addr()),
            if asf { ", ASF" } else { "" },
            quirks.describe()
        );
        Ok(E100Driver { netdev })
    }
}

#[vtable]
impl pci::Driver for E100Driver {
    type IdInfo = u8;
    const NAME: &'static CStr = DRV_NAME;
    const ID_TABLE: pci::IdTable<u8> = ID_TABLE;
    /// Every 8255x addresses 32 bits.
    const DMA_MASK: Option<DmaMask> = Some(DmaMask::new::<32>());

    fn probe(pdev: &pci::Device<Core>, ich: &'static u8) -> impl PinInit<Self, Error> {
        pin_init_scope(move || Self::setup(pdev, *ich))
    }

    fn suspend(&self, pdev: &pci::Device<Core>) -> Result {
        let reg = self.netdev.access(pdev.as_ref())?;
        let rtnl = net::dev::rtnl_lock(pdev.as_ref());
        reg.data().quiesce(reg.device(), &rtnl, true);
        // No DMA while asleep. The PCI core then saves the configuration space and puts the
        // device into D3hot, with PME# armed if wake-up is enabled (`device_may_wakeup`).
        pdev.clear_master();
        Ok(())
    }

    fn resume(&self, pdev: &pci::Device<Core>) -> Result {
        let reg = self.netdev.access(pdev.as_ref())?;
        // The PCI core has restored D0 and the configuration space (bus mastering as saved:
        // off).
        pdev.set_master();
        let rtnl = net::dev::rtnl_lock(pdev.as_ref());
        reg.data().revive(reg.device(), &rtnl)
    }

    fn shutdown(&self, pdev: &pci::Device<Core>) {
        let Ok(reg) = self.netdev.access(pdev.as_ref()) else {
            return;
        };
        let nic = reg.data();
        let dev = reg.device();
        // The MAC is armed for wake-up only when the system powers off (not for a reboot or
        // kexec, which start the next kernel at once).
        let power_off = pci::system_powering_off();
        {
            let rtnl = net::dev::rtnl_lock(pdev.as_ref());
            nic.quiesce(dev, &rtnl, power_off);
        }
        pdev.clear_master();
        let wol = nic.wol.load(Ordering::Relaxed);
        // An ASF board's management needs wake-up armed too (e100.c's rule).
        let wake = wol || nic.asf;
        if nic.msg_enable.load(Ordering::Relaxed) & net::dev::msg::WOL != 0 {
            netdev_info!(
                dev,
                "shutdown: quiesced, wake-on-LAN {}{}{}\n",
                if wol { "on" } else { "off" },
                if nic.asf {
                    ", ASF: wake-up kept armed"
                } else {
                    ""
                },
                if power_off { ", powering off" } else { "" }
            );
        }
        // Powering off (not rebooting): into D3hot, with PME# armed for a magic packet if
        // wake-on-LAN is on, as e100.c does; a failure leaves the device quiesced in D0.
        if power_off {
            let _ = if wake {
                pdev.prepare_to_sleep()
            } else {
                pdev.wake_from_d3(false)
                    .and_then(|()| pdev.set_power_d3hot())
            };
        }
    }

    /// PCI error recovery (AER, EEH), as e100.c: the device leaves the stack and, if up, its
    /// hardware goes down (writes to a frozen channel are dropped), then a slot reset unless the
    /// device is gone for good.
    fn error_detected(&self, pdev: &pci::Device<Core>, state: pci::ChannelState) -> pci::ErsResult {
        if let Ok(reg) = self.netdev.access(pdev.as_ref()) {
            let rtnl = net::dev::rtnl_lock(pdev.as_ref());
            reg.data().quiesce(reg.device(), &rtnl, false);
        }
        match hw::after_error(state == pci::ChannelState::PermanentFailure) {
            hw::AfterError::Reset => pci::ErsResult::NeedReset,
            hw::AfterError::Disconnect => pci::ErsResult::Disconnect,
        }
    }

    /// After the slot reset: the configuration space saved at probe written back (a fatal
    /// error's secondary bus reset cleared the BARs and the command register; e100.c does not
    /// restore them, the drivers of later Intel NICs do) and saved again for the next error,
    /// bus mastering, and (function 0 only: one reset per card) the chip reset and its PHY
    /// selected again; the rest comes with `error_resume`.
    fn slot_reset(&self, pdev: &pci::Device<Core>) -> pci::ErsResult {
        pdev.restore_state();
        if pdev.save_state().is_err() {
            return pci::ErsResult::Disconnect;
        }
        pdev.set_master();
        if pdev.function() != 0 {
            return pci::ErsResult::Recovered;
        }
        let Ok(reg) = self.netdev.access(pdev.as_ref()) else {
            return pci::ErsResult::Disconnect;
        };
        match reg.data().reset_chip(reg.device()) {
            Ok(()) => pci::ErsResult::Recovered,
            Err(_) => pci::ErsResult::Disconnect,
        }
    }

    /// Recovery is over: no wake event pending, and the device back (up if it was).
    fn error_resume(&self, pdev: &pci::Device<Core>) {
        pdev.pme_active(false);
        let Ok(reg) = self.netdev.access(pdev.as_ref()) else {
            return;
        };
        let rtnl = net::dev::rtnl_lock(pdev.as_ref());
        if let Err(e) = reg.data().revive(reg.device(), &rtnl) {
            netdev_err!(reg.device(), "not back after the PCI error: {:?}\n", e);
        }
    }
}

#[vtable]
impl net::dev::Operations for Nic {
    type PollState = Rfa;

    fn open(&self, dev: &NetDevice, rfa: &mut Rfa) -> Result {
        // A reset deferred while the interface went down is moot now.
        self.reset_pending.store(false, Ordering::Relaxed);
        // The carrier is off here (from registration, or from `stop`); the service task turns
        // it on when the PHY reports link.
        if let Err(e) = self.up(dev, rfa) {
            self.down(dev, rfa);
            return Err(e);
        }
        dev.schedule_service(0);
        Ok(())
    }

    fn stop(&self, dev: &NetDevice, rfa: &mut Rfa) -> Result {
        // Under `link`: a watchdog run in flight finishes first, and the next one finds the
        // interface not running (the core clears that before calling us).
        let _ctl = self.link.lock();
        self.down(dev, rfa);
        Ok(())
    }

    // Inlined into the abstraction's `ndo_start_xmit` trampoline, its one caller: the data
    // path pays one call, not two.
    #[inline(always)]
    fn start_xmit<'a>(&self, dev: &NetDevice, skb: TxSkb<'a>) -> TxOutcome<'a> {
        // The 8255x pads short frames itself (Configure asks it to); QEMU's model ignores the
        // bit, so there they are padded here and no frame leaves shorter than 60 bytes.
        let skb = if self.quirks.pad_short() {
            match skb.pad_to(ETH_ZLEN) {
                Ok(skb) => skb,
                Err(_) => {
                    stats::add(&self.counters.tx_dropped, 1);
                    return TxOutcome::Ok;
                }
            }
        } else {
            skb
        };
        let bound = dev.parent();
        let Ok(io) = self.csr(bound) else {
            drop(skb);
            stats::add(&self.counters.tx_dropped, 1);
            return TxOutcome::Ok;
        };
        let mut cu = self.cu.lock();
        let Some(ring) = cu.ring.as_mut() else {
            drop(skb);
            drop(cu);
            stats::add(&self.counters.tx_dropped, 1);
            return TxOutcome::Ok;
        };
        if ring.avail() == 0 {
            // The queue is stopped whenever the ring fills, so this is a race with the
            // stack; let it retry once `poll` has cleaned. (Stopped only with the ring full:
            // `reclaim` looks for a stopped queue only after a clean that found it so.)
            dev.stop_queue();
            return TxOutcome::Busy(skb);
        }
        let len = skb.len();
        // Interrupt on completion of every 16th CB, as e100.c does; the rest rely on CNA.
        let mut cmd = desc::tx_command(self.mac, ring.avail() % 16 == 0);
        if skb.no_fcs() {
            cmd |= desc::CB_TX_NC;
        }
        if self.ich_10h.load(Ordering::Relaxed) {
            // The ICH's 10 Mb/half-duplex transmit hang: a CU NOP, and 1 us, first.
            let _ = rings::exec_cmd(io, scb::CUC_NOP, None);
            delay::udelay(1);
        }
        // Set before the CU can complete the CB (see `command`).
        self.tx_busy.store(true, Ordering::Relaxed);
        let body = |cb, buf| desc::tx_body(cb, buf, len as u16, TX_THRESHOLD);
        if let Err((_, skb)) = ring.issue_tx(io, bound, cmd, skb, body) {
            // Not a full ring (checked above): the frame could not be mapped (handed back, and
            // dropped here) or, after it was, its CB not written (already freed).
            drop(skb);
            drop(cu);
            stats::add(&self.counters.tx_dropped, 1);
            return TxOutcome::Ok;
        }
        dev.sent_queue(len);
        if ring.avail() == 0 {
            // Only with the ring full (see above); only `clean` frees a CB.
            dev.stop_queue();
        }
        TxOutcome::Ok
    }

    fn get_stats64(&self, _dev: &NetDevice, s: &mut kernel::bindings::rtnl_link_stats64) {
        let c = self.counters.snapshot();
        let t = self.cu.lock().totals;
        s.rx_packets = c.rx_packets;
        s.tx_packets = c.tx_packets;
        s.rx_bytes = c.rx_bytes;
        s.tx_bytes = c.tx_bytes;
        s.rx_errors = t.rx_errors;
        s.tx_errors = t.tx_errors;
        s.rx_dropped = c.rx_dropped;
        s.tx_dropped = c.tx_dropped;
        s.multicast = c.multicast;
        s.collisions = t.collisions;
        s.rx_length_errors = t.rx_short_frame_errors + c.rx_over_length_errors;
        s.rx_over_errors = t.rx_over_errors;
        s.rx_crc_errors = t.rx_crc_errors;
        s.rx_frame_errors = t.rx_frame_errors;
        s.rx_fifo_errors = t.rx_fifo_errors;
        s.rx_missed_errors = t.rx_missed_errors;
        s.tx_aborted_errors = t.tx_aborted_errors;
        s.tx_carrier_errors = t.tx_carrier_errors;
        s.tx_fifo_errors = t.tx_fifo_errors;
        s.tx_window_errors = t.tx_window_errors;
    }

    fn set_rx_mode(&self, dev: &NetDevice, addrs: &AddrList<'_>) {
        let Ok(io) = self.csr(dev.parent()) else {
            return;
        };
        // The core holds the address-list lock, with bottom halves disabled.
        let mut cu = self.cu.lock();
        if cu.ring.is_none() {
            // Down, or in a bring-up, which applies it as it hands the ring over.
            self.rx_mode_pending.store(true, Ordering::Relaxed);
            return;
        }
        if self.apply_rx_mode(dev, addrs, &mut cu, io).is_err() {
            // The CB ring is full: the watchdog retries.
            self.rx_mode_pending.store(true, Ordering::Relaxed);
            dev.schedule_service(0);
        }
    }

    fn set_features(&self, dev: &NetDevice, features: net::dev::Features) -> Result {
        // Configure keeps the FCS (CRC transfer) and saves bad and short frames; the receive
        // path then passes them up. Takes effect with the next Configure, issued here.
        self.rx_fcs.store(
            features.contains(net::dev::Features::RXFCS),
            Ordering::Relaxed,
        );
        self.rx_all.store(
            features.contains(net::dev::Features::RXALL),
            Ordering::Relaxed,
        );
        if dev.is_running() {
            self.reconfigure(dev);
        }
        Ok(())
    }

    fn set_mac_address(&self, dev: &NetDevice, addr: &net::dev::MacAddr) -> Result {
        let io = self.csr(dev.parent())?;
        let mut cu = self.cu.lock();
        if cu.ring.is_some() && dev.is_running() {
            self.command(&mut cu, io, desc::CbCmd::IaSetup, &desc::ia_body(addr))?;
        }
        Ok(())
    }

    fn tx_timeout(&self, dev: &NetDevice, _txqueue: u32) {
        netdev_warn!(dev, "transmit timed out\n");
        dev.schedule_reset();
    }

    fn reset(&self, dev: &NetDevice, rtnl: &net::dev::Rtnl) {
        self.recover(dev, rtnl);
    }

    fn poll_controller(&self, dev: &NetDevice) {
        let _ = self.interrupt(dev);
    }

    fn mii_phy_id(&self, _dev: &NetDevice) -> u16 {
        self.phy.addr.into()
    }

    fn mii_read(&self, dev: &NetDevice, phy: u16, reg: u16) -> Result<u16> {
        self.with_mdio(dev.parent(), |m| phy::Mdio::read(m, phy as u8, reg as u8))?
            .ok_or(ETIMEDOUT)
    }

    fn mii_write(&self, dev: &NetDevice, phy: u16, reg: u16, val: u16) -> Result {
        // Through the PHY's write hook, as e100.c's MDIO writes all are (the 82552's BMCR).
        if self.with_mdio(dev.parent(), |m| {
            phy::write_reg(m, &self.phy, phy as u8, reg as u8, val)
        })? {
            Ok(())
        } else {
            Err(ETIMEDOUT)
        }
    }

    fn interrupt(&self, dev: &NetDevice) -> IrqReturn {
        let Ok(csr) = self.csr(dev.parent()) else {
            return IrqReturn::None;
        };
        // The window's address held for the handler's four accesses (each is a compiler
        // barrier: through the `Bar` it would be loaded again for every one).
        let io = csr.base();
        let stat_ack = io.read8(hw::SCB_STAT_ACK);
        // 0: not ours (shared line); 0xff: the device is gone (surprise removal, D3).
        if stat_ack == 0 || stat_ack == 0xff {
            return IrqReturn::None;
        }
        io.write8(stat_ack, hw::SCB_STAT_ACK);
        self.irq_cause
            .fetch_or(u32::from(stat_ack), Ordering::Release);
        if stat_ack & hw::STAT_ACK_RNR != 0 {
            self.ru_stopped.store(true, Ordering::Release);
        }
        self.set_irq_mask(io, hw::IRQ_MASK_ALL);
        dev.napi_schedule();
        IrqReturn::Handled
    }

    // Inlined into the abstraction's NAPI trampoline, its one caller (one call a poll, not two).
    #[inline(always)]
    fn poll<'a>(&self, dev: &NetDevice, mut poll: Poll<'a, Rfa>) -> PollDone<'a> {
        let bound = dev.parent();
        let Ok(io) = self.csr(bound) else {
            // The device is gone: no work, so NAPI is completed (and the interrupt, which
            // finds no BAR either, never schedules it again).
            return poll.done(0, || {});
        };
        // NAPI is done: let the device interrupt again (through the register block found
        // above); not while suspended (NAPI is off then, but a poll that was already running
        // when the suspend began must leave the chip as suspend left it).
        let rearm = move || {
            if !self.suspended.load(Ordering::Relaxed) {
                self.set_irq_mask(io.base(), hw::IRQ_MASK_NONE);
            }
        };
        let budget = poll.budget();

        // What asked for this poll: the causes the interrupt handler acknowledged since the
        // last poll took them, and `CAUSE_RX_MORE` (the last receive poll used its whole
        // budget), taken together with one swap (netpoll's poll, budget 0, leaves them: it
        // does no receive work). No interrupt cause at all is a poll no interrupt of ours
        // asked for (a busy-polling socket, the watchdog's): everything is looked at.
        // Otherwise the RFA when a frame was received, the RU is flagged as possibly stopped
        // (`ru_stopped`), or the last poll used its whole budget (frames may be left whatever
        // the causes say: a shared line's handler adds the CU's between polls); a frame that
        // arrives later raises FR, and a poll of its own.
        let cause = if budget != 0 {
            self.irq_cause.swap(0, Ordering::Acquire)
        } else {
            self.irq_cause.load(Ordering::Acquire)
        };
        let rx_causes = u32::from(hw::STAT_ACK_FR | hw::STAT_ACK_RNR) | CAUSE_RX_MORE;
        let rx_due = budget != 0
            && (cause & CAUSE_HW == 0
                || cause & rx_causes != 0
                || self.ru_stopped.load(Ordering::Acquire));
        // What receives, and the RFA, borrowed from the poll until `done`: neither in netpoll's
        // poll (budget 0), which `rx_due` leaves out too.
        let receiver = if rx_due {
            poll.receiver_and_state()
        } else {
            None
        };
        // The CB ring when a CB may be in flight, or for netpoll (which comes for transmit
        // completion); an RU restart (below) goes through it too.
        let tx_due = budget == 0
            || cause & u32::from(hw::STAT_ACK_CX | hw::STAT_ACK_CNA) != 0
            || self.tx_busy.load(Ordering::Relaxed);

        let Some((receiver, rfa)) = receiver else {
            // Transmit completion only (a CU interrupt's poll, or netpoll's, from any context,
            // a hard interrupt included, as NAPI's contract allows for budget 0): the RFA is
            // not touched.
            if tx_due {
                let mut freed = rings::Reclaimed::new();
                let sent = self.reclaim(dev, io, &poll, &mut freed, None);
                self.count_sent(&sent);
            }
            return poll.done(0, rearm);
        };

        let (got, restart) = match rfa.as_mut() {
            Some(ring) => self.receive(io, bound, receiver, ring),
            // Down: no RFA (the CB ring is looked at all the same).
            None => (rings::Received::default(), None),
        };
        if budget != 0 && got.work >= budget {
            // Taken by the next poll: NAPI runs it at once (the budget was used), or, were NAPI
            // being disabled, the first after it is enabled again (which then looks at the RFA
            // once more; `up` clears the word). (`budget != 0` always holds here; said, it
            // saves the receive poll instructions as the compiler lays it out: 4 a frame,
            // measured again on 2026-12-04 night by taking it out, 397.6 to 401.4 in all.)
            self.irq_cause.fetch_or(CAUSE_RX_MORE, Ordering::Relaxed);
        }
        // `restart` is the bus address of an RFD of the ring whose borrow ended above: still
        // mapped, since the ring is freed only with NAPI disabled, after this poll returns.
        if tx_due || restart.is_some() {
            let mut freed = rings::Reclaimed::new();
            let sent = self.reclaim(dev, io, &poll, &mut freed, restart);
            self.count_sent(&sent);
        }

        // Added whatever they are: a receive poll has nearly always delivered frames, so a
        // test for zero would cost more than the rare add of nothing.
        let c = &self.counters;
        c.rx_packets.fetch_add(got.pkts.into(), Ordering::Relaxed);
        c.rx_bytes.fetch_add(got.bytes, Ordering::Relaxed);
        poll.done(got.work, rearm)
    }

    fn service(&self, dev: &NetDevice) {
        if self.reset_pending.swap(false, Ordering::Relaxed) {
            dev.schedule_reset();
        }
        if !dev.is_running() {
            return;
        }
        self.watchdog(dev);
        dev.schedule_service(WATCHDOG_MS);
    }
}
