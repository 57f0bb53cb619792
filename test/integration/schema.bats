#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Schema (test/README.md): what entitle writes is a valid OCI config.  Every
# test's teardown (common_teardown) validates each config.json it left that
# entitle rewrote; this file checks the validator itself and covers every
# entitlement of the catalogue, one by one, through `entitle compile`.

load helpers

setup() {
  common_setup
  require_oci_validator
}

@test "schema: the validator accepts runc's own config and refuses a broken one" {
  make_bundle "$BUNDLE"
  validate_oci_config "$BUNDLE/config.json"
  edit_config "$BUNDLE" '.process.capabilities.bounding = "CAP_KILL" | .ociVersion = 1'
  run validate_oci_config "$BUNDLE/config.json"
  [ "$status" -eq 1 ]
  [[ "$output" == *ociVersion* ]]
  [[ "$output" == *bounding* ]]
}

@test "schema: the rewrite of each entitlement validates" {
  write_entitle_config '{"grant": ["*", "network.host", "security.insecure"]}'
  make_bundle "$BUNDLE"
  mkdir "$BATS_TEST_TMPDIR/out"
  n=0
  for list in network.none network.user network.host network.admin network.proxy \
    network.egress=10.0.0.0/8:443,network.egress=fd00::/8,network.bind=80-90,network.bind-map=80:8080 \
    security.confined security.view security.admin security.insecure security.memory-lock \
    host.devices.none host.devices.admin host.processes.none host.processes.admin host.modules.admin \
    network.user,security.confined,host.processes.none; do
    set_entitlements "$BUNDLE" "$list"
    ent compile -b "$BUNDLE" >"$BATS_TEST_TMPDIR/out/$((++n)).json"
    jq -e '.annotations["io.entitle.applied"] != null' "$BATS_TEST_TMPDIR/out/$n.json" >/dev/null
  done
  validate_oci_config "$BATS_TEST_TMPDIR"/out/*.json
}
