"""Running the analysis of many hands: in this process, on worker processes (``--workers``) or on Ray (``--ray``).

The unit of work is one hand (``plan.HandPlan``): the luck of each chosen
seat and the judgement of each of its decisions. ``analyse_hand`` is a pure
function of the hand's seat views, the budget and the seed, so it can run
anywhere, and every decision draws its worlds from a generator seeded by the
run's seed, the game's id and the decision's number: the same analysis comes
out on one process, on ten, or on a Ray cluster, in whatever order the hands
are done.

- In this process (``workers=1``, the default on one CPU).
- ``--workers N``: a pool of N processes on this machine (``concurrent.futures``,
  started fresh, not forked). As with the tournament's workers, Ctrl-C on the
  terminal reaches only the arena process, which stops the pool (its workers
  are killed), and a worker dies with the arena (PR_SET_PDEATHSIG), so none
  outlives it.
- ``--ray [ADDRESS]``: each hand a Ray task asking for one CPU, on whichever
  node has room; the cluster is joined (or started here) the way the
  tournament joins it (``referee.games.backends.cluster.connect``). Ray
  runs a task again when its node is lost, and the result is the same.
"""

from __future__ import annotations

import multiprocessing
import random
import signal
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from referee.analyze.evaluate import Budget, Judgement, Worth, hand_worth, judge
from referee.analyze.plan import HandPlan
from referee.bots import die_with_parent


@dataclass(frozen=True, slots=True)
class HandResult:
    """What the analysis of one hand found."""

    game_id: str
    hand: int
    luck: tuple[Worth | None, ...]  # per chosen seat (the order of the plan's deal views): its cards' worth
    judgements: tuple[Judgement | None, ...]  # per decision of the plan; None: forced, the referee's, a claim, no world


def decision_rng(seed: int, game_id: str, number: int) -> random.Random:
    """The generator of the worlds of decision ``number`` of game ``game_id``."""
    return random.Random(f"analyze:{seed}:{game_id}:{number}")


def analyse_hand(plan: HandPlan, budget: Budget, seed: int) -> HandResult:
    """The luck of each chosen seat in the hand and the judgement of each of their decisions."""
    luck = tuple(
        hand_worth(
            view, budget.luck_samples, random.Random(f"analyze:{seed}:{plan.game_id}:luck:{plan.hand}:{view.seat}")
        )
        for view in plan.deal_views
    )
    judgements = tuple(
        None
        if item.forced or item.by_referee or item.claimed
        else judge(item.view, item.taken, budget, decision_rng(seed, plan.game_id, item.number))
        for item in plan.decisions
    )
    return HandResult(plan.game_id, plan.hand, luck, judgements)


# ------------------------------------------------------------------ where the hands run


def run_here(plans: Iterable[HandPlan], budget: Budget, seed: int) -> Iterator[tuple[HandPlan, HandResult]]:
    """Each hand analysed in this process, in order."""
    for plan in plans:
        yield plan, analyse_hand(plan, budget, seed)


def _quiet_worker() -> None:
    """A pool worker dies when the arena does (it started with Ctrl-C ignored, see ``_sigint_ignored``)."""
    die_with_parent()


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ctrl-C ignored while a pool worker may be started: the worker inherits the ignoring from its birth, so a
    Ctrl-C on the terminal (sent to every process of the foreground group) reaches only the arena, which stops
    the pool; a worker caught importing would otherwise print a traceback."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop the pool now: queued hands dropped, running ones killed (their results are not wanted)."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14 and later
    if terminate is not None:
        terminate()
        return
    processes = list((getattr(pool, "_processes", None) or {}).values())  # before 3.14: the pool's own processes
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


def run_on_workers(
    plans: Iterable[HandPlan], budget: Budget, seed: int, workers: int
) -> Iterator[tuple[HandPlan, HandResult]]:
    """The hands analysed on ``workers`` processes, yielded as each is done (not in order).

    At most two hands per worker wait in the pool at a time, so a long log is read as it is analysed.
    """
    context = multiprocessing.get_context("spawn")
    with _sigint_ignored():
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_quiet_worker)
    pending: dict[Future[HandResult], HandPlan] = {}
    source = iter(plans)
    finished = False
    try:
        while True:
            for plan in source:
                with _sigint_ignored():  # a submit may start a worker
                    pending[pool.submit(analyse_hand, plan, budget, seed)] = plan
                if len(pending) >= 2 * workers:
                    break
            if not pending:
                finished = True
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                plan = pending.pop(future)
                yield plan, future.result()
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            _stop(pool)


def run_on_ray(
    plans: Iterable[HandPlan], budget: Budget, seed: int, cpus: int
) -> Iterator[tuple[HandPlan, HandResult]]:
    """The hands analysed as Ray tasks of one CPU each (Ray must be joined: ``connect``), yielded as each is done.

    At most two hands per CPU of the cluster (``cpus``) wait at a time.
    """
    import ray

    task = ray.remote(num_cpus=1)(analyse_hand)
    room = 2 * max(1, cpus)
    pending: dict[Any, HandPlan] = {}
    source = iter(plans)
    try:
        while True:
            for plan in source:
                pending[task.remote(plan, budget, seed)] = plan
                if len(pending) >= room:
                    break
            if not pending:
                return
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                plan = pending.pop(ref)
                yield plan, ray.get(ref)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


Runner = Callable[[Iterable[HandPlan], Budget, int], Iterator[tuple[HandPlan, HandResult]]]
