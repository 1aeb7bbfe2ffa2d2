"""Secrets as the home lab's and the research group's tools take them: a password in a
device's console command (Tasmota's ``Backlog``, OpenWrt's ``uci set``), on a command line
that has no flag for it (``net use``, ``rclone obscure``, ``mc alias set``, ``wandb login``,
``kinit <<<``), in an SNMP community, in a notification URL (Discord's ``discord://token@id``),
in a line of a ``.pgpass`` or a ``davfs2`` secrets file, or in a tool's own output
(``pveum``'s token table, netsh's "key content" in other languages); and as the maker's and the
streamer's tools take them: a stream key in an RTMP URL, a board's Wi-Fi or OTA password in
its sketch, a BLE passkey, a LoRaWAN key as bytes, a game server's RCON or admin password; and
a web builder's: a CLI's key on its command line (``vt -k``, ``snyk auth``), a hosting
platform's deploy hook, Rails' master key, a script's cookie jar."""

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
    rule("api-key", r"(\bprefect\s+cloud\s+login\b[^\n]{0,300}?\s(?:-k|--key)[ \t=]+)(\S+)", keep=1,
          hints=('prefect cloud login',), lower=True, check=random_value, back=0),
    rule("api-key", r"(\b(?:wandb\s+login(?:\s+--\S+)*|ngrok\s+(?:config\s+add-)?authtoken)\s+)"
          r"([a-z0-9_.-]{20,})", keep=1, hints=('wandb login', 'ngrok '), lower=True,
          check=random_value, back=0),
    # kinit user@REALM <<< 'pw' (a here-string answers its prompt)
    rule("cli-password", r"(\bkinit\b[^\n]{0,300}?<<<\s*)('[^'\n]+'|\"[^\"\n]+\"|\S+)", keep=1,
          hints=('<<<',), lower=True, check=is_value, back=120),
    # curl -u TOKEN: (the token is the user, the password empty or "X": Lambda's, Mailgun's,
    # Freshdesk's keys)
    rule("basic-auth", r"((?:\s-u\s*|--user[\s=]+)[\"']?)([a-z0-9_.-]{20,})(?=:(?:x\b)?[\s\"'])",
          keep=1, hints=(' -u', '--user'), lower=True, check=random_value, back=0),
    # SNMP: snmpwalk -c COMMUNITY, snmpget -A 'auth pass' / -X 'priv pass'
    rule("password", r"(\bsnmp\w*\b[^\n]{0,300}?\s-[cAX][ \t]*)('[^'\n]+'|\"[^\"\n]+\"|[^\s-]\S*)",
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
    # a stream key: the last part of an RTMP ingest URL (Twitch's app/, YouTube's live2/,
    # Facebook's rtmp/, Kick's and Restream's), and the keys' own shapes
    rule("stream-key", r"(\brtmps?://[^\s/\"']+(?::\d+)?/(?:app|live2|live|rtmp|stream)/)"
          r"([^\s/\"'?]{12,})", keep=1, hints=('rtmp://', 'rtmps://'), lower=True,
          check=random_value, back=0),
    rule("stream-key", r"(?<![\w-])(?:live_\d{6,12}_[A-Za-z0-9]{20,40}|"
          r"FB-\d{10,20}-\d-[A-Za-z0-9_-]{16,}|"
          r"re_\d{5,10}_[0-9a-f]{16,}|sk_[a-z]{2}-[a-z]+-\d_[A-Za-z0-9]{8,})(?![\w-])",
          hints=('live_', 'fb-', 're_', 'sk_'), check=looks_random),
    # a board's passwords in its sketch: Wi-Fi.begin(ssid, pw), OTA, a web updater's login
    rule("password", r"(\b(?:WiFi|WiFiMulti|wifiMulti)\.(?:begin|addAP)\(\s*\"[^\"\n]*\"\s*,\s*\")"
          r"([^\"\n]+)(?=\")", keep=1, hints=('wifi.begin', 'wifimulti.addap'), check=is_value,
          back=0),
    rule("password", r"(\.setPassword\(\s*\")([^\"\n]+)(?=\")", keep=1,
          hints=('.setpassword(',), check=is_value, back=0),
    rule("password", r"(\.setAuth\(\s*\"[^\"\n]*\"\s*,\s*\")([^\"\n]+)(?=\")", keep=1,
          hints=('.setauth(',), check=is_value, back=0),
    rule("password", r"(\bMCRcon\(\s*[\"'][^\"'\n]*[\"']\s*,\s*[\"'])([^\"'\n]+)(?=[\"'])", keep=1,
          hints=('mcrcon(',), check=is_value, back=0),
    # espota's -a / --auth, PlatformIO's upload_flags --auth=
    rule("cli-password", r"(\bespota(?:\.py)?\b[^\n]{0,300}?\s(?:-a|--auth)[ =]?)"
          r"('[^'\n]+'|\"[^\"\n]+\"|\S+)",
          keep=1, hints=('espota',), lower=True, check=is_value, back=0),
    rule("cli-password", r"(\bupload_flags\b[\s\S]{0,300}?--auth[= ])(\S+)", keep=1,
          hints=('upload_flags',), lower=True, check=is_value, back=0),
    # a BLE passkey set in code or typed at bluetoothctl's prompt
    rule("pin", r"((?:\bsetSecurityPasskey\(|passkey_set\(|\bpasskey\s*=\s*|"
          r"Enter passkey \(number in 0-999999\):\s*))(\d{6})(?!\d)", keep=1,
          hints=('passkey',), check=lambda v: v not in ("000000", "123456"), back=20),
    # LoRaWAN's keys as sixteen bytes (LMIC's APPKEY[16] = { 0xAF, … })
    rule("encryption-key", r"(\b(?:appkey|nwkskey|appskey|app_key|nwk_s_key|app_s_key)\w*\s*"
          r"(?:\[\d*\])?\s*=\s*\{\s*)((?:0x[0-9a-f]{2},\s*){15}0x[0-9a-f]{2})", keep=1,
          hints=('appkey', 'nwkskey', 'appskey', 'app_key', 'nwk_s_key', 'app_s_key'),
          lower=True, back=0),
    # obs-websocket's URL: obsws://host:port/password
    rule("password", r"(\bobsws://[^/\s\"']+/)([^\s\"'\\]+)", keep=1, hints=('obsws://',),
          lower=True, check=is_value, back=0),
    # steamcmd's script: "login USER PASSWORD" on a line of its own; ARK's "enablecheats PW";
    # rcon -p, CS2's game server login token (gslt)
    rule("password", r"(?m)(^[ \t]*\+?login[ \t]+\S+[ \t]+)(\S+)(?=[ \t]*$)", keep=1,
          hints=('app_update', 'force_install_dir', 'steamcmd'), check=is_value),
    rule("password", r"(\benablecheats[ \t]+)(\S+)", keep=1, hints=('enablecheats',), lower=True,
          check=is_value, back=0),
    rule("cli-password", r"(\brcon\b[^\n]{0,300}?\s-p[ \t]*)('[^'\n]+'|\"[^\"\n]+\"|[^\s-]\S*)",
          keep=1, hints=('rcon',), lower=True, check=is_value, back=0),
    rule("api-key", r"(\b(?:gslt|sv_setsteamaccount|srcds_token)[\"']?\s*[=:\s]\s*[\"']?)"
          r"([0-9a-f]{32})(?![0-9a-f])", keep=1,
          hints=('gslt', 'sv_setsteamaccount', 'srcds_token'),
          lower=True, back=0),
    # particle token create: the token on the lines after its output's first line
    rule("api-key", r"(\bparticle\s+token\s+create\b[\s\S]{0,300}?\n[ \t]*)([0-9a-f]{40})\b",
          keep=1, hints=('particle token create',), lower=True, back=0),
    # an Android string resource named for a key, a token or a password
    rule("api-key", r"(<string\b[^>\n]*\bname=\"[^\"]*(?:deploymentkey|secret|token|password|"
          r"apikey|api_key)[^\"]*\"[^>\n]*>)([^<\n]{12,})(?=</string>)", keep=1,
          hints=('<string',), lower=True, check=random_value),
    # xcrun altool -u … -p PASSWORD (an app-specific password)
    rule("cli-password", r"(\baltool\b[^\n]{0,300}?\s-p[ \t]+)(?!@)('[^'\n]+'|\"[^\"\n]+\"|\S+)",
          keep=1, hints=('altool',), lower=True, check=is_value, back=0),
    # a domain's transfer code (EPP/AuthInfo) after its label, whatever signs it holds
    rule("password", r"(\b(?:auth[ -]?code|auth[ -]?info|epp(?:[ /-]?auth)?[ -]?(?:code|key)|"
          r"transfer[ -]?(?:code|key|kodu)|verhuiscode|code de transfert|"
          r"c[óo]digo de (?:autorizaci[óo]n|transferencia)|codice (?:di trasferimento|authinfo)|"
          r"umzugscode|kk-code)\b(?:[^\n:：(]|\([^)\n:]{0,20}\)){0,60}?(?:[:：]|\bgeldi:)[ \t]*)"
          r"([^\s]{6,40})(?=[ \t]*(?:\r?\n|$|\\n|\\?\"))", keep=1,
          hints=('auth', 'epp', 'transfer', 'verhuiscode', 'code de transfert', 'código de',
                 'codigo de', 'codice', 'umzugscode', 'kk-code'), lower=True,
          check=lambda v: looks_random(v) and is_value(v.strip("`")) and
          sum(c.isalpha() for c in v) >= 3, back=0),  # not "(provisioning.ts:463-468)."
    # GameAnalytics.initialize(activity, GAME_KEY, SECRET_KEY): the third, by position
    rule("api-key", r"(\bGameAnalytics\.initialize\([^)\n]*?,\s*\"[0-9a-f]{32}\"\s*,\s*\")"
          r"([0-9a-f]{40})(?=\")", keep=1, hints=('gameanalytics.initialize',), back=0),
    # appcenter codepush deployment list -k: each row's key
    rule("api-key", r"(?m)(^[│|]\s*[\w-]+\s*[│|]\s*)([A-Za-z0-9_-]{36,40})(?=\s*[│|])", keep=1,
          hints=('codepush',), check=random_value),
    # an ngrok authtoken (27 characters, "_", 21) where ngrok is named
    rule("api-key", r"(?<![a-z0-9_])[0-9a-z]{25,27}_[0-9a-z]{20,22}(?![a-z0-9_])",
          hints=('ngrok',), lower=True, check=random_value),
    # a CLI's key on its command line: VirusTotal's vt -k KEY, snyk auth TOKEN
    rule("api-key", r"(\bvt\b[^\n]{0,120}?\s(?:-k|--apikey)[ \t=]+)([0-9a-f]{64})(?![0-9a-f])",
          keep=1, hints=(' -k', '--apikey'), lower=True, back=120),  # from its flag back
    rule("api-key", r"(\bsnyk\s+auth\s+)([0-9a-f]{8}-[0-9a-f-]{27})(?![\w-])", keep=1,
          hints=('snyk auth',), lower=True, back=0),
    rule("api-key", r"(\bshodan\s+init\s+)([A-Za-z0-9]{32})(?![\w-])", keep=1,
          hints=('shodan init',), back=0),
    # Vault's table of a new secret: "secret_id   7554…", "token   hvs.…" (not the accessor)
    rule("secret", r"(?m)(^(?:secret_id|token|client_token|wrapping_token|root_token|"
          r"unseal_key_\d+|unseal key \d+:)[ \t]{2,})(\S{16,})[ \t]*$", keep=1,
          hints=('secret_id', 'token ', 'unseal key'), check=is_value, back=0),
    # Junos' reversible $9$ secrets (not Cisco's type 9 hash, "$9$salt$hash")
    rule("password", r"(?<![\w$])\$9\$[A-Za-z0-9./-]{8,}(?![A-Za-z0-9./$-])", hints=('$9$',),
          back=0),
    # an object store's CLI given its key pair: obsutil config -i=AK -k=SK, qshell account AK SK
    rule("api-key", r"(\bobsutil\s+config\b[^\n]{0,300}?\s-[ik]=)(\S+)", keep=1, hints=('obsutil',),
          check=random_value, back=200),
    rule("api-key", r"(\bobsutil\s+config\b[^\n]{0,300}?\s-[ik]=\S+[^\n]{0,300}?\s-[ik]=)(\S+)",
          keep=1, hints=('obsutil',), check=random_value, back=200),
    rule("api-key", r"(\bqshell\s+account\s+)(\S+)", keep=1, hints=('qshell',),
          check=random_value, back=0),
    rule("api-key", r"(\bqshell\s+account\s+\S+\s+)(\S+)", keep=1, hints=('qshell',),
          check=random_value, back=0),
    # a chat SDK's channel secret by position: LINE's WebhookHandler('…')
    rule("secret", r"(\bWebhookHandler\(\s*[\"'])([0-9a-f]{32})(?=[\"'])", keep=1,
          hints=('webhookhandler',), back=0),
    # a database's tools: SQL Server's bcp and sqlcmd -P, Oracle's user/password@db
    # (sqlldr userid=, expdp, impdp, rman target) and its wallet's mkstore -createCredential,
    # Redis Sentinel's auth-pass, a schema registry's key:secret
    rule("cli-password", r"(\b(?:bcp|sqlcmd|osql|isql)\b[^\n]{0,300}?\s-P[ \t]*)(?!-)(\S+)", keep=1,
          hints=('bcp ', 'sqlcmd', 'osql', 'isql'), check=is_value, back=0),
    rule("cli-password", r"(\b(?:userid=|(?:sqlldr|expdp|impdp|exp|imp|rman\s+target)\s+)"
          r"[\w$#.-]+/)([^@\s/\"']+)(?=@)", keep=1,
          hints=('userid=', 'sqlldr', 'expdp', 'impdp', 'exp ', 'imp ', 'rman'), lower=True,
          check=is_value, back=0),
    rule("cli-password", r"(\bmkstore\b[^\n]{0,300}?-createcredential\s+\S+\s+\S+\s+)(\S+)", keep=1,
          hints=('mkstore',), lower=True, check=is_value, back=0),
    rule("password", r"(\bsentinel\s+auth-pass\s+\S+\s+)(\S+)", keep=1,
          hints=('sentinel auth-pass',), lower=True, check=is_value, back=0),
    rule("password", r"(\bbasic\.auth\.user\.info\s*[=:]\s*[^:\s]+:)(\S+)", keep=1,
          hints=('basic.auth.user.info',), lower=True, check=is_value, back=0),
    # a storage account's key in Spark's or Hadoop's configuration
    rule("azure-key", r"(\bfs\.azure\.account\.key\.[\w.-]+[ \t]*=[ \t]*)"
          r"([A-Za-z0-9+/]{80,}={0,2})", keep=1, hints=('fs.azure.account.key',), back=0),
    # Asana's personal access token ("2/1234…/5678…:hex", an older "1/1234…:hex")
    rule("api-key", r"(?<![\w/])[12]/\d{10,19}(?:/\d{10,19})?:[0-9a-f]{32}(?![0-9a-f])"),
    # an app-specific password: Apple's four groups of four letters, Google's with spaces
    rule("password", r"(\bapp[- ]?(?:specific[- ])?password\b[^\n:]{0,40}?(?:[:=]|\s)[ \t]*"
          r"[\"'`]?)([a-z]{4}([- ])[a-z]{4}\3[a-z]{4}\3[a-z]{4})(?![a-z])", keep=1,
          hints=('app password', 'app-password', 'app-specific', 'app specific', 'apppassword'),
          lower=True, back=0),
    # a password manager's share link: its fragment is the key (1Password, Bitwarden Send)
    rule("share-link", r"(\bshare\.1password\.com/s#)([\w-]{20,})", keep=1,
          hints=('share.1password.com',), back=0),
    rule("share-link", r"(\bbitwarden\.com/#/send/|\bsend\.bitwarden\.com/#)"
          r"([\w-]{10,}/[\w-]{10,})", keep=1, hints=('bitwarden.com/#',), back=20),
    rule("share-link", r"(\bkeepersecurity\.(?:com|eu)/vault/share#)([\w-]{20,})", keep=1,
          hints=('keepersecurity.',), back=0),
    # Login with Amazon's tokens (SP-API's refresh and access tokens)
    rule("api-key", r"(?<![\w|])Atz[ar]\|[A-Za-z0-9_-]{60,}", hints=('atzr|', 'atza|'), back=0),
    # a workflow's webhook host (Pipedream's endpoint id is its only secret)
    rule("webhook", r"(https?://)([a-z0-9]{16,})(?=\.m\.pipedream\.net)", keep=1,
          hints=('.m.pipedream.net',)),
    # a daemon's RPC login on its command line: --rpc-login user:password
    rule("flag", r"(--[a-z-]*(?:login|credentials?|auth)[ \t=]+[^\s:]+:)(\S+)", keep=1,
          hints=('login', 'credential', 'auth'), lower=True, check=is_value, back=60),
    # a node provider's key in its endpoint (QuickNode, Ankr), a project secret given as
    # curl's --user ":SECRET", a broker's flex query token
    rule("api-key", r"(\.quiknode\.pro/)([0-9a-f]{32,})", keep=1, hints=('quiknode.pro',),
          back=80),
    rule("api-key", r"(\brpc\.ankr\.com/[\w-]+/)([0-9a-f]{32,})", keep=1, hints=('rpc.ankr.com',),
          back=0),
    rule("basic-auth", r"((?:\s-u\s*|--user[ \t=]+)[\"']?:)([^\s\"']{16,})", keep=1,
          hints=(' -u', '--user'), check=random_value, back=0),
    rule("api-key", r"(flexwebservice/\w+\?t=)(\d{18,26})", keep=1, hints=('flexwebservice',),
          lower=True, back=0),
    # an exchange's key pair named "private:" (Kraken's); a broker's key id (Alpaca's)
    rule("secret", r"((?<![\w-])(?i:private)[ \t]*:[ \t]*)([A-Za-z0-9+/_-]{32,}={0,2})"
          r"(?=[ \t]*(?:\r?\n|$))", keep=1, hints=('private',), check=looks_random, back=0),
    rule("api-key", r"(?<![A-Za-z0-9])[AP]K[A-Z0-9]{18}(?![A-Za-z0-9])", hints=('alpaca',),
          check=lambda v: sum(c.isdigit() for c in v) >= 2),
    # a hosting platform's deploy hook: its URL's last part is the secret that triggers it
    rule("deploy-hook", r"(\bapi\.vercel\.com/v1/integrations/deploy/prj_\w+/)(\w{8,})", keep=1,
          hints=('api.vercel.com',), back=40),
    rule("deploy-hook", r"(\bapi\.netlify\.com/build_hooks/)([0-9a-f]{24})\b", keep=1,
          hints=('api.netlify.com',), back=0),
    rule("deploy-hook", r"(\bapi\.render\.com/deploy/srv-\w+\?key=)(\w{8,})", keep=1,
          hints=('api.render.com',), back=0),
    # Rails' master key (config/master.key) given beside its file's name
    rule("secret", r"(\bmaster\.key\b[^\n]{0,80}?)(?<![0-9a-f])([0-9a-f]{32})(?![0-9a-f])", keep=1,
          hints=('master.key',), lower=True, back=0),
    # a script's cookie jar: cookies = {"session": "…"}
    rule("cookie", r"(\bcookies\s*=\s*\{[^}\n]*?[\"'](?:session|sessionid|session_id|connect\.sid|"
          r"phpsessid|jsessionid|token|auth)[\"']\s*:\s*[\"'])([^\"'\n]{16,})", keep=1,
          hints=('cookies',), lower=True, check=is_value, back=0),
)
