#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# deploy/kubernetes/admission-policy.yaml without a cluster: its CEL
# (matchConditions, variables, validations, messages) evaluated by a CEL
# evaluator (@bufbuild/cel, pinned in test/kubernetes/cel/package-lock.json)
# against Kubernetes objects as the API server holds them
# (test/kubernetes/cel/samples/): a request for entitle on a handler that
# ignores it is refused with one line that names it and the fix; anything
# else passes.  No API server runs here: its type check, cost limits and
# matching beyond resourceRules are not exercised (docs/kubernetes.md).

load helpers

setup() {
  SRC=${ENTITLE_SRCDIR:-$BATS_TEST_DIRNAME/../..}
  CEL="$SRC/test/kubernetes/cel"
  SAMPLES="$CEL/samples"
  POLICY="$SRC/deploy/kubernetes/admission-policy.yaml"
  if ! command -v node >/dev/null; then
    skip "needs node (Debian package nodejs)"
  fi
  if ! oci_node -e 'require("js-yaml")' 2>/dev/null; then
    skip "needs Debian's node-js-yaml"
  fi
  if ! (cd "$CEL" && node -e 'require("@bufbuild/cel")') 2>/dev/null; then
    skip "needs the npm packages of test/kubernetes/cel (npm ci there; scripts/deps.sh runs it)"
  fi
}

teardown() {
  :
}

# admit OBJECT [OLD]: what the policy says of OBJECT, created or updated
# from OLD; the runner's one line (or lines) in $output.
admit() {
  run --separate-stderr oci_node "$CEL/eval-policy.js" "$POLICY" "$@"
  if [ -n "$stderr" ]; then
    echo "$stderr" >&2
  fi
}

# variant SAMPLE JQ: SAMPLE changed by the jq program JQ, as a file.
variant() {
  local out
  out=$(mktemp "$BATS_TEST_TMPDIR/object-XXXXXX.json")
  jq "$2" "$SAMPLES/$1" >"$out"
  echo "$out"
}

assert_allowed() {
  [ "$status" -eq 0 ]
  [ "$output" = allowed ]
}

assert_refused() {
  [ "$status" -eq 1 ]
  [ "${#lines[@]}" -eq 1 ]
  [ "$output" = "refused: $1" ]
}

FIX_POD="set spec.runtimeClassName to entitle or entitle-PROFILE"
NO_CLASS="it has no runtimeClassName, and the default handler (runc) ignores it"

@test "admission: a pod annotated io.entitle.entitlements on the default handler is refused, naming the annotation and the fix" {
  admit "$SAMPLES/pod-annotated.json"
  assert_refused "pod annotation io.entitle.entitlements asks entitle for entitlements, but $NO_CLASS: $FIX_POD"
}

@test "admission: any io.entitle.* annotation is refused on the default handler" {
  admit "$(variant pod-annotated.json '.metadata.annotations = {"io.entitle.catalogue": "1", "app": "x"}')"
  assert_refused "pod annotation io.entitle.catalogue asks entitle for entitlements, but $NO_CLASS: $FIX_POD"
  # With several, the message names the request itself.
  admit "$(variant pod-annotated.json '.metadata.annotations += {"io.entitle.catalogue": "1", "io.entitle.custom": "x"}')"
  assert_refused "pod annotation io.entitle.entitlements asks entitle for entitlements, but $NO_CLASS: $FIX_POD"
  # An empty one asks too (it cancels the environment's request).
  admit "$(variant pod-annotated.json '.metadata.annotations["io.entitle.entitlements"] = ""')"
  [ "$status" -eq 1 ]
}

@test "admission: an annotated pod on another RuntimeClass is refused, naming it" {
  admit "$(variant pod-annotated.json '.spec.runtimeClassName = "gvisor"')"
  assert_refused "pod annotation io.entitle.entitlements asks entitle for entitlements, but it has RuntimeClass gvisor, which is not entitle's and ignores it: $FIX_POD"
  # A name that merely starts with entitle is not entitle's.
  admit "$(variant pod-annotated.json '.spec.runtimeClassName = "entitlement"')"
  assert_refused "pod annotation io.entitle.entitlements asks entitle for entitlements, but it has RuntimeClass entitlement, which is not entitle's and ignores it: $FIX_POD"
}

@test "admission: an annotated pod on each RuntimeClass of runtimeclasses.yaml is allowed" {
  mapfile -t classes < <(oci_node -e '
    const y = require("js-yaml"), fs = require("fs");
    for (const d of y.loadAll(fs.readFileSync(process.argv[1], "utf8")))
      if (d && d.kind === "RuntimeClass") console.log(d.metadata.name);' "$SRC/deploy/kubernetes/runtimeclasses.yaml")
  [ "${#classes[@]}" -ge 2 ]
  for class in "${classes[@]}"; do
    admit "$(variant pod-annotated.json ".spec.runtimeClassName = \"$class\"")"
    assert_allowed
  done
  admit "$(variant pod-annotated.json '.spec.runtimeClassName = "entitle-confined"')"
  assert_allowed
}

@test "admission: a pod without io.entitle.* annotations is allowed, whatever its other io.* annotations and RuntimeClass" {
  admit "$SAMPLES/pod-plain.json"
  assert_allowed
  admit "$SAMPLES/pod-other-annotations.json"
  assert_allowed
  admit "$(variant pod-other-annotations.json '.spec.runtimeClassName = "gvisor"')"
  assert_allowed
  admit "$(variant pod-plain.json '.spec.runtimeClassName = "entitle"')"
  assert_allowed
}

@test "admission: a container's ENTITLE_ENTITLEMENTS on the default handler is refused, naming the container" {
  admit "$SAMPLES/pod-env.json"
  assert_refused "pod container offline asks entitle for entitlements with ENTITLE_ENTITLEMENTS, but $NO_CLASS: $FIX_POD"
  admit "$(variant pod-env.json '.spec.initContainers[0].env = [{"name": "ENTITLE_ENTITLEMENTS", "value": ""}]')"
  assert_refused "pod container setup asks entitle for entitlements with ENTITLE_ENTITLEMENTS, but $NO_CLASS: $FIX_POD"
  admit "$(variant pod-env.json '.spec.runtimeClassName = "entitle-web"')"
  assert_allowed
  # Both kinds of request: one line each.
  admit "$(variant pod-env.json '.metadata.annotations = {"io.entitle.entitlements": "network.none"}')"
  [ "$status" -eq 1 ]
  [ "${#lines[@]}" -eq 2 ]
}

@test "admission: a workload's pod template is held to the same rule, naming the field to set" {
  admit "$SAMPLES/deployment-annotated.json"
  assert_refused "Deployment web: pod template annotation io.entitle.entitlements asks entitle for entitlements, but $NO_CLASS: set spec.template.spec.runtimeClassName to entitle or entitle-PROFILE"
  admit "$(variant deployment-annotated.json '.spec.template.spec.runtimeClassName = "entitle"')"
  assert_allowed
  for kind in StatefulSet DaemonSet ReplicaSet; do
    admit "$(variant deployment-annotated.json ".kind = \"$kind\"")"
    assert_refused "$kind web: pod template annotation io.entitle.entitlements asks entitle for entitlements, but $NO_CLASS: set spec.template.spec.runtimeClassName to entitle or entitle-PROFILE"
  done
  admit "$(variant deployment-annotated.json '.apiVersion = "v1" | .kind = "ReplicationController"')"
  [ "$status" -eq 1 ]
  admit "$SAMPLES/cronjob-annotated.json"
  assert_refused "CronJob report: pod template annotation io.entitle.entitlements asks entitle for entitlements, but $NO_CLASS: set spec.jobTemplate.spec.template.spec.runtimeClassName to entitle or entitle-PROFILE"
  admit "$(variant cronjob-annotated.json '.spec.jobTemplate.spec.template.spec.runtimeClassName = "entitle-confined"')"
  assert_allowed
  # A template without metadata, and a name still to be generated.
  admit "$SAMPLES/job-env.json"
  assert_refused "Job batch-: pod template container work asks entitle for entitlements with ENTITLE_ENTITLEMENTS, but $NO_CLASS: set spec.template.spec.runtimeClassName to entitle or entitle-PROFILE"
}

@test "admission: a workload's update is checked when its spec changes, not when a controller writes its metadata" {
  old="$SAMPLES/deployment-annotated.json"
  admit "$(variant deployment-annotated.json '.metadata.annotations = {"deployment.kubernetes.io/revision": "2"}')" "$old"
  [ "$status" -eq 0 ]
  [ "$output" = "allowed: not matched (entitle-runtimeclass: matchCondition new-or-spec-changed)" ]
  admit "$(variant deployment-annotated.json '.spec.replicas = 3')" "$old"
  [ "$status" -eq 1 ]
  admit "$(variant deployment-annotated.json '.spec.template.spec.runtimeClassName = "entitle"')" "$old"
  assert_allowed
}

@test "admission: what the policy does not match passes: a pod's update, other kinds" {
  admit "$(variant pod-annotated.json '.metadata.labels = {"a": "b"}')" "$SAMPLES/pod-annotated.json"
  [ "$status" -eq 0 ]
  [ "$output" = "allowed: not matched (entitle-runtimeclass: pods UPDATE not in matchConstraints)" ]
  admit "$SAMPLES/service-annotated.json"
  [ "$status" -eq 0 ]
  [ "$output" = "allowed: not matched (entitle-runtimeclass: services CREATE not in matchConstraints)" ]
}

@test "admission: a cluster's own RuntimeClass for entitle's handler is added in the policy's runtimeClassNames" {
  admit "$(variant pod-annotated.json '.spec.runtimeClassName = "sandboxed"')"
  [ "$status" -eq 1 ]
  grep -q "expression: \"\['entitle'\]\"" "$POLICY"
  sed "s/expression: \"\['entitle'\]\"/expression: \"['entitle', 'sandboxed']\"/" "$POLICY" >"$BATS_TEST_TMPDIR/policy.yaml"
  POLICY="$BATS_TEST_TMPDIR/policy.yaml"
  admit "$(variant pod-annotated.json '.spec.runtimeClassName = "sandboxed"')"
  assert_allowed
  admit "$(variant pod-annotated.json '.spec.runtimeClassName = "gvisor"')"
  [ "$status" -eq 1 ]
}
