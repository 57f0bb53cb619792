#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the dependencies, build, and run one busybox container under
# entitle twice: without entitlements, then with network.none.
set -eu
cd "$(dirname "$0")/.."
[ -n "${ENTITLE_NO_DEPS:-}" ] || scripts/deps.sh
scripts/build.sh
[ "$(id -u)" = 0 ] || { echo "the demo runs containers: run it as root" >&2; exit 1; }

work=$(mktemp -d)
trap 'for c in demo-plain demo-none; do runc --root "$work/state" delete -f $c 2>/dev/null || true; done; rm -rf "$work"' EXIT
mkdir -p "$work/rootfs/bin" "$work/bundle"
cp /bin/busybox "$work/rootfs/bin/"
for a in sh nc cat grep echo; do ln -s busybox "$work/rootfs/bin/$a"; done
cd "$work/bundle"
runc spec
probe='grep CapEff /proc/self/status; nc -w 1 127.0.0.1 9 </dev/null 2>&1; echo "nc exit status: $?"'
jq --arg root "$work/rootfs" --arg probe "$probe" \
	'.root.path = $root | .process.terminal = false | .process.args = ["sh", "-c", $probe]' \
	config.json >config.tmp && mv config.tmp config.json
export ENTITLE_CONFIG= # set and empty: no admin config, whatever the host has
entitle="$OLDPWD/shim/entitle"

echo "== without entitlements (entitle is transparent):"
"$entitle" --root "$work/state" run demo-plain
echo
echo "== with io.entitle.entitlements=network.none,security.confined:"
jq '.annotations["io.entitle.entitlements"] = "network.none,security.confined"' config.json >config.tmp && mv config.tmp config.json
"$entitle" compile --diff | grep -E '^[-+].*(CAP_NET|noNewPrivileges|"network"|/proc/sys/net)' | head -8
"$entitle" --root "$work/state" run demo-none
