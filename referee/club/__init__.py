"""The club: a ladder that members reach from their own machines, over HTTPS, each version frozen and built.

- ``db``: the club's database (members, tokens, bots, submissions, nonces);
- ``members``: members and their tokens (only a slow hash kept), scopes; ``throttle``: wrong tokens per address;
- ``tls``: the server's certificate, made and kept, and its fingerprint; ``config``: what a member's login keeps;
- ``replay``: the nonce and time a request that changes something carries;
- ``build``: a version built by its kit's Makefile in the sandbox (``buildrunner`` runs inside it);
  ``toolchains``: what builds may use, made once by ``arena club setup``;
- ``settings``: the quotas, declared once; ``submissions``: bots, versions and their states;
- ``service``: the club's work (freeze, build, watch); ``server``: its HTTPS API and pages; ``client``: the
  member's side of the API.

docs/club.md is the guide; docs/security.md says what a member can and cannot do.
"""
