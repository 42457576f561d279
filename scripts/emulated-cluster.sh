#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# An emulated multi-node cluster on this machine, for measurements and tests
# that need a network between nodes (platforms/emulated-cluster*.yaml).
#
#   scripts/emulated-cluster.sh start --nodes N [--rate RATE] [--ppn P] [--no-pin]
#                                     [--node-rate I=RATE]... [--racks 2 --uplink RATE] [--slurm]
#   scripts/emulated-cluster.sh stop      # removes everything start made
#   scripts/emulated-cluster.sh status    # nodes, addresses, rates; exit 3 when not running
#   scripts/emulated-cluster.sh env       # the exports the Slurm commands need (after --slurm)
#
# Each node is a network namespace PREFIX-nodeI whose processes see the host
# name PREFIX-nodeI (a UTS namespace per process tree), with one interface,
# eth0, at 127.77.0.I/24 on a bridge. Each node's link is limited to RATE in
# both directions by a token bucket (tc tbf) on either end of its veth pair.
# --racks 2 puts the second half of the nodes on a second bridge joined to
# the first by an uplink limited to --uplink in each direction. There is no
# added latency (this kernel has no netem) and all nodes share this machine's
# CPUs. Each node's processes run on P of them (its own cpus, taken in node
# order and wrapping round: 4 nodes of 1 rank on 2 cores run on 0 1 0 1);
# --no-pin lets every process run anywhere. Pinning, with interleaved rounds,
# made two runs pick the same best at 91-96% of points against 76-90%
# (docs/platforms.md#quieter); slurmd runs on its node's cpus, and so do its
# jobs. Addresses are in the loopback range with route_localnet on: private
# ranges (10.x, 192.168.x) are not ours to use here.
#
# `start` writes into $PICO_CLUSTER_DIR (default /run/pico-cluster):
#   cluster.json   what was built (nodes, addresses, rates); pico records it in
#                  the report of a platform with `emulated: <this file>`
#   hostfile       one line per node, `ADDRESS slots=P`, for Open MPI
#   hostfile-mpich the same as `ADDRESS:P`, for MPICH's Hydra
#   hosts          the node addresses, comma-separated, for MPICH's -hosts
#   on NODE CMD..  runs CMD inside NODE (network and host name, on its cpus)
#   rsh-agent      ssh-like agent for mpirun/Hydra: `rsh-agent HOST COMMAND`
#   slurm/, bin/   with --slurm: configuration, spool, logs, and wrappers of the
#                  Slurm commands that reach slurmctld from outside the cluster
# PICO_CLUSTER_NAME (default pico; 1-6 of a-z0-9) prefixes namespaces and
# interfaces, so a second cluster (the tests') can run beside the first.
# Needs root, iproute2 and util-linux; --slurm needs slurm-wlm and munge.
set -euo pipefail

prefix=${PICO_CLUSTER_NAME:-pico}
dir=${PICO_CLUSTER_DIR:-/run/pico-cluster}
net=127.77.0           # nodes are .1 .. .N, the Slurm controller .254
ctl_octet=254
max_nodes=64
# tbf needs a burst above the MTU (9000, for fewer packets per byte on 2 cores).
tbf_opts=(burst 256kb latency 50ms)
script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

die() { echo "emulated-cluster: $*" >&2; exit 1; }
usage_error() {
  echo "emulated-cluster: $*" >&2
  echo "usage: $0 start --nodes N [--rate RATE] [--ppn P] [--no-pin] [--node-rate I=RATE]... [--racks 2 --uplink RATE] [--slurm] | stop | status | env" >&2
  exit 2
}
say() { echo "emulated-cluster: $*" >&2; }

[[ $prefix =~ ^[a-z0-9]{1,6}$ ]] || usage_error "PICO_CLUSTER_NAME '$prefix' must be 1-6 characters of a-z, 0-9"
[[ $dir == /* ]] || usage_error "PICO_CLUSTER_DIR '$dir' must be an absolute path"

node_ns() { echo "$prefix-node$1"; }
ctl_ns() { echo "$prefix-ctl"; }

need_root() {
  [[ $(id -u) -eq 0 ]] || die "run as root (network namespaces need CAP_NET_ADMIN)"
  for tool in ip tc unshare; do
    command -v "$tool" >/dev/null || die "$tool not found; install iproute2 and util-linux (scripts/setup.sh)"
  done
}

# A tc rate (what tbf accepts, decimal units) to bits per second; empty when malformed.
rate_bps() {
  local r=$1 n unit
  [[ $r =~ ^([0-9]+)(bit|kbit|mbit|gbit)$ ]] || return 0
  n=${BASH_REMATCH[1]} unit=${BASH_REMATCH[2]}
  case $unit in
    bit) echo "$n" ;; kbit) echo "$((n * 1000))" ;; mbit) echo "$((n * 1000000))" ;; gbit) echo "$((n * 1000000000))" ;;
  esac
}

check_rate() {
  local bps
  bps=$(rate_bps "$1")
  [[ -n $bps && $bps -ge 1000000 ]] || usage_error "$2 '$1' is not a rate of at least 1mbit (write e.g. 100mbit, 1gbit)"
}

# ---- start -------------------------------------------------------------------------------------

nodes=0 rate=1gbit ppn=1 racks=1 uplink="" want_slurm=0 pin=1
declare -A node_rate=()

parse_start() {
  while (($#)); do
    case $1 in
      --nodes | --rate | --ppn | --node-rate | --racks | --uplink)
        (($# >= 2)) || usage_error "$1 needs a value"
        case $1 in
          --nodes) nodes=$2 ;;
          --rate) rate=$2 ;;
          --ppn) ppn=$2 ;;
          --racks) racks=$2 ;;
          --uplink) uplink=$2 ;;
          --node-rate)
            [[ $2 =~ ^([0-9]+)=(.+)$ ]] || usage_error "--node-rate '$2' must be I=RATE (e.g. 3=100mbit)"
            node_rate[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
            ;;
        esac
        shift 2
        ;;
      --slurm) want_slurm=1; shift ;;
      --no-pin) pin=0; shift ;;
      *) usage_error "unknown option '$1'" ;;
    esac
  done
  if ! [[ $nodes =~ ^[0-9]+$ ]] || ((nodes < 1 || nodes > max_nodes)); then usage_error "--nodes '$nodes' must be 1..$max_nodes"; fi
  if ! [[ $ppn =~ ^[0-9]+$ ]] || ((ppn < 1 || ppn > 256)); then usage_error "--ppn '$ppn' must be 1..256"; fi
  [[ $racks == 1 || $racks == 2 ]] || usage_error "--racks '$racks' must be 1 or 2"
  check_rate "$rate" --rate
  if ((racks == 2)); then
    ((nodes >= 2)) || usage_error "--racks 2 needs at least 2 nodes"
    [[ -n $uplink ]] || usage_error "--racks 2 needs --uplink RATE (the link between the racks)"
    check_rate "$uplink" --uplink
  elif [[ -n $uplink ]]; then
    usage_error "--uplink needs --racks 2"
  fi
  local i
  for i in "${!node_rate[@]}"; do
    ((i >= 1 && i <= nodes)) || usage_error "--node-rate $i=...: there is no node $i of $nodes"
    check_rate "${node_rate[$i]}" "--node-rate $i"
  done
}

rate_of() { echo "${node_rate[$1]:-$rate}"; }
# Node I's cpus, for taskset -c: the P after node I-1's, wrapping round the
# machine's (all of them, whatever this shell's own affinity). Empty with --no-pin.
cpus_of() {
  ((pin)) || return 0
  local total k list=()
  total=$(nproc --all)
  for ((k = 0; k < ppn && k < total; k++)); do list+=($((((${1} - 1) * ppn + k) % total))); done
  (IFS=,; echo "${list[*]}")
}
# Nodes 1..ceil(N/2) are rack 1, the rest rack 2 (with --racks 2).
rack_of() { if ((racks == 2 && $1 > (nodes + 1) / 2)); then echo 2; else echo 1; fi; }

# The cluster.json this start would write: comparing it with the one on disk makes start idempotent.
cluster_json() {
  local i sep=""
  printf '{\n  "emulated": true,\n  "name": "%s",\n  "tool": "scripts/emulated-cluster.sh",\n' "$prefix"
  printf '  "shaping": "tc tbf both directions of each node link, %s; no added latency",\n' "${tbf_opts[*]}"
  printf '  "ppn": %d,\n  "slurm": %s,\n  "nodes": [\n' "$ppn" "$( ((want_slurm)) && echo true || echo false)"
  for ((i = 1; i <= nodes; i++)); do
    printf '%s    {"name": "%s", "address": "%s.%d", "rack": %d, "rate": "%s", "rate_bps": %s, "cpus": "%s"}' \
      "$sep" "$(node_ns "$i")" "$net" "$i" "$(rack_of "$i")" "$(rate_of "$i")" "$(rate_bps "$(rate_of "$i")")" \
      "$(cpus_of "$i")"
    sep=$',\n'
  done
  printf '\n  ],\n'
  if ((racks == 2)); then
    printf '  "uplink": {"between_racks": [1, 2], "rate": "%s", "rate_bps": %s}\n}\n' "$uplink" "$(rate_bps "$uplink")"
  else
    printf '  "uplink": null\n}\n'
  fi
}

ns_exists() { ip netns list | awk '{print $1}' | grep -qx "$1"; }

# A bridge in this (the host's) namespace; jumbo frames keep per-packet work down.
add_bridge() {
  ip link add "$1" type bridge
  ip link set "$1" mtu 9000 up
}

# Shapes what leaves DEV to RATE (egress only: tbf has no ingress side, so
# each direction is shaped on the interface it leaves from).
shape() {
  local ns=$1 dev=$2 r=$3
  if [[ -n $ns ]]; then
    ip netns exec "$ns" tc qdisc replace dev "$dev" root tbf rate "$r" "${tbf_opts[@]}"
  else
    tc qdisc replace dev "$dev" root tbf rate "$r" "${tbf_opts[@]}"
  fi
}

# A namespace NS with eth0 at ADDRESS, its peer HOSTDEV on BRIDGE.
add_namespace() {
  local ns=$1 hostdev=$2 bridge=$3 address=$4
  ip netns add "$ns"
  ip link add "$hostdev" type veth peer name eth0 netns "$ns"
  ip link set "$hostdev" mtu 9000 master "$bridge" up
  # 127.x on a real interface needs route_localnet, else the kernel drops it as martian.
  ip netns exec "$ns" sysctl -qw net.ipv4.conf.all.route_localnet=1 net.ipv4.conf.eth0.route_localnet=1
  ip netns exec "$ns" ip addr add "$address/24" dev eth0
  ip netns exec "$ns" ip link set eth0 mtu 9000 up
  ip netns exec "$ns" ip link set lo up
  # lo's `local 127.0.0.0/8` loses to eth0's /24 only while the local and
  # main tables stay merged (no policy rules): keep only 127.0.0.1 local, so
  # the other nodes' addresses go out through eth0 whatever the rules.
  ip netns exec "$ns" ip route del local 127.0.0.0/8 dev lo table local 2>/dev/null || true
  ip netns exec "$ns" ip route add local 127.0.0.1 dev lo table local 2>/dev/null || true
}

write_hosts_files() {
  local i
  {
    echo "127.0.0.1 localhost"
    for ((i = 1; i <= nodes; i++)); do echo "$net.$i $(node_ns "$i")"; done
    echo "$net.$ctl_octet $(ctl_ns)"
  } >"$dir/etc-hosts"
  : >"$dir/hostfile"
  : >"$dir/hostfile-mpich"
  for ((i = 1; i <= nodes; i++)); do
    echo "$net.$i slots=$ppn" >>"$dir/hostfile"
    echo "$net.$i:$ppn" >>"$dir/hostfile-mpich"  # Hydra's form of the same
  done
  local list=()
  for ((i = 1; i <= nodes; i++)); do list+=("$net.$i"); done
  (IFS=,; echo "${list[*]}") >"$dir/hosts"
}

# `on NODE CMD...`: CMD in NODE's network namespace, under NODE's host name.
write_helpers() {
  local i cpu_cases=""
  for ((i = 1; i <= nodes; i++)); do
    ((pin)) && cpu_cases+="  $(node_ns "$i")) pin=\"taskset -c $(cpus_of "$i")\" ;;"$'\n'
  done
  cat >"$dir/on" <<EOF
#!/bin/sh
# Generated by scripts/emulated-cluster.sh: on NODE CMD... runs CMD inside NODE
# (its network namespace, and a new UTS namespace named after it).
node=\$1; shift
case \$node in $prefix-node[0-9]*|$prefix-ctl) ;; *) echo "on: '\$node' is not a node of cluster $prefix" >&2; exit 2 ;; esac
# nsenter, not \`ip netns exec\`: that one mounts a fresh /sys without
# /sys/fs/cgroup, and slurmd will not start without it. A private mount
# namespace puts the cluster's host names in /etc/hosts for CMD alone, and
# the node's own directory at $dir/tmp (Slurm's TmpFS: each slurmstepd's PMIx
# directory is named by job and step alone, so nodes must not share it).
[ -e "/run/netns/\$node" ] || { echo "on: node '\$node' is not up" >&2; exit 2; }
mkdir -p "$dir/node-tmp/\$node"
# On the node's cpus (none: anywhere, as the controller).
pin=
case \$node in
$cpu_cases  *) ;;
esac
exec \$pin nsenter --net="/run/netns/\$node" unshare --uts --mount --propagation private \\
  sh -c 'mount --bind "\$1" /etc/hosts && mount --bind "\$2" "\$3" && hostname "\$0" && shift 3 && exec "\$@"' \\
  "\$node" "$dir/etc-hosts" "$dir/node-tmp/\$node" "$dir/tmp" "\$@"
EOF
  local cases=""
  for ((i = 1; i <= nodes; i++)); do cases+="  $net.$i|$(node_ns "$i")) node=$(node_ns "$i") ;;"$'\n'; done
  cat >"$dir/rsh-agent" <<EOF
#!/bin/sh
# Generated by scripts/emulated-cluster.sh: what ssh is to mpirun and Hydra.
# rsh-agent [-OPTIONS] HOST COMMAND...: like ssh, the command words are joined
# and run by a shell, here inside the node's namespaces.
while [ "\${1#-}" != "\$1" ]; do shift; done
host=\$1; shift
case \$host in
$cases  *) echo "rsh-agent: '\$host' is not a node of cluster $prefix" >&2; exit 255 ;;
esac
exec "$dir/on" "\$node" sh -c "\$*"
EOF
  mkdir -p "$dir/tmp" "$dir/node-tmp"
  chmod 755 "$dir/on" "$dir/rsh-agent"
}

build_network() {
  local i ns bridge
  add_bridge "$prefix-br1"
  if ((racks == 2)); then
    add_bridge "$prefix-br2"
    # The uplink: a veth pair between the two bridges, shaped leaving either side.
    ip link add "$prefix-up1" type veth peer name "$prefix-up2"
    ip link set "$prefix-up1" mtu 9000 master "$prefix-br1" up
    ip link set "$prefix-up2" mtu 9000 master "$prefix-br2" up
    shape "" "$prefix-up1" "$uplink"
    shape "" "$prefix-up2" "$uplink"
  fi
  for ((i = 1; i <= nodes; i++)); do
    ns=$(node_ns "$i")
    bridge=$prefix-br$(rack_of "$i")
    add_namespace "$ns" "$prefix-v$i" "$bridge" "$net.$i"
    shape "$ns" eth0 "$(rate_of "$i")"  # node -> switch
    shape "" "$prefix-v$i" "$(rate_of "$i")"  # switch -> node
  done
}

start() {
  need_root
  parse_start "$@"
  local wanted
  wanted=$(cluster_json)
  if [[ -f $dir/cluster.json ]] && [[ $(cat "$dir/cluster.json") == "$wanted" ]] && running; then
    say "cluster '$prefix' is already up as asked"
    ((want_slurm)) && print_env
    return 0
  fi
  if [[ -e $dir ]] || leftovers_exist; then
    say "replacing the cluster '$prefix' that was there"
    stop >/dev/null
  fi
  mkdir -p "$dir"
  # A start that fails half-way (an error, or die) leaves nothing behind.
  trap 'rc=$?; if ((rc != 0)); then say "start failed; removing what was made"; stop >/dev/null 2>&1 || true; fi' EXIT
  write_hosts_files
  write_helpers
  build_network
  ((want_slurm)) && start_slurm
  echo "$wanted" >"$dir/cluster.json"
  trap - EXIT
  status_table >&2
  ((want_slurm)) && print_env
  return 0
}

# ---- Slurm -------------------------------------------------------------------------------------

slurm_dir() { echo "$dir/slurm"; }

write_slurm_conf() {
  local s i
  s=$(slurm_dir)
  mkdir -p "$s/ctld"
  for ((i = 1; i <= nodes; i++)); do mkdir -p "$s/spool/$(node_ns "$i")"; done
  {
    cat <<EOF
# Generated by scripts/emulated-cluster.sh: $nodes nodes, each its own network namespace.
ClusterName=pico-emulated
SlurmctldHost=$(ctl_ns)($net.$ctl_octet)
$(slurm_conf_common)
StateSaveLocation=$s/ctld
# Per node: \`on\` mounts the node's own directory here.
TmpFS=$dir/tmp
SlurmctldPidFile=$s/slurmctld.pid
SlurmctldLogFile=$s/slurmctld.log
# One slurmd per node on one machine: %n keeps their files apart.
SlurmdSpoolDir=$s/spool/%n
SlurmdPidFile=$s/slurmd-%n.pid
SlurmdLogFile=$s/slurmd-%n.log
EOF
    for ((i = 1; i <= nodes; i++)); do
      echo "NodeName=$(node_ns "$i") NodeAddr=$net.$i CPUs=$(nproc) State=UNKNOWN"
    done
    echo "PartitionName=cluster Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
  } >"$s/slurm.conf"
}

# Wrappers of the Slurm commands: slurmctld listens inside the cluster, so from
# the host they run in the controller's namespace; inside a node (a job's
# srun) they run as they are.
write_slurm_wrappers() {
  local cmd
  mkdir -p "$dir/bin"
  for cmd in sbatch scontrol sacct scancel squeue sinfo srun salloc; do
    cat >"$dir/bin/$cmd" <<EOF
#!/bin/sh
# Generated by scripts/emulated-cluster.sh.
export SLURM_CONF="$(slurm_dir)/slurm.conf"
if [ -z "\$(ip netns identify \$\$ 2>/dev/null)" ]; then
  exec "$dir/on" "$(ctl_ns)" /usr/bin/$cmd "\$@"
fi
exec /usr/bin/$cmd "\$@"
EOF
    chmod 755 "$dir/bin/$cmd"
  done
}

nodes_ready() {
  local out
  out=$("$dir/bin/sinfo" -h -N -o '%N %t' 2>/dev/null) || return 1
  [[ $(grep -cE ' (idle|alloc|mix)$' <<<"$out") -eq $nodes ]]
}

start_slurm() {
  local i ns s
  s=$(slurm_dir)
  for tool in munged slurmctld slurmd scontrol; do
    command -v "$tool" >/dev/null || die "$tool not found; install slurm-wlm and munge (scripts/setup.sh)"
  done
  # shellcheck source=scripts/lib-slurm.sh
  source "$script_dir/lib-slurm.sh"
  start_munge || die "munge is not working"
  write_slurm_conf
  write_slurm_wrappers
  # The controller gets a namespace of its own on rack 1, without shaping: control traffic is not measured.
  add_namespace "$(ctl_ns)" "$prefix-vc" "$prefix-br1" "$net.$ctl_octet"
  "$dir/on" "$(ctl_ns)" slurmctld -f "$s/slurm.conf"
  for _ in $(seq 100); do "$dir/bin/scontrol" ping 2>/dev/null | grep -q UP && break; sleep 0.1; done
  for ((i = 1; i <= nodes; i++)); do
    ns=$(node_ns "$i")
    # On the node's cpus: with TaskPlugin=task/none its jobs' tasks inherit them.
    "$dir/on" "$ns" slurmd -f "$s/slurm.conf" -N "$ns"
  done
  for _ in $(seq 150); do
    nodes_ready && return 0
    sleep 0.2
  done
  die "the $nodes slurmds did not all come up; see $s/slurmctld.log and $s/slurmd-*.log"
}

print_env() {
  echo "export SLURM_CONF=$(slurm_dir)/slurm.conf PATH=$dir/bin:\$PATH"
}

# ---- stop --------------------------------------------------------------------------------------

our_namespaces() { ip netns list | awk '{print $1}' | grep -E "^$prefix-(node[0-9]+|ctl)\$" || true; }
our_links() { ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | grep -E "^$prefix-(br[12]|up[12]|v[0-9]+|vc)\$" || true; }
leftovers_exist() { [[ -n $(our_namespaces) || -n $(our_links) ]]; }

# Ends every process inside NS (the daemons and anything a run left): TERM, then KILL.
end_processes_in() {
  local ns=$1 pids
  pids=$(ip netns pids "$ns" 2>/dev/null || true)
  [[ -z $pids ]] && return 0
  # shellcheck disable=SC2086
  kill $pids 2>/dev/null || true
  for _ in $(seq 50); do
    [[ -z $(ip netns pids "$ns" 2>/dev/null || true) ]] && return 0
    sleep 0.1
  done
  # shellcheck disable=SC2046
  kill -KILL $(ip netns pids "$ns" 2>/dev/null) 2>/dev/null || true
}

stop() {
  need_root
  local ns link
  # Daemons first, through their pid files, then whatever else lives in the namespaces.
  for ns in $(our_namespaces); do end_processes_in "$ns"; done
  for ns in $(our_namespaces); do ip netns delete "$ns"; done
  # Deleting a namespace deletes its veth ends and so their peers; bridges and the uplink remain.
  for link in $(our_links); do ip link delete "$link" 2>/dev/null || true; done
  rm -rf "$dir"
  echo "emulated cluster '$prefix' removed"
}

# ---- status ------------------------------------------------------------------------------------

running() {
  [[ -f $dir/cluster.json ]] || return 1
  local n
  n=$(grep -c '"address"' "$dir/cluster.json")
  [[ $(our_namespaces | grep -c node) -eq $n ]] || return 1
  if grep -q '"slurm": true' "$dir/cluster.json"; then
    local s
    s=$(slurm_dir)
    [[ -s $s/slurmctld.pid ]] && kill -0 "$(cat "$s/slurmctld.pid")" 2>/dev/null || return 1
  fi
}

# The rate tc reports on DEV (in NS, or on the host when NS is empty).
tc_rate() {
  local out
  if [[ -n $1 ]]; then out=$(ip netns exec "$1" tc qdisc show dev "$2" 2>/dev/null); else out=$(tc qdisc show dev "$2" 2>/dev/null); fi
  grep -o 'rate [^ ]*' <<<"$out" | head -1 | cut -d' ' -f2
}

status_table() {
  local line name address rack cpus
  printf '%-14s %-14s %-5s %-12s %-12s %-7s %s\n' node address rack "out (tc)" "in (tc)" cpus slurmd
  while IFS= read -r line; do
    name=$(sed -E 's/.*"name": "([^"]*)".*/\1/' <<<"$line")
    address=$(sed -E 's/.*"address": "([^"]*)".*/\1/' <<<"$line")
    rack=$(sed -E 's/.*"rack": ([0-9]+).*/\1/' <<<"$line")
    cpus=$(sed -nE 's/.*"cpus": "([^"]*)".*/\1/p' <<<"$line")
    local i=${address##*.} slurmd="-"
    if [[ -f $(slurm_dir)/slurmd-$name.pid ]]; then
      kill -0 "$(cat "$(slurm_dir)/slurmd-$name.pid")" 2>/dev/null && slurmd=up || slurmd=down
    fi
    printf '%-14s %-14s %-5s %-12s %-12s %-7s %s\n' "$name" "$address" "$rack" \
      "$(tc_rate "$name" eth0)" "$(tc_rate "" "$prefix-v$i")" "${cpus:-all}" "$slurmd"
  done < <(grep '"address"' "$dir/cluster.json")
  if ip link show "$prefix-up1" >/dev/null 2>&1; then
    echo "uplink between the racks: $(tc_rate "" "$prefix-up1") each way"
  fi
  echo "hostfile $dir/hostfile, agent $dir/rsh-agent, description $dir/cluster.json"
}

status() {
  if ! running; then
    echo "emulated-cluster: cluster '$prefix' is not running (scripts/emulated-cluster.sh start --nodes N)" >&2
    return 3
  fi
  status_table
}

case ${1:-} in
  start) shift; start "$@" ;;
  stop) shift; (($# == 0)) || usage_error "stop takes no arguments"; stop ;;
  status) shift; (($# == 0)) || usage_error "status takes no arguments"; status ;;
  env)
    if ! running || [[ ! -f $(slurm_dir)/slurm.conf ]]; then die "no Slurm in cluster '$prefix' (start it with --slurm)"; fi
    print_env
    ;;
  *) usage_error "unknown action '${1:-}'" ;;
esac
