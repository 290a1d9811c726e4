"""The member's side: what ``arena club login`` keeps, in the user's config folder, readable by the user alone.

``$XDG_CONFIG_HOME/arena/club.json`` (``~/.config`` when XDG_CONFIG_HOME is not set, as the XDG base
directory specification says), mode 0600 in a folder of mode 0700: the server's address, the member's token,
and how the server's certificate is checked (its pinned fingerprint, or a public authority's signature).
A login to another server is kept beside the first; the last login is the one the commands use.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from referee.club.db import ClubError
from referee.runfolder import write_atomically

CONFIG_FILE = "club.json"
PINNED, AUTHORITY, PLAIN = "pinned", "authority", "plain"


def config_folder() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".config"
    return root / "arena"


@dataclass(frozen=True)
class Login:
    url: str  # https://HOST:PORT (or http://127.0.0.1:PORT, when the server was asked for plain HTTP)
    token: str
    member: str
    check: str  # PINNED, AUTHORITY or PLAIN
    fingerprint: str = ""  # the pinned certificate's SHA-256 (also kept, for the record, with AUTHORITY)


def path() -> Path:
    return config_folder() / CONFIG_FILE


def load() -> dict[str, Login]:
    """Every login kept, by URL; the last one made is ``current()``."""
    file = path()
    if not file.exists():
        return {}
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        return {url: Login(**entry) for url, entry in data.get("logins", {}).items()}
    except (OSError, ValueError, TypeError) as exc:
        raise ClubError(f"{file}: cannot read it ({exc}); remove it and run arena club login again") from None


def current() -> Login:
    """The login the commands use; ClubError when there is none."""
    file = path()
    logins = load()
    last = json.loads(file.read_text(encoding="utf-8")).get("current") if logins else None
    if last not in logins:
        raise ClubError("not logged in to a club: run `arena club login URL` with the token your club gave you")
    return logins[last]


def save(login: Login) -> Path:
    """Keep ``login`` (replacing one to the same URL) as the current one; the file is written whole, 0600."""
    logins = load()
    logins[login.url] = login
    folder = config_folder()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    file = path()
    data = {"current": login.url, "logins": {url: asdict(entry) for url, entry in logins.items()}}
    write_atomically(file, json.dumps(data, indent=2) + "\n", sync=True, private=True)
    return file
