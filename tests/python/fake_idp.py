"""A minimal identity provider on loopback for the OAuth tests: OpenID discovery and a JWKS
that the tests can rotate, and JWT access tokens signed with RS256, PS256, ES256 or EdDSA
(keys made by `cryptography`), plus forged ones (alg none, HMAC keyed with the public key), and
opaque tokens answered by its RFC 7662 introspection endpoint (for one client, HTTP Basic).
Every request it answers is counted by path, so tests can bound the key fetches, and its
headers are kept, so tests can show no upstream key reached it.
"""
import base64
import json
import os
import secrets
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives import hashes, hmac, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _int(n: int) -> str:
    return b64(n.to_bytes((n.bit_length() + 7) // 8, "big"))


class Key:
    """One signing key and its public JWK."""

    def __init__(self, alg: str, kid: str):
        self.alg, self.kid = alg, kid
        if alg in ("RS256", "PS256"):
            self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            pub = self.private.public_key().public_numbers()
            self.jwk = {"kty": "RSA", "n": _int(pub.n), "e": _int(pub.e)}
        elif alg == "ES256":
            self.private = ec.generate_private_key(ec.SECP256R1())
            pub = self.private.public_key().public_numbers()
            self.jwk = {"kty": "EC", "crv": "P-256", "x": b64(pub.x.to_bytes(32, "big")),
                        "y": b64(pub.y.to_bytes(32, "big"))}
        elif alg == "EdDSA":
            self.private = ed25519.Ed25519PrivateKey.generate()
            raw = self.private.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
            self.jwk = {"kty": "OKP", "crv": "Ed25519", "x": b64(raw)}
        else:
            raise ValueError(alg)
        self.jwk.update({"kid": kid, "use": "sig"})

    def public_pem(self) -> bytes:
        return self.private.public_key().public_bytes(serialization.Encoding.PEM,
                                                      serialization.PublicFormat.SubjectPublicKeyInfo)

    def sign(self, data: bytes) -> bytes:
        if self.alg == "RS256":
            return self.private.sign(data, padding.PKCS1v15(), hashes.SHA256())
        if self.alg == "PS256":
            return self.private.sign(data, padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=32),
                                     hashes.SHA256())
        if self.alg == "ES256":
            r, s = decode_dss_signature(self.private.sign(data, ec.ECDSA(hashes.SHA256())))
            return r.to_bytes(32, "big") + s.to_bytes(32, "big")
        return self.private.sign(data)


def jws(header: dict, claims: dict, sign) -> str:
    signing_input = f"{b64(json.dumps(header).encode())}.{b64(json.dumps(claims).encode())}"
    return f"{signing_input}.{b64(sign(signing_input.encode()))}"


class FakeIdp:
    """Serves `<issuer>/.well-known/openid-configuration` and `<issuer>/jwks`."""

    def __init__(self, audience: str):
        self.audience = audience
        self.keys = [Key(alg, f"{alg.lower()}-1") for alg in ("RS256", "PS256", "ES256", "EdDSA")]
        self.hits = {}
        self.headers = []  # every request's headers, to show no upstream key was sent here
        self.lock = threading.Lock()
        idp = self

        self.opaque = {}  # opaque token -> its introspection answer
        self.client = ("media-mcp", "introspection-secret-" + b64(os.urandom(12)))

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                with idp.lock:
                    idp.hits[self.path] = idp.hits.get(self.path, 0) + 1
                    idp.headers.append(dict(self.headers.items()))
                if self.path == "/oidc/.well-known/openid-configuration":
                    body = {"issuer": idp.issuer, "jwks_uri": f"{idp.issuer}/jwks",
                            "authorization_endpoint": f"{idp.issuer}/auth", "token_endpoint": f"{idp.issuer}/token",
                            "introspection_endpoint": f"{idp.issuer}/introspect"}
                elif self.path == "/oidc/jwks":
                    body = {"keys": [k.jwk for k in idp.keys]}
                else:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.answer(200, body)

            def do_POST(self):
                """RFC 7662 introspection, for the client `idp.client` (HTTP Basic) only."""
                with idp.lock:
                    idp.hits["POST " + self.path] = idp.hits.get("POST " + self.path, 0) + 1
                    idp.headers.append(dict(self.headers.items()))
                form = urllib.parse.parse_qs(self.rfile.read(int(self.headers.get("Content-Length", 0))).decode())
                basic = "Basic " + base64.b64encode(":".join(idp.client).encode()).decode()
                if self.path != "/oidc/introspect":
                    return self.answer(404, {"error": "not_found"})
                if self.headers.get("Authorization") != basic:
                    return self.answer(401, {"error": "invalid_client"})
                token = form.get("token", [""])[0]
                if not token:
                    return self.answer(400, {"error": "invalid_request", "error_description": "no token"})
                self.answer(200, idp.opaque.get(token, {"active": False}))

            def answer(self, status, body):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.issuer = f"http://127.0.0.1:{self.server.server_port}/oidc"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()

    def key(self, alg: str) -> Key:
        return next(k for k in self.keys if k.alg == alg)

    def claims(self, **changes) -> dict:
        now = int(time.time())
        claims = {"iss": self.issuer, "aud": self.audience, "sub": "user-1", "client_id": "media-app",
                  "preferred_username": "alice", "scope": "openid media:read media:write",
                  "iat": now, "exp": now + 300, "jti": b64(now.to_bytes(8, "big"))}
        claims.update(changes)
        return {k: v for k, v in claims.items() if v is not None}

    def token(self, alg="ES256", key=None, kid=None, **changes) -> str:
        key = key or self.key(alg)
        header = {"alg": alg, "typ": "at+jwt", "kid": kid or key.kid}
        return jws(header, self.claims(**changes), key.sign)

    def opaque_token(self, active=True, **changes) -> str:
        """A random opaque token the introspection endpoint answers for with these claims."""
        token = "opaque-" + secrets.token_urlsafe(24)
        claims = self.claims(**changes)
        claims.pop("jti", None)
        self.opaque[token] = {"active": True, **claims} if active else {"active": False}
        return token

    def introspections(self) -> int:
        with self.lock:
            return self.hits.get("POST /oidc/introspect", 0)

    def forged_none(self) -> str:
        return jws({"alg": "none", "typ": "at+jwt"}, self.claims(), lambda _data: b"")

    def forged_hmac(self) -> str:
        """HS256 keyed with the RSA key's public PEM: accepted by a verifier that takes the
        algorithm from the token and the key bytes from the JWKS."""
        key = self.key("RS256")

        def sign(data):
            mac = hmac.HMAC(key.public_pem(), hashes.SHA256())
            mac.update(data)
            return mac.finalize()

        return jws({"alg": "HS256", "typ": "at+jwt", "kid": key.kid}, self.claims(), sign)

    def jwks_fetches(self) -> int:
        with self.lock:
            return self.hits.get("/oidc/jwks", 0)
