"""Secrets as the home lab's and the research group's tools take them: a password in a
device's console command (Tasmota's ``Backlog``, OpenWrt's ``uci set``), on a command line
that has no flag for it (``net use``, ``rclone obscure``, ``mc alias set``, ``wandb login``,
``kinit <<<``), in an SNMP community, in a notification URL (Discord's ``discord://token@id``),
in a line of a ``.pgpass`` or a ``davfs2`` secrets file, or in a tool's own output
(``pveum``'s token table, netsh's "key content" in other languages)."""

from __future__ import annotations

import re

from aleph_mem.redaction.rule import Rule, rule
from aleph_mem.redaction.values import is_value, looks_random, random_value

# an SNMP community that is the protocol's default, not a secret
OPEN_COMMUNITIES = frozenset({"public", "private"})


def community(text: str) -> bool:
    """A community string that is not the default one."""
    return is_value(text) and text.strip("'\"`").lower() not in OPEN_COMMUNITIES


TOOLS: tuple[Rule, ...] = (
    # Tasmota's console: "Backlog MqttHost …; MqttPassword pw; …", "WebPassword pw"
    rule("password", r"(\b(?:mqttpassword|webpassword|password[12])[ \t]+)([^;\s]+)", keep=1,
          hints=('mqttpassword', 'webpassword', 'password1 ', 'password2 '), lower=True,
          check=is_value, back=0),
    # OpenWrt: uci set wireless.@wifi-iface[1].key='…', …network.wan.password=…
    rule("password", r"(\buci\s+set\s+[\w@\[\].-]+\.(?:key|password|psk)=)('[^'\n]+'|\S+)",
          keep=1, hints=('uci set',), lower=True, check=is_value, back=0),
    # Windows: net use Z: \\nas\share PASSWORD /user:NAS\papa (the password before its user)
    rule("cli-password", r"(\bnet\s+use\s+(?:[a-z]:\s+)?\\\\\S+\s+)(?![/*])(\S+)(?=\s+/)", keep=1,
          hints=('net use',), lower=True, check=is_value, back=0),
    # rclone obscure 'pw': the plain password it is asked to hide
    rule("cli-password", r"(\brclone\s+obscure\s+)('[^'\n]+'|\"[^\"\n]+\"|[^\s|]+)", keep=1,
          hints=('rclone obscure',), lower=True,
          check=lambda v: is_value(v) and v != "-", back=0),
    # MinIO's client: mc alias set NAME URL ACCESS_KEY SECRET_KEY
    rule("cli-password", r"(\bmc\s+(?:alias\s+set|config\s+host\s+add)\s+\S+\s+\S+\s+\S+\s+)"
          r"('[^'\n]+'|\"[^\"\n]+\"|\S+)", keep=1, hints=('mc alias', 'mc config'), lower=True,
          check=is_value, back=0),
    # wandb login KEY, ngrok authtoken / config add-authtoken TOKEN
    rule("api-key", r"(\b(?:wandb\s+login(?:\s+--\S+)*|ngrok\s+(?:config\s+add-)?authtoken)\s+)"
          r"([a-z0-9_.-]{20,})", keep=1, hints=('wandb login', 'ngrok '), lower=True,
          check=random_value, back=0),
    # kinit user@REALM <<< 'pw' (a here-string answers its prompt)
    rule("cli-password", r"(\bkinit\b[^\n]*?<<<\s*)('[^'\n]+'|\"[^\"\n]+\"|\S+)", keep=1,
          hints=('<<<',), lower=True, check=is_value, back=120),
    # curl -u TOKEN: (the token is the user, the password empty: Lambda's, Mailgun's keys)
    rule("basic-auth", r"((?:\s-u\s*|--user[\s=]+)[\"']?)([a-z0-9_.-]{24,})(?=:[\s\"'])", keep=1,
          hints=(' -u', '--user'), lower=True, check=random_value, back=0),
    # SNMP: snmpwalk -c COMMUNITY, snmpget -A 'auth pass' / -X 'priv pass'
    rule("password", r"(\bsnmp\w*\b[^\n]*?\s-[cAX][ \t]*)('[^'\n]+'|\"[^\"\n]+\"|[^\s-]\S*)",
          keep=1, hints=('snmp',), check=community, back=0),  # -a, -x: protocols
    # community = "…", community: …, a community `…` named in a sentence
    rule("password", r"((?<![\w-])(?:snmp[_-]?)?(?:ro|rw|read|write)?[_-]?community(?:[_-]?string)?"
          r"(?:\s*[:=]\s*|\s+(?=`))[\"'`]?)([^\s\"'`,;]+)", keep=1, hints=('snmp',),
          lower=True, check=community),  # only where SNMP is named ("Community: Obsidian")
    # a notification URL (shoutrrr, Apprise): discord://TOKEN@WEBHOOK_ID, telegram://TOKEN@…
    rule("webhook", r"(\b(?:discord|telegram)://)([a-z0-9_:-]{30,})(?=@)", keep=1,
          hints=('discord://', 'telegram://'), lower=True, check=looks_random, back=0),
    # Caddy's DNS challenge: tls { dns hetzner TOKEN }
    rule("api-key", r"(\bdns[ \t]+(?:hetzner|cloudflare|duckdns|digitalocean|porkbun|desec|"
          r"namecheap|gandi|ovh|route53|vultr|linode|ionos)[ \t]+)([a-z0-9_.-]{20,})", keep=1,
          hints=('dns ',), lower=True, check=random_value, back=0),
    # OpenZWave's options.xml: <Option name="NetworkKey" value="0x96, 0x0C, …" />
    rule("encryption-key", r"(name=\"networkkey\"\s+value=\")([^\"]{16,})(?=\")", keep=1,
          hints=('networkkey',), lower=True, back=8),
    # Z-Wave JS UI's settings as a person copies them: "S2 Unauthenticated: <32 hex>"
    rule("encryption-key", r"(\bs(?:0[ _]legacy|2[ _](?:unauthenticated|authenticated|"
          r"access[ _]?control))[ \t]*:[ \t]*)([0-9a-f]{32})\b", keep=1,
          hints=('s0 legacy', 's2 '), lower=True, back=0),
    # a .pgpass line (host:port:database:user:password) with no file name beside it
    rule("password", r"(?m)(^[ \t]*(?:[a-z0-9-]+(?:\.[a-z0-9-]+)+|localhost|\*):(?:\d{2,5}|\*):"
          r"[^:\s]+:[^:\s]+:)(\S+)$", keep=1, hints=(':5432:', ':5433:', ':5439:', ':6432:', ':*:'),
          lower=True, check=is_value, back=160),
    # davfs2's secrets file: "URL-or-mount user password"
    rule("password", r"(\bdavfs2/secrets\b[\s\S]{0,400}?\n[ \t]*(?:https?://|/)\S+[ \t]+\S+[ \t]+)"
          r"(\S+)(?=[ \t]*(?:\r?\n|$))", keep=1, hints=('davfs2/secrets',), lower=True,
          check=is_value, back=0),
    # pveum user token add …: the token's secret in its "value" row
    rule("api-key", r"(\bpveum\s+(?:user\s+)?token\s+add\b[\s\S]{0,800}?[│|]\s*value\s*[│|]\s*)"
          r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})", keep=1,
          hints=('token add',), lower=True, back=24),
    # netsh wlan show profile key=clear in German, French, Spanish, Italian, Portuguese, Russian
    rule("wifi-key", r"(\b(?:schlüsselinhalt|contenu de la clé|contenido de la clave|"
          r"contenuto chiave|conteúdo da chave|содержимое ключа)\s*:[ \t]*)(\S+)", keep=1,
          hints=('schlüsselinhalt', 'contenu de la clé', 'contenido de la clave',
                 'contenuto chiave', 'conteúdo da chave', 'содержимое ключа'), lower=True,
          check=lambda v: not re.fullmatch(r"(?i)absent|vorhanden|present|présent", v), back=0),
    # hostapd's and wpa_supplicant's passphrase of digits only (a number elsewhere is no value)
    rule("wifi-key", r"(?m)(^[ \t]*(?:wpa_passphrase|psk)[ \t]*=[ \t]*\"?)(\d{8,63})(?=\"?[ \t]*$)",
          keep=1, hints=('wpa_passphrase', 'psk'), lower=True, back=30),
    # an ngrok authtoken (27 characters, "_", 21) where ngrok is named
    rule("api-key", r"(?<![a-z0-9_])[0-9a-z]{25,27}_[0-9a-z]{20,22}(?![a-z0-9_])",
          hints=('ngrok',), lower=True, check=random_value),
)
