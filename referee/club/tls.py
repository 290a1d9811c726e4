"""TLS for the club: a self-signed certificate made once and kept, its fingerprint, and the pin a member checks.

With no certificate given, ``arena club serve`` makes one the first time (an ECDSA P-256 key and a
certificate valid for ten years, for the names and addresses the server is reached at) in the club's
``tls/`` folder, and keeps it: the same certificate after every restart, so a member's pin holds. The key
file is mode 0600. Its fingerprint, the SHA-256 of the certificate (DER), is printed at every start; a
member's ``arena club login`` shows it and pins it, and every later connection compares the server's
certificate with the pin before anything is sent (``referee.club.client``). ``--cert``/``--key`` take a
real certificate instead (one a public authority signed: members' machines then check it the usual way).
"""

from __future__ import annotations

import datetime
import hashlib
import ipaddress
import ssl
from dataclasses import dataclass
from pathlib import Path

from referee.club.db import ClubError
from referee.runfolder import write_atomically

TLS_FOLDER = "tls"
CERT, KEY = "cert.pem", "key.pem"


@dataclass(frozen=True)
class Certificate:
    cert: Path
    key: Path
    fingerprint: str  # SHA-256 of the certificate, as 32 hex pairs joined by ':'
    made: bool  # made by this call


def fingerprint(der: bytes) -> str:
    """The SHA-256 fingerprint of a certificate (DER), as ``AB:CD:...`` (as openssl and browsers show it)."""
    digest = hashlib.sha256(der).hexdigest().upper()
    return ":".join(digest[k : k + 2] for k in range(0, len(digest), 2))


def same_fingerprint(a: str, b: str) -> bool:
    """Two fingerprints written either way (with or without ':', any case) are the same."""
    return a.replace(":", "").lower() == b.replace(":", "").lower()


def pem_fingerprint(cert: Path) -> str:
    try:
        der = ssl.PEM_cert_to_DER_cert(cert.read_text(encoding="ascii"))
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise ClubError(f"{cert}: not a PEM certificate ({exc})") from None
    return fingerprint(der)


def self_signed(folder: Path, names: list[str]) -> Certificate:
    """The club's own certificate in ``folder/tls/``, made the first time (for ``names``: host names and
    addresses), the same ever after."""
    tls = folder / TLS_FOLDER
    cert, key = tls / CERT, tls / KEY
    if cert.is_file() and key.is_file():
        return Certificate(cert, key, pem_fingerprint(cert), made=False)
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    private = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "arena club")])
    now = datetime.datetime.now(datetime.UTC)
    alternative: list[x509.GeneralName] = []
    for name in dict.fromkeys([*names, "localhost", "127.0.0.1"]):
        try:
            alternative.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            alternative.append(x509.DNSName(name))
    made = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(private.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=3650))
        .add_extension(x509.SubjectAlternativeName(alternative), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(private, hashes.SHA256())
    )
    tls.mkdir(mode=0o700, parents=True, exist_ok=True)
    key_bytes = private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    write_atomically(key, key_bytes, sync=True, private=True)
    write_atomically(cert, made.public_bytes(serialization.Encoding.PEM), sync=True)
    return Certificate(cert, key, fingerprint(made.public_bytes(serialization.Encoding.DER)), made=True)


def given(cert: Path, key: Path) -> Certificate:
    """A certificate the admin gave (``--cert``/``--key``), checked to load with its key."""
    server_context(Certificate(cert, key, "", made=False))
    return Certificate(cert, key, pem_fingerprint(cert), made=False)


def server_context(certificate: Certificate) -> ssl.SSLContext:
    """The server's TLS: version 1.2 at least, the certificate and its key. ClubError when they do not load."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(certificate.cert, certificate.key)
    except (OSError, ssl.SSLError) as exc:
        raise ClubError(
            f"cannot use the certificate {certificate.cert} with the key {certificate.key}: {exc}"
        ) from None
    return context
