#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A small CRI client (Kubernetes runtime.v1, the subset in api.proto) for
# record.sh and test/integration/cri.bats: it does what the kubelet does
# to run one container in a pod, and removes both afterwards.
#
#   cri.py --address SOCKET --proto-dir DIR version
#   cri.py --address SOCKET --proto-dir DIR run NAME [--host-network]
#          [--privileged] [--seccomp runtime-default|unconfined|localhost:PATH]
#          [--image IMAGE] [--cgroup-parent DIR] [--log-dir DIR]
#          [--runtime-handler HANDLER] [--annotation KEY=VALUE]...
#          [--container-name NAME] [--print-log] -- COMMAND...
#
# DIR holds api_pb2.py, generated from api.proto with `protoc --python_out`
# (Debian package protobuf-compiler); the transport is Debian's
# python3-grpcio.  `run` prints the sandbox and container ids and the
# container's exit code, then with --print-log (and --log-dir) what the
# container wrote, as the kubelet's `kubectl logs` shows it.
# --runtime-handler is the RuntimeClass's handler, --annotation a pod
# annotation, as the kubelet passes them; --container-name the container's
# name in the pod spec (default: the pod's NAME).  A call the runtime fails is one
# line on stderr, "cri.py: METHOD: CODE: DETAILS" (the gRPC status the
# kubelet gets), and exit status 1.

import argparse
import os
import sys
import time
import uuid

# What the kubelet (1.2x, pkg/securitycontext) sends for a container whose
# procMount is Default: the runtime masks these paths and makes these
# read-only (containerd leaves both out of privileged containers).
KUBELET_MASKED_PATHS = [
    "/proc/asound", "/proc/acpi", "/proc/kcore", "/proc/keys", "/proc/latency_stats",
    "/proc/timer_list", "/proc/timer_stats", "/proc/sched_debug", "/proc/scsi", "/sys/firmware",
]
KUBELET_READONLY_PATHS = ["/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys", "/proc/sysrq-trigger"]


def main():
    parser = argparse.ArgumentParser(prog="cri.py")
    parser.add_argument("--address", required=True, help="the CRI socket")
    parser.add_argument("--proto-dir", required=True, help="where api_pb2.py is")
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("version")
    run = sub.add_parser("run")
    run.add_argument("name")
    run.add_argument("--host-network", action="store_true")
    run.add_argument("--privileged", action="store_true")
    run.add_argument("--seccomp", help="runtime-default, unconfined or localhost:PATH")
    run.add_argument("--image", default="docker.io/library/entitle-busybox:latest")
    run.add_argument("--cgroup-parent", default="")
    run.add_argument("--log-dir", default="")
    run.add_argument("--runtime-handler", default="")
    run.add_argument("--annotation", action="append", default=[], help="KEY=VALUE")
    run.add_argument("--container-name", help="the container's name in the pod (default: NAME)")
    run.add_argument("--print-log", action="store_true")
    run.add_argument("command", nargs="+")
    args = parser.parse_args()

    sys.path.insert(0, args.proto_dir)
    import grpc
    import api_pb2 as api

    channel = grpc.insecure_channel("unix://" + args.address)
    rpc = Runtime(channel, api)
    try:
        if args.cmd == "version":
            v = rpc.call("Version", api.VersionRequest(version="v1"), api.VersionResponse)
            print(v.runtime_name, v.runtime_version, v.runtime_api_version)
            return 0
        return run_pod(rpc, api, args)
    except grpc.RpcError as e:
        print("cri.py: %s: %s: %s" % (rpc.last, e.code().name, e.details()), file=sys.stderr)
        return 1


class Runtime:
    """Unary calls of runtime.v1.RuntimeService, without generated stubs."""

    def __init__(self, channel, api):
        self.channel = channel
        self.api = api
        self.last = None

    def call(self, method, request, response_type):
        self.last = method
        fn = self.channel.unary_unary(
            "/runtime.v1.RuntimeService/" + method,
            request_serializer=lambda m: m.SerializeToString(),
            response_deserializer=response_type.FromString,
        )
        return fn(request, timeout=60)


def run_pod(rpc, api, args):
    uid = str(uuid.uuid4())
    pod_ns = api.NamespaceOption(
        network=api.NODE if args.host_network else api.POD,
        pid=api.CONTAINER,
        ipc=api.POD,
    )
    sandbox = api.PodSandboxConfig(
        metadata=api.PodSandboxMetadata(name=args.name, uid=uid, namespace="default"),
        hostname="" if args.host_network else args.name,
        log_directory=args.log_dir,
        labels={"io.kubernetes.pod.name": args.name, "io.kubernetes.pod.namespace": "default",
                "io.kubernetes.pod.uid": uid},
        annotations=dict(a.split("=", 1) for a in args.annotation),
        linux=api.LinuxPodSandboxConfig(
            cgroup_parent=args.cgroup_parent,
            security_context=api.LinuxSandboxSecurityContext(
                namespace_options=pod_ns, privileged=args.privileged
            ),
        ),
    )
    # As the kubelet: the pod's seccomp profile is the sandbox's too.
    set_seccomp(sandbox.linux.security_context, api, args.seccomp)

    pod = rpc.call("RunPodSandbox",
                   api.RunPodSandboxRequest(config=sandbox, runtime_handler=args.runtime_handler),
                   api.RunPodSandboxResponse).pod_sandbox_id
    print("sandbox", pod)
    try:
        security = api.LinuxContainerSecurityContext(
            privileged=args.privileged,
            namespace_options=pod_ns,
            masked_paths=KUBELET_MASKED_PATHS,
            readonly_paths=KUBELET_READONLY_PATHS,
        )
        set_seccomp(security, api, args.seccomp)
        name = args.container_name or args.name
        container = api.ContainerConfig(
            metadata=api.ContainerMetadata(name=name),
            image=api.ImageSpec(image=args.image),
            command=args.command,
            envs=[api.KeyValue(key="PATH", value="/bin")],
            labels={"io.kubernetes.container.name": name},
            log_path=name + ".log" if args.log_dir else "",
            linux=api.LinuxContainerConfig(security_context=security),
        )
        cid = rpc.call("CreateContainer",
                       api.CreateContainerRequest(pod_sandbox_id=pod, config=container,
                                                  sandbox_config=sandbox),
                       api.CreateContainerResponse).container_id
        print("container", cid)
        try:
            rpc.call("StartContainer", api.StartContainerRequest(container_id=cid),
                     api.StartContainerResponse)
            status = wait_exited(rpc, api, cid)
            print("exit", status.exit_code)
            if args.print_log and args.log_dir:
                print_log(os.path.join(args.log_dir, container.log_path))
        finally:
            rpc.call("StopContainer", api.StopContainerRequest(container_id=cid, timeout=0),
                     api.StopContainerResponse)
            rpc.call("RemoveContainer", api.RemoveContainerRequest(container_id=cid),
                     api.RemoveContainerResponse)
    finally:
        rpc.call("StopPodSandbox", api.StopPodSandboxRequest(pod_sandbox_id=pod),
                 api.StopPodSandboxResponse)
        rpc.call("RemovePodSandbox", api.RemovePodSandboxRequest(pod_sandbox_id=pod),
                 api.RemovePodSandboxResponse)
    return 0


def set_seccomp(context, api, profile):
    if profile == "runtime-default":
        # RuntimeDefault is 0, proto3's default: mark the field present.
        context.seccomp.SetInParent()
        context.seccomp.profile_type = api.SecurityProfile.RuntimeDefault
    elif profile == "unconfined":
        context.seccomp.profile_type = api.SecurityProfile.Unconfined
    elif profile and profile.startswith("localhost:"):
        context.seccomp.profile_type = api.SecurityProfile.Localhost
        context.seccomp.localhost_ref = profile[len("localhost:"):]
    elif profile:
        raise SystemExit("unknown seccomp profile " + profile)


def print_log(path):
    """The lines of a CRI log ("TIME STREAM TAG TEXT"), as the kubelet shows them."""
    with open(path) as f:
        for line in f:
            fields = line.rstrip("\n").split(" ", 3)
            print(fields[3] if len(fields) == 4 else "")


def wait_exited(rpc, api, cid):
    for _ in range(300):
        status = rpc.call("ContainerStatus", api.ContainerStatusRequest(container_id=cid),
                          api.ContainerStatusResponse).status
        if status.state == api.CONTAINER_EXITED:
            return status
        time.sleep(0.1)
    raise SystemExit("container %s did not exit" % cid)


if __name__ == "__main__":
    sys.exit(main())
