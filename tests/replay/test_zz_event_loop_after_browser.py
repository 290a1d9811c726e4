"""Runs after the browser tests (file order): they must not leave an event loop
running in the main thread, or every later ``asyncio.run`` in the suite fails."""

import asyncio


def test_asyncio_run_works_after_the_browser_tests() -> None:
    async def answer() -> int:
        await asyncio.sleep(0)
        return 42

    assert asyncio.run(answer()) == 42
