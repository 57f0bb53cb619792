#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The capture runtime of record.sh: an engine is given this script as its
# OCI runtime.  On create and run it copies the config the runtime was
# given (the bundle's config.json, or crun's --config FILE) into
# $CAPTURE_DIR, with a note of what the config names on this machine that
# will be gone later (the kind of each bind-mount source, which namespace
# paths are the host's own, which is the namespace this script runs in), and then it execs runc with the same argv.
# Every other command (state, kill, delete, features, --version...) goes
# straight to runc.
#
# record.sh installs a copy with CAPTURE_DIR and RUNC filled in: engines
# do not pass their environment to the runtime reliably.
CAPTURE_DIR=@CAPTURE_DIR@
RUNC=@RUNC@

bundle=.
config=
command=
seen=
prev=
for arg in "$@"; do
  value=no
  case $prev in
  --bundle | -b) bundle=$arg value=yes ;;
  --config) config=$arg value=yes ;;
  --root | --log | --log-format | --criu | --cgroup-manager | --pid-file | --console-socket | --preserve-fds) value=yes ;;
  esac
  if [ $value = no ]; then
    case $arg in
    --bundle=*) bundle=${arg#--bundle=} ;;
    --config=*) config=${arg#--config=} ;;
    -*) ;;
    *)
      # the first word that is no option is the command
      [ -n "$seen" ] || case $arg in create | run) command=$arg ;; esac
      seen=1
      ;;
    esac
    prev=$arg
  else
    prev=
  fi
done
id=
for arg in "$@"; do
  id=$arg
done

if [ -n "$command" ]; then
  [ -n "$config" ] || config=$bundle/config.json
  name=$CAPTURE_DIR/$(date +%s%N).$id
  cp "$config" "$name.json.tmp"
  # What the config names that exists only while the engine runs.
  {
    echo '{"bind_sources": {'
    sep=
    jq -r '.mounts[]? | select((.type == "bind") or ((.options // []) | index("bind") or index("rbind"))) | .source' \
      "$name.json.tmp" | while IFS= read -r source; do
      if [ -d "$source" ]; then
        kind=directory
      elif [ -e "$source" ]; then
        kind=file
      else
        kind=missing
      fi
      printf '%s%s: "%s"\n' "$sep" "$(printf '%s' "$source" | jq -R .)" "$kind"
      sep=,
    done
    echo '}, "host_namespaces": ['
    sep=
    jq -r '.linux.namespaces[]? | select(.path != null and .path != "") | "\(.type) \(.path)"' \
      "$name.json.tmp" | while read -r type path; do
      case $type in
      network) proc=net ;;
      mount) proc=mnt ;;
      *) proc=$type ;;
      esac
      if [ "$(stat -L -c %d:%i "$path" 2>/dev/null)" = "$(stat -L -c %d:%i "/proc/$$/ns/$proc")" ]; then
        printf '%s"%s"\n' "$sep" "$type"
        sep=,
      fi
    done
    echo ']}'
  } >"$name.meta.tmp"
  mv "$name.meta.tmp" "$name.meta.json"
  mv "$name.json.tmp" "$name.json"
fi
exec "$RUNC" "$@"
