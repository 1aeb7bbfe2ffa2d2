"""Who is at the other end of a loopback TCP connection: the owner (uid) of the client's
socket, read from the kernel's socket tables (``/proc/net/tcp``, ``tcp6``), as identd does.
None where the tables cannot be read (not Linux) or the socket is not found."""

from __future__ import annotations

import ipaddress
from pathlib import Path

TABLES = (Path("/proc/net/tcp"), Path("/proc/net/tcp6"))


def uid_of(client: tuple[str, int], server: tuple[str, int]) -> int | None:
    """The uid owning the socket at ``client`` connected to ``server``."""
    want = {(_hex(client[0], six), _hex(server[0], six), six) for six in (False, True)}
    for table in TABLES:
        six = table.name == "tcp6"
        try:
            lines = table.read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            cols = line.split()
            if len(cols) > 7 and (cols[1], cols[2], six) in _with_ports(want, client, server):
                return int(cols[7])
    return None


def _with_ports(want: set[tuple[str | None, str | None, bool]], client: tuple[str, int],
                server: tuple[str, int]) -> set[tuple[str, str, bool]]:
    return {(f"{c}:{client[1]:04X}", f"{s}:{server[1]:04X}", six)
            for c, s, six in want if c and s}


def _hex(host: str, six: bool) -> str | None:
    """An address as the table writes it: each 32-bit word in the host's (little-endian)
    order; an IPv4 address in the IPv6 table is the mapped ``::ffff:a.b.c.d``."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return None
    if six and ip.version == 4:
        ip = ipaddress.IPv6Address(f"::ffff:{ip}")
    if ip.version == (6 if six else 4):
        raw = ip.packed
        return "".join(raw[i:i + 4][::-1].hex().upper() for i in range(0, len(raw), 4))
    mapped = getattr(ip, "ipv4_mapped", None)
    return _hex(str(mapped), False) if mapped is not None and not six else None
