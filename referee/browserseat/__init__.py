"""``arena play --browser``: a person at the table in the browser, with the learning features.

- ``client``: the person's client (``python -m referee.browserseat``): an SDK bot whose decisions are clicked on a
  page, and the page's server;
- ``state``: the seat's view as the page is sent it, and the page's answers read back;
- ``advice``: the one weighing behind the hint, its reason and the estimates, and a bid's chance, from the
  seat's view alone;
- ``deal``: a finished hand's deal played again: by the strongest level in the person's seat (duplicate), or by
  the person;
- ``page.html``: the page, self-contained (no file or font is fetched).

Docs: docs/play.md.
"""
