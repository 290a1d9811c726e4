"""The arena's test suite: a package, so that each test folder imports what it shares by name
(``tests.support``) the same way under pytest and mypy."""
