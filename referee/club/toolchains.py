"""What the server provides to builds, made once by the admin: ``arena club setup FOLDER``.

Builds have no network (``referee.club.build``), so whatever a kit's Makefile fetches must be on the server
before: for each kit, its toolchain's Debian packages (checked here, with the ``apt-get`` line for what is
missing), and two caches, made here with the network, in the club's ``toolchains/`` folder:

- ``npm/``: the JS kit's pinned packages (its ``package-lock.json``), in an npm cache, from which its
  ``npm ci`` installs offline;
- ``go/``: a Go build cache, warmed by building the Go kit once, so that a build compiles only the bot and
  not the gRPC and protobuf libraries each time.

``toolchains/ready.json`` records, for each kit, whether the server can build it and why not; the server
accepts bots only in the languages that are ready (``arena club info`` lists them).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from referee.club.build import GO_CACHE, NPM_CACHE
from referee.errors import ArenaError
from referee.kits import CHECKOUT, KITS, Language, plan, write

TOOLCHAINS = "toolchains"
READY = "ready.json"
_TIMEOUT_S = 900


def setup(
    folder: Path,
    say: Callable[[str], None],
    languages: Sequence[Language] = tuple(Language),
    copy_caches: bool = False,
) -> dict[str, str]:
    """Make ``folder``'s toolchains for ``languages``: for each kit, '' when ready, else why not (kept in
    ready.json; a kit not named keeps what an earlier setup found). ``copy_caches``: start the npm and Go
    caches from copies of this user's own, so that only what they lack is fetched or compiled."""
    root = (folder / TOOLCHAINS).absolute()  # npm and go take the caches' paths from other folders
    root.mkdir(parents=True, exist_ok=True)
    status = {k: v for k, v in ready(folder).items() if v != _NOT_SET_UP}
    for language in languages:
        kit = KITS[language]
        missing = kit.toolchain.missing()
        if missing:
            packages = kit.toolchain.packages
            status[language.value] = (
                f"needs {', '.join(missing)}: as root, apt-get update && apt-get install {packages}"
            )
        else:
            try:
                _prepare(language, root, say, copy_caches)
                status[language.value] = ""
            except (ArenaError, OSError, subprocess.SubprocessError) as exc:
                status[language.value] = str(exc)
        say(f"{language.value}: {status[language.value] or 'ready'}")
    (root / READY).write_text(json.dumps(status, indent=2) + "\n", encoding="utf-8")
    return {language.value: status.get(language.value, _NOT_SET_UP) for language in Language}


_NOT_SET_UP = "the server's admin has not set it up (arena club setup FOLDER --lang LANG)"


def ready(folder: Path) -> dict[str, str]:
    """For each language, '' when ``arena club setup`` made it ready, else why not."""
    try:
        data = json.loads((folder / TOOLCHAINS / READY).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    return {language.value: str(data.get(language.value, _NOT_SET_UP)) for language in KITS}


def _prepare(language: Language, root: Path, say: Callable[[str], None], copy_caches: bool) -> None:
    if language is Language.JS:
        if copy_caches:
            _copy_cache(["npm", "config", "get", "cache"], "_cacache", root / NPM_CACHE, say)
        _npm_cache(root / NPM_CACHE, say)
    elif language is Language.GO:
        if copy_caches:
            _copy_cache(["go", "env", "GOCACHE"], "", root / GO_CACHE, say)
        _go_cache(root / GO_CACHE, say)


def _copy_cache(ask: list[str], inside: str, cache: Path, say: Callable[[str], None]) -> None:
    """Copy this user's own cache (where ``ask`` prints it is, and ``inside`` it) into ``cache``."""
    done = subprocess.run(ask, capture_output=True, text=True, timeout=60, check=False)
    source = Path(done.stdout.strip()) / inside if done.returncode == 0 and done.stdout.strip() else None
    if source is None or not source.is_dir():
        say(f"no cache of this user's at {source}: nothing copied")
        return
    say(f"copying {source} into {cache}")
    shutil.copytree(source, cache / inside if inside else cache, symlinks=True, dirs_exist_ok=True)


def _npm_cache(cache: Path, say: Callable[[str], None]) -> None:
    """The JS kit's pinned packages, fetched into an npm cache (the one step that uses the network)."""
    say(f"js: fetching the kit's pinned packages into {cache} (npm ci)")
    with tempfile.TemporaryDirectory(prefix="arena-setup-") as scratch:
        for name in ("package.json", "package-lock.json"):
            shutil.copy2(CHECKOUT / "example_bots" / "js" / name, Path(scratch) / name)
        _run(
            ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline", "--cache", str(cache)],
            Path(scratch),
            "npm ci",
        )


def _go_cache(cache: Path, say: Callable[[str], None]) -> None:
    """A Go build cache, warmed by building the Go kit once."""
    say(f"go: building the kit once to fill the build cache {cache}")
    with tempfile.TemporaryDirectory(prefix="arena-setup-") as scratch:
        starter = plan(Path(scratch) / "gokit", Language.GO)
        write(starter)
        _run(["make", "--no-print-directory"], starter.folder, "the Go kit's build", {"GOCACHE": str(cache)})


def _run(argv: list[str], cwd: Path, what: str, env: dict[str, str] | None = None) -> None:
    done = subprocess.run(
        argv,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=_TIMEOUT_S,
        check=False,
    )
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise ArenaError(f"{what} failed (exit status {done.returncode}): {last[0][:200]}")
