"""Hostile and odd webhook addresses, and what each should come to: loopback in every
spelling, private and shared ranges, cloud metadata, multicast and broadcast, user names
and fragments that hide the real host, backslashes, whitespace and control characters,
percent-encoded and international hosts, addresses longer than the field, other schemes,
odd ports, and a few hundred seeded random ones (`CASES`).

Names resolve through `resolve`, never the real world: from `NAMES`, or a numeric host
read as the C library reads it (127.1 and 0x7f.1 included). `safe` says whether an
address may be a webhook's, from the URL alone and IANA's special-purpose ranges written
out here, not from the code under test.
"""

from __future__ import annotations

import ipaddress
import random
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

GOOD = "hooks.example.org"
PUBLIC_V4 = "93.184.215.14"
PUBLIC_V6 = "2606:2800:21f:cb07:6820:80da:af6b:8b2c"
"""The public addresses the names of `NAMES` that are fine resolve to."""
NAMES = {
    GOOD: [PUBLIC_V4],
    "hooks6.example.org": [PUBLIC_V6],
    "both.example.org": [PUBLIC_V4, PUBLIC_V6],
    "xn--mnchen-3ya.example.org": [PUBLIC_V4],  # münchen.example.org
    "localhost": ["127.0.0.1", "::1"],
    "127.0.0.1.nip.io": ["127.0.0.1"],
    "7f000001.nip.io": ["127.0.0.1"],
    "internal.example.org": ["10.0.0.5"],
    "metadata.example.org": ["169.254.169.254"],
    "shared.example.org": ["100.64.0.9"],
    "mixed.example.org": [PUBLIC_V4, "192.168.1.1"],
    "v6loop.example.org": ["::1"],
    "mapped.example.org": ["::ffff:127.0.0.1"],
    "ula.example.org": ["fd00::53"],
    "zero.example.org": ["0.0.0.0"],
}
ALLOWED_PORTS = (443, 8443)
"""443 and the one `WEBHOOK_ALLOWED_PORTS` adds in these tests."""


def resolve(host: str) -> list[str]:
    """What the fake resolver answers for ``host`` (raises as getaddrinfo would)."""
    host = host.encode("idna").decode("ascii")  # as the socket module does (UnicodeError)
    if host.lower().rstrip(".") in NAMES:
        return NAMES[host.lower().rstrip(".")]
    for family in (socket.AF_INET, socket.AF_INET6):
        try:
            if family == socket.AF_INET and host.split() != [host]:
                continue  # the C library's exact parse: no trailing words
            packed = (
                socket.inet_aton(host)
                if family == socket.AF_INET
                else socket.inet_pton(family, host)
            )
            return [socket.inet_ntop(family, packed)]
        except (OSError, ValueError):
            pass
    raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")


NOT_PUBLIC = [
    ipaddress.ip_network(net)
    for net in (
        # IANA's special-purpose registries, IPv4 and IPv6, written out here.
        "0.0.0.0/8",
        "10.0.0.0/8",
        "100.64.0.0/10",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "172.16.0.0/12",
        "192.0.0.0/24",
        "192.0.2.0/24",
        "192.88.99.0/24",
        "192.168.0.0/16",
        "198.18.0.0/15",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "224.0.0.0/4",
        "240.0.0.0/4",
        "::/8",
        "64:ff9b::/96",
        "64:ff9b:1::/48",
        "100::/64",
        "2001::/23",
        "2001:db8::/32",
        "fc00::/7",
        "fe80::/10",
        "fec0::/10",
        "ff00::/8",
    )
]
SIX_TO_FOUR = ipaddress.ip_network("2002::/16")


def public(ip: str) -> bool:
    """Whether ``ip`` is on the public internet (a 6to4 address: the IPv4 one it carries)."""
    address = ipaddress.ip_address(ip.split("%", 1)[0])
    if address in SIX_TO_FOUR:
        address = ipaddress.ip_address(address.packed[2:6])
    return not any(address in net for net in NOT_PUBLIC if net.version == address.version)


def safe(url: str) -> bool:
    """Whether ``url`` may be a webhook's: https, no user name, an allowed port, and a
    host that resolves (fake resolver) to public addresses only."""
    try:
        parts = urlsplit(url)
        port = parts.port or 443
        if parts.scheme.lower() != "https" or port not in ALLOWED_PORTS:
            return False
        if parts.username is not None or not parts.hostname:
            return False
        return all(public(ip) for ip in resolve(parts.hostname))
    except (ValueError, UnicodeError, OSError):
        return False


# --- The addresses ---------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    url: str
    form: bool | None
    """Accepted through the admin's form: True or False when the answer is known; None:
    either is right, as long as an accepted one is `safe`."""
    model: bool | None
    """The same, for the model's own validation (which reads no address without a scheme
    as https, as the form does, and leaves the NUL character to the form)."""


LOOPBACK = [
    "127.0.0.1",
    "127.0.0.2",
    "127.255.255.254",
    "127.1",
    "127.0.1",
    "0x7f.1",
    "0x7f.0.0.1",
    "0x7f000001",
    "2130706433",
    "017700000001",
    "0177.0.0.1",
    "0177.1",
    "127.000.000.001",
    "[::1]",
    "[0:0:0:0:0:0:0:1]",
    "[::ffff:127.0.0.1]",
    "[::ffff:7f00:1]",
    "[0:0:0:0:0:ffff:7f00:1]",
    "[::127.0.0.1]",
    "[::ffff:0:127.0.0.1]",
    "[64:ff9b::127.0.0.1]",
    "[2002:7f00:1::1]",
    "localhost",
    "localhost.",
    "LOCALHOST",
    "LocalHost.",
    "127.0.0.1.nip.io",
    "7f000001.nip.io",
    "v6loop.example.org",
    "mapped.example.org",
    "127。0。0。1",  # ideographic full stops: the socket module reads them as dots
    "①②⑦.0.0.1",
]
PRIVATE = [
    "10.0.0.1",
    "10.255.255.255",
    "012.0.0.1",
    "0xa.0.0.1",
    "167772161",
    "172.16.0.1",
    "172.31.255.254",
    "192.168.0.1",
    "192.168.255.255",
    "100.64.0.1",
    "100.127.255.254",
    "169.254.169.254",
    "169.254.0.1",
    "0xa9.0xfe.0xa9.0xfe",
    "2852039166",
    "[fd00:ec2::254]",
    "[fc00::1]",
    "[fd12:3456:789a::1]",
    "[fe80::1]",
    "[fe80::1%25eth0]",
    "[::ffff:10.0.0.1]",
    "[::ffff:169.254.169.254]",
    "[::ffff:a9fe:a9fe]",
    "0.0.0.0",
    "0",
    "0.0.0.1",
    "[::]",
    "[0::]",
    "224.0.0.1",
    "239.255.255.250",
    "[ff02::1]",
    "[ff05::1:3]",
    "255.255.255.255",
    "240.0.0.1",
    "192.0.2.1",
    "198.18.0.1",
    "192.0.0.170",
    "[2001:db8::1]",
    "[2001:0:4136:e378:8000:63bf:f5ff:fffe]",  # Teredo, carrying 10.0.0.1
    "[100::1]",
    "internal.example.org",
    "metadata.example.org",
    "shared.example.org",
    "mixed.example.org",
    "ula.example.org",
    "zero.example.org",
]
UNKNOWN = ["nowhere.invalid", "hooks.example.org.evil", "hooks.exаmple.org", "-.example.org"]
FINE_HOSTS = [
    GOOD,
    "HOOKS.Example.ORG",
    "hooks.example.org.",
    "hooks6.example.org",
    "both.example.org",
    "93.184.215.14",
    "[2606:2800:21f:cb07:6820:80da:af6b:8b2c]",
    "münchen.example.org",
]
PATHS = ["/", "/api/webhooks/1234/s3cr3t-t0ken", "/hook?channel=crusade&x=1", ""]


def curated() -> list[Case]:
    cases = []
    for host in LOOPBACK + PRIVATE + UNKNOWN:
        for port in ("", ":443", ":8443"):
            cases.append(Case(f"https://{host}{port}/hook", False, False))
    for host in FINE_HOSTS:
        for path in PATHS:
            cases.append(Case(f"https://{host}{path}", True, True))
        cases.append(Case(f"https://{host}:8443/hook", True, True))
        cases.append(Case(f"HTTPS://{host}:443/hook", True, True))
    cases += [Case(url, False, False) for url in REFUSED]
    cases += [Case(url, None, None) for url in EITHER]
    cases += [Case(url, True, False) for url in WITHOUT_SCHEME]
    cases += [Case(url, None, False) for url in FORM_STRIPS]
    cases += [Case(f"https://{GOOD}/hook\x00", False, None)]
    return cases


REFUSED = [
    # Other schemes.
    f"http://{GOOD}/hook",
    f"ftp://{GOOD}/hook",
    "file:///etc/passwd",
    f"file://{GOOD}/etc/passwd",
    "javascript:alert(1)",
    "javascript://hooks.example.org/%0aalert(1)",
    "data:text/plain,hello",
    "data:text/html;base64,PHNjcmlwdD4=",
    f"gopher://{GOOD}:70/_hello",
    f"dict://{GOOD}:11211/stat",
    f"ws://{GOOD}/hook",
    f"wss://{GOOD}/hook",
    f"ldap://{GOOD}/",
    f"https+unix://{GOOD}/",
    "https:/hooks.example.org/hook",
    "https:hooks.example.org/hook",
    # Ports.
    f"https://{GOOD}:0/hook",
    f"https://{GOOD}:22/hook",
    f"https://{GOOD}:80/hook",
    f"https://{GOOD}:8080/hook",
    f"https://{GOOD}:4430/hook",
    f"https://{GOOD}:65535/hook",
    f"https://{GOOD}:65536/hook",
    f"https://{GOOD}:99999/hook",
    f"https://{GOOD}:-1/hook",
    f"https://{GOOD}:+443/hook",
    f"https://{GOOD}:4_43/hook",
    f"https://{GOOD}:０443/hook",
    f"https://{GOOD}:https/hook",
    f"https://{GOOD}:443:443/hook",
    f"https://{GOOD}: 443/hook",
    "https://127.0.0.1:8443/hook",
    # No host.
    "https:///hook",
    "https://",
    "https://:443/hook",
    "https://@/hook",
    "https://[]/hook",
    "https://./hook",
    # User names and other ways to hide the host.
    f"https://user@{GOOD}/hook",
    f"https://user:password@{GOOD}/hook",
    f"https://:@{GOOD}/hook",
    f"https://{GOOD}@127.0.0.1/hook",
    f"https://{GOOD}:443@127.0.0.1/hook",
    f"https://{GOOD}@169.254.169.254/latest/meta-data/",
    f"https://127.0.0.1#@{GOOD}/hook",
    f"https://127.0.0.1?@{GOOD}/hook",
    f"https://127.0.0.1/@{GOOD}/hook",
    f"https://127.0.0.1\\@{GOOD}/hook",
    f"https://{GOOD}\\@127.0.0.1/hook",
    f"https://{GOOD}\\.127.0.0.1/hook",
    f"https://127.0.0.1\\{GOOD}/hook",
    f"https://127.0.0.1%23@{GOOD}/hook",
    f"https://{GOOD}%40127.0.0.1/hook",
    f"https://[::1]@{GOOD}/hook",
    f"https://{GOOD}@[::1]/hook",
    f"https://{GOOD}:pw@localhost/hook",
    # Percent-encoded hosts.
    "https://%31%32%37%2e%30%2e%30%2e%31/hook",
    "https://127%2e0%2e0%2e1/hook",
    "https://%6c%6f%63%61%6c%68%6f%73%74/hook",
    f"https://{GOOD.replace('.', '%2e')}/hook",
    "https://[%3a%3a1]/hook",
    # Whitespace and control characters.
    f"https://{GOOD}\n.evil/hook",
    "https://hooks.exa\tmple.org/hook",
    f"https://127.0.0.1\r\n.{GOOD}/hook",
    f"https://{GOOD} /hook",
    f"https://{GOOD}/ho ok",
    f"https://\x00{GOOD}/hook",
    f"https://{GOOD}\x00.evil/hook",
    f"https://{GOOD}\x7f/hook",
    f"https://{GOOD}\u2028/hook",
    f"https://{GOOD}\u3000/hook",
    "https://127.0.0.1\u200b/hook",
    # Brackets around what is not an IPv6 address, and broken IPv6.
    f"https://[{GOOD}]/hook",
    "https://[93.184.215.14]/hook",
    "https://[::1/hook",
    "https://::1]/hook",
    "https://[::1]]/hook",
    "https://[:::1]/hook",
    "https://[::ffff:999.0.0.1]/hook",
    # Longer than the field.
    f"https://{GOOD}/" + "a" * 480,
    f"https://{GOOD}/?" + "x=1&" * 200,
    f"https://{'a' * 64}.example.org/hook",
    "https://" + "a." * 130 + "example.org/hook",
    f"https://{GOOD}/" + "a" * 5000,
]
EITHER = [
    # Odd but harmless: the host is the public one, whatever the rest says.
    f"https://{GOOD}#@127.0.0.1/hook",
    f"https://{GOOD}/#@127.0.0.1",
    f"https://{GOOD}/?next=https://127.0.0.1/",
    f"https://{GOOD}/hook%00",
    f"https://{GOOD}/hook/..%2f..%2f",
    f"https://{GOOD}/\\127.0.0.1",
    f"https://{GOOD}:/hook",
    f"https://{GOOD}:443/hook#frag",
    f"https://{GOOD}:00443/hook",
    f"  https://{GOOD}/hook  ",
    f"\thttps://{GOOD}/hook\n",
    f"https://{GOOD}/hook\u200b",
    f"https://{GOOD}\u200b/hook",  # the name's look-up drops it (IDNA)
    "https://ｈｏｏｋｓ.example.org/hook",
    "https://hooks。example。org/hook",
    "https://[::ffff:93.184.215.14]/hook",
    "https://[::ffff:5db8:d70e]/hook",
    "https://[2002:5db8:d70e::1]/hook",
    "https://1572394766/hook",  # 93.184.215.14 as one number
    "https://0x5d.0xb8.0xd7.0x0e/hook",
    f"https://{GOOD}/" + "a" * (500 - len(f"https://{GOOD}/")),
]
WITHOUT_SCHEME = [f"{GOOD}/hook", f"//{GOOD}/hook", "93.184.215.14/api/webhooks/1/x"]
"""The form reads each as https://... (the model does not)."""
FORM_STRIPS = [f"https://{GOOD}/hook\x0b", f"{GOOD}:8443/hook"]
"""Whitespace the form strips; a host:port without a scheme, which the form reads as a
scheme of that name (refused)."""


def random_cases(seed: int = 20261202, count: int = 300) -> list[Case]:
    """Seeded: a third random text, the rest a fine address with a few characters
    inserted, replaced or removed, from an alphabet chosen to break parsers."""
    rng = random.Random(seed)
    tricky = "@#?/\\:%.[]-_~ \t\n\r\x00\x7f\u200b\u3002\uff0e\u2024" + "0123456789abcdefx"
    plenty = tricky + "".join(chr(c) for c in range(0x20, 0x7F)) + "éßü中文ｈ①"
    seeds = [
        f"https://{GOOD}/hook",
        f"https://{GOOD}:8443/api/webhooks/1/x",
        "https://93.184.215.14/hook",
        "https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook",
        "https://127.0.0.1/hook",
        "https://[::ffff:127.0.0.1]/hook",
        f"https://user@{GOOD}/hook",
    ]
    cases = []
    for i in range(count):
        if i % 3 == 0:
            text = "".join(rng.choice(plenty) for _ in range(rng.randint(0, 60)))
            url = rng.choice(["", "https://", "https://", "http://", "//"]) + text
        else:
            url = list(rng.choice(seeds))
            for _ in range(rng.randint(1, 4)):
                where = rng.randrange(len(url) + 1)
                what = rng.random()
                if what < 0.4:
                    url.insert(where, rng.choice(tricky))
                elif what < 0.75 and where < len(url):
                    url[where] = rng.choice(tricky)
                elif where < len(url):
                    del url[where]
            url = "".join(url)
        cases.append(Case(url, None, None))
    return cases


CASES = curated() + random_cases()
