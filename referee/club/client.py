"""The member's side of the club's API: one connection per request, the server's certificate checked first.

Over HTTPS the certificate is checked before anything is sent: against the fingerprint pinned at login
(``PINNED``: a self-signed certificate), or by a public authority as any HTTPS client does (``AUTHORITY``).
A certificate that is not the pinned one ends the request with ``CertificateChanged`` before the token
leaves this machine. Plain HTTP is taken only to 127.0.0.1 (the server allows it only there).

``login`` looks at a server first (``probe``: a TLS handshake, nothing sent): its certificate's fingerprint,
whether an authority signs it; once that is what the member expects, that it is an arena club (``hello``),
then the token, with the server, before anything is kept.
"""

from __future__ import annotations

import http.client
import json
import secrets
import socket
import ssl
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from referee.club.config import AUTHORITY, PLAIN, Login
from referee.club.db import ClubError
from referee.club.replay import NONCE_HEADER, TIME_HEADER
from referee.club.tls import fingerprint, same_fingerprint
from referee.errors import ArenaError, InputError

TIMEOUT_S = 30.0
LOOPBACK = ("127.0.0.1", "localhost", "::1")


class CertificateChanged(ArenaError):
    """The server's certificate is not the one pinned at login."""


class Refused(ArenaError):
    """The server refused a request; the message is its one line. ``status``: the HTTP status."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class BadRequest(Refused, InputError):
    """A refusal for what the member sent or named (400, 404, 413): bad input."""


@dataclass(frozen=True)
class Probe:
    """What a server shows before any token is sent."""

    url: str
    fingerprint: str  # '' over plain HTTP
    authority: bool  # a public authority signs its certificate for its name


def address(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) of a club's URL; InputError for one that cannot be used."""
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise InputError(f"{url!r}: a club's address is https://HOST:PORT")
    if parts.scheme == "http" and parts.hostname not in LOOPBACK:
        raise InputError(f"{url}: plain HTTP only to 127.0.0.1; a club on the network is reached over https://")
    return parts.scheme, parts.hostname, parts.port or (443 if parts.scheme == "https" else 80)


def probe(url: str) -> Probe:
    """The certificate of the server at ``url``: only a TLS handshake, nothing is sent (the caller compares it
    with what it expects, then asks ``hello``)."""
    scheme, host, port = address(url)
    base = f"{scheme}://{host}:{port}"
    if scheme == "http":
        return Probe(base, "", False)
    connection = http.client.HTTPSConnection(host, port, timeout=TIMEOUT_S, context=_pinning_context())
    _connect(connection, url)
    try:
        seen = fingerprint(_peer_certificate(connection))
    finally:
        connection.close()
    return Probe(base, seen, _signed_by_authority(host, port))


def _signed_by_authority(host: str, port: int) -> bool:
    try:
        with (
            socket.create_connection((host, port), timeout=TIMEOUT_S) as raw,
            ssl.create_default_context().wrap_socket(raw, server_hostname=host),
        ):
            return True
    except (ssl.SSLError, OSError):
        return False


def _pinning_context() -> ssl.SSLContext:
    """TLS that takes any certificate: the caller compares it with the pin before sending anything."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def _connect(connection: http.client.HTTPConnection, url: str) -> None:
    try:
        connection.connect()
    except (OSError, ssl.SSLError) as exc:
        raise ClubError(f"cannot reach {url}: {exc}") from None


def _peer_certificate(connection: http.client.HTTPConnection) -> bytes:
    sock = connection.sock
    der = sock.getpeercert(binary_form=True) if isinstance(sock, ssl.SSLSocket) else None
    if not der:
        raise ClubError("the server showed no certificate")
    return der


def _json(response: http.client.HTTPResponse) -> dict[str, Any]:
    data = response.read()
    try:
        parsed = json.loads(data)
    except ValueError:
        raise ClubError(f"the server answered {response.status} with no JSON: {data[:120]!r}") from None
    if not isinstance(parsed, dict):
        raise ClubError(f"the server answered {response.status} with {type(parsed).__name__}, not an object")
    if response.status >= 400:
        _refuse(response.status, parsed)
    return parsed


def _refuse(status: int, parsed: dict[str, Any]) -> None:
    message = str(parsed.get("error", f"refused ({status})"))
    if status in (400, 404, 413):
        raise BadRequest(status, message)
    raise Refused(status, message)


class Client:
    """Requests to the club of ``login``, each on a connection of its own."""

    def __init__(self, login: Login) -> None:
        self.login = login

    def _open(self) -> http.client.HTTPConnection:
        scheme, host, port = address(self.login.url)
        if scheme == "http":
            if self.login.check != PLAIN:
                raise ClubError(f"{self.login.url}: this login was made over HTTPS; log in again")
            return http.client.HTTPConnection(host, port, timeout=TIMEOUT_S)
        if self.login.check == AUTHORITY:
            connection = http.client.HTTPSConnection(
                host, port, timeout=TIMEOUT_S, context=ssl.create_default_context()
            )
            _connect(connection, self.login.url)
            return connection
        connection = http.client.HTTPSConnection(host, port, timeout=TIMEOUT_S, context=_pinning_context())
        _connect(connection, self.login.url)
        seen = fingerprint(_peer_certificate(connection))
        if not same_fingerprint(seen, self.login.fingerprint):
            connection.close()
            raise CertificateChanged(
                f"the certificate of {self.login.url} is not the one pinned at login (pinned {self.login.fingerprint}, "
                f"now {seen}): nothing was sent. If your club's admin says it changed, log in again; otherwise "
                "someone may be in the way"
            )
        return connection

    def _send(
        self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
        connection = self._open()
        sent = {"Authorization": f"Bearer {self.login.token}", **(headers or {})}
        if method == "POST":
            sent.update(fresh_request())
        try:
            connection.request(method, path, body=body, headers=sent)
            return connection, connection.getresponse()
        except (OSError, http.client.HTTPException) as exc:
            connection.close()
            raise ClubError(f"{self.login.url}: the connection failed ({exc})") from None

    def hello(self) -> None:
        """ClubError unless the server is an arena club (asked with no token)."""
        connection = self._open()
        try:
            connection.request("GET", "/api/hello")
            reply = _json(connection.getresponse())
        except (OSError, http.client.HTTPException) as exc:
            raise ClubError(f"{self.login.url}: no answer ({exc})") from None
        finally:
            connection.close()
        if reply.get("club") != "arena":
            raise ClubError(f"{self.login.url} is not an arena club")

    def get(self, path: str) -> dict[str, Any]:
        connection, response = self._send("GET", path)
        try:
            return _json(response)
        finally:
            connection.close()

    def post(self, path: str, body: bytes = b"", headers: dict[str, str] | None = None) -> dict[str, Any]:
        connection, response = self._send("POST", path, body, headers)
        try:
            return _json(response)
        finally:
            connection.close()

    def stream(self, path: str, body: bytes = b"", headers: dict[str, str] | None = None) -> Iterator[dict[str, Any]]:
        """POST, then each line of the answer as it comes (one JSON object a line)."""
        connection, response = self._send("POST", path, body, {"Content-Type": "application/gzip", **(headers or {})})
        try:
            if response.status >= 400:
                _json(response)
            while line := response.readline():
                if line.strip():
                    yield json.loads(line)
        except (OSError, http.client.HTTPException) as exc:
            raise ClubError(f"{self.login.url}: the connection was cut ({exc})") from None
        finally:
            connection.close()


def fresh_request() -> dict[str, str]:
    """The headers that make a request that changes something new: a nonce and the time it is made."""
    return {NONCE_HEADER: secrets.token_hex(16), TIME_HEADER: f"{time.time():.3f}"}


def query(**values: str | int | None) -> str:
    return "&".join(f"{k}={quote(str(v))}" for k, v in values.items() if v is not None)
