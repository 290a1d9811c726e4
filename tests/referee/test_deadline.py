"""The deadline of a request (referee/deadline.py), on an event loop whose clock the test owns: no gRPC, no bot.

The deadline runs on the loop's clock (``loop.time``, ``loop.call_at``), and
here that clock is the test's (``tests.support.aio.VirtualTimeLoop``): it
moves only when the loop would wait, or when the test holds the loop up, so
every time is checked exactly, whatever else the machine is doing. A loop held
up past the deadline (the referee busy elsewhere), and a bot made to wait for
a CPU by others (a stand-in for the run-queue clock, reporting waits as told),
each move the deadline on by what was lost, at most one more limit; within the
slack nothing is given back; ``charged`` is the time less what was given back.
"""

from __future__ import annotations

import asyncio

import pytest

from referee.deadline import Deadline, TimeControl
from referee.runqueue import Sample
from tests.support.aio import VirtualTimeLoop, on_virtual_time


class FakeClock:
    """Reports ``wait`` seconds of CPU wait at each look, the first ``looks`` times."""

    def __init__(self, wait: float, looks: int = 100) -> None:
        self.wait = wait
        self.looks = looks
        self.samples = 0

    def sample(self) -> Sample:
        self.samples += 1
        return {1: (0, 0)}

    def waited_since(self, before: Sample) -> tuple[float, Sample]:
        self.looks -= 1
        return (self.wait if self.looks >= 0 else 0.0), {1: (0, 0)}


def run_deadline(
    limit_s: float, *, clock: FakeClock | None = None, stall_s: float = 0.0, slack_s: float = 0.02
) -> tuple[float | None, Deadline]:
    """Start a deadline; hold the loop up for ``stall_s`` at once; when was time up (None: not within 3 s)?"""

    async def go() -> tuple[float | None, Deadline]:
        loop = asyncio.get_running_loop()
        assert isinstance(loop, VirtualTimeLoop)
        up = loop.create_future()
        deadline = Deadline(limit_s, lambda: up.set_result(loop.time()), clock=clock, slack_s=slack_s)
        start = loop.time()
        deadline.start()
        if stall_s:
            loop.hold(stall_s)  # the referee is busy elsewhere: the time passes, the loop runs nothing meanwhile
        try:
            at = await asyncio.wait_for(up, 3)
        except TimeoutError:
            deadline.stop()
            return None, deadline
        return at - start, deadline

    return on_virtual_time(go())


def test_on_time_it_fires_at_the_limit() -> None:
    at, deadline = run_deadline(0.1)
    assert at == pytest.approx(0.1) and deadline.credited == 0


def test_a_loop_held_up_past_the_deadline_gives_the_lag_back() -> None:
    at, deadline = run_deadline(0.3, stall_s=0.5)  # the timer runs 0.2 s late
    assert at == pytest.approx(0.7)  # 0.5 s, then the 0.2 s given back
    assert deadline.credited == pytest.approx(0.2)
    at, deadline = run_deadline(0.1, stall_s=0.4)  # 0.3 s late, but no more than one more limit is given
    assert at == pytest.approx(0.5) and deadline.credited == pytest.approx(0.1)


def test_lag_within_the_slack_is_not_given_back() -> None:
    at, deadline = run_deadline(0.1, stall_s=0.11, slack_s=0.05)
    assert at == pytest.approx(0.11) and deadline.credited == 0


def test_a_bot_kept_off_the_cpu_gets_its_wait_back_at_most_one_more_limit() -> None:
    at, deadline = run_deadline(0.2, clock=FakeClock(0.05, looks=1))  # 50 ms of wait, once
    assert at == pytest.approx(0.25) and deadline.credited == pytest.approx(0.05)
    at, deadline = run_deadline(0.2, clock=FakeClock(0.15))  # 150 ms more at every look: capped
    assert at == pytest.approx(0.4) and deadline.credited == pytest.approx(0.2)


def test_stopped_it_never_fires_and_an_unlimited_one_never_starts() -> None:
    async def go() -> list[bool]:
        fired: list[bool] = []
        deadline = Deadline(0.05, lambda: fired.append(True))
        deadline.start()
        deadline.stop()  # the answer came
        unlimited = Deadline(TimeControl.unlimited().limit_s(), lambda: fired.append(True))
        unlimited.start()
        await asyncio.sleep(0.15)
        unlimited.stop()
        return fired

    assert on_virtual_time(go()) == []


def test_the_time_charged_is_the_time_less_what_was_given_back() -> None:
    async def go() -> tuple[float, float, float]:
        clock = FakeClock(0.3)
        deadline = Deadline(0.05, lambda: None, clock=clock)
        deadline.start()
        await asyncio.sleep(0.12)  # the bot answers after 120 ms: 50 ms given back at the first deadline
        deadline.stop()
        given = deadline.credited
        plain = deadline.charged()
        # past the free part of its limit (a time bank paying), the CPU wait since the start is given back
        bank = deadline.charged(free_s=0.01)
        return given, plain, bank

    given, plain, bank = on_virtual_time(go())
    assert given == pytest.approx(0.05)
    assert plain == pytest.approx(0.07)  # 120 ms less the 50 ms given back
    assert bank == 0.0  # the stand-in reports 300 ms of wait: more than the whole time


def test_an_answer_before_the_probe_reads_no_cpu_times_and_a_late_probe_counts_as_a_wait() -> None:
    async def quick() -> int:
        clock = FakeClock(0.0)
        deadline = Deadline(0.5, lambda: None, clock=clock, probe_s=0.05)
        deadline.start()
        await asyncio.sleep(0.01)  # the answer comes before the probe
        deadline.stop()
        await asyncio.sleep(0.08)
        return clock.samples

    assert on_virtual_time(quick()) == 0
    at, deadline = run_deadline(0.3, clock=FakeClock(0.0))  # read at 2 ms, no wait since
    assert at == pytest.approx(0.3) and deadline.credited == 0
    # the loop held up 0.2 s before its first reading (due at 2 ms): the bot's waits then are unknown, given
    # back as one (0.198 s)
    at, deadline = run_deadline(0.3, clock=FakeClock(0.0), stall_s=0.2)
    assert at == pytest.approx(0.498)
    assert deadline.credited == pytest.approx(0.198)
