#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""console-recv SOCKET: the receiving end of a runtime's --console-socket,
as an engine's (containerd's shim, conmon) is.  Listens on SOCKET, takes
the pty master the runtime sends (SCM_RIGHTS), and copies what the
container writes to its terminal to stdout until the terminal closes."""
import os
import socket
import sys

path = sys.argv[1]
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(path)
srv.listen(1)
# Ready: the caller may now run the runtime.
open(path + ".ready", "w").close()
conn, _ = srv.accept()
msg, fds, _, _ = socket.recv_fds(conn, 4096, 1)
if len(fds) != 1:
    sys.exit("console-recv: no file descriptor received")
sys.stderr.write("console-recv: got %s\n" % msg.decode(errors="replace"))
out = b""
while True:
    try:
        chunk = os.read(fds[0], 4096)
    except OSError:  # EIO: the container's side is closed
        break
    if not chunk:
        break
    out += chunk
sys.stdout.write(out.decode(errors="replace").replace("\r\n", "\n"))
