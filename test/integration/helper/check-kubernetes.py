#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The checks of deploy/kubernetes/ (test/integration/kubernetes.bats), with
# Debian's python3-yaml; no cluster, no network.
#
#   check-kubernetes.py DIR config     the ConfigMap's entitle.json
#   check-kubernetes.py DIR profiles   the installer's --profile values
#   check-kubernetes.py DIR script     the installer's shell script
#   check-kubernetes.py DIR check TOML every object's kind and name, and
#        that the RuntimeClass handlers are exactly the runtimes the
#        containerd config TOML (what `entitle configure containerd`
#        wrote for those profiles) has, entitle and entitle-PROFILE for
#        each profile of the ConfigMap; that the admission policy's
#        binding (admission-policy.yaml) names it and refuses (what the
#        policy decides is test/integration/admission.bats')
#
# A failed check prints one line per problem and exits 1.

import glob
import json
import os
import sys
import tomllib

import yaml

NAMESPACE = "entitle-system"
API = {"Namespace": "v1", "ConfigMap": "v1", "RuntimeClass": "node.k8s.io/v1", "DaemonSet": "apps/v1",
       "ValidatingAdmissionPolicy": "admissionregistration.k8s.io/v1",
       "ValidatingAdmissionPolicyBinding": "admissionregistration.k8s.io/v1"}


def load(directory):
    docs = []
    for path in sorted(glob.glob(os.path.join(directory, "*.yaml"))):
        with open(path) as f:
            docs += [(os.path.basename(path), d) for d in yaml.safe_load_all(f) if d is not None]
    return docs


def one(docs, kind):
    found = [d for _, d in docs if d.get("kind") == kind]
    if len(found) != 1:
        sys.exit("check-kubernetes.py: %d objects of kind %s, expected one" % (len(found), kind))
    return found[0]


def admin_config(docs):
    return json.loads(one(docs, "ConfigMap")["data"]["entitle.json"])


def installer(docs):
    return one(docs, "DaemonSet")["spec"]["template"]["spec"]["initContainers"][0]


def profiles(docs):
    words = installer(docs)["args"][0].split()
    return [words[i + 1] for i, w in enumerate(words) if w == "--profile"]


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
        namespaced = kind in ("ConfigMap", "DaemonSet")
        if namespaced and meta.get("namespace") != NAMESPACE:
            problems.append("%s: %s %s is not in %s" % (name, kind, meta.get("name"), NAMESPACE))
    if one(docs, "Namespace")["metadata"]["name"] != NAMESPACE:
        problems.append("the Namespace is not %s" % NAMESPACE)


def check_runtimeclasses(docs, toml_path, problems):
    cfg = admin_config(docs)
    classes = [d for _, d in docs if d.get("kind") == "RuntimeClass"]
    handlers = {d["handler"] for d in classes}
    want = {"entitle"} | {"entitle-" + p for p in cfg.get("profiles", {})}
    for d in classes:
        if d["metadata"]["name"] != d["handler"]:
            problems.append("RuntimeClass %s has handler %s" % (d["metadata"]["name"], d["handler"]))
        if "scheduling" in d:
            problems.append("RuntimeClass %s sets scheduling, which is the admin's" % d["metadata"]["name"])
    if handlers != want:
        problems.append("RuntimeClass handlers %s, admin config profiles make %s" % (sorted(handlers), sorted(want)))
    if set(profiles(docs)) != set(cfg.get("profiles", {})):
        problems.append("the installer registers profiles %s, the admin config has %s"
                        % (sorted(profiles(docs)), sorted(cfg.get("profiles", {}))))
    with open(toml_path, "rb") as f:
        written = tomllib.load(f)
    # entitle's handlers; the drop-in keeps containerd's runc beside them.
    runtimes = {r for r in written["plugins"]["io.containerd.grpc.v1.cri"]["containerd"]["runtimes"]
                if r.startswith("entitle")}
    if runtimes != handlers:
        problems.append("entitle configure wrote handlers %s, the RuntimeClasses name %s"
                        % (sorted(runtimes), sorted(handlers)))


def check_admission(docs, problems):
    policy = one(docs, "ValidatingAdmissionPolicy")
    binding = one(docs, "ValidatingAdmissionPolicyBinding")
    if binding["spec"].get("policyName") != policy["metadata"]["name"]:
        problems.append("the ValidatingAdmissionPolicyBinding binds %s, not the policy %s"
                        % (binding["spec"].get("policyName"), policy["metadata"]["name"]))
    if "Deny" not in binding["spec"].get("validationActions", []):
        problems.append("the ValidatingAdmissionPolicyBinding does not deny")


def check_installer(docs, problems):
    ds = one(docs, "DaemonSet")
    spec = ds["spec"]["template"]["spec"]
    if ds["spec"]["selector"]["matchLabels"].items() - ds["spec"]["template"]["metadata"]["labels"].items():
        problems.append("the DaemonSet's selector does not match its pods")
    volumes = {v["name"]: v for v in spec["volumes"]}
    for m in installer(docs)["volumeMounts"]:
        v = volumes.get(m["name"])
        if v is None:
            problems.append("mount %s names no volume" % m["name"])
        elif "hostPath" in v and v["hostPath"]["path"] != m["mountPath"]:
            problems.append("host path %s is mounted at %s: configure would write the pod's paths"
                            % (v["hostPath"]["path"], m["mountPath"]))
        elif "configMap" in v and v["configMap"]["name"] != one(docs, "ConfigMap")["metadata"]["name"]:
            problems.append("volume %s is not the entitle config map" % m["name"])
    if "entitle configure containerd" not in installer(docs)["args"][0]:
        problems.append("the installer does not run entitle configure containerd")


def main():
    directory, what = sys.argv[1], sys.argv[2]
    docs = load(directory)
    if what == "config":
        print(json.dumps(admin_config(docs)))
    elif what == "profiles":
        print("\n".join(profiles(docs)))
    elif what == "script":
        print(installer(docs)["args"][0])
    elif what == "check":
        problems = []
        check_objects(docs, problems)
        check_runtimeclasses(docs, sys.argv[3], problems)
        check_installer(docs, problems)
        check_admission(docs, problems)
        for p in problems:
            print(p)
        return 1 if problems else 0
    else:
        sys.exit("check-kubernetes.py: unknown request " + what)
    return 0


if __name__ == "__main__":
    sys.exit(main())
