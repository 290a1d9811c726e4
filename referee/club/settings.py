"""The club's settings, declared once: quotas on what members send, and what one build may use.

Each is an option of ``arena club serve`` (and a key of its ``--config`` TOML file), and ``arena club
info`` shows every one as the server holds it. ``ClubGiven`` is what the admin named; ``ClubSettings`` the
values the server runs with (the declared default for the rest).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from referee.club.build import NOBODY, BuildLimits
from referee.frozen.tree import MIB, Limits
from referee.setting import Choices, TomlFile, WholeNumber, declare


@dataclass(frozen=True)
class ClubGiven(Choices):
    upload_mib: int | None = declare(
        WholeNumber(1, 1024, "MiB"),
        "The largest archive a member may send",
        default=20,
        flag="--upload-mib",
    )
    unpacked_mib: int | None = declare(
        WholeNumber(1, 4096, "MiB"),
        "The most a bot's folder may hold, unpacked",
        default=100,
        flag="--unpacked-mib",
    )
    files: int | None = declare(
        WholeNumber(1, 100_000),
        "The most files a bot's folder may hold",
        default=2000,
        flag="--files",
    )
    submissions_per_day: int | None = declare(
        WholeNumber(1, 10_000),
        "New versions a member may send in 24 hours (the same content again is no new version)",
        default=20,
        flag="--submissions-per-day",
    )
    builds_at_once: int | None = declare(
        WholeNumber(1, 64),
        "Builds the server runs at once (the others wait their turn)",
        default=2,
        flag="--builds-at-once",
    )
    build_seconds: int | None = declare(
        WholeNumber(10, 7200, "seconds"),
        "The time one build may take",
        default=300,
        flag="--build-seconds",
    )
    build_memory_mib: int | None = declare(
        WholeNumber(256, 65536, "MiB"),
        "The memory each process of a build may map",
        default=2048,
        flag="--build-memory-mib",
    )
    build_disk_mib: int | None = declare(
        WholeNumber(16, 65536, "MiB"),
        "The disk a build may write (its folder, caches and temporary files)",
        default=512,
        flag="--build-disk-mib",
    )
    build_processes: int | None = declare(
        WholeNumber(8, 4096),
        "The processes (and threads) a build may run at once",
        default=128,
        flag="--build-processes",
    )
    build_user: int | None = declare(
        WholeNumber(1, 2**32 - 2),
        "The user id builds run as, when the server runs as root (the limit of processes does not hold for root)",
        default=NOBODY,
        flag="--build-user",
    )


@dataclass(frozen=True)
class ClubSettings:
    """The values the server runs with."""

    upload_limits: Limits
    submissions_per_day: int
    builds_at_once: int
    build: BuildLimits
    build_user: int | None  # None: the server's own user (it is not root)

    @classmethod
    def of(cls, given: ClubGiven) -> ClubSettings:
        value = given.value
        return cls(
            upload_limits=Limits(
                upload_bytes=value("upload_mib") * MIB,
                unpacked_bytes=value("unpacked_mib") * MIB,
                files=value("files"),
            ),
            submissions_per_day=value("submissions_per_day"),
            builds_at_once=value("builds_at_once"),
            build=BuildLimits(
                seconds=float(value("build_seconds")),
                memory_bytes=value("build_memory_mib") * MIB,
                disk_bytes=value("build_disk_mib") * MIB,
                processes=value("build_processes"),
            ),
            build_user=value("build_user") if os.geteuid() == 0 else None,
        )

    def shown(self) -> dict[str, object]:
        """Every quota, as ``arena club info`` shows it."""
        limits, build = self.upload_limits, self.build
        return {
            "upload_mib": limits.upload_bytes // MIB,
            "unpacked_mib": limits.unpacked_bytes // MIB,
            "files": limits.files,
            "submissions_per_day": self.submissions_per_day,
            "builds_at_once": self.builds_at_once,
            "build_seconds": build.seconds,
            "build_memory_mib": build.memory_bytes // MIB,
            "build_disk_mib": build.disk_bytes // MIB,
            "build_processes": build.processes,
        }


def read_club_toml(path: os.PathLike[str] | str) -> ClubGiven:
    """A club's TOML file of settings; SettingsError names the file and line of a key that is none of them."""
    from pathlib import Path

    toml = TomlFile.read(Path(path))
    toml.check_keys(ClubGiven.declared())
    return ClubGiven.from_toml(toml)
