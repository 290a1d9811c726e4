"""The wire protocol: the only place that knows protobuf messages.

- ``bideuchre/v1``: the code generated from proto/bideuchre/v1/arena.proto
  (``make proto``); nothing outside this package imports it.
- ``domain``: the protocol's version, service name, error codes and
  ``ProtocolError``; single values (cards, bids, trumps, rules, events,
  decisions, actions) between the engine's types and message parts.
- ``messages``: whole messages built through the protobuf library, and
  their bytes (``to_bytes``).
- ``encoder``: ``RequestEncoder``, which writes a DecisionRequest's bytes
  itself (the referee's hot path), its keys read from the descriptors.
- ``decoded``: what each side reads, as plain values: a bot's Hello and
  Action for the referee, the referee's messages for the SDK.
"""
