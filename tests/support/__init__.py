"""What the test folders share: the ``arena`` command and its bots (``arena``), matches played in this
process (``referee``), processes and waits with deadlines (``processes``), coroutines and a clock the test
owns (``aio``), reading logs and run folders (``logs``), the browser (``browser``), namespaces for Ray
(``netns``), and each area's own helpers (``engine``, ``replay``, ``sandbox`` ...).

pytest rewrites the asserts of these modules (tests/conftest.py registers the package), so a helper's
failed assert is explained as a test's is.
"""
