#!/usr/bin/env python3
"""Makes the TLS certificates of the trust tests in a directory, with Python's cryptography
package: a CA, leaves it signed for 127.0.0.1/localhost, for another host name, an expired
one, a self-signed one, a client certificate, and a public key to pin.

Every file is PEM; keys are unencrypted. Usage: make_certificates.py DIRECTORY
"""
import datetime
import ipaddress
import os
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


def key():
    return ec.generate_private_key(ec.SECP256R1())


def write(directory, name, data):
    path = os.path.join(directory, name)
    with open(path, "wb") as handle:
        handle.write(data)
    os.chmod(path, 0o644)


def pem_key(private):
    return private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption())


def pem_cert(certificate):
    return certificate.public_bytes(serialization.Encoding.PEM)


def certificate(subject_key, common_name, issuer, issuer_key, names, *, ca=False, client=False,
                not_before=None, not_after=None):
    now = datetime.datetime.now(datetime.timezone.utc)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    builder = (x509.CertificateBuilder()
               .subject_name(name)
               .issuer_name(issuer or name)
               .public_key(subject_key.public_key())
               .serial_number(x509.random_serial_number())
               .not_valid_before(not_before or now - datetime.timedelta(days=1))
               .not_valid_after(not_after or now + datetime.timedelta(days=30))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if names:
        builder = builder.add_extension(x509.SubjectAlternativeName(names), critical=False)
    if client:
        builder = builder.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
    elif not ca:
        builder = builder.add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
    return builder.sign(issuer_key or subject_key, hashes.SHA256())


def main():
    directory = sys.argv[1]
    local = [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]
    ca_key = key()
    ca = certificate(ca_key, "Ferry Test CA", None, None, [], ca=True)
    ca_name = ca.subject
    write(directory, "ca.pem", pem_cert(ca))
    now = datetime.datetime.now(datetime.timezone.utc)
    leaves = {
        "leaf": dict(names=local),
        "wronghost": dict(names=[x509.DNSName("example.invalid")]),
        "expired": dict(names=local, not_before=now - datetime.timedelta(days=30),
                        not_after=now - datetime.timedelta(days=1)),
    }
    for name, options in leaves.items():
        private = key()
        signed = certificate(private, "ferry-test-" + name, ca_name, ca_key, options.pop("names"), **options)
        write(directory, name + ".pem", pem_cert(signed))
        write(directory, name + ".key", pem_key(private))
        if name == "leaf":
            write(directory, "leaf.pub", private.public_key().public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    alone = key()
    write(directory, "selfsigned.pem", pem_cert(certificate(alone, "ferry-test-selfsigned", None, None, local)))
    write(directory, "selfsigned.key", pem_key(alone))
    client_key = key()
    write(directory, "client.pem", pem_cert(certificate(client_key, "ferry-test-client", ca_name, ca_key, [], client=True)))
    write(directory, "client.key", pem_key(client_key))


if __name__ == "__main__":
    main()
