#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# policy-of.sh CGROUP_ID: the policy entitle's programs keep for the cgroup
# whose id (kernfs inode) is CGROUP_ID, as bpftool formats it (JSON, one
# line), from the pinned cgroup storage entitle_policy in $ENTITLE_BPF_PINS
# (default /sys/fs/bpf/entitle);
# exit 1 when the cgroup has none.  A lookup by key, never a dump: the
# kernel ends a dump of cgroup storage early when the key it gave last is
# freed meanwhile (any cgroup removed on the host), so a dump can miss live
# entries and a test that counts on it could not fail.  Needs bpftool, jq.
set -eu
id=$1
key=
for shift_by in 0 8 16 24 32 40 48 56; do
  key="$key $(((id >> shift_by) & 255))"
done
# shellcheck disable=SC2086 # the eight key bytes
out=$(bpftool -j map lookup pinned "${ENTITLE_BPF_PINS:-/sys/fs/bpf/entitle}/entitle_policy" key $key 2>/dev/null) || exit 1
printf '%s\n' "$out" | jq -e -c '.formatted.value'
