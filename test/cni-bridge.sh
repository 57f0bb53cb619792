#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cni-bridge.sh DIR NAME BRIDGE SUBNET [DATADIR]: write DIR/10-NAME.conflist,
# a CNI network NAME on the bridge BRIDGE: no address on the bridge, no
# gateway, no masquerading, addresses from the private SUBNET (the
# containers reach nothing but each other), host-local's leases in
# DATADIR (default: its own, /var/lib/cni/networks).  The caller removes
# BRIDGE (ip link del) when it is done.  Used by record.sh and cri.bats.
set -euo pipefail

dir=$1 name=$2 bridge=$3 subnet=$4 data=${5:-}
mkdir -p "$dir"
jq -n --arg name "$name" --arg bridge "$bridge" --arg subnet "$subnet" --arg data "$data" '{
  cniVersion: "0.4.0", name: $name,
  plugins: [{type: "bridge", bridge: $bridge, isGateway: false, ipMasq: false,
    hairpinMode: false, ipam: ({type: "host-local", ranges: [[{subnet: $subnet}]]}
      + (if $data == "" then {} else {dataDir: $data} end))}]}' \
  >"$dir/10-$name.conflist"
