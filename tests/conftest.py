"""Settings for the whole suite."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

import pytest

# pytest-xdist's workers get COLUMNS=80 in their environment; the arena's consoles (made when referee.cli.app
# is imported) would take it as their fixed width, and the tests that give a command COLUMNS of their own
# (CliRunner's env) would not be heard. The suite runs as it does without workers: no COLUMNS of its own.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.pop("COLUMNS", None)

# The suite imports gRPC as the arena does, without its fork handlers (referee.server says why): gRPC reads this
# once, when it is first imported, and a test module may import it before it imports the referee. With the
# handlers, a bot forked from a test process that runs a referee crashes now and then (in threading's after-fork).
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")

# The helpers every test folder shares (tests/support) fail with pytest's own account of a failed assert,
# as a test does: their asserts are rewritten when they are imported, which is after this file.
pytest.register_assert_rewrite("tests.support")

# A suite started in the background by a non-interactive shell (`nohup make test &`) inherits
# SIGINT ignored, and every referee, tournament and bot it starts would inherit that too: the
# Ctrl-C tests need the signal delivered. A handler (not SIG_IGN) becomes the default in a child.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Tests that measure time or CPU against a machine they expect to have to themselves (two tables pinned to
# one CPU, a bot's own children on a loaded machine, the referee's memory, a node of a Ray cluster killed
# mid-game): `make test` runs them after the rest, one at a time, while the rest runs on two workers.
SERIAL = {
    "tests/bots/test_montecarlo_decisions.py::test_answers_are_legal_for_every_decision_kind_and_in_time",
    "tests/tournament/test_timing.py",
    "tests/referee/test_startup_allowance.py",
    "tests/hostile/test_time.py",
    "tests/hostile/test_memory.py",
    "tests/tournament/test_ray.py",
}


# The two tiers. The tests listed here start processes (the arena, bots, a browser, Ray), servers or sockets:
# `make test` runs them, `make check` leaves them out (marker `processes`). An entry is a folder (ending in /), a
# file, or a test of a file (FILE::NAME, every parametrization of it). Every other test is of the in-process
# tier, which `make check` runs in a minute; a guard (tests/support/inprocess.py) fails one that starts a
# process or opens a socket all the same, so that no test slips into the fast tier unseen.
PROCESSES = {
    "tests/bots/test_montecarlo_decisions.py::test_the_tables_monte_carlo_levels_start_as_their_command_lines_say",
    "tests/club/",
    "tests/cpp/",
    "tests/report/",
    "tests/tools/",
    "tests/test_cli_pipe.py",
    "tests/test_cli_usage.py",
    "tests/test_cli_startup.py::test_the_list_of_commands_imports_no_command",
    "tests/test_cli_startup.py::test_a_command_imports_its_own_module_only",
    "tests/test_did_you_mean.py::test_a_bot_name_in_the_logs",
    "tests/test_exit_status.py",
    "tests/test_makefile.py",
    "tests/test_readme.py",
    "tests/analyze/test_analyze_cli.py",
    "tests/analyze/test_analyze_counts.py",
    "tests/analyze/test_analyze_ray.py",
    "tests/analyze/test_analyze_terminal.py",
    "tests/analyze/test_judgement.py",
    "tests/analyze/test_secrecy.py",
    "tests/browserseat/test_advice.py::test_bad_switches_are_one_line",
    "tests/browserseat/test_bad_input.py",
    "tests/browserseat/test_claim.py",
    "tests/browserseat/test_features.py",
    "tests/browserseat/test_games.py",
    "tests/browserseat/test_server.py",
    "tests/browserseat/test_table.py",
    "tests/browserseat/test_duplicate.py",
    "tests/browserseat/test_tools.py",
    "tests/checkbot/test_checkbot.py",
    "tests/checkbot/test_checkbot_verdict.py",
    "tests/hostile/test_card_property.py",
    "tests/hostile/test_log_secrecy.py",
    "tests/hostile/test_memory.py",
    "tests/hostile/test_names.py",
    "tests/hostile/test_partner_channels.py",
    "tests/hostile/test_protocol_faults.py",
    "tests/hostile/test_sandbox_filter.py",
    "tests/hostile/test_sandbox_layout.py",
    "tests/hostile/test_sandbox_limits.py",
    "tests/hostile/test_sandbox_processes.py",
    "tests/hostile/test_sandbox_secrecy.py",
    "tests/hostile/test_sandbox_setup.py",
    "tests/hostile/test_sandbox_signals.py",
    "tests/hostile/test_tcp_relay.py",
    "tests/hostile/test_time.py",
    "tests/js/test_js_bot.py",
    "tests/js/test_js_checkbot.py",
    "tests/js/test_js_tournament.py",
    "tests/kits/test_arena_new.py",
    "tests/kits/test_kits.py",
    "tests/kits/test_kits_beside_claims.py",
    "tests/ladder/test_ladder_bad_input.py::test_a_folder_that_is_not_a_ladder",
    "tests/ladder/test_ladder_bad_input.py::test_a_ladder_made_by_a_newer_arena",
    "tests/ladder/test_ladder_bad_input.py::test_a_second_run_on_the_same_ladder_refuses",
    "tests/frozen/test_store.py::test_a_store_opened_again_drops_what_a_killed_process_was_writing",
    "tests/ladder/test_frozen_versions.py",
    "tests/ladder/test_ladder_page.py",
    "tests/ladder/test_ladder_played.py",
    "tests/ladder/test_ladder_ray.py",
    "tests/ladder/test_ladder_runs.py",
    "tests/play/test_play_presets.py",
    "tests/play/test_play_pty.py",
    "tests/protocol/test_encoder.py",
    "tests/referee/test_bot_file.py",
    "tests/referee/test_startup_allowance.py",
    "tests/referee/test_interrupt.py",
    "tests/referee/test_match_folder.py",
    "tests/referee/test_referee_claims.py",
    "tests/referee/test_referee_cli.py",
    "tests/referee/test_referee_faults.py",
    "tests/referee/test_referee_games.py",
    "tests/referee/test_referee_server.py",
    "tests/replay/test_ask.py",
    "tests/replay/test_ask_output.py",
    "tests/replay/test_html.py",
    "tests/replay/test_html_analysis.py",
    "tests/replay/test_html_layout.py",
    "tests/replay/test_real_logs.py",
    "tests/replay/test_text.py::test_symbols_and_colour_on_a_terminal",
    "tests/sdk/test_hand_end_hook.py",
    "tests/sdk/test_sdk_docs.py::test_the_pages_examples_run",
    "tests/sdk/test_sdk_log.py::test_a_bot_without_a_referee_says_so_in_one_json_line",
    "tests/sdk/test_sdk_runner.py",
    "tests/sdk/test_simulator.py::test_worker_processes_give_the_same_games",
    "tests/sdk/test_slim_install.py",
    "tests/tournament/test_format_runs.py",
    "tests/tournament/test_formats.py::test_a_format_that_does_not_exist_is_a_usage_error",
    "tests/tournament/test_gauntlet.py::test_a_real_gauntlet_plays_only_the_candidates_games_and_resumes",
    "tests/tournament/test_open_run.py::test_a_folder_written_by_an_older_arena_resumes_with_the_settings_it_lacks_defaulted",
    "tests/tournament/test_ray.py",
    "tests/tournament/test_resume.py",
    "tests/tournament/test_rounds.py",
    "tests/tournament/test_sprt_run.py",
    "tests/tournament/test_sprt_tables.py",
    "tests/tournament/test_standings_table.py::test_a_tournament_printed_at_80_columns_shows_whole_names",
    "tests/tournament/test_timing.py",
    "tests/tournament/test_tournament_cli.py",
    "tests/tournament/test_workers.py",
}


def listed(nodeid: str, entries: set[str]) -> bool:
    """Whether the test ``nodeid`` (``FILE::NAME[PARAMS]``) is one ``entries`` names (a folder, a file or a test)."""
    path, _, name = nodeid.partition("::")
    return (
        path in entries
        or f"{path}::{name.split('[', 1)[0]}" in entries
        or any(path.startswith(entry) for entry in entries if entry.endswith("/"))
    )


# The files that take longest, longest first (`pytest --durations`): `make test` hands the files to its workers in
# the order of the run (--no-loadscope-reorder), and a long file begun last would leave one worker running it alone.
SLOWEST = (
    "tests/club/test_club_run.py",
    "tests/club/test_builds.py",
    "tests/club/test_requests.py",
    "tests/tournament/test_format_runs.py",
    "tests/js/test_js_bot.py",
    "tests/analyze/test_analyze_cli.py",
    "tests/kits/test_arena_new.py",
    "tests/tournament/test_sprt_tables.py",
    "tests/kits/test_kits.py",
    "tests/kits/test_kits_beside_claims.py",
    "tests/hostile/test_protocol_faults.py",
    "tests/tournament/test_tournament_cli.py",
    "tests/ladder/test_ladder_runs.py",
    "tests/report/test_live.py",
    "tests/browserseat/test_bad_input.py",
    "tests/ladder/test_ladder_page.py",
    "tests/browserseat/test_claim.py",
    "tests/browserseat/test_table.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if listed(item.nodeid, SERIAL):
            item.add_marker(pytest.mark.serial)
        if listed(item.nodeid, PROCESSES):
            item.add_marker(pytest.mark.processes)
    # the run's order, file by file (a file's tests stay together, in their order): the slowest files, the other
    # files with tests of the process tier, then the files of the in-process tier, whose short tests fill the end
    by_file: dict[str, list[pytest.Item]] = {}
    for item in items:
        by_file.setdefault(item.nodeid.split("::", 1)[0], []).append(item)

    def rank(path: str) -> tuple[int, bool]:
        in_process = all(item.get_closest_marker("processes") is None for item in by_file[path])
        return (SLOWEST.index(path) if path in SLOWEST else len(SLOWEST), in_process)

    items[:] = [item for path in sorted(by_file, key=rank) for item in by_file[path]]


def pytest_configure(config: pytest.Config) -> None:
    from tests.support import inprocess  # here, not above: once tests.support's asserts are set to be rewritten

    inprocess.install()


@contextmanager
def _tier_of(item: pytest.Item) -> Iterator[None]:
    """A phase of ``item``: guarded (``tests.support.inprocess``) when the test is of the in-process tier."""
    from tests.support import inprocess

    with nullcontext() if item.get_closest_marker("processes") else inprocess.guarding():
        yield


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    with _tier_of(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    with _tier_of(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    with _tier_of(item):
        return (yield)
