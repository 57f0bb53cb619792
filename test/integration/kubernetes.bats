#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# deploy/kubernetes/ (issue 12) without a cluster: the YAML parses, the
# objects have the kinds and names docs/kubernetes.md describes, and the
# RuntimeClass handlers are exactly what `entitle configure containerd`
# writes for the profiles of the ConfigMap's admin config, which entitle
# itself loads.  The CRI path the handlers take is cri.bats'.

load helpers

PYTHON=/usr/bin/python3 # Debian's, with python3-yaml
CHECK="${BATS_TEST_DIRNAME}/helper/check-kubernetes.py"

setup() {
  common_setup
  if ! "$PYTHON" -c 'import yaml, tomllib' 2>/dev/null; then
    skip "needs python3 (3.11, tomllib) and python3-yaml"
  fi
  DEPLOY="$ENTITLE_SRCDIR/deploy/kubernetes"
}

@test "kubernetes: RuntimeClasses, ConfigMap and installer agree with each other and with what entitle configure writes" {
  "$PYTHON" "$CHECK" "$DEPLOY" config >"$BATS_TEST_TMPDIR/entitle.json"
  mapfile -t profiles < <("$PYTHON" "$CHECK" "$DEPLOY" profiles)
  [ "${#profiles[@]}" -gt 0 ]
  mkdir "$BATS_TEST_TMPDIR/bin"
  ln -s "$(realpath "$ENTITLE")" "$BATS_TEST_TMPDIR/bin/entitle"
  run --separate-stderr env ENTITLE_CONFIG="$BATS_TEST_TMPDIR/entitle.json" "$ENTITLE" configure containerd \
    --config "$BATS_TEST_TMPDIR/config.toml" --drop-in "$BATS_TEST_TMPDIR/conf.d/entitle.toml" \
    --binary "$BATS_TEST_TMPDIR/bin/entitle" $(printf -- '--profile %s ' "${profiles[@]}")
  [ "$status" -eq 0 ]
  run "$PYTHON" "$CHECK" "$DEPLOY" check "$BATS_TEST_TMPDIR/conf.d/entitle.toml"
  if [ "$status" -ne 0 ]; then
    echo "$output" >&2
    false
  fi
}

@test "kubernetes: the installer's script is valid sh" {
  "$PYTHON" "$CHECK" "$DEPLOY" script >"$BATS_TEST_TMPDIR/install.sh"
  grep -q "entitle configure containerd" "$BATS_TEST_TMPDIR/install.sh"
  sh -n "$BATS_TEST_TMPDIR/install.sh"
}
