"""What the test folders share: the ``arena`` command and its bots (``arena``), matches played in this
process (``referee``), processes and waits with deadlines (``processes``), coroutines and a clock the test
owns (``aio``), reading logs and run folders (``logs``), the browser (``browser``), namespaces for Ray
(``netns``), and each area's own helpers (``engine``, ``replay``, ``sandbox``, ``ladder``, ``golden`` ...). A
few are scripts the tests run in a process of their own, as ``python -m tests.support.NAME`` from the repository's
root (``ray_cluster``, ``ray_local``, ``live_ray``, ``encoder_check``); ``inprocess`` is the guard of the suite's
fast tier (tests/conftest.py).

pytest rewrites the asserts of these modules (tests/conftest.py registers the package), so a helper's
failed assert is explained as a test's is.
"""
