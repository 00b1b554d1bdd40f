"""A throwaway certificate authority and a server certificate it signs, made in the test.

What docs/club-server.md has a club organiser make with ``openssl``: a CA, and a
certificate for the server's host name (here 127.0.0.1 and localhost) signed by it.
"""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


@dataclass(frozen=True)
class Authority:
    certificate: x509.Certificate
    key: ec.EllipticCurvePrivateKey

    def write(self, path: Path) -> Path:
        """The CA file a GM is given (the certificate only, never the key)."""
        path.write_bytes(self.certificate.public_bytes(serialization.Encoding.PEM))
        return path


def _validity(builder: x509.CertificateBuilder) -> x509.CertificateBuilder:
    now = datetime.datetime.now(datetime.UTC)
    return builder.not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(
        now + datetime.timedelta(days=2))


def make_authority(name: str) -> Authority:
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    certificate = (_validity(x509.CertificateBuilder())
                   .subject_name(subject).issuer_name(subject)
                   .public_key(key.public_key()).serial_number(x509.random_serial_number())
                   .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
                   .add_extension(x509.KeyUsage(
                       digital_signature=True, key_cert_sign=True, crl_sign=True,
                       content_commitment=False, key_encipherment=False,
                       data_encipherment=False, key_agreement=False, encipher_only=False,
                       decipher_only=False), critical=True)
                   .sign(key, hashes.SHA256()))
    return Authority(certificate, key)


def write_server_certificate(authority: Authority, folder: Path,
                             hosts: tuple[str, ...] = ("127.0.0.1", "localhost"),
                             ) -> tuple[Path, Path]:
    """``server.crt`` and ``server.key`` in ``folder``, for ``hosts``, signed by ``authority``."""
    key = ec.generate_private_key(ec.SECP256R1())
    names: list[x509.GeneralName] = []
    for host in hosts:
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))
    certificate = (_validity(x509.CertificateBuilder())
                   .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, hosts[0])]))
                   .issuer_name(authority.certificate.subject)
                   .public_key(key.public_key()).serial_number(x509.random_serial_number())
                   .add_extension(x509.SubjectAlternativeName(names), critical=False)
                   .add_extension(x509.BasicConstraints(ca=False, path_length=None),
                                  critical=True)
                   .sign(authority.key, hashes.SHA256()))
    crt, pem = folder / "server.crt", folder / "server.key"
    crt.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    pem.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                      serialization.PrivateFormat.TraditionalOpenSSL,
                                      serialization.NoEncryption()))
    pem.chmod(0o600)
    return crt, pem
