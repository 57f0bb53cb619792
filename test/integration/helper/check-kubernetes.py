#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The checks of deploy/kubernetes/ (test/integration/kubernetes.bats), with
# Debian's python3-yaml; no cluster, no network.
#
#   check-kubernetes.py DIR config     the ConfigMap's entitle.json
#   check-kubernetes.py DIR profiles   its profiles, one a line
#   check-kubernetes.py DIR check TOML every object's kind, API version,
#        name and namespace (DIR/*.yaml and DIR/uninstall/*.yaml); that the
#        RuntimeClass handlers are exactly the runtimes of the containerd
#        config fragment TOML (what `entitle configure containerd` wrote
#        for the ConfigMap's profiles), each class selecting the label
#        install.sh sets; that the profiles are declared in the ConfigMap
#        only; that the installer and the uninstaller run install.sh as
#        the image has it, with their node's name, an account that may
#        label it and a priority class valid outside kube-system; that
#        the admission policy's binding (admission-policy.yaml) names it
#        and refuses (what the policy decides is admission.bats'); that the
#        image-label webhook (image-labels/webhook.yaml) fails closed and
#        its Service reaches the Deployment that runs it
#
# A failed check prints one line per problem and exits 1.

import glob
import json
import os
import re
import sys
import tomllib

import yaml

NAMESPACE = "entitle-system"
API = {
    "Namespace": "v1", "ConfigMap": "v1", "ServiceAccount": "v1", "RuntimeClass": "node.k8s.io/v1",
    "DaemonSet": "apps/v1", "PriorityClass": "scheduling.k8s.io/v1",
    "ClusterRole": "rbac.authorization.k8s.io/v1", "ClusterRoleBinding": "rbac.authorization.k8s.io/v1",
    "ValidatingAdmissionPolicy": "admissionregistration.k8s.io/v1",
    "ValidatingAdmissionPolicyBinding": "admissionregistration.k8s.io/v1",
    "MutatingWebhookConfiguration": "admissionregistration.k8s.io/v1", "Deployment": "apps/v1", "Service": "v1",
}
NAMESPACED = ("ConfigMap", "DaemonSet", "ServiceAccount", "Deployment", "Service")
INSTALL = "/usr/local/bin/entitle-install"
WEBHOOK = "/usr/local/bin/entitle-image-labels"
COMMANDS = {"entitle-installer": [INSTALL, "install", "--watch"], "entitle-uninstaller": [INSTALL, "uninstall"]}


def load(directory):
    docs = []
    for path in sorted(glob.glob(os.path.join(directory, "*.yaml")) + glob.glob(os.path.join(directory, "*", "*.yaml"))):
        with open(path) as f:
            name = os.path.relpath(path, directory)
            docs += [(name, d) for d in yaml.safe_load_all(f) if d is not None]
    return docs


def of_kind(docs, kind):
    return [d for _, d in docs if d.get("kind") == kind]


def named(docs, kind, name):
    found = [d for d in of_kind(docs, kind) if d["metadata"]["name"] == name]
    if len(found) != 1:
        sys.exit("check-kubernetes.py: %d objects %s %s, expected one" % (len(found), kind, name))
    return found[0]


def admin_config(docs):
    return json.loads(named(docs, "ConfigMap", "entitle-config")["data"]["entitle.json"])


def install_label(directory):
    try:
        with open(os.path.join(directory, "install.sh")) as f:
            m = re.search(r"^LABEL=(\S+)$", f.read(), re.M)
    except FileNotFoundError:
        return None
    return m.group(1) if m else None


def check_objects(docs, problems):
    for name, d in docs:
        kind, meta = d.get("kind"), d.get("metadata", {})
        if kind not in API:
            problems.append("%s: unexpected kind %s" % (name, kind))
            continue
        if d.get("apiVersion") != API[kind]:
            problems.append("%s: %s has apiVersion %s, not %s" % (name, kind, d.get("apiVersion"), API[kind]))
        if not meta.get("name"):
            problems.append("%s: %s without a name" % (name, kind))
        if kind in NAMESPACED and meta.get("namespace") != NAMESPACE:
            problems.append("%s: %s %s is not in %s" % (name, kind, meta.get("name"), NAMESPACE))
    if [d["metadata"]["name"] for d in of_kind(docs, "Namespace")] != [NAMESPACE]:
        problems.append("the Namespace is not %s alone" % NAMESPACE)


def check_runtimeclasses(docs, directory, toml_path, problems):
    cfg = admin_config(docs)
    classes = of_kind(docs, "RuntimeClass")
    handlers = {d["handler"] for d in classes}
    want = {"entitle"} | {"entitle-" + p for p in cfg.get("profiles", {})}
    label = install_label(directory)
    for d in classes:
        if d["metadata"]["name"] != d["handler"]:
            problems.append("RuntimeClass %s has handler %s" % (d["metadata"]["name"], d["handler"]))
        if d.get("scheduling", {}).get("nodeSelector") != {label: "true"}:
            problems.append("RuntimeClass %s does not select the label %s=true that install.sh sets"
                            % (d["metadata"]["name"], label))
    if handlers != want:
        problems.append("RuntimeClass handlers %s, admin config profiles make %s" % (sorted(handlers), sorted(want)))
    with open(toml_path, "rb") as f:
        written = tomllib.load(f)
    # The drop-in may carry the main config's other runtimes too (a copy
    # of its CRI tables, which containerd 1.x replaces whole).
    runtimes = {r for r in written["plugins"]["io.containerd.grpc.v1.cri"]["containerd"]["runtimes"]
                if r == "entitle" or r.startswith("entitle-")}
    if runtimes != handlers:
        problems.append("entitle configure wrote handlers %s, the RuntimeClasses name %s"
                        % (sorted(runtimes), sorted(handlers)))


def check_pod(docs, ds, problems):
    name, spec = ds["metadata"]["name"], ds["spec"]["template"]["spec"]
    if ds["spec"]["selector"]["matchLabels"].items() - ds["spec"]["template"]["metadata"]["labels"].items():
        problems.append("%s: the selector does not match its pods" % name)
    runs = [c for c in spec.get("initContainers", []) + spec["containers"] if c.get("command") == COMMANDS[name]]
    if len(runs) != 1:
        problems.append("%s: no container runs %s" % (name, " ".join(COMMANDS[name])))
        return
    c = runs[0]
    env = {e["name"]: e for e in c.get("env", [])}
    if env.get("NODE_NAME", {}).get("valueFrom", {}).get("fieldRef", {}).get("fieldPath") != "spec.nodeName":
        problems.append("%s: NODE_NAME is not the node's name (downward API spec.nodeName)" % name)
    if any("--profile" in " ".join(x.get("command", []) + x.get("args", []))
           for x in spec.get("initContainers", []) + spec["containers"]):
        problems.append("%s: names profiles, which the ConfigMap declares" % name)
    pc = spec.get("priorityClassName", "")
    if pc.startswith("system-") or pc not in [d["metadata"]["name"] for d in of_kind(docs, "PriorityClass")]:
        problems.append("%s: priority class %s is not one of deploy/kubernetes/ (system ones are for kube-system)"
                        % (name, pc))
    check_account(docs, name, spec.get("serviceAccountName"), problems)
    volumes = {v["name"]: v for v in spec["volumes"]}
    for m in c["volumeMounts"]:
        v = volumes.get(m["name"])
        if v is None:
            problems.append("%s: mount %s names no volume" % (name, m["name"]))
        elif "hostPath" in v and v["hostPath"]["path"] != m["mountPath"]:
            problems.append("%s: host path %s is mounted at %s: configure would write the pod's paths"
                            % (name, v["hostPath"]["path"], m["mountPath"]))
        elif "configMap" in v and (v["configMap"]["name"] != "entitle-config" or "subPath" in m):
            problems.append("%s: volume %s is not the whole entitle config map (a subPath is never updated)"
                            % (name, m["name"]))


def check_admission(docs, problems):
    policies, bindings = of_kind(docs, "ValidatingAdmissionPolicy"), of_kind(docs, "ValidatingAdmissionPolicyBinding")
    if len(policies) != 1 or len(bindings) != 1:
        problems.append("%d ValidatingAdmissionPolicies and %d bindings, expected one each"
                        % (len(policies), len(bindings)))
        return
    policy, binding = policies[0], bindings[0]
    if binding["spec"].get("policyName") != policy["metadata"]["name"]:
        problems.append("the ValidatingAdmissionPolicyBinding binds %s, not the policy %s"
                        % (binding["spec"].get("policyName"), policy["metadata"]["name"]))
    if "Deny" not in binding["spec"].get("validationActions", []):
        problems.append("the ValidatingAdmissionPolicyBinding does not deny")


def check_webhook(docs, problems):
    for w in [w for d in of_kind(docs, "MutatingWebhookConfiguration") for w in d["webhooks"]]:
        if w.get("failurePolicy") != "Fail":
            problems.append("webhook %s does not fail closed (failurePolicy Fail)" % w["name"])
        ref = w["clientConfig"]["service"]
        services = [d for d in of_kind(docs, "Service") if d["metadata"]["name"] == ref["name"]
                    and d["metadata"].get("namespace") == ref["namespace"]]
        pods = [d["spec"]["template"] for d in of_kind(docs, "Deployment")
                if services and services[0]["spec"]["selector"].items() <= d["spec"]["template"]["metadata"]["labels"].items()]
        if len(pods) != 1 or not any(c.get("command") == [WEBHOOK] for c in pods[0]["spec"]["containers"]):
            problems.append("webhook %s: its Service %s/%s reaches no Deployment running %s"
                            % (w["name"], ref["namespace"], ref["name"], WEBHOOK))


def check_account(docs, name, account, problems):
    if account not in [d["metadata"]["name"] for d in of_kind(docs, "ServiceAccount")]:
        problems.append("%s: service account %s is not one of deploy/kubernetes/" % (name, account))
        return
    for b in of_kind(docs, "ClusterRoleBinding"):
        if {"kind": "ServiceAccount", "name": account, "namespace": NAMESPACE} in b["subjects"]:
            role = named(docs, "ClusterRole", b["roleRef"]["name"])
            if any("nodes" in r["resources"] and {"get", "patch"} <= set(r["verbs"]) for r in role["rules"]):
                return
    problems.append("%s: service account %s may not label nodes (get, patch)" % (name, account))


def check_image(directory, problems):
    with open(os.path.join(directory, "Containerfile")) as f:
        if not re.search(r"^COPY deploy/kubernetes/install\.sh %s$" % re.escape(INSTALL), f.read(), re.M):
            problems.append("the Containerfile does not copy install.sh to %s" % INSTALL)


def main():
    directory, what = sys.argv[1], sys.argv[2]
    docs = load(directory)
    if what == "config":
        print(json.dumps(admin_config(docs)))
    elif what == "profiles":
        print("\n".join(admin_config(docs).get("profiles", {})))
    elif what == "check":
        problems = []
        check_objects(docs, problems)
        check_runtimeclasses(docs, directory, sys.argv[3], problems)
        for name in COMMANDS:
            ds = [d for d in of_kind(docs, "DaemonSet") if d["metadata"]["name"] == name]
            if len(ds) == 1:
                check_pod(docs, ds[0], problems)
            else:
                problems.append("%d DaemonSets %s, expected one" % (len(ds), name))
        check_image(directory, problems)
        check_admission(docs, problems)
        check_webhook(docs, problems)
        for p in problems:
            print(p)
        return 1 if problems else 0
    else:
        sys.exit("check-kubernetes.py: unknown request " + what)
    return 0


if __name__ == "__main__":
    sys.exit(main())
