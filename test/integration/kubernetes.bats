#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# deploy/kubernetes/ (issue 12) without a cluster: the YAML parses, the
# objects have the kinds and names docs/kubernetes.md describes, and the
# RuntimeClass handlers are exactly what `entitle configure containerd`
# writes for the profiles of the ConfigMap's admin config, which entitle
# itself loads; each class selects the node label the installer sets;
# the installer and uninstaller DaemonSets run install.sh as the image has
# it.  The CRI path the handlers take is cri.bats', install.sh for real
# k8s-install.bats'.

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

@test "kubernetes: RuntimeClasses, ConfigMap, installer and uninstaller agree with each other and with what entitle configure writes" {
  "$PYTHON" "$CHECK" "$DEPLOY" config >"$BATS_TEST_TMPDIR/entitle.json"
  mapfile -t profiles < <("$PYTHON" "$CHECK" "$DEPLOY" profiles)
  [ "${#profiles[@]}" -gt 0 ]
  mkdir "$BATS_TEST_TMPDIR/bin"
  ln -s "$(realpath "$ENTITLE")" "$BATS_TEST_TMPDIR/bin/entitle"
  # What the installer runs, for the ConfigMap's profiles.
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

@test "kubernetes: the installer the image runs is deploy/kubernetes/install.sh, valid sh" {
  sh -n "$DEPLOY/install.sh"
  [ -x "$DEPLOY/install.sh" ]
  if command -v shellcheck >/dev/null; then
    shellcheck "$DEPLOY/install.sh"
  fi
  # The profiles are named in the ConfigMap (and their RuntimeClasses)
  # only: not in what runs on the nodes.
  for p in $("$PYTHON" "$CHECK" "$DEPLOY" profiles); do
    run grep -nw -- "$p" "$DEPLOY/daemonset.yaml" "$DEPLOY/uninstall/daemonset.yaml" "$DEPLOY/install.sh" \
      "$DEPLOY/Containerfile"
    [ "$status" -eq 1 ]
  done
}

@test "kubernetes: the check refuses the mistakes users hit" {
  local d="$BATS_TEST_TMPDIR/deploy" toml="$BATS_TEST_TMPDIR/entitle.toml"
  cp -r "$DEPLOY" "$d"
  printf '%s\n' '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.entitle]' \
    '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.entitle-confined]' \
    '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.entitle-web]' >"$toml"
  run "$PYTHON" "$CHECK" "$d" check "$toml"
  [ "$status" -eq 0 ]
  # A profile dropped from the ConfigMap leaves a RuntimeClass without a
  # handler; a class without the label lands on nodes without entitle;
  # system-node-critical outside kube-system; a subPath that is never
  # updated; an image-label webhook that lets pods through when it is
  # down, or whose Service reaches nothing.
  sed -i '/"web":/d; s/"security.confined"\],$/"security.confined"]/' "$d/configmap.yaml"
  sed -i '0,/entitle.io\/ready: "true"/s//entitle.io\/installed: "true"/' "$d/runtimeclasses.yaml"
  sed -i 's/priorityClassName: entitle-node-critical/priorityClassName: system-node-critical/' "$d/daemonset.yaml"
  sed -i 's|mountPath: /config$|mountPath: /config/entitle.json\n              subPath: entitle.json|' "$d/daemonset.yaml"
  sed -i 's/failurePolicy: Fail/failurePolicy: Ignore/; s|command: \["/usr/local/bin/|command: ["/usr/bin/|' \
    "$d/image-labels/webhook.yaml"
  run "$PYTHON" "$CHECK" "$d" check "$toml"
  [ "$status" -eq 1 ]
  [[ "$output" == *"RuntimeClass handlers ['entitle', 'entitle-confined', 'entitle-web'], admin config profiles make ['entitle', 'entitle-confined']"* ]]
  [[ "$output" == *"RuntimeClass entitle does not select the label entitle.io/ready=true that install.sh sets"* ]]
  [[ "$output" == *"entitle-installer: priority class system-node-critical is not one of deploy/kubernetes/"* ]]
  [[ "$output" == *"entitle-installer: volume config is not the whole entitle config map (a subPath is never updated)"* ]]
  [[ "$output" == *"webhook image-labels.entitle.io does not fail closed (failurePolicy Fail)"* ]]
  [[ "$output" == *"webhook image-labels.entitle.io: its Service entitle-system/entitle-image-labels reaches no Deployment running /usr/local/bin/entitle-image-labels"* ]]
}
