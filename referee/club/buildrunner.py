"""What runs inside a build's sandbox: unpack the sources, run the kit's build file, send back what it made.

Run by ``referee.club.build`` as ``python3 -I -S -c THIS_FILE'S_TEXT SPEC_JSON`` inside the bot sandbox
(no network, the machine's files read-only, only the private /tmp writable, its size the build's disk), so it
needs no file of the arena and imports nothing but the standard library. Its pipes:

- stdin: a tar made by the server: ``src/...`` the version's files, ``cache/NAME/...`` the toolchains' caches
  the server provides (an npm cache, a Go build cache), unpacked into ``/tmp/build`` and ``/tmp/cache/NAME``;
- stderr: the build's own output (make's stdout and stderr), which the server keeps for the member;
- fd ``report``: one JSON line once make is done: its exit status and the disk the build used; no process the
  build starts has it (make runs with every other descriptor closed), so no build can write it;
- stdout: when make succeeded, ``/tmp/build`` as a tar, which the server unpacks with every path checked.
"""

import json
import os
import subprocess
import sys
import tarfile


def main() -> None:
    spec = json.loads(sys.argv[1])
    build = spec["dir"]
    os.makedirs(build)
    with tarfile.open(fileobj=sys.stdin.buffer, mode="r|") as tar:
        for member in tar:
            top, _, rest = member.name.partition("/")
            if top == "src" and rest:
                member.name = rest
                tar.extract(member, build, set_attrs=member.issym() is False)
            elif top == "cache" and rest:
                member.name = rest
                tar.extract(member, spec["caches"], set_attrs=member.issym() is False)
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp/home", "TMPDIR": "/tmp", "LANG": "C.UTF-8"}
    env.update(spec["env"])
    os.makedirs(env["HOME"], exist_ok=True)
    report = os.fdopen(spec["report"], "w")
    done = subprocess.run(
        spec["command"], cwd=build, env=env, stdin=subprocess.DEVNULL, stdout=2, stderr=2, close_fds=True, check=False
    )
    disk = os.statvfs("/tmp")
    used = (disk.f_blocks - disk.f_bfree) * disk.f_frsize
    report.write(json.dumps({"status": done.returncode, "used": used, "size": disk.f_blocks * disk.f_frsize}) + "\n")
    report.close()
    if done.returncode == 0:
        with tarfile.open(fileobj=sys.stdout.buffer, mode="w|") as tar:
            for name in sorted(os.listdir(build)):
                tar.add(os.path.join(build, name), arcname=name)
        sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
