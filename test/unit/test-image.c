/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Image labels (docs/image-labels.md): the digest entitle checks an
   engine's image config against, the request the image's label makes and
   where it stands among the others, the admin config's `image_labels`,
   and the records' bad inputs, laid out as Docker 20.10 and Podman 4.3
   wrote them on this host (the real engines run in docker.bats and
   podman.bats).  */
#include <config.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <seccomp.h>
#include "unit.h"
#include "image-record.h"
#include "image-request.h"
#include "request.h"
#include "sha256.h"
#include "utils.h"

static void
test_sha256_vectors (void **state)
{
  /* FIPS 180-4's examples, and the block boundaries of the padding.  */
  static const struct
  {
    const char *in, *hex;
  } cases[] = {
    { "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
    { "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
    { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
  };
  char hex[ENTITLE_SHA256_HEX_LEN + 1], *million = malloc (1000000);
  size_t i;

  (void)state;
  for (i = 0; i < sizeof (cases) / sizeof (cases[0]); i++)
    {
      entitle_sha256_hex (cases[i].in, strlen (cases[i].in), hex);
      assert_string_equal (hex, cases[i].hex);
    }
  assert_non_null (million);
  memset (million, 'a', 1000000);
  entitle_sha256_hex (million, 1000000, hex);
  assert_string_equal (hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  free (million);
}

#define DIGEST "sha256:5049a88b7e2f4d33f7e0a4cbd8e2b48c31f04b8c3a38e6ab6f1b2a9b41b6d2c1"

/* The request of @spec_json: its formatted set with sources, or NULL
   with *@msg.  */
static char *
requested (const char *spec_json, char **msg)
{
  cleanup_json json_t *spec = parse_ok (spec_json);
  cleanup_entitle_set struct entitle_set_s set = { 0 };
  entitle_error_t err = NULL;

  if (entitle_requested (NULL, spec, &set, &err) < 0)
    {
      *msg = strdup (err->msg);
      entitle_error_release (&err);
      return NULL;
    }
  return entitle_set_format_sources (&set);
}

static void
assert_requests (const char *spec_json, const char *expected)
{
  char *msg = NULL, *out = requested (spec_json, &msg);

  if (out == NULL)
    fail_msg ("%s: refused: %s", spec_json, msg);
  if (strcmp (out, expected) != 0)
    fail_msg ("%s asks `%s`, expected `%s`", spec_json, out, expected);
  free (out);
}

static void
assert_refused (const char *spec_json, const char *needle)
{
  char *msg = NULL, *out = requested (spec_json, &msg);

  if (out)
    fail_msg ("%s accepted: `%s`", spec_json, out);
  assert_contains (msg, needle);
  free (msg);
}

/* The annotation the admission step writes, as a JSON string value.  */
#define MAP(entries) "\"io.entitle.image\": \"{" entries "}\""
#define ENTRY(name, ents) \
  "\\\"" name "\\\": {\\\"digest\\\": \\\"" DIGEST "\\\", \\\"entitlements\\\": \\\"" ents "\\\"}"
#define CRI(name, type) "\"io.kubernetes.cri.container-name\": \"" name "\", \"io.kubernetes.cri.container-type\": \"" type "\""

static void
test_image_request_by_container_name (void **state)
{
  (void)state;
  assert_requests ("{\"annotations\": {" MAP (ENTRY ("web", "network.none") ", " ENTRY ("db", "network.user")) ", " CRI ("db", "container") "}}",
                   "image:network.user");
  /* The sandbox, and a container the map does not name, ask nothing.  */
  assert_requests ("{\"annotations\": {" MAP (ENTRY ("web", "network.none")) ", " CRI ("web", "sandbox") "}}", "");
  assert_requests ("{\"annotations\": {" MAP (ENTRY ("web", "network.none")) ", " CRI ("side", "container") "}}", "");
  /* An image without the label: its entry holds the digest only.  */
  assert_requests ("{\"annotations\": {" MAP ("\\\"web\\\": {\\\"digest\\\": \\\"" DIGEST "\\\"}") ", " CRI ("web", "container") "}}",
                   "");
}

static void
test_image_request_written_by_create (void **state)
{
  (void)state;
  assert_requests ("{\"annotations\": {\"io.entitle.image-label\": \"network.none\", \"io.entitle.image-digest\": \"" DIGEST "\"}}",
                   "image:network.none");
}

static void
test_image_request_comes_last (void **state)
{
  (void)state;
  /* The first present is the whole request: an empty annotation cancels
     what the image asks, and so does the environment.  */
  assert_requests ("{\"annotations\": {\"io.entitle.entitlements\": \"\", \"io.entitle.image-label\": \"network.none\"}}", "");
  assert_requests ("{\"process\": {\"env\": [\"ENTITLE_ENTITLEMENTS=network.user\"]}, \"annotations\": "
                   "{\"io.entitle.image-label\": \"network.none\"}}",
                   "env:network.user");
}

static void
test_image_request_bad_input (void **state)
{
  (void)state;
  assert_refused ("{\"annotations\": {\"io.entitle.image-label\": \"network.bogus\"}}",
                  "the image's label `io.entitle.entitlements`: unknown entitlement `network.bogus`");
  assert_refused ("{\"annotations\": {\"io.entitle.image-label\": \"a\\u0000b\"}}", "without NUL bytes");
  /* An item longer than any entitlement.  */
  {
    char spec[2300], item[2001];
    memset (item, 'a', 2000);
    item[2000] = '\0';
    snprintf (spec, sizeof (spec), "{\"annotations\": {\"io.entitle.image-label\": \"network.%s\"}}", item);
    assert_refused (spec, "the image's label `io.entitle.entitlements`: entitlement `network.aaaa");
    assert_refused (spec, "...` is longer than 1024 bytes");
  }
  assert_refused ("{\"annotations\": {\"io.entitle.image-label\": \"network.none\", \"io.entitle.image-digest\": \"sha256:AB\"}}",
                  "64 lower-case hex");
  assert_refused ("{\"annotations\": {" MAP (ENTRY ("web", "network.none")) "}}", "keyed by container name");
  assert_refused ("{\"annotations\": {\"io.entitle.image\": \"[1]\", " CRI ("web", "container") "}}", "JSON object");
  assert_refused ("{\"annotations\": {\"io.entitle.image\": \"{\", " CRI ("web", "container") "}}",
                  "annotation `io.entitle.image`");
  assert_refused ("{\"annotations\": {" MAP ("\\\"web\\\": {\\\"entitlements\\\": \\\"network.none\\\"}") ", " CRI ("web", "container") "}}",
                  "the entry of container `web`");
}

static void
test_image_labels_config (void **state)
{
  struct entitle_config_s cfg;
  entitle_error_t err = NULL;
  const char *bad[] = {
    "{\"image_labels\": \"yes\"}",
    "{\"image_labels\": {\"docker\": [\"relative\"]}}",
    "{\"image_labels\": {\"podman\": [\"/var/lib/containers/storage\"]}}",
    "{\"image_labels\": {\"docker\": \"/var/lib/docker\"}}",
  };
  size_t i;

  (void)state;
  config_from (&cfg, "{}");
  assert_false (entitle_config_image_labels (&cfg));
  entitle_config_free (&cfg);
  config_from (&cfg, "{\"image_labels\": true}");
  assert_string_equal (cfg.image_docker[0], "/var/lib/docker");
  assert_string_equal (cfg.image_storage[0], "/var/lib/containers/storage");
  entitle_config_free (&cfg);
  config_from (&cfg, "{\"image_labels\": {\"containers-storage\": [\"/srv/storage\"]}}");
  assert_null (cfg.image_docker[0]);
  assert_string_equal (cfg.image_storage[0], "/srv/storage");
  /* No file opened to say so: the bundle's path alone.  */
  assert_int_equal (entitle_image_engine_of (&cfg, "/srv/storage/vfs-containers/c1/userdata", "c1"), ENTITLE_IMAGE_STORAGE);
  assert_int_equal (entitle_image_engine_of (&cfg, "/srv/storage/vfs-containers/c1/userdata", "c2"), ENTITLE_IMAGE_NONE);
  assert_int_equal (entitle_image_engine_of (&cfg, "/srv/other/vfs-containers/c1/userdata", "c1"), ENTITLE_IMAGE_NONE);
  assert_int_equal (entitle_image_engine_of (&cfg, "/run/containerd/io.containerd.runtime.v2.task/moby/c1", "c1"),
                    ENTITLE_IMAGE_NONE);
  entitle_config_free (&cfg);
  config_from (&cfg, "{\"image_labels\": true}");
  assert_int_equal (entitle_image_engine_of (&cfg, "/run/containerd/io.containerd.runtime.v2.task/moby/c1", "c1"),
                    ENTITLE_IMAGE_DOCKER);
  assert_int_equal (entitle_image_engine_of (&cfg, "/run/containerd/io.containerd.runtime.v2.task/k8s.io/c1", "c1"),
                    ENTITLE_IMAGE_NONE);
  entitle_config_free (&cfg);
  for (i = 0; i < sizeof (bad) / sizeof (bad[0]); i++)
    {
      memset (&cfg, 0, sizeof (cfg));
      if (entitle_config_parse (&cfg, CONFIG_PATH, bad[i], strlen (bad[i]), &err) == 0)
        fail_msg ("%s accepted", bad[i]);
      assert_contains (err->msg, "image_labels");
      entitle_error_release (&err);
      entitle_config_free (&cfg);
    }
}

/* A containers/storage store under a temporary directory, as Podman 4.3
   laid it out here: ROOT/vfs-containers/containers.json and the image's
   config at ROOT/vfs-images/ID/=BASE64("sha256:ID").  */
struct store
{
  char root[64];
  char id[ENTITLE_SHA256_HEX_LEN + 1];
};

static void
write_file (const char *path, const char *text)
{
  FILE *f = fopen (path, "w");
  assert_non_null (f);
  fputs (text, f);
  fclose (f);
}

static void
make_store (struct store *s, const char *image_config, const char *containers)
{
  char path[512], b64[128];
  cleanup_free char *cmd = NULL;

  strcpy (s->root, "/tmp/entitle-test-image.XXXXXX");
  assert_non_null (mkdtemp (s->root));
  entitle_sha256_hex (image_config, strlen (image_config), s->id);
  snprintf (path, sizeof (path), "%s/vfs-containers", s->root);
  assert_int_equal (mkdir (path, 0700), 0);
  snprintf (path, sizeof (path), "%s/vfs-containers/containers.json", s->root);
  write_file (path, containers);
  snprintf (path, sizeof (path), "%s/vfs-images", s->root);
  assert_int_equal (mkdir (path, 0700), 0);
  snprintf (path, sizeof (path), "%s/vfs-images/%s", s->root, s->id);
  assert_int_equal (mkdir (path, 0700), 0);
  /* base64 of "sha256:ID", by coreutils.  */
  if (asprintf (&cmd, "printf sha256:%s | base64 -w0", s->id) < 0)
    abort ();
  FILE *p = popen (cmd, "r");
  assert_non_null (p);
  assert_non_null (fgets (b64, sizeof (b64), p));
  pclose (p);
  snprintf (path, sizeof (path), "%s/vfs-images/%s/=%s", s->root, s->id, b64);
  write_file (path, image_config);
}

static void
drop_store (struct store *s)
{
  cleanup_free char *cmd = NULL;
  if (asprintf (&cmd, "rm -rf %s", s->root) < 0)
    abort ();
  assert_int_equal (system (cmd), 0);
}

/* Look up container c1 of @s, whose rootfs is layer L1: the result, and
   the request or the message in *@out.  */
static int
lookup (struct store *s, const char *layer, char **out)
{
  cleanup_image_request struct entitle_image_request_s req = { 0 };
  struct entitle_config_s cfg;
  struct entitle_log_s log = { .path = "/dev/null" };
  cleanup_free char *cfg_json = NULL, *bundle = NULL, *spec_json = NULL;
  cleanup_json json_t *spec = NULL;
  entitle_error_t err = NULL;
  int ret;

  if (asprintf (&cfg_json, "{\"image_labels\": {\"containers-storage\": [\"%s\"]}}", s->root) < 0
      || asprintf (&bundle, "%s/vfs-containers/c1/userdata", s->root) < 0
      || asprintf (&spec_json, "{\"root\": {\"path\": \"%s/vfs/dir/%s\"}}", s->root, layer) < 0)
    abort ();
  config_from (&cfg, cfg_json);
  spec = parse_ok (spec_json);
  ret = entitle_image_lookup (&cfg, bundle, "c1", spec, &log, &req, &err);
  *out = ret < 0 ? strdup (err->msg) : ret == 1 ? strdup (req.entitlements)
                                                : NULL;
  entitle_error_release (&err);
  entitle_config_free (&cfg);
  return ret;
}

#define LABELLED "{\"config\": {\"Labels\": {\"io.entitle.entitlements\": \"network.none\"}}}"

static void
test_storage_record (void **state)
{
  struct store s;
  char containers[512], *out = NULL;

  (void)state;
  make_store (&s, LABELLED, "[]");
  snprintf (containers, sizeof (containers), "[{\"id\": \"c0\", \"image\": \"%s\", \"layer\": \"L0\"}, "
                                             "{\"id\": \"c1\", \"image\": \"%s\", \"layer\": \"L1\"}]",
            s.id, s.id);
  {
    char path[512];
    snprintf (path, sizeof (path), "%s/vfs-containers/containers.json", s.root);
    write_file (path, containers);
  }
  assert_int_equal (lookup (&s, "L1", &out), 1);
  assert_string_equal (out, "network.none");
  free (out);
  /* The record of another rootfs is not this container's.  */
  assert_true (lookup (&s, "L0", &out) < 0);
  assert_contains (out, "not config.json's rootfs");
  free (out);
  drop_store (&s);
}

static void
test_storage_record_bad_input (void **state)
{
  struct store s;
  char containers[512], path[512], *out = NULL;

  (void)state;
  /* No record of the container: a warning, and nothing read.  */
  make_store (&s, LABELLED, "[]");
  assert_int_equal (lookup (&s, "L1", &out), ENTITLE_IMAGE_NOT_READ);
  assert_null (out);
  /* Twice in the record.  */
  snprintf (containers, sizeof (containers), "[{\"id\": \"c1\", \"image\": \"%s\", \"layer\": \"L1\"}, "
                                             "{\"id\": \"c1\", \"image\": \"%s\", \"layer\": \"L1\"}]",
            s.id, s.id);
  snprintf (path, sizeof (path), "%s/vfs-containers/containers.json", s.root);
  write_file (path, containers);
  assert_true (lookup (&s, "L1", &out) < 0);
  assert_contains (out, "holds container c1 twice");
  free (out);
  /* The image's config replaced by other bytes.  */
  snprintf (containers, sizeof (containers), "[{\"id\": \"c1\", \"image\": \"%s\", \"layer\": \"L1\"}]", s.id);
  write_file (path, containers);
  {
    cleanup_free char *cmd = NULL;
    if (asprintf (&cmd, "for f in %s/vfs-images/%s/=*; do echo '{}' >\"$f\"; done", s.root, s.id) < 0)
      abort ();
    assert_int_equal (system (cmd), 0);
  }
  assert_true (lookup (&s, "L1", &out) < 0);
  assert_contains (out, "has the digest sha256:");
  free (out);
  /* A symbolic link on the way is not followed.  */
  {
    cleanup_free char *cmd = NULL;
    if (asprintf (&cmd, "cd %s && mv vfs-containers real && ln -s real vfs-containers", s.root) < 0)
      abort ();
    assert_int_equal (system (cmd), 0);
  }
  assert_true (lookup (&s, "L1", &out) < 0);
  assert_contains (out, "a symbolic link on the way");
  free (out);
  drop_store (&s);
}

/* The label twice in the image's config: which one an engine would show
   is not for entitle to guess.  */
static void
test_storage_record_label_twice (void **state)
{
  struct store s;
  char containers[512], path[512], *out = NULL;

  (void)state;
  make_store (&s,
              "{\"config\": {\"Labels\": {\"io.entitle.entitlements\": \"network.none\", "
              "\"io.entitle.entitlements\": \"network.host\"}}}",
              "[]");
  snprintf (containers, sizeof (containers), "[{\"id\": \"c1\", \"image\": \"%s\", \"layer\": \"L1\"}]", s.id);
  snprintf (path, sizeof (path), "%s/vfs-containers/containers.json", s.root);
  write_file (path, containers);
  assert_true (lookup (&s, "L1", &out) < 0);
  assert_contains (out, "its config: invalid JSON: duplicate object key `io.entitle.entitlements`");
  free (out);
  drop_store (&s);
}

/* As containers/storage writes the file (Go's encoding/json: no spaces),
   the entry is found without parsing the others (the file here ends in
   the middle of another, which the whole parse would refuse); braces and
   quotes in a string do not end it; an id twice is still refused.  */
static void
test_storage_record_compact (void **state)
{
  struct store s;
  char containers[1024], path[512], *out = NULL;

  (void)state;
  make_store (&s, LABELLED, "[]");
  snprintf (path, sizeof (path), "%s/vfs-containers/containers.json", s.root);
  snprintf (containers, sizeof (containers),
            "[{\"id\":\"c0\",\"image\":\"%s\",\"layer\":\"L0\"},"
            "{\"id\":\"c1\",\"metadata\":\"{\\\"n\\\":\\\"}{\\\"}\",\"image\":\"%s\",\"layer\":\"L1\"},"
            "{\"id\":\"c2\",",
            s.id, s.id);
  write_file (path, containers);
  assert_int_equal (lookup (&s, "L1", &out), 1);
  assert_string_equal (out, "network.none");
  free (out);
  snprintf (containers, sizeof (containers),
            "[{\"id\":\"c1\",\"image\":\"%s\",\"layer\":\"L1\"},{\"id\":\"c1\",\"image\":\"%s\",\"layer\":\"L1\"}]",
            s.id, s.id);
  write_file (path, containers);
  assert_true (lookup (&s, "L1", &out) < 0);
  assert_contains (out, "holds container c1 twice");
  free (out);
  drop_store (&s);
}

/* Where openat2 answers ENOSYS (kernels before 5.6, a seccomp profile
   that does not know it), the records are opened one component at a
   time: the label is found, and a symbolic link on the way is still not
   followed.  In a child, under a filter that refuses openat2 so.  */
static void
test_storage_record_without_openat2 (void **state)
{
  struct store s;
  char containers[512], path[512];
  int status;
  pid_t pid;

  (void)state;
  make_store (&s, LABELLED, "[]");
  snprintf (containers, sizeof (containers), "[{\"id\":\"c1\",\"image\":\"%s\",\"layer\":\"L1\"}]", s.id);
  snprintf (path, sizeof (path), "%s/vfs-containers/containers.json", s.root);
  write_file (path, containers);
  pid = fork ();
  assert_true (pid >= 0);
  if (pid == 0)
    {
      scmp_filter_ctx f = seccomp_init (SCMP_ACT_ALLOW);
      char *out = NULL, cmd[600];
      int found;

      if (f == NULL || seccomp_rule_add (f, SCMP_ACT_ERRNO (ENOSYS), SCMP_SYS (openat2), 0) < 0 || seccomp_load (f) < 0)
        _exit (10);
      if (syscall (SYS_openat2, AT_FDCWD, "/", NULL, 0) != -1 || errno != ENOSYS)
        _exit (11);
      found = lookup (&s, "L1", &out) == 1 && strcmp (out, "network.none") == 0;
      free (out);
      snprintf (cmd, sizeof (cmd), "cd %s && mv vfs-containers real && ln -s real vfs-containers", s.root);
      if (!found || system (cmd) != 0)
        _exit (12);
      _exit (lookup (&s, "L1", &out) < 0 && strstr (out, "a symbolic link on the way") ? 0 : 13);
    }
  assert_int_equal (waitpid (pid, &status, 0), pid);
  drop_store (&s);
  assert_true (WIFEXITED (status));
  assert_int_equal (WEXITSTATUS (status), 0);
}

int
main (void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test (test_sha256_vectors),
    cmocka_unit_test (test_image_request_by_container_name),
    cmocka_unit_test (test_image_request_written_by_create),
    cmocka_unit_test (test_image_request_comes_last),
    cmocka_unit_test (test_image_request_bad_input),
    cmocka_unit_test (test_image_labels_config),
    cmocka_unit_test (test_storage_record),
    cmocka_unit_test (test_storage_record_bad_input),
    cmocka_unit_test (test_storage_record_label_twice),
    cmocka_unit_test (test_storage_record_compact),
    cmocka_unit_test (test_storage_record_without_openat2),
  };
  return cmocka_run_group_tests (tests, NULL, NULL);
}
