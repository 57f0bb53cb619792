#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install what entitle needs to build and to test, from Debian 12's packages.
# libelf-dev: bpf/elf-prog.c reads BPF objects for gen-insns and custom Checmate programs (libbpf needs it too);
# libclang-rt-dev: libFuzzer and clang's sanitizer runtimes (make fuzz);
# gcc's libasan and libubsan come with build-essential (--enable-sanitizers);
# valgrind: make valgrind; groff-base: the man page check (cli.bats); the
# engines make check runs for real (test/integration/cri.bats, docker.bats,
# podman.bats, configure.bats) and record.sh records: docker.io (dockerd
# 20.10 and its client), podman (with conmon), containernetworking-plugins
# (the CNI bridge of the CRI pods), protobuf-compiler, python3-grpcio and
# python3-protobuf (the CRI client); python3-yaml: the check of
# deploy/kubernetes/; qemu-system-x86, kmod and cpio: make check-kernels
# (test/kernels/: Debian's kernels booted under QEMU, never installed);
# nodejs, node-js-yaml and npm: the admission policy's CEL test
# (test/integration/admission.bats), whose evaluator npm ci installs from
# test/kubernetes/cel/package-lock.json.
set -eu
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends \
	build-essential autoconf automake pkg-config ca-certificates \
	libseccomp-dev libbpf-dev libelf-dev libyajl-dev libcap-dev libselinux1-dev libcmocka-dev \
	clang llvm bpftool clang-format \
	runc crun containerd busybox-static bats jq diffutils iproute2 util-linux groff-base \
	nodejs node-ajv node-js-yaml golang-github-opencontainers-specs-dev tcpdump \
	libclang-rt-dev valgrind protobuf-compiler \
	docker.io podman containernetworking-plugins python3-grpcio python3-protobuf python3-yaml \
	qemu-system-x86 kmod cpio docker-registry skopeo openssl curl musl-tools
# A node that brings its own npm (NodeSource's nodejs conflicts with
# Debian's npm) keeps it.
command -v npm >/dev/null || $SUDO apt-get install -y -q --no-install-recommends npm
# The pinned packages, again only when the lock file is newer than what
# npm ci last installed.
cel="$(dirname "$0")/../test/kubernetes/cel"
if [ ! "$cel/node_modules/.package-lock.json" -nt "$cel/package-lock.json" ]; then
	(cd "$cel" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
fi
