/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "go-fold.h"
#include "oci-fields.h"
#include "utils.h"

/* The Go structs of the OCI runtime spec (specs-go/config.go), in the
   order of the table below.  */
enum oci_object
{
  NONE,
  SPEC,
  PROCESS,
  BOX,
  USER,
  CAPABILITIES,
  RLIMIT,
  SCHEDULER,
  IO_PRIORITY,
  CPU_AFFINITY,
  ROOT,
  MOUNT,
  ID_MAPPING,
  HOOKS,
  HOOK,
  LINUX,
  NAMESPACE,
  TIME_OFFSET,
  RESOURCES,
  DEVICE_CGROUP,
  MEMORY,
  CPU,
  PIDS,
  BLOCK_IO,
  WEIGHT_DEVICE,
  THROTTLE_DEVICE,
  HUGEPAGE_LIMIT,
  NETWORK,
  INTERFACE_PRIORITY,
  RDMA,
  DEVICE,
  NET_DEVICE,
  SECCOMP,
  SYSCALL,
  SECCOMP_ARG,
  INTEL_RDT,
  MEMORY_POLICY,
  PERSONALITY,
  SOLARIS,
  SOLARIS_CPU,
  SOLARIS_MEMORY,
  SOLARIS_ANET,
  WINDOWS,
  WINDOWS_DEVICE,
  WINDOWS_RESOURCES,
  WINDOWS_MEMORY,
  WINDOWS_CPU,
  WINDOWS_AFFINITY,
  WINDOWS_STORAGE,
  WINDOWS_NETWORK,
  WINDOWS_HYPERV,
  VM,
  VM_HYPERVISOR,
  VM_KERNEL,
  VM_IMAGE,
  VM_HWCONFIG,
  VM_IOMEMS,
  ZOS,
  ZOS_NAMESPACE,
  ZOS_DEVICE,
  FREEBSD,
  FREEBSD_DEVICE,
  FREEBSD_JAIL,
  FREEBSD_JAIL_ALLOW,
};

/* F: a field of any other value (a string, a number, a list of them, a
   map of strings: Go matches its key all the same, and its contents are
   data).  O: an object; L: a list of objects; M: a map of objects (its
   keys are data, its values objects).  */
#define F(IN, NAME)                 \
  {                                 \
    IN, NONE, ENTITLE_OCI_ONE, NAME \
  }
#define O(IN, NAME, OF)           \
  {                               \
    IN, OF, ENTITLE_OCI_ONE, NAME \
  }
#define L(IN, NAME, OF)            \
  {                                \
    IN, OF, ENTITLE_OCI_LIST, NAME \
  }
#define M(IN, NAME, OF)           \
  {                               \
    IN, OF, ENTITLE_OCI_MAP, NAME \
  }

/* Every json tag of specs-go/config.go in the runtime spec's releases
   1.0.0 to 1.3.0 and its tree since (runc 1.1.5, Debian 12's, vendors
   1.0.2-dev), one row each.  A field a later release removed stays: a
   runc that vendors the release that had it reads it.  An embedded
   struct's fields are the embedding one's (LinuxBlockIODevice's major and
   minor in the weight and throttle devices), as Go promotes them.  */
static const struct entitle_oci_field_s fields[] = {
  F (SPEC, "ociVersion"),
  O (SPEC, "process", PROCESS),
  O (SPEC, "root", ROOT),
  F (SPEC, "hostname"),
  F (SPEC, "domainname"),
  L (SPEC, "mounts", MOUNT),
  O (SPEC, "hooks", HOOKS),
  F (SPEC, "annotations"),
  O (SPEC, "linux", LINUX),
  O (SPEC, "solaris", SOLARIS),
  O (SPEC, "windows", WINDOWS),
  O (SPEC, "vm", VM),
  O (SPEC, "zos", ZOS),
  O (SPEC, "freebsd", FREEBSD),

  F (PROCESS, "terminal"),
  O (PROCESS, "consoleSize", BOX),
  O (PROCESS, "user", USER),
  F (PROCESS, "args"),
  F (PROCESS, "commandLine"),
  F (PROCESS, "env"),
  F (PROCESS, "cwd"),
  O (PROCESS, "capabilities", CAPABILITIES),
  L (PROCESS, "rlimits", RLIMIT),
  F (PROCESS, "noNewPrivileges"),
  F (PROCESS, "apparmorProfile"),
  F (PROCESS, "oomScoreAdj"),
  O (PROCESS, "scheduler", SCHEDULER),
  F (PROCESS, "selinuxLabel"),
  O (PROCESS, "ioPriority", IO_PRIORITY),
  O (PROCESS, "execCPUAffinity", CPU_AFFINITY),

  F (BOX, "height"),
  F (BOX, "width"),

  F (USER, "uid"),
  F (USER, "gid"),
  F (USER, "umask"),
  F (USER, "additionalGids"),
  F (USER, "username"),

  F (CAPABILITIES, "bounding"),
  F (CAPABILITIES, "effective"),
  F (CAPABILITIES, "inheritable"),
  F (CAPABILITIES, "permitted"),
  F (CAPABILITIES, "ambient"),

  F (RLIMIT, "type"),
  F (RLIMIT, "hard"),
  F (RLIMIT, "soft"),

  F (SCHEDULER, "policy"),
  F (SCHEDULER, "nice"),
  F (SCHEDULER, "priority"),
  F (SCHEDULER, "flags"),
  F (SCHEDULER, "runtime"),
  F (SCHEDULER, "deadline"),
  F (SCHEDULER, "period"),

  F (IO_PRIORITY, "class"),
  F (IO_PRIORITY, "priority"),

  F (CPU_AFFINITY, "initial"),
  F (CPU_AFFINITY, "final"),

  F (ROOT, "path"),
  F (ROOT, "readonly"),

  F (MOUNT, "destination"),
  F (MOUNT, "type"),
  F (MOUNT, "source"),
  F (MOUNT, "options"),
  L (MOUNT, "uidMappings", ID_MAPPING),
  L (MOUNT, "gidMappings", ID_MAPPING),

  F (ID_MAPPING, "containerID"),
  F (ID_MAPPING, "hostID"),
  F (ID_MAPPING, "size"),

  L (HOOKS, "prestart", HOOK),
  L (HOOKS, "createRuntime", HOOK),
  L (HOOKS, "createContainer", HOOK),
  L (HOOKS, "startContainer", HOOK),
  L (HOOKS, "poststart", HOOK),
  L (HOOKS, "poststop", HOOK),

  F (HOOK, "path"),
  F (HOOK, "args"),
  F (HOOK, "env"),
  F (HOOK, "timeout"),

  L (LINUX, "uidMappings", ID_MAPPING),
  L (LINUX, "gidMappings", ID_MAPPING),
  F (LINUX, "sysctl"),
  O (LINUX, "resources", RESOURCES),
  F (LINUX, "cgroupsPath"),
  L (LINUX, "namespaces", NAMESPACE),
  L (LINUX, "devices", DEVICE),
  M (LINUX, "netDevices", NET_DEVICE),
  O (LINUX, "seccomp", SECCOMP),
  F (LINUX, "rootfsPropagation"),
  F (LINUX, "maskedPaths"),
  F (LINUX, "readonlyPaths"),
  F (LINUX, "mountLabel"),
  O (LINUX, "intelRdt", INTEL_RDT),
  O (LINUX, "memoryPolicy", MEMORY_POLICY),
  O (LINUX, "personality", PERSONALITY),
  M (LINUX, "timeOffsets", TIME_OFFSET),

  F (NAMESPACE, "type"),
  F (NAMESPACE, "path"),

  F (TIME_OFFSET, "secs"),
  F (TIME_OFFSET, "nanosecs"),

  L (RESOURCES, "devices", DEVICE_CGROUP),
  O (RESOURCES, "memory", MEMORY),
  O (RESOURCES, "cpu", CPU),
  O (RESOURCES, "pids", PIDS),
  O (RESOURCES, "blockIO", BLOCK_IO),
  L (RESOURCES, "hugepageLimits", HUGEPAGE_LIMIT),
  O (RESOURCES, "network", NETWORK),
  M (RESOURCES, "rdma", RDMA),
  F (RESOURCES, "unified"),

  F (DEVICE_CGROUP, "allow"),
  F (DEVICE_CGROUP, "type"),
  F (DEVICE_CGROUP, "major"),
  F (DEVICE_CGROUP, "minor"),
  F (DEVICE_CGROUP, "access"),

  F (MEMORY, "limit"),
  F (MEMORY, "reservation"),
  F (MEMORY, "swap"),
  F (MEMORY, "kernel"),
  F (MEMORY, "kernelTCP"),
  F (MEMORY, "swappiness"),
  F (MEMORY, "disableOOMKiller"),
  F (MEMORY, "useHierarchy"),
  F (MEMORY, "checkBeforeUpdate"),

  F (CPU, "shares"),
  F (CPU, "quota"),
  F (CPU, "burst"),
  F (CPU, "period"),
  F (CPU, "realtimeRuntime"),
  F (CPU, "realtimePeriod"),
  F (CPU, "cpus"),
  F (CPU, "mems"),
  F (CPU, "idle"),

  F (PIDS, "limit"),

  F (BLOCK_IO, "weight"),
  F (BLOCK_IO, "leafWeight"),
  L (BLOCK_IO, "weightDevice", WEIGHT_DEVICE),
  L (BLOCK_IO, "throttleReadBpsDevice", THROTTLE_DEVICE),
  L (BLOCK_IO, "throttleWriteBpsDevice", THROTTLE_DEVICE),
  L (BLOCK_IO, "throttleReadIOPSDevice", THROTTLE_DEVICE),
  L (BLOCK_IO, "throttleWriteIOPSDevice", THROTTLE_DEVICE),

  F (WEIGHT_DEVICE, "major"),
  F (WEIGHT_DEVICE, "minor"),
  F (WEIGHT_DEVICE, "weight"),
  F (WEIGHT_DEVICE, "leafWeight"),

  F (THROTTLE_DEVICE, "major"),
  F (THROTTLE_DEVICE, "minor"),
  F (THROTTLE_DEVICE, "rate"),

  F (HUGEPAGE_LIMIT, "pageSize"),
  F (HUGEPAGE_LIMIT, "limit"),

  F (NETWORK, "classID"),
  L (NETWORK, "priorities", INTERFACE_PRIORITY),

  F (INTERFACE_PRIORITY, "name"),
  F (INTERFACE_PRIORITY, "priority"),

  F (RDMA, "hcaHandles"),
  F (RDMA, "hcaObjects"),

  F (DEVICE, "path"),
  F (DEVICE, "type"),
  F (DEVICE, "major"),
  F (DEVICE, "minor"),
  F (DEVICE, "fileMode"),
  F (DEVICE, "uid"),
  F (DEVICE, "gid"),

  F (NET_DEVICE, "name"),

  F (SECCOMP, "defaultAction"),
  F (SECCOMP, "defaultErrnoRet"),
  F (SECCOMP, "architectures"),
  F (SECCOMP, "flags"),
  F (SECCOMP, "listenerPath"),
  F (SECCOMP, "listenerMetadata"),
  L (SECCOMP, "syscalls", SYSCALL),

  F (SYSCALL, "names"),
  F (SYSCALL, "action"),
  F (SYSCALL, "errnoRet"),
  L (SYSCALL, "args", SECCOMP_ARG),

  F (SECCOMP_ARG, "index"),
  F (SECCOMP_ARG, "value"),
  F (SECCOMP_ARG, "valueTwo"),
  F (SECCOMP_ARG, "op"),

  F (INTEL_RDT, "closID"),
  F (INTEL_RDT, "schemata"),
  F (INTEL_RDT, "l3CacheSchema"),
  F (INTEL_RDT, "memBwSchema"),
  F (INTEL_RDT, "enableMonitoring"),
  F (INTEL_RDT, "enableCMT"), /* 1.1.0 to 1.2.1 */
  F (INTEL_RDT, "enableMBM"), /* 1.1.0 to 1.2.1 */

  F (MEMORY_POLICY, "mode"),
  F (MEMORY_POLICY, "nodes"),
  F (MEMORY_POLICY, "flags"),

  F (PERSONALITY, "domain"),
  F (PERSONALITY, "flags"),

  F (SOLARIS, "milestone"),
  F (SOLARIS, "limitpriv"),
  F (SOLARIS, "maxShmMemory"),
  L (SOLARIS, "anet", SOLARIS_ANET),
  O (SOLARIS, "cappedCPU", SOLARIS_CPU),
  O (SOLARIS, "cappedMemory", SOLARIS_MEMORY),

  F (SOLARIS_CPU, "ncpus"),

  F (SOLARIS_MEMORY, "physical"),
  F (SOLARIS_MEMORY, "swap"),

  F (SOLARIS_ANET, "linkname"),
  F (SOLARIS_ANET, "lowerLink"),
  F (SOLARIS_ANET, "allowedAddress"),
  F (SOLARIS_ANET, "configureAllowedAddress"),
  F (SOLARIS_ANET, "defrouter"),
  F (SOLARIS_ANET, "linkProtection"),
  F (SOLARIS_ANET, "macAddress"),

  F (WINDOWS, "layerFolders"),
  L (WINDOWS, "devices", WINDOWS_DEVICE),
  O (WINDOWS, "resources", WINDOWS_RESOURCES),
  F (WINDOWS, "credentialSpec"), /* interface{}: a map to Go */
  F (WINDOWS, "servicing"),
  F (WINDOWS, "ignoreFlushesDuringBoot"),
  O (WINDOWS, "hyperv", WINDOWS_HYPERV),
  O (WINDOWS, "network", WINDOWS_NETWORK),

  F (WINDOWS_DEVICE, "id"),
  F (WINDOWS_DEVICE, "idType"),

  O (WINDOWS_RESOURCES, "memory", WINDOWS_MEMORY),
  O (WINDOWS_RESOURCES, "cpu", WINDOWS_CPU),
  O (WINDOWS_RESOURCES, "storage", WINDOWS_STORAGE),

  F (WINDOWS_MEMORY, "limit"),

  F (WINDOWS_CPU, "count"),
  F (WINDOWS_CPU, "shares"),
  F (WINDOWS_CPU, "maximum"),
  L (WINDOWS_CPU, "affinity", WINDOWS_AFFINITY),

  F (WINDOWS_AFFINITY, "mask"),
  F (WINDOWS_AFFINITY, "group"),

  F (WINDOWS_STORAGE, "iops"),
  F (WINDOWS_STORAGE, "bps"),
  F (WINDOWS_STORAGE, "sandboxSize"),

  F (WINDOWS_NETWORK, "endpointList"),
  F (WINDOWS_NETWORK, "allowUnqualifiedDNSQuery"),
  F (WINDOWS_NETWORK, "DNSSearchList"),
  F (WINDOWS_NETWORK, "networkSharedContainerName"),
  F (WINDOWS_NETWORK, "networkNamespace"),

  F (WINDOWS_HYPERV, "utilityVMPath"),

  O (VM, "hypervisor", VM_HYPERVISOR),
  O (VM, "kernel", VM_KERNEL),
  O (VM, "image", VM_IMAGE),
  O (VM, "hwconfig", VM_HWCONFIG),

  F (VM_HYPERVISOR, "path"),
  F (VM_HYPERVISOR, "parameters"),

  F (VM_KERNEL, "path"),
  F (VM_KERNEL, "parameters"),
  F (VM_KERNEL, "initrd"),

  F (VM_IMAGE, "path"),
  F (VM_IMAGE, "format"),

  F (VM_HWCONFIG, "deviceTree"),
  F (VM_HWCONFIG, "vcpus"),
  F (VM_HWCONFIG, "memory"),
  F (VM_HWCONFIG, "dtdevs"),
  L (VM_HWCONFIG, "iomems", VM_IOMEMS),
  F (VM_HWCONFIG, "irqs"),

  F (VM_IOMEMS, "firstGFN"),
  F (VM_IOMEMS, "firstMFN"),
  F (VM_IOMEMS, "nrMFNs"),

  L (ZOS, "namespaces", ZOS_NAMESPACE),
  L (ZOS, "devices", ZOS_DEVICE), /* 1.1.0 to 1.2.1 */

  F (ZOS_NAMESPACE, "type"),
  F (ZOS_NAMESPACE, "path"),

  F (ZOS_DEVICE, "path"),
  F (ZOS_DEVICE, "type"),
  F (ZOS_DEVICE, "major"),
  F (ZOS_DEVICE, "minor"),
  F (ZOS_DEVICE, "fileMode"),
  F (ZOS_DEVICE, "uid"),
  F (ZOS_DEVICE, "gid"),

  L (FREEBSD, "devices", FREEBSD_DEVICE),
  O (FREEBSD, "jail", FREEBSD_JAIL),

  F (FREEBSD_DEVICE, "path"),
  F (FREEBSD_DEVICE, "mode"),

  F (FREEBSD_JAIL, "parent"),
  F (FREEBSD_JAIL, "host"),
  F (FREEBSD_JAIL, "ip4"),
  F (FREEBSD_JAIL, "ip4Addr"),
  F (FREEBSD_JAIL, "ip6"),
  F (FREEBSD_JAIL, "ip6Addr"),
  F (FREEBSD_JAIL, "vnet"),
  F (FREEBSD_JAIL, "interface"),
  F (FREEBSD_JAIL, "vnetInterfaces"),
  F (FREEBSD_JAIL, "sysvmsg"),
  F (FREEBSD_JAIL, "sysvsem"),
  F (FREEBSD_JAIL, "sysvshm"),
  F (FREEBSD_JAIL, "enforceStatfs"),
  O (FREEBSD_JAIL, "allow", FREEBSD_JAIL_ALLOW),

  F (FREEBSD_JAIL_ALLOW, "setHostname"),
  F (FREEBSD_JAIL_ALLOW, "rawSockets"),
  F (FREEBSD_JAIL_ALLOW, "chflags"),
  F (FREEBSD_JAIL_ALLOW, "mount"),
  F (FREEBSD_JAIL_ALLOW, "quotas"),
  F (FREEBSD_JAIL_ALLOW, "socketAf"),
  F (FREEBSD_JAIL_ALLOW, "mlock"),
  F (FREEBSD_JAIL_ALLOW, "reservedPorts"),
  F (FREEBSD_JAIL_ALLOW, "suser"),
};

const struct entitle_oci_field_s *
entitle_oci_fields (size_t *n)
{
  *n = sizeof (fields) / sizeof (fields[0]);
  return fields;
}

/* Where an object is, for the message: the field @name of @up (or a
   member of the list or map that field holds, when @member).  */
struct place_s
{
  const struct place_s *up;
  const char *name;
  bool member;
};

static void
place_text (const struct place_s *p, char *buf, size_t size)
{
  size_t n;

  buf[0] = '\0';
  if (p == NULL || p->name == NULL)
    return;
  place_text (p->up, buf, size);
  n = strlen (buf);
  snprintf (buf + n, size - n, "%s%s%s", n ? "." : "", p->name, p->member ? "[]" : "");
}

/* An object's rows: [@f, @end) of fields[].  */
struct rows_s
{
  const struct entitle_oci_field_s *f, *end;
};

/* The rows of object @in (up to *@end), found by bisection.  */
static const struct entitle_oci_field_s *
rows_of (unsigned char in, const struct entitle_oci_field_s **end)
{
  size_t lo = 0, hi = sizeof (fields) / sizeof (fields[0]);

  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (fields[mid].in < in)
        lo = mid + 1;
      else
        hi = mid;
    }
  *end = fields + lo;
  while (*end < fields + sizeof (fields) / sizeof (fields[0]) && (*end)->in == in)
    (*end)++;
  return fields + lo;
}

/* Is @key @name?  Inline: this runs for every key of every object of a
   config, and the names are short.  */
static inline bool
same (const char *name, const char *key)
{
  while (*name && *name == *key)
    name++, key++;
  return *name == *key;
}

/* The field named @key exactly among @rows, or NULL.  */
static const struct entitle_oci_field_s *
exact_field (const struct rows_s *rows, const char *key)
{
  const struct entitle_oci_field_s *f;

  for (f = rows->f; f < rows->end; f++)
    if (same (f->name, key))
      return f;
  return NULL;
}

/* The first field among @rows Go would match @key to, when none is
   named @key exactly (Go's order, decode.go), or NULL.  */
static const struct entitle_oci_field_s *
folded_field (const struct rows_s *rows, const char *key)
{
  const struct entitle_oci_field_s *f;

  for (f = rows->f; f < rows->end; f++)
    if (entitle_go_fold_matches (f->name, key))
      return f;
  return NULL;
}

/* @key for a one-line message: at most 64 bytes, cut between characters,
   control characters as '?'.  */
static void
shown (const char *key, char buf[72])
{
  size_t i;

  for (i = 0; key[i] && i < 64; i++)
    buf[i] = (unsigned char)key[i] < 0x20 || key[i] == 0x7f ? '?' : key[i];
  while (i > 0 && key[i] && ((unsigned char)key[i] & 0xc0) == 0x80)
    i--;
  buf[i] = '\0';
}

static int
refuse_variant (const char *key, const struct entitle_oci_field_s *f, const struct place_s *at,
                entitle_error_t *err)
{
  char where[512];

  place_text (at, where, sizeof (where));
  return entitle_make_error (err, EINVAL,
                             "key `%s` is read by runc as `%s%s%s` (Go's encoding/json matches keys regardless of case); "
                             "entitle reads keys as written: spell it `%s`",
                             key, where, where[0] ? "." : "", f->name, f->name);
}

static int check_object (const json_t *obj, const struct rows_s *rows, const struct place_s *at,
                         entitle_error_t *err);

/* The value @v of field @f, in @at: the rows of its objects are found
   once, not for each member of a list (a config can hold 10^5).  */
static int
check_value (const json_t *v, const struct entitle_oci_field_s *f, const struct place_s *at, entitle_error_t *err)
{
  struct place_s here = { at, f->name, f->shape != ENTITLE_OCI_ONE };
  struct rows_s rows;
  size_t i;
  int ret = 0;

  if (v->type != (f->shape == ENTITLE_OCI_LIST ? JSON_ARRAY : JSON_OBJECT))
    return 0;
  rows.f = rows_of (f->of, &rows.end);
  if (f->shape == ENTITLE_OCI_ONE)
    return check_object (v, &rows, &here, err);
  for (i = 0; ret == 0 && i < v->n; i++)
    if (v->items[i]->type == JSON_OBJECT)
      ret = check_object (v->items[i], &rows, &here, err);
  return ret;
}

static int
cmp_folded (const void *a, const void *b)
{
  return entitle_go_fold_cmp (*(const char *const *)a, *(const char *const *)b);
}

/* Are any two keys of @obj that are no field's one to Go?  (Two that are
   a field's name are that field: refused already.)  Only keys with an
   upper-case letter, a U+017F or a U+212A fold to another one.  */
static int
check_unknown_pairs (const json_t *obj, const struct rows_s *rows, const struct place_s *at, entitle_error_t *err)
{
  cleanup_free const char **keys = xmalloc (obj->n * sizeof (*keys));
  char a[72], b[72], where[512];
  size_t i, n = 0;
  for (i = 0; i < obj->n; i++)
    if (exact_field (rows, obj->keys[i]) == NULL && folded_field (rows, obj->keys[i]) == NULL)
      keys[n++] = obj->keys[i];
  qsort (keys, n, sizeof (*keys), cmp_folded);
  for (i = 1; i < n; i++)
    if (entitle_go_fold_cmp (keys[i - 1], keys[i]) == 0)
      break;
  if (i >= n)
    return 0;
  shown (keys[i - 1], a);
  shown (keys[i], b);
  place_text (at, where, sizeof (where));
  return entitle_make_error (err, EINVAL,
                             "keys `%s` and `%s` of %s%s%s are one key to runc (Go's encoding/json matches keys "
                             "regardless of case)",
                             a, b, where[0] ? "`" : "the config", where, where[0] ? "`" : "");
}

static bool
folds_to_another (const char *key)
{
  for (; *key; key++)
    if ((*key >= 'A' && *key <= 'Z') || (unsigned char)*key == 0xc5 || (unsigned char)*key == 0xe2)
      return true;
  return false;
}

static int
check_object (const json_t *obj, const struct rows_s *rows, const struct place_s *at, entitle_error_t *err)
{
  size_t i, unknown = 0;
  bool folding = false;
  int ret;

  for (i = 0; i < obj->n; i++)
    {
      const char *key = obj->keys[i];
      const struct entitle_oci_field_s *r = exact_field (rows, key);

      if (r && r->of != NONE)
        {
          ret = check_value (obj->items[i], r, at, err);
          if (UNLIKELY (ret < 0))
            return ret;
        }
      if (r)
        continue;
      r = folded_field (rows, key);
      if (r)
        return refuse_variant (key, r, at, err);
      unknown++;
      folding = folding || folds_to_another (key);
    }
  return unknown > 1 && folding ? check_unknown_pairs (obj, rows, at, err) : 0;
}

int
entitle_oci_fields_check (const json_t *doc, enum entitle_oci_doc kind, entitle_error_t *err)
{
  struct place_s process = { NULL, "process", false };
  struct rows_s rows;

  if (doc == NULL || doc->type != JSON_OBJECT)
    return 0;
  rows.f = rows_of (kind == ENTITLE_OCI_PROCESS ? PROCESS : SPEC, &rows.end);
  return check_object (doc, &rows, kind == ENTITLE_OCI_PROCESS ? &process : NULL, err);
}
