#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A slow, deterministic network on one machine: a network namespace whose
# loopback is rate-limited with a token bucket (tc tbf), for comparisons that
# need a network slower than shared memory (platforms/emulated-1gbit.yaml).
#
#   scripts/emulated-net.sh start [RATE] [NAME]   # RATE default 1gbit, NAME default pico-net
#   scripts/emulated-net.sh stop [NAME]
#   scripts/emulated-net.sh status [NAME]
#
# Needs root (or CAP_NET_ADMIN) and iproute2. The burst stays above the MTU:
# lo's default MTU with a small burst stalls TCP, so the MTU is set to 9000.
set -euo pipefail

action=${1:-status}
if [[ $action == start ]]; then
  rate=${2:-1gbit}
  name=${3:-pico-net}
else
  name=${2:-pico-net}
fi

exists() { ip netns list | awk '{print $1}' | grep -qx "$name"; }

case $action in
  start)
    if exists; then ip netns exec "$name" tc qdisc del dev lo root 2>/dev/null || true; else ip netns add "$name"; fi
    ip netns exec "$name" ip link set lo mtu 9000 up
    ip netns exec "$name" tc qdisc add dev lo root tbf rate "$rate" burst 512kb latency 50ms
    echo "emulated network '$name' up: loopback limited to $rate"
    ;;
  stop)
    if exists; then ip netns delete "$name"; echo "emulated network '$name' removed"; else echo "no emulated network '$name'"; fi
    ;;
  status)
    if exists; then ip netns exec "$name" tc qdisc show dev lo; else echo "no emulated network '$name'"; exit 1; fi
    ;;
  *)
    echo "usage: $0 start [RATE] [NAME] | stop [NAME] | status [NAME]" >&2
    exit 2
    ;;
esac
