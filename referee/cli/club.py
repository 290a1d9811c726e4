"""``arena club``: a ladder that members reach from their own machines (``referee.club``).

The admin's commands work on the club's folder, on the server: ``setup`` (the toolchains builds may use),
``invite``, ``revoke``, ``members``, ``serve``. A member's commands talk to the server over HTTPS: ``login``,
``submit``, ``status``, ``logs``, ``retry``, ``info``, ``page``.
"""

from __future__ import annotations

import asyncio
import getpass
import socket
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from referee.cli.app import ArenaGroup, Status, app, console, fail, user_errors
from referee.cli.common import VerboseOpt, run_async, warn
from referee.cli.options import option
from referee.cli.scale import RayOpt, RayWorkingDirOpt
from referee.club import config, members
from referee.club.client import Client, probe, query
from referee.club.db import CLUB_DB, ClubError, connect
from referee.club.server import TREE_HEADER, ClubServer, check_bot_name, start
from referee.club.service import CLUB, Club
from referee.club.settings import ClubGiven, ClubSettings, read_club_toml
from referee.club.tls import given as given_certificate
from referee.club.tls import same_fingerprint, self_signed, server_context
from referee.club.toolchains import setup as setup_toolchains
from referee.errors import InputError
from referee.frozen.archive import pack
from referee.frozen.tree import MIB, Limits
from referee.games.placement import Placement
from referee.kits import Language
from referee.ladder.database import LadderDatabase
from referee.ladder.playing import LadderRun, Stop, run_lock
from referee.ladder.settings import LadderRunChoices
from referee.opening.ladder import open_ladder
from referee.runfolder import RunFolder
from referee.sandbox import SandboxMode, resolve

club_app = typer.Typer(
    cls=ArenaGroup,
    name="club",
    help="A club: members send their bots from their own machines over HTTPS; each version is frozen, built in "
    "the sandbox and played on the ladder.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(club_app, name="club")

FolderArg = Annotated[Path, typer.Argument(metavar="FOLDER", file_okay=False, help="The club's folder.")]
NameArg = Annotated[str, typer.Argument(metavar="NAME", help="The member's name.")]


def _say(line: str) -> None:
    console.print(line, highlight=False, markup=False, soft_wrap=True)


# ------------------------------------------------------------------ the admin's commands


@club_app.command("setup")
def setup_command(
    folder: FolderArg,
    lang: Annotated[
        list[Language] | None, typer.Option("--lang", "-l", help="Only these kits (default: all five).")
    ] = None,
    copy_caches: Annotated[
        bool,
        typer.Option(
            "--copy-caches", help="Start from copies of your own npm and Go caches: fetch only what they lack."
        ),
    ] = False,
) -> None:
    """Make what builds may use, once (the one step that uses the network): check each kit's toolchain, fetch
    the JS kit's pinned packages, warm the Go kit's build cache."""
    with user_errors(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        status = setup_toolchains(folder / CLUB, _say, tuple(lang or Language), copy_caches)
    ready = [language for language, why in status.items() if not why]
    _say(f"{len(ready)} of {len(status)} kits ready: {', '.join(ready) or 'none'}")
    if not ready:
        raise fail("no kit can be built on this server", Status.FAILED)


def _club_db(folder: Path) -> Any:
    if not folder.is_dir():
        raise ClubError(f"{folder}: no such folder (a club's folder is made by arena club serve or setup)")
    return connect(folder / CLUB_DB)


@club_app.command("invite")
def invite_command(
    folder: FolderArg,
    name: NameArg,
    admin: Annotated[bool, typer.Option("--admin", help="An admin: may read and do everything.")] = False,
) -> None:
    """A new member, and its token, printed this once (the club keeps only a slow hash of it)."""
    with user_errors(OSError):
        db = _club_db(folder)
        try:
            member, token = members.invite(db, name, members.ADMIN if admin else members.MEMBER)
        finally:
            db.close()
    _say(f"invited {member.name} ({member.scope}); the token, shown this once:")
    print(token, flush=True)
    _say("the member runs: arena club login https://HOST:PORT   (and gives this token when asked)")


@club_app.command("revoke")
def revoke_command(folder: FolderArg, name: NameArg) -> None:
    """End every token of a member: its next request is refused. Its bots stay."""
    with user_errors(OSError):
        db = _club_db(folder)
        try:
            count = members.revoke(db, name)
        finally:
            db.close()
    _say(f"revoked {count} token(s) of {name}")


@club_app.command("members")
def members_command(folder: FolderArg) -> None:
    """Every member, its scope and whether it has a token in use."""
    with user_errors(OSError):
        db = _club_db(folder)
        try:
            everyone = members.members(db)
        finally:
            db.close()
    for member, live in everyone:
        _say(f"{member.name}  {member.scope}  {'token in use' if live else 'revoked'}")


def _settings_options(ctx: typer.Context, config_file: Path | None) -> ClubSettings:
    given = ClubGiven.from_options(ctx.params)
    if config_file is not None:
        given = given.over(read_club_toml(config_file))
    return ClubSettings.of(given)


@club_app.command("serve")
def serve_command(
    ctx: typer.Context,
    folder: FolderArg,
    host: Annotated[str, typer.Option("--host", help="The address to listen on (0.0.0.0: every one).")] = "0.0.0.0",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="The port (0: a free one).")] = 8443,
    cert: Annotated[
        Path | None, typer.Option("--cert", dir_okay=False, help="A certificate (PEM) to serve, with --key.")
    ] = None,
    key: Annotated[Path | None, typer.Option("--key", dir_okay=False, help="The certificate's key (PEM).")] = None,
    plain: Annotated[
        bool, typer.Option("--plain-http", help="Plain HTTP instead of HTTPS: only with --host 127.0.0.1.")
    ] = False,
    config_file: Annotated[
        Path | None, typer.Option("--config", "-c", dir_okay=False, help="A TOML file of the club's settings.")
    ] = None,
    upload_mib: Annotated[int | None, option(ClubGiven, "upload_mib")] = None,
    unpacked_mib: Annotated[int | None, option(ClubGiven, "unpacked_mib")] = None,
    files: Annotated[int | None, option(ClubGiven, "files")] = None,
    submissions_per_day: Annotated[int | None, option(ClubGiven, "submissions_per_day")] = None,
    builds_at_once: Annotated[int | None, option(ClubGiven, "builds_at_once")] = None,
    build_seconds: Annotated[int | None, option(ClubGiven, "build_seconds")] = None,
    build_memory_mib: Annotated[int | None, option(ClubGiven, "build_memory_mib")] = None,
    build_disk_mib: Annotated[int | None, option(ClubGiven, "build_disk_mib")] = None,
    build_processes: Annotated[int | None, option(ClubGiven, "build_processes")] = None,
    build_user: Annotated[int | None, option(ClubGiven, "build_user")] = None,
    concurrency: Annotated[int | None, option(LadderRunChoices, "concurrency")] = None,
    workers: Annotated[int | None, option(LadderRunChoices, "workers")] = None,
    ray: RayOpt = None,
    ray_working_dir: RayWorkingDirOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Serve the club over HTTPS until Ctrl-C: members' versions are frozen, built in the sandbox and played on
    FOLDER's ladder (made by arena ladder init, with --sandbox required), as arena ladder run plays."""
    run_folder = RunFolder(folder)
    with user_errors(OSError):
        settings = _settings_options(ctx, config_file)
        if plain and host != "127.0.0.1":
            raise InputError("--plain-http serves only on 127.0.0.1: on the network the club is served over HTTPS")
        if (cert is None) != (key is None):
            raise InputError("--cert and --key go together: a certificate and its key")
        check_ladder(run_folder)
    with user_errors(OSError), run_lock(run_folder):
        sandbox, _ = resolve(SandboxMode.REQUIRED)
        assert sandbox is not None
        ladder, _ = open_ladder(
            run_folder,
            LadderRunChoices.from_options(ctx.params),
            place=Placement(ray, ray_working_dir, verbose),
            warn=warn,
            say=_say,
        )
        try:
            context = None
            if not plain:
                certificate = given_certificate(cert, key) if cert and key else self_signed(folder / CLUB, _names(host))
                context = server_context(certificate)
                _say(f"certificate SHA-256 fingerprint: {certificate.fingerprint}")
            run_async(
                _serve(folder, settings, sandbox, ladder, host, port, context),
                verbose,
                interrupted="stopped: every version received is kept; the next serve builds what was being built, "
                "and plays again the games that were in play",
            )
        finally:
            ladder.backend.release()


def check_ladder(folder: RunFolder) -> None:
    """ClubError unless ``folder`` is a ladder whose bots play in the sandbox, always."""
    db = LadderDatabase.open(folder)
    try:
        mode = db.settings().sandbox
    finally:
        db.close()
    if mode is not SandboxMode.REQUIRED:
        raise ClubError(
            f"{folder.path}'s ladder plays with --sandbox {mode.value}: a club plays its members' code, so its ladder "
            "is made with --sandbox required (arena ladder init FOLDER --sandbox required ...)"
        )


def _names(host: str) -> list[str]:
    names = [socket.gethostname()]
    if host not in ("0.0.0.0", "::"):
        names.append(host)
    return names


async def _serve(
    folder: Path, settings: ClubSettings, sandbox: Any, ladder: LadderRun, host: str, port: int, context: Any
) -> None:
    async with Club(folder, settings, sandbox) as club:
        server = ClubServer(club)
        runner = await start(server, host, port, context)
        ladder.on_game = club.changed
        games = asyncio.create_task(ladder.run(Stop()))
        try:
            bound = runner.addresses[0][1]
            scheme = "https" if context is not None else "http"
            where = ladder.backend.describe(ladder.tables)
            _say(f"club {folder} served at {scheme}://{host}:{bound}; {ladder.tables} table(s) {where}".rstrip())
            await games
        finally:
            games.cancel()
            await asyncio.gather(games, return_exceptions=True)
            await runner.cleanup()


# ------------------------------------------------------------------ the member's commands


@club_app.command("login")
def login_command(
    url: Annotated[str, typer.Argument(metavar="URL", help="The club's address: https://HOST:PORT.")],
    fingerprint: Annotated[
        str | None,
        typer.Option("--fingerprint", help="The certificate's SHA-256 fingerprint, as the club's admin gave it."),
    ] = None,
) -> None:
    """Log in to a club: its certificate is shown and pinned, the token (asked for, or read from stdin) checked
    and kept with it in the user's config folder (mode 0600)."""
    with user_errors(OSError):
        seen = probe(url)
        check = config.PLAIN if not seen.fingerprint else config.AUTHORITY if seen.authority else config.PINNED
        before = config.load().get(seen.url)
        if seen.fingerprint:
            _say(f"{seen.url}: certificate SHA-256 fingerprint {seen.fingerprint}")
        if fingerprint is not None and not same_fingerprint(fingerprint, seen.fingerprint):
            raise ClubError(
                f"the server's certificate is not the one given with --fingerprint (given {fingerprint}): "
                "nothing was sent"
            )
        if (
            check == config.PINNED
            and before is not None
            and before.check == config.PINNED
            and not same_fingerprint(before.fingerprint, seen.fingerprint)
            and fingerprint is None
        ):
            raise ClubError(
                f"the certificate of {seen.url} changed since the last login (was {before.fingerprint}): if your "
                "club's admin says so, log in again with --fingerprint NEW"
            )
        login = config.Login(seen.url, "", "", check, seen.fingerprint)
        Client(login).hello()
        token = _read_token()
        login = config.Login(seen.url, token, "", check, seen.fingerprint)
        me = Client(login).get("/api/me")
        saved = config.save(config.Login(seen.url, token, str(me["member"]), check, seen.fingerprint))
    how = {config.PINNED: "pinned", config.AUTHORITY: "signed by a public authority", config.PLAIN: "plain HTTP"}[check]
    _say(f"logged in to {seen.url} as {me['member']} ({me['scope']}); certificate {how}; kept in {saved} (mode 0600)")


def _read_token() -> str:
    if sys.stdin.isatty():
        token = getpass.getpass("token: ")
    else:
        token = sys.stdin.readline()
    token = token.strip()
    if not token:
        raise InputError("no token given: paste the token your club's admin gave you")
    return token


def _client() -> Client:
    return Client(config.current())


def _split(label: str) -> tuple[str, int | None]:
    name, at, version = label.partition("@")
    if at and not version.isdigit():
        raise InputError(f"{label!r}: a version is NAME@NUMBER")
    return name, int(version) if at else None


@club_app.command("submit")
def submit_command(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The bot's name in the club.")],
    folder: Annotated[Path, typer.Argument(metavar="FOLDER", file_okay=False, help="The bot's folder.")],
    lang: Annotated[str | None, typer.Option("--lang", "-l", help="Its kit, when its folder holds several.")] = None,
) -> None:
    """Send a version of a bot: its folder is packed, frozen on the server, built and played; prints each step
    as it happens."""
    with user_errors(OSError):
        check_bot_name(name)
        client = _client()
        quotas = client.get("/api/info")["quotas"]
        limits = Limits(quotas["upload_mib"] * MIB, quotas["unpacked_mib"] * MIB, quotas["files"])
        packed = pack(folder, limits)
        tree = packed.tree
        _say(f"sending {name}: {tree.files} files, {_size(tree.size)}, tree {tree.hash[:12]}")
        failed = False
        path = f"/api/submit?{query(bot=name, lang=lang)}"
        for event in client.stream(path, packed.data, {TREE_HEADER: tree.hash}):
            failed = _show(event) or failed
    if failed:
        raise typer.Exit(Status.FAILED)


def _size(size: int) -> str:
    return f"{size / MIB:.1f} MiB" if size >= MIB else f"{size / 1024:.1f} KiB"


def _show(event: dict[str, Any]) -> bool:
    """Print one event of a version; True when it failed."""
    label = f"{event['bot']}@{event['version']}"
    if event["event"] in ("version", "retry"):
        if event.get("replayed"):
            _say(f"{label}: this request was handled already (the same answer again)")
        elif event["event"] == "retry":
            _say(f"{label}: tried again, its content unchanged (tree {event['hash'][:12]})")
        elif event["new"]:
            _say(
                f"{label}: version {event['version']} of {event['bot']}, {event['language']}, tree {event['hash'][:12]}"
            )
        else:
            _say(f"{label}: the same files as version {event['version']} (tree {event['hash'][:12]}): nothing new")
        return False
    state = event["state"]
    _say(f"{label}: {_standing(event)}")
    if state in FAILED:
        log = str(event.get("log", "")).rstrip()
        if log:
            _say(log)
        return True
    return False


FAILED = ("build failed", "error", "suspended")  # a version's states that end its submit with a failure


def _standing(v: dict[str, Any]) -> str:
    """A version's state as a line says it: why, and its rank and rating while it plays."""
    state = str(v["state"])
    if v.get("rank") is not None and v.get("rating"):
        r = v["rating"]
        state += f" (rank {v['rank']}, mu - 3 sigma {r['ordinal']:.2f}, mu {r['mu']:.2f} ± {r['sigma']:.2f})"
    return state + (f": {v['reason']}" if v.get("reason") else "")


@club_app.command("status")
def status_command() -> None:
    """Your versions: their state, and why."""
    with user_errors(OSError):
        versions = _client().get("/api/status")["versions"]
    if not versions:
        _say("no versions yet: send one with arena club submit NAME FOLDER")
    for v in versions:
        _say(f"{v['bot']}@{v['version']}  {v['language']}  tree {v['hash'][:12]}  {_standing(v)}")


@club_app.command("logs")
def logs_command(
    label: Annotated[str, typer.Argument(metavar="NAME[@VERSION]", help="The bot, and a version (its newest).")],
) -> None:
    """A version's build output, where it stands (its validation's outcome) and what its bot printed in its recent
    games: yours, or anyone's for an admin."""
    with user_errors(OSError):
        bot, version = _split(label)
        found = _client().get(f"/api/logs?{query(bot=bot, version=version)}")
    _say(f"{found['bot']}@{found['version']}: {_standing(found)}")
    _say("--- build output")
    _print_text(found["build_log"])
    for output in found["outputs"]:
        _say(f"--- what it printed: {output['file']}")
        _print_text(output["text"])


def _print_text(text: str) -> None:
    """A bot's or a build's own text, as it is (never read as markup)."""
    print(text, end="" if text.endswith("\n") or not text else "\n", flush=True)


@club_app.command("retry")
def retry_command(label: Annotated[str, typer.Argument(metavar="NAME@VERSION", help="The version.")]) -> None:
    """Try a version again whose build or validation failed, its content unchanged."""
    with user_errors(OSError):
        bot, version = _split(label)
        if version is None:
            raise InputError(f"{label!r}: retry names a version, NAME@NUMBER")
        failed = False
        for event in _client().stream(f"/api/retry?{query(bot=bot, version=version)}"):
            failed = _show(event) or failed
    if failed:
        raise typer.Exit(Status.FAILED)


@club_app.command("info")
def info_command() -> None:
    """The club's quotas and the languages it builds."""
    with user_errors(OSError):
        info = _client().get("/api/info")
    for key, value in info["quotas"].items():
        _say(f"{key.replace('_', ' ')}: {value}")
    for language, why in info["languages"].items():
        _say(f"{language}: {why}")


@club_app.command("page")
def page_command() -> None:
    """The address of your own page (versions, builds): good once, for two minutes."""
    with user_errors(OSError):
        client = _client()
        path = client.post("/api/page")["path"]
    print(f"{client.login.url}{path}", flush=True)
