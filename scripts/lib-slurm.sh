# SPDX-License-Identifier: BSD-3-Clause
# shellcheck shell=bash
# Sourced by scripts/local-slurm.sh and scripts/emulated-cluster.sh: what
# their Slurms share. Both authenticate through this machine's one munged
# (its socket is a file, so processes in any network namespace reach it).

# Starts munged unless a credential already round-trips; creates the key once.
start_munge() {
  if munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then return; fi
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  if [[ ! -s /etc/munge/munge.key ]]; then
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
  fi
  chown munge:munge /etc/munge/munge.key
  chmod 400 /etc/munge/munge.key
  runuser -u munge -- munged
  for _ in $(seq 50); do
    munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && return
    sleep 0.1
  done
  echo "munged did not start; see /var/log/munge/munged.log" >&2
  return 1
}

# The slurm.conf settings both Slurms use: root everywhere, munge, no
# accounting or cgroups. Finished jobs stay visible to scontrol for 10 minutes
# (there is no accounting database for sacct).
slurm_conf_common() {
  cat <<'CONF'
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
MinJobAge=600
KillWait=10
CONF
}
